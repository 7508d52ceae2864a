package e2e

import (
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/canopy-dev/canopy/e2e/pcluster"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

const (
	// lostHeartbeatTimeout and lostEvictionTimeout are the hub's: pc2
	// turns NotReady 15s after its syncer stops, and is evicted 30s
	// later. lostGrace, the placement's, is longer than both, so that
	// only the eviction moves pc2's share.
	lostHeartbeatTimeout = 15 * time.Second
	lostEvictionTimeout  = 30 * time.Second
	lostGrace            = 10 * time.Minute
)

// TestLostTarget lets go of pc2, one of two physical clusters over which
// root:org:team's placement divides Deployment web's 6 replicas, while
// Deployment solo of root:org is assigned to pc2 alone by hand:
//
//  1. pc2's syncer is killed: while pc2 is NotReady, the hub's web counts
//     only pc1's 3 available replicas and condition SyncTargetsReady
//     names pc2; pc2's pods stay listed as last reported; deleting solo
//     waits on pc2's finalizer;
//  2. 30s later pc2 is evicted: its share moves to pc1, its finalizers,
//     status reports, pods and Events are gone from the hub, and solo's
//     deletion completes;
//  3. pc2's syncer returns: the eviction ends and web is divided again;
//     killed again, hub synctarget evict lets go of it at once;
//  4. back again, then killed, pc2's SyncTarget is deleted: the same.
func TestLostTarget(t *testing.T) {
	t.Parallel()
	if _, err := pcluster.EnsureBinaries(); err != nil {
		t.Fatal(err)
	}
	syncerBin := buildSyncer(t)
	h, admin, _ := startTeamHub(t, lostHeartbeatTimeout, "--sync-target-eviction-timeout", lostEvictionTimeout.String())
	clusters := startClusters(t, "pc1", "pc2")
	keys, syncers := registerTargets(t, h, admin, syncerBin, clusters, map[string]string{"pc1": "eu", "pc2": "eu"})
	p := placed{t: t, admin: admin, keys: keys}
	l := lost{t: t, admin: admin, key: keys["pc2"]}
	l.waitBack(syncers["pc2"], false)
	syncers["pc1"].waitReady(2 * time.Minute)
	admin.apply("team", fmt.Sprintf(`apiVersion: placement.canopy.dev/v1alpha1
kind: Placement
metadata: {name: eu}
spec:
  resources: [{group: apps, resource: deployments}]
  targets: {labelSelector: {matchLabels: {region: eu}}}
  strategy: {type: Divide}
  failover: {gracePeriod: %s}
`, lostGrace))
	admin.apply("team", "apiVersion: v1\nkind: Namespace\nmetadata: {name: shop}\n---\n"+placedDeployment("web", "shop", 6))
	l.divided(p, clusters)

	// 1. NotReady.
	l.handAssigned("solo")
	syncers["pc2"].kill()
	waitFor(t, lostHeartbeatTimeout+30*time.Second, "pc2 NotReady", func() (bool, string) {
		got := readyIn(admin, "root", "pc2")
		return got == "False", got
	})
	waitFor(t, 20*time.Second, "web counting pc1's replicas alone", func() (bool, string) {
		got := admin.must("--context", "team", "-n", "shop", "get", "deployment", "web", "-o",
			`jsonpath={.status.availableReplicas} {.status.conditions[?(@.type=="SyncTargetsReady")].status}|{.status.conditions[?(@.type=="SyncTargetsReady")].message}`)
		return strings.HasPrefix(got, "3 False|root:pc2 is NotReady since ") && strings.Contains(got, "its 3 replicas are not counted; root:pc1 runs 3 replicas, 3 available"), got
	})
	if n := l.pods(); n != 3 {
		t.Errorf("pc2's pods at the hub while it is NotReady: %d, want the 3 last reported", n)
	}
	admin.must("--context", "org", "-n", "solo", "delete", "deployment", "solo", "--wait=false")
	if got := admin.must("--context", "org", "-n", "solo", "get", "deployment", "solo", "-o", "jsonpath={.metadata.finalizers}"); !strings.Contains(got, l.key) {
		t.Errorf("solo, deleted while pc2 is NotReady, has finalizers %s", got)
	}

	// 2. Evicted after the eviction timeout.
	waitFor(t, lostEvictionTimeout+30*time.Second, "pc2 evicted", func() (bool, string) {
		got := l.evicted()
		return got == "True NotReadyTooLong", got
	})
	l.released(p, clusters, "solo")

	// 3. Back, then evicted by hub synctarget evict.
	l.waitBack(syncers["pc2"], true)
	l.divided(p, clusters)
	l.handAssigned("solo")
	syncers["pc2"].kill()
	evictedAt := time.Now()
	cmd := exec.Command(h.bin, "synctarget", "evict", "pc2", "--logical-cluster", "root", "--data-dir", h.dataDir,
		"--hub-url", "https://127.0.0.1:"+strconv.Itoa(h.port))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("hub synctarget evict: %v\n%s", err, out)
	}
	if got := l.evicted(); got != "True EvictedByAdmin" {
		t.Errorf("pc2 after hub synctarget evict: %q", got)
	}
	admin.must("--context", "org", "-n", "solo", "delete", "deployment", "solo", "--wait=false")
	l.released(p, clusters, "solo")
	if d := time.Since(evictedAt); d > lostHeartbeatTimeout {
		t.Errorf("hub synctarget evict released pc2 in %s, no sooner than the heartbeat timeout", d)
	}

	// 4. Back, then deleted.
	waitFor(t, lostHeartbeatTimeout+30*time.Second, "pc2 NotReady", func() (bool, string) {
		got := readyIn(admin, "root", "pc2")
		return got == "False", got
	})
	l.waitBack(syncers["pc2"], true)
	l.divided(p, clusters)
	l.handAssigned("solo")
	syncers["pc2"].kill()
	admin.must("--context", "root", "delete", "synctarget", "pc2")
	admin.must("--context", "org", "-n", "solo", "delete", "deployment", "solo", "--wait=false")
	l.released(p, clusters, "solo")
}

// lost checks what the hub holds of the target of key, pc2.
type lost struct {
	t     *testing.T
	admin kubectl
	key   string
}

// evicted is the status and reason of pc2's Evicted condition.
func (l lost) evicted() string {
	return l.admin.must("--context", "root", "get", "synctarget", "pc2", "-o",
		`jsonpath={.status.conditions[?(@.type=="Evicted")].status} {.status.conditions[?(@.type=="Evicted")].reason}`)
}

// waitBack starts pc2's syncer again if restart, and waits until pc2 is
// Ready and not evicted.
func (l lost) waitBack(s *syncerProcess, restart bool) {
	l.t.Helper()
	if restart {
		s.start()
	}
	s.waitReady(2 * time.Minute)
	waitFor(l.t, time.Minute, "pc2 Ready and not evicted", func() (bool, string) {
		got := readyIn(l.admin, "root", "pc2") + " " + l.evicted()
		return got == "True  " || got == "True False SyncerReturned", got
	})
}

// divided waits until web runs 3 replicas on each of pc1 and pc2.
func (l lost) divided(p placed, clusters map[string]*pcluster.Cluster) {
	l.t.Helper()
	p.waitShares("team", "shop", "web", map[string]string{"pc1": "3", "pc2": "3"})
	waitDownstream(l.t, clusters["pc1"], downNS("pc1", "root:org:team", "shop"), "web", 3)
	waitDownstream(l.t, clusters["pc2"], downNS("pc2", "root:org:team", "shop"), "web", 3)
	waitFor(l.t, time.Minute, "pc2's 3 pods of web at the hub", func() (bool, string) {
		n := l.pods()
		return n == 3, strconv.Itoa(n)
	})
}

// handAssigned creates Deployment name of root:org, where no placement
// applies, assigned to pc2 by hand, and waits for pc2's syncer to hold it.
func (l lost) handAssigned(name string) {
	l.t.Helper()
	l.admin.apply("org", fmt.Sprintf("apiVersion: v1\nkind: Namespace\nmetadata: {name: %s}\n---\n", name)+
		strings.Replace(placedDeployment(name, name, 1), "metadata: {name: "+name+", namespace: "+name+"}",
			fmt.Sprintf("metadata:\n  name: %s\n  namespace: %s\n  labels: {%s: Sync}", name, name, workloadv1alpha1.StateLabel(l.key)), 1))
	waitFor(l.t, time.Minute, name+" held by pc2's syncer", func() (bool, string) {
		got := l.admin.must("--context", "org", "-n", name, "get", "deployment", name, "-o", "jsonpath={.metadata.finalizers}")
		return strings.Contains(got, workloadv1alpha1.FinalizerPrefix+l.key), got
	})
}

// pods is how many pods pc2's syncer copied up to root:org:team's shop.
func (l lost) pods() int {
	l.t.Helper()
	out := l.admin.must("--context", "team", "-n", "shop", "get", "pods", "-l", workloadv1alpha1.UpsyncedLabel+"="+l.key, "-o", "name")
	return len(strings.Fields(out))
}

// released waits until the hub holds nothing of pc2: web's share on pc1,
// no finalizer, label or status report of pc2 on web, no pod or Event of
// pc2, and Deployment deleted, being deleted, gone.
func (l lost) released(p placed, clusters map[string]*pcluster.Cluster, deleted string) {
	l.t.Helper()
	start := time.Now()
	defer func() {
		l.t.Logf("pc2 released, %s deleted and web rolled out on pc1 alone %s after", deleted, time.Since(start).Round(time.Second))
	}()
	p.waitShares("team", "shop", "web", map[string]string{"pc1": ""})
	waitFor(l.t, time.Minute, "pc2 released from web", func() (bool, string) {
		got := l.admin.must("--context", "team", "-n", "shop", "get", "deployment", "web", "-o", "jsonpath={.metadata.labels} {.metadata.annotations} {.metadata.finalizers}")
		return !strings.Contains(got, l.key), got
	})
	waitFor(l.t, time.Minute, "pc2's pods and Events gone from the hub", func() (bool, string) {
		pods := l.pods()
		events := l.admin.must("--context", "team", "-n", "shop", "get", "events", "-l", workloadv1alpha1.UpsyncedLabel+"="+l.key, "-o", "name") +
			l.admin.must("--context", "org", "-n", deleted, "get", "events", "-l", workloadv1alpha1.ReportedByLabel+"="+l.key, "-o", "name")
		return pods == 0 && events == "", fmt.Sprintf("%d pods, events %q", pods, events)
	})
	waitFor(l.t, time.Minute, deleted+" deleted", func() (bool, string) {
		out, err := l.admin.run("--context", "org", "-n", deleted, "get", "deployment", deleted, "-o", "name")
		return err != nil && strings.Contains(err.Error(), "NotFound"), fmt.Sprint(out, err)
	})
	waitDownstream(l.t, clusters["pc1"], downNS("pc1", "root:org:team", "shop"), "web", 6)
	rolledOut(l.t, l.admin, 2*time.Minute, "--context", "team", "-n", "shop", "rollout", "status", "deployment/web", "--timeout", "2m")
}
