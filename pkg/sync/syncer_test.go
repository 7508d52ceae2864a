package sync

import (
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/tools/cache"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// TestQualify checks that equal objects of two logical clusters have
// different keys in a hub informer's store.
func TestQualify(t *testing.T) {
	keys := map[string]bool{}
	for _, cluster := range []logicalcluster.Name{"root:a", "root:b"} {
		u := &unstructured.Unstructured{}
		u.SetNamespace("ns1")
		u.SetName("web")
		logicalcluster.SetOn(u, cluster)
		obj, err := qualify(u)
		if err != nil {
			t.Fatal(err)
		}
		key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
		if err != nil {
			t.Fatal(err)
		}
		if want := string(cluster) + "/ns1/web"; key != want {
			t.Errorf("key %q, want %q", key, want)
		}
		keys[key] = true
		if h := obj.(*hubObject); h.Unstructured.GetNamespace() != "ns1" {
			t.Errorf("qualifying changed the object's namespace to %q", h.Unstructured.GetNamespace())
		}
	}
	if len(keys) != 2 {
		t.Errorf("keys %v", keys)
	}
	if _, err := qualify(&unstructured.Unstructured{}); err == nil {
		t.Error("an object without a logical cluster was qualified")
	}
}
