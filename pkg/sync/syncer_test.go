package sync

import (
	"testing"
	"time"

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

// TestRetryDelayBounded checks that a key failing again and again, as
// every write to the hub does while it is away, is retried at most
// maxRetryDelay apart, and soon again once it succeeded.
func TestRetryDelayBounded(t *testing.T) {
	limiter := rateLimiter[string]()
	var last time.Duration
	for range 30 {
		last = limiter.When("root:a/ns1/web")
		if last > maxRetryDelay {
			t.Fatalf("a retry %s after the last failure, more than %s", last, maxRetryDelay)
		}
	}
	if last != maxRetryDelay {
		t.Errorf("after 30 failures the retry comes %s after the last, want %s", last, maxRetryDelay)
	}
	limiter.Forget("root:a/ns1/web")
	if d := limiter.When("root:a/ns1/web"); d > time.Second {
		t.Errorf("the first retry after a success comes %s after the failure", d)
	}
}
