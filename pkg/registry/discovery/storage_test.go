package discovery

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/canopy-dev/canopy/internal/fieldtest"
	"github.com/canopy-dev/canopy/pkg/registry/upstream"
	k8s_discovery_v1 "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/discovery/v1"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/discovery/endpointslice"
)

// TestValidateEndpointSlice checks that EndpointSlices are defaulted and
// validated by upstream, which names the field to fix.
func TestValidateEndpointSlice(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*discoveryv1.EndpointSlice)
		want   string
	}{
		{"valid", func(*discoveryv1.EndpointSlice) {}, ""},
		{"address type", func(s *discoveryv1.EndpointSlice) { s.AddressType = "IP" }, "addressType"},
		{"IPv6 in IPv4", func(s *discoveryv1.EndpointSlice) { s.Endpoints[0].Addresses[0] = "fd00::1" }, "endpoints[0].addresses"},
		{"FQDN", func(s *discoveryv1.EndpointSlice) {
			s.AddressType, s.Endpoints[0].Addresses[0] = discoveryv1.AddressTypeFQDN, "db.example.com"
		}, ""},
		{"no addresses", func(s *discoveryv1.EndpointSlice) { s.Endpoints[0].Addresses = nil }, "endpoints[0].addresses"},
		// Upstream leaves port numbers to the Services the slices serve.
		{"port 0", func(s *discoveryv1.EndpointSlice) { s.Ports[0].Port = ptr.To[int32](0) }, ""},
		{"protocol", func(s *discoveryv1.EndpointSlice) { s.Ports[0].Protocol = ptr.To[corev1.Protocol]("tcp") }, "ports[0].protocol"},
		{"port name", func(s *discoveryv1.EndpointSlice) { s.Ports[0].Name = ptr.To("HTTP") }, "ports[0].name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &discoveryv1.EndpointSlice{
				ObjectMeta:  metav1.ObjectMeta{Name: "web-1", Namespace: "default"},
				AddressType: discoveryv1.AddressTypeIPv4,
				Endpoints:   []discoveryv1.Endpoint{{Addresses: []string{"10.0.0.1"}}},
				Ports:       []discoveryv1.EndpointPort{{Port: ptr.To[int32](80)}},
			}
			k8s_discovery_v1.SetObjectDefaults_EndpointSlice(s)
			tc.change(s)
			fieldtest.OnlyField(t, upstream.For(endpointslice.Strategy).Validate(context.Background(), s), tc.want)
		})
	}
}
