package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/canopy-dev/canopy/internal/pgtest"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// TestReplicasControllerTakeover runs three replicas of one hub on one
// PostgreSQL database and kills, with SIGKILL, the replica that owns the
// shard of logical cluster root:takeover just after starting work that
// the owner of that shard does: the deletion of a namespace of
// root:takeover, the foreground and background deletion of owners of
// dependents there (the garbage collector's), and the deletion of
// LogicalCluster child in it (root:takeover:child, set up and removed by
// the owner of its parent's shard). The namespace's and the foreground
// owner's deletions are held by a finalizer on one object until after
// the kill, so the owner has begun them and cannot have finished; the
// test removes those finalizers once the owner is dead. All must finish,
// the held ones not before another replica holds the shard's Lease, since
// only the shard's owner may do them, and the test logs how long after
// the kill that replica held the Lease and each piece of work was done.
//
// A placement move is not among them: it needs physical clusters and
// syncers, which TestReplicasPlacementTakeover starts for it alone.
func TestReplicasControllerTakeover(t *testing.T) {
	t.Parallel()
	datastore := pgtest.Shared(t).NewDatabase(t)
	r := startReplicas(t, 3, datastore)
	admin := r.kubectl()
	const hold = "example.com/hold"
	p := logicalcluster.Name("root:takeover")
	admin.createLogicalCluster("root", p.Base())
	r.addContext(admin, "p", p)
	admin.createLogicalCluster("p", "child")

	// What the work is done on: a namespace with a held ConfigMap among
	// others, owners with dependents, and the child's own data.
	admin.must("--context", "p", "create", "namespace", "doomed")
	var doomed strings.Builder
	for i := range 20 {
		fmt.Fprintf(&doomed, "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm-%d, namespace: doomed}\n", i)
	}
	doomed.WriteString("---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: held, namespace: doomed, finalizers: [" + hold + "]}\n")
	admin.apply("p", doomed.String())
	g := gc{t: t, k: admin}
	fg := g.configMap("p", "foreground", "")
	g.owned("p", "ConfigMap", "fg-dependent", "foreground", fg, false, "")
	g.owned("p", "ConfigMap", "fg-blocker", "foreground", fg, true, hold)
	bg := g.configMap("p", "background", "")
	for i := range 10 {
		g.owned("p", "ConfigMap", fmt.Sprintf("bg-dependent-%d", i), "background", bg, false, "")
	}
	g.settle("p")
	childPath, err := p.Child("child")
	if err != nil {
		t.Fatal(err)
	}
	r.addContext(admin, "child", childPath)
	admin.must("--context", "child", "create", "namespace", "app")
	var data strings.Builder
	for i := range 200 {
		fmt.Fprintf(&data, "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm-%d, namespace: app}\ndata: {i: %q}\n", i, fmt.Sprint(i))
	}
	admin.apply("child", data.String())

	victim, err := r.owner(0, p)
	leases := err == nil
	if !leases {
		t.Errorf("no replica owns the shard of %s, so no takeover can be timed; killing replica 1: %v", p, err)
		victim = 0
	}
	member := r.member(victim)
	survivor := (victim + 1) % len(r.hubs)
	if leases {
		t.Logf("replica %d (%s) owns the shard of %s, Lease %s", victim+1, member, p, shardLease(p))
	}

	// Start the work, see the owner begin the held parts, and kill it.
	admin.must("--context", "p", "delete", "namespace", "doomed", "--wait=false")
	admin.must("--context", "p", "-n", "default", "delete", "configmap", "foreground", "--cascade=foreground", "--wait=false")
	admin.must("--context", "p", "-n", "default", "delete", "configmap", "background", "--wait=false")
	admin.must("--context", "p", "delete", "logicalcluster", "child", "--wait=false")
	waitFor(t, 30*time.Second, "the held ConfigMaps are being deleted", func() (bool, string) {
		out := admin.must("--context", "p", "-n", "doomed", "get", "configmap", "held", "-o", "jsonpath={.metadata.deletionTimestamp}")
		blocker := g.get("p", "fg-blocker", "{.metadata.deletionTimestamp}")
		return out != "" && blocker != "", fmt.Sprintf("doomed/held %q, default/fg-blocker %q", out, blocker)
	})
	r.kill(victim)
	killed := time.Now()
	childGoneAtKill := admin.must("--context", "p", "get", "logicalcluster", "child", "--ignore-not-found", "-o", "name") == ""
	admin.must("--context", "p", "-n", "doomed", "patch", "configmap", "held", "--type=merge", "-p", `{"metadata":{"finalizers":null}}`)
	admin.must("--context", "p", "-n", "default", "patch", "configmap", "fg-blocker", "--type=merge", "-p", `{"metadata":{"finalizers":null}}`)

	// The shard's Lease is polled on its own, often, and each piece of
	// work in rounds, all from the kill until seen done, so that none
	// waits on another.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	takeover := func() time.Duration { return 0 }
	if leases {
		takeover = r.takeover(ctx, survivor, p, member, killed)
	}
	absent := func(args ...string) func() bool {
		return func() bool {
			out, err := admin.run(append(args, "--ignore-not-found", "-o", "name")...)
			return err == nil && out == ""
		}
	}
	checks := []struct {
		what string
		done func() bool
	}{
		{"namespace doomed is deleted", absent("--context", "p", "get", "namespace", "doomed")},
		{"the foreground owner and its dependents are deleted", absent("--context", "p", "-n", "default", "get", "configmap", "foreground", "fg-dependent", "fg-blocker")},
		{"the background owner's dependents are deleted", func() bool {
			out, err := admin.run("--context", "p", "-n", "default", "get", "configmap", "-o", "name")
			return err == nil && !strings.Contains(out, "bg-dependent-")
		}},
		{"LogicalCluster child is deleted", absent("--context", "p", "get", "logicalcluster", "child")},
	}
	finished := map[string]time.Duration{}
	waitFor(t, 2*time.Minute, "the work started before the kill finishes", func() (bool, string) {
		var pending []string
		if leases && takeover() == 0 {
			pending = append(pending, "a running replica holding Lease "+shardLease(p))
		}
		for _, c := range checks {
			if _, ok := finished[c.what]; ok {
				continue
			}
			if c.done() {
				finished[c.what] = time.Since(killed)
			} else {
				pending = append(pending, c.what)
			}
		}
		return len(pending) == 0, "not yet: " + strings.Join(pending, "; ")
	})
	if leases {
		t.Logf("a running replica holds Lease %s %v after the kill", shardLease(p), takeover().Round(10*time.Millisecond))
	}
	for _, c := range checks {
		t.Logf("%s %v after the kill", c.what, finished[c.what].Round(100*time.Millisecond))
	}
	// The held work was left to the shard's owner: none but the replica
	// that took the shard over may have finished it. A second is allowed
	// for a read of the Lease that lags behind the new owner's first
	// writes.
	if leases {
		took := takeover()
		for _, what := range []string{"namespace doomed is deleted", "the foreground owner and its dependents are deleted"} {
			if finished[what] < took-time.Second {
				t.Errorf("%s %v after the kill, before another replica held the shard's Lease (%v): a replica that does not own the shard did its work",
					what, finished[what].Round(100*time.Millisecond), took.Round(100*time.Millisecond))
			}
		}
	}
	if childGoneAtKill {
		t.Logf("LogicalCluster child was gone before the kill: its deletion had no takeover to wait for in this run")
	}
}
