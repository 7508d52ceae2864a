package ha

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	benchreport "github.com/canopy-dev/canopy/bench/internal/report"
)

// printReport prints each figure for each replica count, the median over
// the rounds, with the ratio of the last count to the first (3 replicas
// to 1 by default) and the goal; then each round's creates/s and load.
// results is by round, then by count.
func printReport(w io.Writer, results [][]result, clients int, loadStart string) {
	if len(results) == 0 || len(results[0]) == 0 {
		return
	}
	counts := results[0]
	first, last := counts[0].Replicas, counts[len(counts)-1].Replicas
	fmt.Fprintf(w, "\nHub replicas on one PostgreSQL, on one machine: medians of %d round(s), the counts interleaved (load average %s at the start, %s at the end)\n\n",
		len(results), loadStart, benchreport.LoadAverage())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	header := "figure\t"
	for _, r := range counts {
		header += fmt.Sprintf("%d replica(s)\t", r.Replicas)
	}
	fmt.Fprintf(tw, "%s%d vs %d\tgoal\t\n", header, last, first)

	// median is figure v's median over the rounds of the count at index
	// i, and whether any round has it.
	median := func(i int, v func(result) (float64, bool)) (float64, bool) {
		var xs []float64
		for _, round := range results {
			if i < len(round) {
				if x, ok := v(round[i]); ok {
					xs = append(xs, x)
				}
			}
		}
		return medianOf(xs), len(xs) > 0
	}
	// ratio is figure v's median for the last count over the first's.
	ratio := func(v func(result) (float64, bool)) (float64, bool) {
		a, okA := median(0, v)
		z, okZ := median(len(counts)-1, v)
		if !okA || !okZ || a == 0 {
			return 0, false
		}
		return z / a, true
	}
	// row prints one figure: its median for each count, the ratio, the
	// goal; a figure a count has not (cross-replica with one) is n/a.
	row := func(name string, v func(result) (float64, bool), format, goal string) {
		line := name + "\t"
		for i := range counts {
			if x, ok := median(i, v); ok {
				line += fmt.Sprintf(format+"\t", x)
			} else {
				line += "n/a\t"
			}
		}
		if x, ok := ratio(v); ok {
			line += fmt.Sprintf("%.2f\t", x)
		} else {
			line += "n/a\t"
		}
		fmt.Fprintf(tw, "%s%s\t\n", line, goal)
	}
	// atLeastFirst is the goal that the last count's median of v is not
	// below the first's.
	atLeastFirst := func(v func(result) (float64, bool)) string {
		x, ok := ratio(v)
		return fmt.Sprintf("%d vs %d >= 1: %s", last, first, benchreport.PassMiss(ok && x >= 1))
	}
	always := func(f func(result) float64) func(result) (float64, bool) {
		return func(r result) (float64, bool) { return f(r), true }
	}
	// measured is a figure of a phase that ran: a count whose watch or
	// LogicalCluster phase was left out has none.
	measured := func(f func(result) float64, ran func(result) bool) func(result) (float64, bool) {
		return func(r result) (float64, bool) { return f(r), ran(r) }
	}
	watched := func(r result) bool { return r.Same.N > 0 }
	madeLCs := func(r result) bool { return r.LCs > 0 }
	ms := benchreport.MS
	creates := always(func(r result) float64 { return r.CreatesPerSec })
	row(fmt.Sprintf("creates/s through the balancer, %d clients", clients), creates, "%.0f", atLeastFirst(creates))
	row("  creates a transaction (group commit)", always(func(r result) float64 { return r.CreatesPerCommit }), "%.1f", "")
	row("  failed creates", always(func(r result) float64 { return float64(r.CreateErrors) }), "%.0f", "")
	// perK is CPU seconds per 1,000 of n operations.
	perK := func(d time.Duration, n int) float64 { return d.Seconds() * 1000 / float64(max(n, 1)) }
	row("  CPU s per 1k creates, all replicas", always(func(r result) float64 { return perK(r.CreatesCPU.hubs(), r.Creates) }), "%.3f", "")
	for i := range last {
		row(fmt.Sprintf("  CPU s per 1k creates, replica %d", i+1), func(r result) (float64, bool) {
			if i >= len(r.CreatesCPU.Hubs) {
				return 0, false
			}
			return perK(r.CreatesCPU.Hubs[i], r.Creates), true
		}, "%.3f", "")
	}
	// What a replica spends following writes served by another, beyond
	// its idle CPU over the same time.
	row("  CPU s per 1k creates another replica served, each", func(r result) (float64, bool) {
		followers := len(r.FollowCPU.Hubs) - 1
		if followers < 1 || len(r.IdleMSPerSec) <= followers {
			return 0, false
		}
		used := r.FollowCPU.hubs() - r.FollowCPU.Hubs[0]
		for _, ms := range r.IdleMSPerSec[1 : followers+1] {
			used -= time.Duration(ms * r.FollowTook.Seconds() * float64(time.Millisecond))
		}
		return perK(used, r.Follows*followers), true
	}, "%.3f", "")
	row("  CPU s per 1k creates, PostgreSQL", always(func(r result) float64 { return perK(r.CreatesCPU.Postgres, r.Creates) }), "%.3f", "")
	row("  CPU s per 1k creates, clients and balancer", always(func(r result) float64 { return perK(r.CreatesCPU.Bench, r.Creates) }), "%.3f", "")
	row("  CPU s per 1k creates, all of them", always(func(r result) float64 {
		return perK(r.CreatesCPU.hubs()+r.CreatesCPU.Postgres+r.CreatesCPU.Bench, r.Creates)
	}), "%.3f", "")
	// The machine's other users show here: when it is full, the
	// replicas' share of it, not their cost, sets the rates.
	row("  machine busy while creating (%)", always(func(r result) float64 {
		return 100 * r.CreatesCPU.MachineBusy.Seconds() / max(r.CreatesCPU.Machine.Seconds(), 1e-9)
	}), "%.0f", "")
	row("idle CPU per replica (ms/s)", always(func(r result) float64 { return mean(r.IdleMSPerSec[:r.Replicas]) }), "%.1f", "")
	row("idle CPU of PostgreSQL (ms/s)", always(func(r result) float64 { return r.IdleMSPerSec[r.Replicas] }), "%.1f", "")
	sameWatch := func(f func(result) float64) func(result) (float64, bool) { return measured(f, watched) }
	crossWatch := func(f func(result) float64) func(result) (float64, bool) {
		return measured(f, func(r result) bool { return watched(r) && r.Replicas > 1 })
	}
	row("watch p50, same replica (ms)", sameWatch(func(r result) float64 { return ms(r.Same.P50) }), "%.1f", "")
	row("watch p99, same replica (ms)", sameWatch(func(r result) float64 { return ms(r.Same.P99) }), "%.1f", "")
	row("watch p50, cross-replica (ms)", crossWatch(func(r result) float64 { return ms(r.Cross.P50) }), "%.1f", "")
	row("watch p99, cross-replica (ms)", crossWatch(func(r result) float64 { return ms(r.Cross.P99) }), "%.1f", "")
	// The goal holds for the medians, as the rates' do: one round of a
	// loaded machine may delay either watch by more than the goal.
	crossExtra := crossWatch(func(r result) float64 { return ms(r.Cross.P99 - r.Same.P99) })
	crossOK := true
	for i := range counts {
		if extra, ok := median(i, crossExtra); ok && extra > ms(goalCrossExtra) {
			crossOK = false
		}
	}
	row("  cross p99 - same p99 (ms)", crossExtra, "%.1f",
		fmt.Sprintf("median <= %.0f ms: %s", ms(goalCrossExtra), benchreport.PassMiss(crossOK)))
	lcs := measured(func(r result) float64 { return r.LCsPerSec }, madeLCs)
	row("LogicalClusters Ready/s", lcs, "%.1f", atLeastFirst(lcs))
	row("  CPU s per 1k LCs, all replicas", measured(func(r result) float64 { return perK(r.LCsCPU.hubs(), r.LCs) }, madeLCs), "%.1f", "")
	row("  CPU s per 1k LCs, PostgreSQL", measured(func(r result) float64 { return perK(r.LCsCPU.Postgres, r.LCs) }, madeLCs), "%.1f", "")
	takeoverOK := true
	for _, round := range results {
		for _, r := range round {
			if madeLCs(r) && r.Replicas > 1 && (r.Takeover < 0 || r.Takeover > goalTakeover) {
				takeoverOK = false
			}
		}
	}
	// takeover is a takeover figure, which a count without shard Leases
	// has not.
	takeover := func(f func(result) time.Duration) func(result) (float64, bool) {
		return func(r result) (float64, bool) { return f(r).Seconds(), r.Replicas > 1 && f(r) >= 0 }
	}
	row("takeover: kill -9 to shard Lease held (s)", takeover(func(r result) time.Duration { return r.Takeover }), "%.1f",
		fmt.Sprintf("<= %.0f s every round: %s", goalTakeover.Seconds(), benchreport.PassMiss(takeoverOK)))
	row("takeover: kill -9 to LogicalCluster Ready (s)", takeover(func(r result) time.Duration { return r.TakeoverLC }), "%.1f", "")
	_ = tw.Flush()
	printRounds(w, results)
}

// printRounds prints each round's creates/s for each count, the load
// average as each count started, and the ratio of the last count to the
// first within the round, with the median of those ratios.
func printRounds(w io.Writer, results [][]result) {
	fmt.Fprintf(w, "\nEach round (creates/s, load average as the count started):\n")
	var ratios []float64
	for i, round := range results {
		var parts []string
		for _, r := range round {
			parts = append(parts, fmt.Sprintf("%d replica(s) %.0f/s (load %s)", r.Replicas, r.CreatesPerSec, r.Load))
		}
		line := fmt.Sprintf("  round %d: %s", i+1, strings.Join(parts, ", "))
		if a, z := round[0], round[len(round)-1]; len(round) > 1 && a.CreatesPerSec > 0 {
			ratios = append(ratios, z.CreatesPerSec/a.CreatesPerSec)
			line += fmt.Sprintf("; %d vs %d: %.2f", z.Replicas, a.Replicas, ratios[len(ratios)-1])
		}
		fmt.Fprintln(w, line)
	}
	if len(ratios) > 0 {
		fmt.Fprintf(w, "  median of the rounds' ratios: %.2f\n", medianOf(ratios))
	}
	var samples []string
	for _, r := range results[0] {
		samples = append(samples, fmt.Sprintf("%d replica(s): same %d, cross %d", r.Replicas, r.Same.N, r.Cross.N))
	}
	fmt.Fprintf(w, "\nwatch events timed in round 1: %s\n", strings.Join(samples, "; "))
}

// medianOf is the median of xs, 0 for none; it sorts xs.
func medianOf(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	m := len(xs) / 2
	if len(xs)%2 == 0 {
		return (xs[m-1] + xs[m]) / 2
	}
	return xs[m]
}

// mean is the average of xs, 0 for none.
func mean(xs []float64) float64 {
	var sum float64
	for _, x := range xs {
		sum += x
	}
	return sum / float64(max(len(xs), 1))
}
