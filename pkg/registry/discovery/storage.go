package discovery

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/storage/names"
	netutils "k8s.io/utils/net"
	"k8s.io/utils/ptr"

	"github.com/canopy-dev/canopy/pkg/registry"
	"github.com/canopy-dev/canopy/pkg/registry/core"
)

// Kubernetes' bounds on the size of an EndpointSlice, and how many of its
// endpoints kubectl get lists before "more".
const (
	maxEndpoints = 1000
	maxAddresses = 100
	maxPorts     = 20000
	shown        = 3
)

var internalVersion = schema.GroupVersion{Group: discoveryv1.GroupName, Version: runtime.APIVersionInternal}

// AddToScheme registers discovery.k8s.io/v1, the same Go types as its
// internal version, and the defaults the decoder fills in.
func AddToScheme(s *runtime.Scheme) error {
	if err := discoveryv1.AddToScheme(s); err != nil {
		return err
	}
	s.AddKnownTypes(internalVersion, &discoveryv1.EndpointSlice{}, &discoveryv1.EndpointSliceList{})
	s.AddTypeDefaultingFunc(&discoveryv1.EndpointSlice{}, defaultEndpointSlice)
	return s.SetVersionPriority(discoveryv1.SchemeGroupVersion)
}

// defaultEndpointSlice names ports "" and makes them TCP unless said.
func defaultEndpointSlice(obj any) {
	ports := obj.(*discoveryv1.EndpointSlice).Ports
	for i := range ports {
		if ports[i].Name == nil {
			ports[i].Name = ptr.To("")
		}
		if ports[i].Protocol == nil {
			ports[i].Protocol = ptr.To(corev1.ProtocolTCP)
		}
	}
}

// NewStorage returns the discovery.k8s.io/v1 resources.
func NewStorage(f *registry.Factory, typer runtime.ObjectTyper) (registry.Group, error) {
	return f.Build(discoveryv1.SchemeGroupVersion, registry.Resource{
		Singular: "endpointslice", Plural: "endpointslices",
		New:     func() runtime.Object { return &discoveryv1.EndpointSlice{} },
		NewList: func() runtime.Object { return &discoveryv1.EndpointSliceList{} },
		Strategy: registry.Kind[*discoveryv1.EndpointSlice]{
			ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, APIVersion: discoveryv1.SchemeGroupVersion.String(),
			Generation: sliceGeneration, Warn: sliceWarnings,
			Check: validateEndpointSlice,
			CheckUpdate: func(s, old *discoveryv1.EndpointSlice) field.ErrorList {
				return apivalidation.ValidateImmutableField(s.AddressType, old.AddressType, field.NewPath("addressType"))
			},
		},
		Table: registry.Table{
			Columns: []metav1.TableColumnDefinition{
				registry.Column("AddressType", "string", discoveryv1.EndpointSlice{}.SwaggerDoc()["addressType"]),
				registry.Column("Ports", "string", discoveryv1.EndpointSlice{}.SwaggerDoc()["ports"]),
				registry.Column("Endpoints", "string", discoveryv1.EndpointSlice{}.SwaggerDoc()["endpoints"]),
			},
			Cells: sliceCells,
		},
	})
}

var addressTypes = []discoveryv1.AddressType{discoveryv1.AddressTypeIPv4, discoveryv1.AddressTypeIPv6, discoveryv1.AddressTypeFQDN}

func validateEndpointSlice(s *discoveryv1.EndpointSlice) field.ErrorList {
	errs := core.ValidateEnum(s.AddressType, false, addressTypes, field.NewPath("addressType"))
	endpoints := field.NewPath("endpoints")
	if len(s.Endpoints) > maxEndpoints {
		errs = append(errs, field.TooMany(endpoints, len(s.Endpoints), maxEndpoints))
	}
	for i, ep := range s.Endpoints {
		p := endpoints.Index(i).Child("addresses")
		switch {
		case len(ep.Addresses) == 0:
			errs = append(errs, field.Required(p, "must contain at least 1 address"))
		case len(ep.Addresses) > maxAddresses:
			errs = append(errs, field.TooMany(p, len(ep.Addresses), maxAddresses))
		}
		for j, a := range ep.Addresses {
			errs = append(errs, validateAddress(s.AddressType, a, p.Index(j))...)
		}
		if h := ep.Hostname; h != nil {
			for _, msg := range validation.IsDNS1123Label(*h) {
				errs = append(errs, field.Invalid(endpoints.Index(i).Child("hostname"), *h, msg))
			}
		}
	}
	ports := field.NewPath("ports")
	if len(s.Ports) > maxPorts {
		errs = append(errs, field.TooMany(ports, len(s.Ports), maxPorts))
	}
	names := sets.New[string]()
	for i, port := range s.Ports {
		p := ports.Index(i)
		if port.Name != nil && *port.Name != "" {
			errs = append(errs, core.ValidatePortName(*port.Name, len(s.Ports), names, p.Child("name"))...)
		}
		if port.Protocol != nil {
			errs = append(errs, core.ValidateProtocol(*port.Protocol, p.Child("protocol"))...)
		}
		if port.Port != nil {
			errs = append(errs, core.ValidatePortNumber(*port.Port, p.Child("port"))...)
		}
	}
	return errs
}

// validateAddress checks that an address is of the slice's type.
func validateAddress(t discoveryv1.AddressType, a string, p *field.Path) field.ErrorList {
	switch t {
	case discoveryv1.AddressTypeIPv4:
		if !netutils.IsIPv4String(a) {
			return field.ErrorList{field.Invalid(p, a, "must be a valid IPv4 address")}
		}
	case discoveryv1.AddressTypeIPv6:
		if !netutils.IsIPv6String(a) {
			return field.ErrorList{field.Invalid(p, a, "must be a valid IPv6 address")}
		}
	case discoveryv1.AddressTypeFQDN:
		return validation.IsFullyQualifiedDomainName(p, a)
	}
	return nil
}

// sliceCells are kubectl's ADDRESSTYPE, PORTS and ENDPOINTS.
func sliceCells(o runtime.Object) []any {
	s := o.(*discoveryv1.EndpointSlice)
	var ports, addresses []string
	for _, p := range s.Ports {
		if p.Port != nil {
			ports = append(ports, fmt.Sprint(*p.Port))
		}
	}
	for _, ep := range s.Endpoints {
		addresses = append(addresses, ep.Addresses...)
	}
	return []any{string(s.AddressType), core.ShortList(ports, shown, "<unset>"), core.ShortList(addresses, shown, "<unset>")}
}
