package hub

import (
	"strings"
	"testing"

	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"

	"github.com/canopy-dev/canopy/pkg/registry"
)

// TestLookUpNamesWhatIsMissing checks that a wiring mistake, storage
// missing or of the wrong type, fails the start with an error naming each
// resource instead of a panic.
func TestLookUpNamesWhatIsMissing(t *testing.T) {
	s := &apiStorage{core: registry.Group{Storage: map[string]rest.Storage{
		// A status subresource gets and updates but creates nothing.
		"events": registry.NewStatus(&genericregistry.Store{}, nil),
	}}}
	err := s.lookUp()
	if err == nil {
		t.Fatal("lookUp found every resource in an empty core group and no other group")
	}
	for _, want := range []string{
		"v1 has no store of namespaces",
		"v1 serves no namespaces/finalize",
		"events of v1 is served by a *registry.Status, which is no rest.Creater",
		"apps/v1 is not served, so there is no deployments",
		"workload.canopy.dev/v1alpha1 is not served, so there is no synctargets/status",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q:\n%v", want, err)
		}
	}
}
