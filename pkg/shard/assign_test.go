package shard

import (
	"fmt"
	"slices"
	"testing"
)

// TestAssign checks that every shard gets a member, each member its fair
// share rounded down or up, the same whatever the members' order, and
// that a member joining moves a few shards, not all.
func TestAssign(t *testing.T) {
	if got := assign(nil); got != [Count]string{} {
		t.Errorf("no members: %v", got)
	}
	for trial := range 5 {
		var members []string
		var prev [Count]string
		for n := 1; n <= 12; n++ {
			members = append(members, fmt.Sprintf("hub-%d.example-%d", trial, n))
			owners := assign(members)
			load := map[string]int{}
			for s, m := range owners {
				if !slices.Contains(members, m) {
					t.Fatalf("%d members: shard %d went to %q", n, s, m)
				}
				load[m]++
			}
			for _, m := range members {
				if l := load[m]; l != Count/n && l != (Count+n-1)/n {
					t.Errorf("%d members: %s has %d shards, not its fair share %d or %d", n, m, l, Count/n, (Count+n-1)/n)
				}
			}
			reversed := slices.Clone(members)
			slices.Reverse(reversed)
			if assign(reversed) != owners {
				t.Errorf("%d members: the assignment depends on their order", n)
			}
			moved := 0
			for s := range Count {
				if prev[s] != "" && prev[s] != owners[s] {
					moved++
				}
			}
			// Rehashing everything would move all but a 1/n of them.
			if n > 2 && moved > Count/2 {
				t.Errorf("member %d joining moved %d shards", n, moved)
			}
			prev = owners
		}
	}
}
