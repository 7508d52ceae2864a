package report

import (
	"slices"
	"time"
)

// Latencies are the percentiles of a set of durations.
type Latencies struct {
	N             int
	P50, P99, Max time.Duration
}

// Summarize is the percentiles of d, by nearest rank; it sorts d.
func Summarize(d []time.Duration) Latencies {
	if len(d) == 0 {
		return Latencies{}
	}
	slices.Sort(d)
	// at is the smallest value with at least percent of all at or below it.
	at := func(percent int) time.Duration {
		return d[max((len(d)*percent+99)/100-1, 0)]
	}
	return Latencies{N: len(d), P50: at(50), P99: at(99), Max: d[len(d)-1]}
}

// MS is d in milliseconds, for printing.
func MS(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
