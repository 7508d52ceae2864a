package e2e

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/canopy-dev/canopy/e2e/pcluster"
	"github.com/canopy-dev/canopy/internal/pgtest"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// TestSyncerFailover gives the syncer of pc1 two replicas of a hub on one
// PostgreSQL database, and kills with SIGKILL the one it is connected to,
// the first. The syncer moves to the other: with nothing changed, no
// object is written again, downstream or at the hub, and no informer
// lists the hub again; a change made afterwards through the surviving
// replica reaches pc1, and pc1's SyncTarget reports Ready from there.
func TestSyncerFailover(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("kubectl"); err != nil {
		t.Fatalf("kubectl must be on PATH: %v", err)
	}
	first := &hub{bin: buildHub(t), dataDir: t.TempDir(), datastore: pgtest.Shared(t).NewDatabase(t), port: freePort(t)}
	first.start(t)
	second := startReplica(t, first)
	// The admin works through the replica that survives.
	kubeconfig, err := os.ReadFile(filepath.Join(second.dataDir, "admin.kubeconfig"))
	if err != nil {
		t.Fatal(err)
	}
	admin := kubectl{t: t, kubeconfig: writeFile(t, string(kubeconfig)), home: t.TempDir()}
	admin.addContexts(second, filepath.Join(second.dataDir, "pki"), "admin")
	admin.createLogicalCluster("root", "a")
	pc1 := pcluster.Start(t, "pc1", pcluster.Options{Nodes: []pcluster.Node{{Name: "pc1-a"}}})
	url := func(h *hub) string { return "https://127.0.0.1:" + strconv.Itoa(h.port) }
	key, syncer := registerSyncer(t, first, buildSyncer(t), pc1, "pc1", "--hub-url", url(first), "--hub-url", url(second))

	admin.apply("a", workloadManifest(key, "nginx:1.27"))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	ns := workloadv1alpha1.DownstreamNamespace("root:a", "ns1")
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
	if got := metric(t, syncer, "canopy_syncer_hub_replica_switches_total"); got != 0 {
		t.Fatalf("the syncer switched replicas %v times before any died:\n%s", got, syncer.log.String())
	}
	relists := metric(t, syncer, "canopy_syncer_hub_relists_total")

	first.kill(t)
	killed := time.Now()
	t.Logf("killed the first replica, which the syncer was connected to, at %s", killed.UTC().Format(time.StampMicro))
	// Polled often, to measure how soon the syncer moves.
	for metric(t, syncer, "canopy_syncer_hub_replica_switches_total") != 1 {
		if time.Since(killed) > time.Minute {
			t.Fatalf("the syncer did not connect to the second replica within a minute of the kill:\n%s", syncer.log.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	switched := time.Since(killed)
	// A heartbeat since the kill says the syncer syncs, through the
	// second replica.
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
	t.Logf("the syncer connected to the second replica %s after the kill, and reported pc1 Ready through it %s after",
		switched.Round(10*time.Millisecond), time.Since(killed).Round(100*time.Millisecond))

	// Nothing was written again, downstream or at the hub, and no
	// informer listed the hub again.
	if after := resourceVersions(admin, pc1, ns); !maps.Equal(before, after) {
		t.Errorf("resourceVersions changed with the failover:\nbefore %v\nafter  %v", before, after)
	}
	if got := metric(t, syncer, "canopy_syncer_hub_relists_total"); got != relists {
		t.Errorf("the syncer listed the hub %v times again with the failover, want none", got-relists)
	}

	// A change at the hub, through the second replica, reaches pc1.
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

// metric is the value of the syncer's counter name, without labels.
func metric(t *testing.T, syncer *syncerProcess, name string) float64 {
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
