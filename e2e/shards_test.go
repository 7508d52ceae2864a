package e2e

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/canopy-dev/canopy/internal/pgtest"
)

// shardLeases is what `kubectl get leases -n kube-system` in root shows of
// the hub replicas' shards: the members, and how many shards each holds.
type shardLeases struct {
	members []string
	held    map[string]int
	free    int
}

func readShardLeases(k kubectl) (shardLeases, error) {
	out, err := k.run("get", "leases", "-n", "kube-system",
		"-o", `jsonpath={range .items[*]}{.metadata.name}={.spec.holderIdentity}{"\n"}{end}`)
	if err != nil {
		return shardLeases{}, err
	}
	l := shardLeases{held: map[string]int{}}
	for _, line := range strings.Fields(out) {
		name, holder, _ := strings.Cut(line, "=")
		switch {
		case strings.HasPrefix(name, "canopy-member-"):
			l.members = append(l.members, holder)
		case strings.HasPrefix(name, "canopy-shard-") && holder == "":
			l.free++
		case strings.HasPrefix(name, "canopy-shard-"):
			l.held[holder]++
		}
	}
	slices.Sort(l.members)
	return l, nil
}

// balanced tells whether the members are n, and hold every one of the 32
// shards between them, each its fair share rounded down or up.
func (l shardLeases) balanced(n int) bool {
	if len(l.members) != n || l.free > 0 {
		return false
	}
	total := 0
	for _, m := range l.members {
		if c := l.held[m]; c != 32/n && c != (32+n-1)/n {
			return false
		}
		total += l.held[m]
	}
	return total == 32
}

// waitBalanced waits until the shard leases show n members sharing the
// shards evenly, and returns them.
func waitBalanced(t *testing.T, k kubectl, timeout time.Duration, what string, n int) shardLeases {
	t.Helper()
	var got shardLeases
	var err error
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if got, err = readShardLeases(k); err == nil && got.balanced(n) {
			return got
		}
	}
	t.Fatalf("after %s, still not %s: members %v, shards held %v, free %d (%v)", timeout, what, got.members, got.held, got.free, err)
	return got
}

// newMember is the one member of after that is not in before.
func newMember(t *testing.T, before, after shardLeases) string {
	t.Helper()
	for _, m := range after.members {
		if !slices.Contains(before.members, m) {
			return m
		}
	}
	t.Fatalf("no new member among %v", after.members)
	return ""
}

// TestShardLeases runs hub replicas on one PostgreSQL database and
// follows with kubectl the leases by which they share the shards of
// logical clusters: each holds its fair share; a replica killed with
// SIGKILL has its shards taken over once its leases expire; one stopped
// gracefully releases them before it exits.
func TestShardLeases(t *testing.T) {
	t.Parallel()
	h, k := startHub(t, buildHub(t), pgtest.Shared(t).NewDatabase(t))
	one := waitBalanced(t, k, 30*time.Second, "all 32 shards held by the lone hub", 1)
	if metrics := k.must("get", "--raw", "/metrics"); !strings.Contains(metrics, "canopy_shard_owned 32") {
		t.Errorf("the lone hub's /metrics does not say it owns 32 shards:\n%s", linesWith(metrics, "canopy_shard_"))
	}
	killed := startReplica(t, h)
	two := waitBalanced(t, k, 30*time.Second, "the shards split between two replicas", 2)
	killedID := newMember(t, one, two)
	stopped := startReplica(t, h)
	three := waitBalanced(t, k, 30*time.Second, "the shards split between three replicas", 3)
	stoppedID := newMember(t, two, three)

	// The killed replica's leases stay until they expire; the others take
	// its shards then, and delete its member lease.
	_ = killed.cmd.Process.Kill()
	_ = killed.cmd.Wait()
	killed.cmd = nil
	began := time.Now()
	after := waitBalanced(t, k, time.Minute, "the killed replica's shards taken over by the two left", 2)
	t.Logf("the two replicas left held every shard %s after the kill", time.Since(began).Round(100*time.Millisecond))
	if slices.Contains(after.members, killedID) {
		t.Errorf("the killed replica %s is still a member: %v", killedID, after.members)
	}

	// The replica stopped gracefully holds no shard and no member lease
	// by the time it has exited, long before any could expire.
	stopped.stop(t)
	got, err := readShardLeases(k)
	if err != nil {
		t.Fatal(err)
	}
	if got.held[stoppedID] > 0 || slices.Contains(got.members, stoppedID) {
		t.Errorf("replica %s stopped gracefully but left its leases: members %v, shards held %v", stoppedID, got.members, got.held)
	}
	waitBalanced(t, k, 30*time.Second, "the stopped replica's shards taken over", 1)
}

// linesWith is the lines of text that contain s.
func linesWith(text, s string) string {
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, s) {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}
