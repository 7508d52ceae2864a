package ha

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	benchreport "github.com/canopy-dev/canopy/bench/internal/report"
)

// printReport prints each figure for each replica count, the ratio of
// the last count to the first (3 replicas to 1 by default) and the goal.
func printReport(w io.Writer, results []result, clients int, loadStart string) {
	if len(results) == 0 {
		return
	}
	first, last := results[0], results[len(results)-1]
	fmt.Fprintf(w, "\nHub replicas on one PostgreSQL, on one machine (load average %s at the start, %s at the end)\n\n", loadStart, benchreport.LoadAverage())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	header := "figure\t"
	for _, r := range results {
		header += fmt.Sprintf("%d replica(s)\t", r.Replicas)
	}
	fmt.Fprintf(tw, "%s%d vs %d\tgoal\t\n", header, last.Replicas, first.Replicas)

	// row prints one figure: its value for each count, the ratio, the
	// goal; a figure a count has not (cross-replica with one) is n/a.
	row := func(name string, v func(result) (float64, bool), format, goal string) {
		line := name + "\t"
		for _, r := range results {
			if x, ok := v(r); ok {
				line += fmt.Sprintf(format+"\t", x)
			} else {
				line += "n/a\t"
			}
		}
		a, okA := v(first)
		z, okZ := v(last)
		if okA && okZ && a != 0 {
			line += fmt.Sprintf("%.2f\t", z/a)
		} else {
			line += "n/a\t"
		}
		fmt.Fprintf(tw, "%s%s\t\n", line, goal)
	}
	always := func(f func(result) float64) func(result) (float64, bool) {
		return func(r result) (float64, bool) { return f(r), true }
	}
	replicated := func(f func(result) float64) func(result) (float64, bool) {
		return func(r result) (float64, bool) { return f(r), r.Replicas > 1 }
	}
	ms := benchreport.MS
	row(fmt.Sprintf("creates/s through the balancer, %d clients", clients), always(func(r result) float64 { return r.CreatesPerSec }), "%.0f",
		fmt.Sprintf("%d vs 1 >= 1: %s", last.Replicas, benchreport.PassMiss(last.CreatesPerSec >= first.CreatesPerSec)))
	row("  failed creates", always(func(r result) float64 { return float64(r.CreateErrors) }), "%.0f", "")
	// perK is CPU seconds per 1,000 of n operations.
	perK := func(d time.Duration, n int) float64 { return d.Seconds() * 1000 / float64(max(n, 1)) }
	row("  CPU s per 1k creates, all replicas", always(func(r result) float64 { return perK(r.CreatesCPU.hubs(), r.Creates) }), "%.2f", "")
	row("  CPU s per 1k creates, each replica", always(func(r result) float64 { return perK(r.CreatesCPU.hubs(), r.Creates) / float64(r.Replicas) }), "%.2f", "")
	row("  CPU s per 1k creates, PostgreSQL", always(func(r result) float64 { return perK(r.CreatesCPU.Postgres, r.Creates) }), "%.2f", "")
	// The machine's other users show here: when it is full, the
	// replicas' share of it, not their cost, sets the rates.
	row("  machine busy while creating (%)", always(func(r result) float64 {
		return 100 * r.CreatesCPU.MachineBusy.Seconds() / max(r.CreatesCPU.Machine.Seconds(), 1e-9)
	}), "%.0f", "")
	row("idle CPU per replica (ms/s)", always(func(r result) float64 { return mean(r.IdleMSPerSec[:r.Replicas]) }), "%.1f", "")
	row("idle CPU of PostgreSQL (ms/s)", always(func(r result) float64 { return r.IdleMSPerSec[r.Replicas] }), "%.1f", "")
	row("watch p50, same replica (ms)", always(func(r result) float64 { return ms(r.Same.P50) }), "%.1f", "")
	row("watch p99, same replica (ms)", always(func(r result) float64 { return ms(r.Same.P99) }), "%.1f", "")
	row("watch p50, cross-replica (ms)", replicated(func(r result) float64 { return ms(r.Cross.P50) }), "%.1f", "")
	row("watch p99, cross-replica (ms)", replicated(func(r result) float64 { return ms(r.Cross.P99) }), "%.1f", "")
	crossOK := true
	for _, r := range results {
		if r.Replicas > 1 && r.Cross.P99-r.Same.P99 > goalCrossExtra {
			crossOK = false
		}
	}
	row("  cross p99 - same p99 (ms)", replicated(func(r result) float64 { return ms(r.Cross.P99 - r.Same.P99) }), "%.1f",
		fmt.Sprintf("<= %.0f ms: %s", ms(goalCrossExtra), benchreport.PassMiss(crossOK)))
	row("LogicalClusters Ready/s", always(func(r result) float64 { return r.LCsPerSec }), "%.1f",
		fmt.Sprintf("%d vs 1 >= 1: %s", last.Replicas, benchreport.PassMiss(last.LCsPerSec >= first.LCsPerSec)))
	row("  CPU s per 1k LCs, all replicas", always(func(r result) float64 { return perK(r.LCsCPU.hubs(), r.LCs) }), "%.1f", "")
	row("  CPU s per 1k LCs, PostgreSQL", always(func(r result) float64 { return perK(r.LCsCPU.Postgres, r.LCs) }), "%.1f", "")
	takeoverOK := true
	for _, r := range results {
		if r.Replicas > 1 && (r.Takeover < 0 || r.Takeover > goalTakeover) {
			takeoverOK = false
		}
	}
	// takeover is a takeover figure, which a count without shard Leases
	// has not.
	takeover := func(f func(result) time.Duration) func(result) (float64, bool) {
		return func(r result) (float64, bool) { return f(r).Seconds(), r.Replicas > 1 && f(r) >= 0 }
	}
	row("takeover: kill -9 to shard Lease held (s)", takeover(func(r result) time.Duration { return r.Takeover }), "%.1f",
		fmt.Sprintf("<= %.0f s: %s", goalTakeover.Seconds(), benchreport.PassMiss(takeoverOK)))
	row("takeover: kill -9 to LogicalCluster Ready (s)", takeover(func(r result) time.Duration { return r.TakeoverLC }), "%.1f", "")
	_ = tw.Flush()
	var samples []string
	for _, r := range results {
		samples = append(samples, fmt.Sprintf("%d replica(s): same %d, cross %d", r.Replicas, r.Same.N, r.Cross.N))
	}
	fmt.Fprintf(w, "\nwatch events timed: %s\n", strings.Join(samples, "; "))
}

// mean is the average of xs, 0 for none.
func mean(xs []float64) float64 {
	var sum float64
	for _, x := range xs {
		sum += x
	}
	return sum / float64(max(len(xs), 1))
}
