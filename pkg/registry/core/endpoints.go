package core

import (
	"fmt"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// endpointsShown is how many endpoints kubectl get lists before "more".
const endpointsShown = 3

func defaultEndpoints(obj any) {
	for _, ss := range obj.(*corev1.Endpoints).Subsets {
		ports := ss.Ports
		for j := range ports {
			if ports[j].Protocol == "" {
				ports[j].Protocol = corev1.ProtocolTCP
			}
		}
	}
}

func validateEndpoints(ep *corev1.Endpoints) field.ErrorList {
	var errs field.ErrorList
	for i, ss := range ep.Subsets {
		path := field.NewPath("subsets").Index(i)
		if len(ss.Addresses)+len(ss.NotReadyAddresses) == 0 {
			errs = append(errs, field.Required(path, "must specify `addresses` or `notReadyAddresses`"))
		}
		for name, addrs := range map[string][]corev1.EndpointAddress{"addresses": ss.Addresses, "notReadyAddresses": ss.NotReadyAddresses} {
			for j, a := range addrs {
				errs = append(errs, ValidateIP(a.IP, path.Child(name).Index(j).Child("ip"))...)
			}
		}
		names := sets.New[string]()
		for j, p := range ss.Ports {
			pp := path.Child("ports").Index(j)
			errs = append(errs, ValidatePortName(p.Name, len(ss.Ports), names, pp.Child("name"))...)
			errs = append(errs, ValidatePortNumber(p.Port, pp.Child("port"))...)
			errs = append(errs, ValidateProtocol(p.Protocol, pp.Child("protocol"))...)
		}
	}
	return errs
}

// endpointsCells is kubectl's ENDPOINTS: the first addresses with their
// ports, and how many more there are.
func endpointsCells(o runtime.Object) []any {
	var all []string
	for _, ss := range o.(*corev1.Endpoints).Subsets {
		for _, a := range ss.Addresses {
			if len(ss.Ports) == 0 {
				all = append(all, a.IP)
			}
			for _, p := range ss.Ports {
				all = append(all, a.IP+":"+strconv.Itoa(int(p.Port)))
			}
		}
	}
	return []any{ShortList(all, endpointsShown, "<none>")}
}

// ShortList is the first n of items, and how many more there are, or
// none when there are none, as kubectl get prints lists.
func ShortList(items []string, n int, none string) string {
	if len(items) == 0 {
		return none
	}
	if len(items) <= n {
		return strings.Join(items, ",")
	}
	return fmt.Sprintf("%s + %d more...", strings.Join(items[:n], ","), len(items)-n)
}
