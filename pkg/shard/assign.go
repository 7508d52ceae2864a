package shard

import (
	"cmp"
	"encoding/binary"
	"hash/fnv"
	"slices"
)

// assign gives each shard the member that should own it, among members:
// rendezvous hashing with bounded loads. Every pair of a shard and a
// member has a pseudo-random weight; the pairs are taken heaviest first,
// and a shard goes to the member of its first pair that still has room.
// Room is the fair share: Count/len(members) shards each, and one more
// for as many members as the remainder needs, so that every member owns
// its fair share, rounded down or up. Plain rendezvous hashing would move
// as few shards as possible when a member comes or goes, but leave one of
// three members with fifteen shards as often as not; the bound costs a
// few more moves and keeps the load even.
//
// Every replica that sees the same members computes the same assignment,
// whatever their order: it depends only on the set.
func assign(members []string) [Count]string {
	var owners [Count]string
	if len(members) == 0 {
		return owners
	}
	type pair struct {
		weight uint64
		shard  int
		member string
	}
	pairs := make([]pair, 0, Count*len(members))
	for _, m := range members {
		for s := range Count {
			pairs = append(pairs, pair{weight(s, m), s, m})
		}
	}
	// Ties are all but impossible with 64-bit weights; breaking them by
	// shard and member still keeps the order independent of members'.
	slices.SortFunc(pairs, func(a, b pair) int {
		return cmp.Or(cmp.Compare(b.weight, a.weight), cmp.Compare(a.shard, b.shard), cmp.Compare(a.member, b.member))
	})
	floor, extra := Count/len(members), Count%len(members)
	load := make(map[string]int, len(members))
	for _, p := range pairs {
		if owners[p.shard] != "" {
			continue
		}
		n := load[p.member]
		switch {
		case n < floor:
		case n == floor && extra > 0:
			extra--
		default:
			continue
		}
		owners[p.shard] = p.member
		load[p.member] = n + 1
	}
	return owners
}

// weight is the rendezvous weight of shard s for member m. FNV alone
// spreads names that differ in a suffix poorly, so its sum goes through
// SplitMix64's finalizer.
func weight(s int, m string) uint64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte(m))
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(s))
	_, _ = h.Write(b[:])
	z := h.Sum64()
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
