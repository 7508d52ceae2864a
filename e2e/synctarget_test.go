package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSyncTargetHeartbeatTimeout writes a SyncTarget's heartbeat once, as
// its syncer would, and watches the hub turn it NotReady once the
// heartbeat is older than the hub's timeout, and Ready stay as a new
// heartbeat sets it until that one expires too.
func TestSyncTargetHeartbeatTimeout(t *testing.T) {
	const timeout = 3 * time.Second
	h := &hub{bin: buildHub(t), dataDir: t.TempDir(), port: freePort(t), flags: []string{"--sync-target-heartbeat-timeout", timeout.String()}}
	h.start(t)
	admin := kubectl{t: t, kubeconfig: filepath.Join(h.dataDir, "admin.kubeconfig"), home: t.TempDir()}
	admin.addContexts(h, filepath.Join(h.dataDir, "pki"), "admin")
	admin.createLogicalCluster("root", "a")
	admin.apply("a", `apiVersion: workload.canopy.dev/v1alpha1
kind: SyncTarget
metadata:
  name: pc1
`)
	// A SyncTarget never reported on is left alone: Ready stays unknown.
	time.Sleep(timeout + time.Second)
	if got := readyOf(admin, "pc1"); got != " " {
		t.Errorf("Ready of a SyncTarget without a heartbeat: %q, want none", got)
	}

	for round := range 2 {
		// The API keeps whole seconds.
		beat := time.Now().Truncate(time.Second)
		admin.must("--context", "a", "patch", "synctarget", "pc1", "--subresource", "status", "--type", "merge", "-p", heartbeat(beat))
		if got := readyOf(admin, "pc1"); got != "True SyncerReporting" {
			t.Fatalf("round %d: Ready right after a heartbeat: %q", round, got)
		}
		var got string
		for time.Since(beat) < timeout+10*time.Second {
			if got = readyOf(admin, "pc1"); got != "True SyncerReporting" {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		if got != "False HeartbeatTimeout" {
			t.Fatalf("round %d: Ready %q %s after the heartbeat, want False HeartbeatTimeout", round, got, time.Since(beat))
		}
		if since := time.Since(beat); since < timeout {
			t.Errorf("round %d: NotReady %s after the heartbeat, before the %s timeout", round, since, timeout)
		}
	}
	if got := admin.must("--context", "a", "get", "synctarget", "pc1", "-o", "jsonpath={.status.conditions[0].message}"); !strings.Contains(got, "more than 3s ago") {
		t.Errorf("the HeartbeatTimeout message %q does not say how long the hub waits", got)
	}
}

// readyOf is the status and reason of SyncTarget name's Ready condition
// in root:a.
func readyOf(admin kubectl, name string) string {
	return admin.must("--context", "a", "get", "synctarget", name, "-o", `jsonpath={.status.conditions[?(@.type=="Ready")].status} {.status.conditions[?(@.type=="Ready")].reason}`)
}

// heartbeat is the merge patch of a syncer's heartbeat at t.
func heartbeat(t time.Time) string {
	at := t.UTC().Format(time.RFC3339)
	return fmt.Sprintf(`{"status":{"lastHeartbeatTime":%q,"conditions":[{"type":"Ready","status":"True","reason":"SyncerReporting","message":"reporting","lastTransitionTime":%q}]}}`, at, at)
}
