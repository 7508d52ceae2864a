package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/canopy-dev/canopy/e2e/pcluster"
	"github.com/canopy-dev/canopy/internal/pgtest"
)

// TestSyncerReadyAfterOutage stops the hub, on PostgreSQL, for a minute
// while pc2's syncer runs, and starts it again on the same port and
// data. The syncer reports its SyncTarget Ready only once it pulls work
// again: a Deployment that a placement puts on pc2, created as soon as
// pc2 reports Ready after the outage, runs there within 5s.
func TestSyncerReadyAfterOutage(t *testing.T) {
	t.Parallel()
	const (
		outage   = 60 * time.Second
		runsIn   = 5 * time.Second
		interval = 100 * time.Millisecond
	)
	if _, err := exec.LookPath("kubectl"); err != nil {
		t.Fatalf("kubectl must be on PATH: %v", err)
	}
	// The heartbeat timeout is shorter than the outage, so that the hub
	// marks pc2 NotReady when it returns, unless the syncer reports first.
	h := &hub{bin: buildHub(t), dataDir: t.TempDir(), datastore: pgtest.Shared(t).NewDatabase(t), port: freePort(t),
		flags: []string{"--sync-target-heartbeat-timeout", "20s"}}
	h.start(t)
	// A copy of the admin's kubeconfig, which the hub writes anew when it
	// starts again.
	kubeconfig, err := os.ReadFile(filepath.Join(h.dataDir, "admin.kubeconfig"))
	if err != nil {
		t.Fatal(err)
	}
	admin := kubectl{t: t, kubeconfig: writeFile(t, string(kubeconfig)), home: t.TempDir()}
	admin.addContexts(h, filepath.Join(h.dataDir, "pki"), "admin")
	admin.createLogicalCluster("root", "a")
	pc2 := pcluster.Start(t, "pc2", pcluster.Options{Nodes: []pcluster.Node{{Name: "pc2-a"}}})
	_, syncer := registerSyncer(t, h, buildSyncer(t), pc2, "pc2")
	admin.must("--context", "root", "label", "synctarget", "pc2", "ready-test=yes")
	admin.must("--context", "a", "create", "namespace", "ns1")
	admin.apply("a", `apiVersion: placement.canopy.dev/v1alpha1
kind: Placement
metadata: {name: pc2}
spec:
  resources: [{group: apps, resource: deployments}]
  targets: {labelSelector: {matchLabels: {ready-test: "yes"}}}
`)
	ns := downNS("pc2", "root:a", "ns1")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	running := func(app string) bool {
		pods, err := pc2.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "app=" + app})
		if err != nil {
			return false
		}
		for _, p := range pods.Items {
			if p.Status.Phase == corev1.PodRunning {
				return true
			}
		}
		return false
	}
	admin.apply("a", placedDeployment("before", "ns1", 1))
	waitUntil(t, 2*time.Minute, "Deployment before running in pc2", func() string {
		if running("before") {
			return ""
		}
		return "no pod of it Running"
	})
	if got := readyOfTarget(admin); !strings.HasPrefix(got, "True Syncing ") {
		t.Fatalf("pc2's Ready before the outage: %q, want True Syncing", got)
	}

	h.stop(t)
	t.Logf("hub stopped")
	time.Sleep(outage)
	restarted := time.Now().Truncate(time.Second)
	h.start(t)
	back := time.Now()
	t.Logf("hub started again; ready to serve after %s", back.Sub(restarted).Round(100*time.Millisecond))

	// pc2 turns Ready: a heartbeat since the hub restarted says so. Every
	// other state seen on the way is logged.
	var seen []string
	waitUntil(t, 2*time.Minute, "pc2 Ready after the outage", func() string {
		got := readyOfTarget(admin)
		if len(seen) == 0 || seen[len(seen)-1] != got {
			seen = append(seen, got)
		}
		status, beat, _ := strings.Cut(got, " | ")
		at, err := time.Parse(time.RFC3339, beat)
		if err != nil || at.Before(restarted) || !strings.HasPrefix(status, "True ") {
			return got
		}
		return ""
	})
	ready := time.Now()
	created := time.Now()
	admin.apply("a", placedDeployment("after", "ns1", 1))
	t.Logf("pc2 Ready %s after the hub was ready to serve; its Ready condition went %q", ready.Sub(back).Round(100*time.Millisecond), seen)

	for !running("after") {
		if time.Since(created) > 2*time.Minute {
			t.Fatalf("Deployment after not running in pc2 %s after it was created", time.Since(created).Round(time.Second))
		}
		time.Sleep(interval)
	}
	took := time.Since(created)
	t.Logf("Deployment after, created as soon as pc2 was Ready, ran in pc2 %s later (%s after the hub was ready to serve)",
		took.Round(100*time.Millisecond), time.Since(back).Round(100*time.Millisecond))
	if took > runsIn {
		t.Errorf("Deployment after ran in pc2 %s after it was created, want within %s:\n%s", took.Round(100*time.Millisecond), runsIn, syncer.log.String())
	}
}

// readyOfTarget is the Ready condition of SyncTarget pc2 in root, as
// "<status> <reason> <message> | <lastHeartbeatTime>".
func readyOfTarget(admin kubectl) string {
	out := admin.must("--context", "root", "get", "synctarget", "pc2", "-o",
		`jsonpath={.status.conditions[?(@.type=="Ready")].status} {.status.conditions[?(@.type=="Ready")].reason} {.status.conditions[?(@.type=="Ready")].message} | {.status.lastHeartbeatTime}`)
	return strings.TrimSpace(out)
}
