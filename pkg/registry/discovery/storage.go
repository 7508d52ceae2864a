package discovery

import (
	"fmt"

	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/storage/names"

	"github.com/canopy-dev/canopy/pkg/registry"
	"github.com/canopy-dev/canopy/pkg/registry/core"
	"github.com/canopy-dev/canopy/pkg/registry/upstream"
	k8s_discovery_v1 "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/discovery/v1"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/discovery/endpointslice"
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
// internal version, and upstream's defaults, which the decoder fills in.
func AddToScheme(s *runtime.Scheme) error {
	if err := discoveryv1.AddToScheme(s); err != nil {
		return err
	}
	s.AddKnownTypes(internalVersion, &discoveryv1.EndpointSlice{}, &discoveryv1.EndpointSliceList{})
	if err := k8s_discovery_v1.RegisterDefaults(s); err != nil {
		return err
	}
	return s.SetVersionPriority(discoveryv1.SchemeGroupVersion)
}

// NewStorage returns the discovery.k8s.io/v1 resources.
func NewStorage(f *registry.Factory, typer runtime.ObjectTyper) (registry.Group, error) {
	return f.Build(discoveryv1.SchemeGroupVersion, registry.Resource{
		Singular: "endpointslice", Plural: "endpointslices",
		New:      func() runtime.Object { return &discoveryv1.EndpointSlice{} },
		NewList:  func() runtime.Object { return &discoveryv1.EndpointSliceList{} },
		Strategy: registry.Kind[*discoveryv1.EndpointSlice]{ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, Upstream: upstream.For(endpointslice.Strategy)},
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
