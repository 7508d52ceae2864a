package e2e

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/canopy-dev/canopy/e2e/pcluster"
	"github.com/canopy-dev/canopy/internal/pgtest"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// TestSyncerFailover runs three replicas of a hub on one PostgreSQL
// database, and the syncer of pc1 connected to the first, given either
// every replica's URL or the balancer's, as hub synctarget create's
// --hub-url gives them. It kills with SIGKILL the replica the syncer is
// connected to. The syncer moves to another: with nothing changed, no
// object is written again, downstream or at the hub, and no informer
// lists the hub again; a change made afterwards reaches pc1, and pc1's
// SyncTarget reports Ready through another replica. The admin works
// through the third replica throughout, so the syncer sees, before the
// kill, writes made through another replica than its own.
func TestSyncerFailover(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("kubectl"); err != nil {
		t.Fatalf("kubectl must be on PATH: %v", err)
	}
	for _, tc := range []struct {
		name string
		// hubURLs are hub synctarget create's --hub-url values.
		hubURLs func(r *replicas) []string
		// moved is whether the syncer connected to a replica other than
		// the one killed.
		moved func(r *replicas, syncer *syncerProcess) bool
	}{{
		name:    "replica URLs",
		hubURLs: func(r *replicas) []string { return r.servers()[:len(r.hubs)] },
		moved: func(_ *replicas, syncer *syncerProcess) bool {
			return syncerMetric(syncer.t, syncer, "canopy_syncer_hub_replica_switches_total") == 1
		},
	}, {
		name:    "balancer",
		hubURLs: func(r *replicas) []string { return []string{"https://" + r.lb.Addr()} },
		// Its requests' connection and its tunnel's were the first two
		// the balancer took: a third is the syncer connecting again.
		moved: func(r *replicas, _ *syncerProcess) bool {
			n := 0
			for _, c := range r.lb.Backends() {
				n += c
			}
			return n > 2
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := startReplicas(t, 3, pgtest.Shared(t).NewDatabase(t))
			admin := r.hubs[2].admin(t)
			admin.addContexts(r.hubs[2], filepath.Join(r.hubs[2].dataDir, "pki"), "admin")
			admin.createLogicalCluster("root", "a")
			pc1 := pcluster.Start(t, "pc1", pcluster.Options{Nodes: []pcluster.Node{{Name: "pc1-a"}}})
			var create []string
			for _, u := range tc.hubURLs(r) {
				create = append(create, "--hub-url", u)
			}
			key, syncer := registerSyncer(t, r.hubs[2], buildSyncer(t), pc1, "pc1", create...)
			syncerFailover(t, r, admin, pc1, key, syncer, tc.moved)
		})
	}
}

// syncerFailover syncs a workload to pc1, kills the replica the syncer is
// connected to, the first, and checks that nothing is written again, that
// the syncer moves, as moved tells, and that it syncs a change
// afterwards.
func syncerFailover(t *testing.T, r *replicas, admin kubectl, pc1 *pcluster.Cluster, key string, syncer *syncerProcess,
	moved func(r *replicas, syncer *syncerProcess) bool) {
	admin.apply("a", workloadManifest(key, "nginx:1.27"))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	ns := workloadv1alpha1.DownstreamNamespace(key, "root:a", "ns1")
	waitPods(ctx, t, pc1, ns, "nginx:1.27")

	// Once the pods' copies and Events at the hub are settled, no object
	// changes for a few seconds on either side.
	var before map[string]string
	waitUntil(t, 2*time.Minute, "the objects of ns1 unchanged for 5s on both sides", func() string {
		before = resourceVersions(admin, pc1, ns)
		time.Sleep(5 * time.Second)
		if after := resourceVersions(admin, pc1, ns); !maps.Equal(before, after) {
			return fmt.Sprintf("%v became %v", before, after)
		}
		return ""
	})
	// The syncer keeps one connection to the hub for its requests: to
	// the first replica, the first URL, when given every replica's. Its
	// tunnel, an upgrade, which is HTTP/1.1, is a connection of its own;
	// through the balancer the two go to the backends it gives them in
	// turn, in the order the syncer dials them, and the tunnel's Lease
	// tells which is the tunnel's.
	victim := 0
	if got := syncerMetric(t, syncer, "canopy_syncer_hub_replica_switches_total"); got != 0 {
		t.Fatalf("the syncer switched replicas %v times before any died:\n%s", got, syncer.log.String())
	}
	if backends := r.lb.Backends(); len(backends) > 0 {
		requests := maps.Clone(backends)
		requests[tunnelReplica(t, admin, key)]--
		victim = -1
		for addr, n := range requests {
			if n == 1 {
				victim = slices.IndexFunc(r.hubs, func(h *hub) bool { return h.addr() == addr })
			} else if n != 0 {
				victim = -1
				break
			}
		}
		if victim < 0 {
			t.Fatalf("the syncer's connections through the balancer went to %v, want one for its requests and one for its tunnel", backends)
		}
	}
	relists := syncerMetric(t, syncer, "canopy_syncer_hub_relists_total")

	r.kill(victim)
	killed := time.Now()
	t.Logf("killed replica %d, which the syncer's requests went to, at %s", victim, killed.UTC().Format(time.StampMicro))
	// Polled often, to measure how soon the syncer moves.
	for !moved(r, syncer) {
		if time.Since(killed) > time.Minute {
			t.Fatalf("the syncer did not connect to another replica within a minute of the kill:\n%s", syncer.log.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	switched := time.Since(killed)
	// A heartbeat since the kill says the syncer syncs, through another
	// replica.
	waitUntil(t, time.Minute, "pc1 Ready by a heartbeat since the kill", func() string {
		got := admin.must("--context", "root", "get", "synctarget", "pc1", "-o",
			`jsonpath={.status.conditions[?(@.type=="Ready")].status} {.status.conditions[?(@.type=="Ready")].reason} | {.status.lastHeartbeatTime}`)
		status, beat, _ := strings.Cut(got, " | ")
		at, err := time.Parse(time.RFC3339, beat)
		if err != nil || !at.After(killed) || status != "True Syncing" {
			return got
		}
		return ""
	})
	t.Logf("the syncer connected to another replica %s after the kill, and reported pc1 Ready through it %s after",
		switched.Round(10*time.Millisecond), time.Since(killed).Round(100*time.Millisecond))

	// Nothing was written again, downstream or at the hub, and no
	// informer listed the hub again.
	if after := resourceVersions(admin, pc1, ns); !maps.Equal(before, after) {
		t.Errorf("resourceVersions changed with the failover:\nbefore %v\nafter  %v", before, after)
	}
	if got := syncerMetric(t, syncer, "canopy_syncer_hub_relists_total"); got != relists {
		t.Errorf("the syncer listed the hub %v times again with the failover, want none", got-relists)
	}

	// A change at the hub reaches pc1.
	changed := time.Now()
	admin.must("--context", "a", "-n", "ns1", "set", "image", "deployment/web", "web=nginx:1.28")
	waitUntil(t, time.Minute, "the new image in pc1's Deployment", func() string {
		d, err := pc1.Client.AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			return err.Error()
		}
		if image := d.Spec.Template.Spec.Containers[0].Image; image != "nginx:1.28" {
			return "image " + image
		}
		return ""
	})
	t.Logf("the new image reached pc1 %s after it was set at the hub", time.Since(changed).Round(10*time.Millisecond))
	waitPods(ctx, t, pc1, ns, "nginx:1.28")
}

// syncerMetric is the value of the syncer's series name, without labels.
func syncerMetric(t *testing.T, syncer *syncerProcess, name string) float64 {
	t.Helper()
	_, code, body := send(t, http.DefaultClient, http.MethodGet, "http://"+syncer.metrics+"/metrics", "")
	if code != http.StatusOK {
		t.Fatalf("the syncer's /metrics: %d", code)
	}
	v, ok := metricValue(string(body), name)
	if !ok {
		t.Fatalf("the syncer serves no %s", name)
	}
	return v
}

// tunnelReplica is the address of the hub replica holding the tunnel of
// the syncer of target key, as the tunnel's Lease names it once it is open.
func tunnelReplica(t *testing.T, admin kubectl, key string) string {
	t.Helper()
	var address string
	waitUntil(t, time.Minute, "the syncer's tunnel open", func() string {
		out, err := admin.run("--context", "root", "get", "lease", "-n", "kube-system", "canopy-tunnel-"+key,
			"-o", `jsonpath={.metadata.annotations.tunnel\.canopy\.dev/address}`)
		address = strings.TrimPrefix(out, "https://")
		if err != nil || address == "" {
			return fmt.Sprintf("%q %v", out, err)
		}
		return ""
	})
	return address
}
