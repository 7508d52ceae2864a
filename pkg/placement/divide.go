package placement

import (
	"math/bits"
	"slices"
)

// apportion divides total among entries in proportion to weights,
// exactly: each share is the floor of its exact quota, and the units
// those floors leave go to the largest remainders, ties to the earlier
// entry. A share never exceeds its entry's cap: an entry whose share
// would is given its cap, and the rest is divided again among the
// others, whose quotas only grow by it. What the caps leave over is
// returned.
func apportion(total int64, weights []uint64, caps []int64) ([]int64, int64) {
	shares := make([]int64, len(weights))
	var active []int
	for i, w := range weights {
		if w > 0 && caps[i] > 0 {
			active = append(active, i)
		}
	}
	left := total
	for left > 0 && len(active) > 0 {
		ws := make([]uint64, len(active))
		for j, i := range active {
			ws[j] = weights[i]
		}
		quotas := largestRemainder(left, ws)
		var within []int
		capped := false
		for j, i := range active {
			if quotas[j] > caps[i] {
				shares[i] = caps[i]
				left -= caps[i]
				capped = true
				continue
			}
			within = append(within, i)
		}
		if !capped {
			for j, i := range active {
				shares[i] = quotas[j]
			}
			return shares, 0
		}
		active = within
	}
	return shares, left
}

// largestRemainder divides total, at least 0, among weights, not all 0,
// by the largest remainder method, in exact integer arithmetic.
func largestRemainder(total int64, weights []uint64) []int64 {
	weights = fitSum(weights)
	var sum uint64
	for _, w := range weights {
		sum += w
	}
	quotas := make([]int64, len(weights))
	remainders := make([]uint64, len(weights))
	given := int64(0)
	for i, w := range weights {
		// total*w/sum <= total, so the 128-bit product's high word is
		// below sum, as Div64 needs.
		hi, lo := bits.Mul64(uint64(total), w)
		q, r := bits.Div64(hi, lo, sum)
		quotas[i], remainders[i] = int64(q), r
		given += int64(q)
	}
	order := make([]int, len(weights))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case remainders[a] > remainders[b]:
			return -1
		case remainders[a] < remainders[b]:
			return 1
		}
		return 0
	})
	for _, i := range order[:total-given] {
		quotas[i]++
	}
	return quotas
}

// fitSum is weights, halved as often as needed for their sum to fit in
// 64 bits, none of them falling to 0: capacities in milli-units of bytes
// can overflow it.
func fitSum(weights []uint64) []uint64 {
	for {
		var sum, carry uint64
		for _, w := range weights {
			var c uint64
			sum, c = bits.Add64(sum, w, 0)
			carry |= c
		}
		if carry == 0 {
			return weights
		}
		halved := make([]uint64, len(weights))
		for i, w := range weights {
			halved[i] = w >> 1
			if w > 0 && halved[i] == 0 {
				halved[i] = 1
			}
		}
		weights = halved
	}
}
