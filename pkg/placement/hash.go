package placement

import "hash/fnv"

// hashString is a stable 64-bit hash of s, the same in every process.
func hashString(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// score is the rendezvous score of a target for an object, from their
// hashes: each object ranks the targets in its own order, so that
// objects spread evenly over equal targets, and a target added or
// removed changes the first choice of only the objects it wins or held.
func score(object, target uint64) uint64 {
	// splitmix64's finalizer, which spreads a one-bit change of its
	// input over every bit of its output.
	z := object ^ target
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
