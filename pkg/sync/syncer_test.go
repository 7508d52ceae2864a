package sync

import (
	"testing"

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
