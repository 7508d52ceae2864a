package sync

import (
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/flowcontrol"

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

// TestClusterConfig checks that the physical cluster's client gets the
// syncer's rate limit in place of client-go's default, and keeps one its
// configuration sets.
func TestClusterConfig(t *testing.T) {
	given := &rest.Config{Host: "https://pc1:6443"}
	cfg := clusterConfig(given)
	if cfg.QPS != ClusterQPS || cfg.Burst != ClusterBurst || cfg.Host != given.Host {
		t.Errorf("clusterConfig of a config without a rate limit: QPS %v, burst %d, host %s", cfg.QPS, cfg.Burst, cfg.Host)
	}
	if given.QPS != 0 || given.Burst != 0 {
		t.Errorf("clusterConfig changed the config it was given: QPS %v, burst %d", given.QPS, given.Burst)
	}
	if cfg := clusterConfig(&rest.Config{QPS: 7, Burst: 9}); cfg.QPS != 7 || cfg.Burst != 9 {
		t.Errorf("clusterConfig replaced a configured QPS 7 and burst 9 with %v and %d", cfg.QPS, cfg.Burst)
	}
	limiter := flowcontrol.NewFakeAlwaysRateLimiter()
	if cfg := clusterConfig(&rest.Config{RateLimiter: limiter}); cfg.RateLimiter != limiter || cfg.QPS != 0 {
		t.Errorf("clusterConfig replaced a configured rate limiter: QPS %v", cfg.QPS)
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

func TestParseTarget(t *testing.T) {
	cluster, name, err := ParseTarget("root:platform:pc1")
	if err != nil || cluster != "root:platform" || name != "pc1" {
		t.Errorf("ParseTarget = %q, %q, %v", cluster, name, err)
	}
	for _, bad := range []string{"pc1", "root:", ":pc1", "Root:pc1"} {
		if _, _, err := ParseTarget(bad); err == nil {
			t.Errorf("ParseTarget(%q) succeeded", bad)
		}
	}
}
