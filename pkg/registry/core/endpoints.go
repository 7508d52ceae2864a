package core

import (
	"fmt"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// endpointsShown is how many endpoints kubectl get lists before "more".
const endpointsShown = 3

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
