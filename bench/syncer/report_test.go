package syncer

import (
	"bufio"
	"fmt"
	"io"
	"runtime"
	"text/tabwriter"
	"time"

	benchreport "github.com/canopy-dev/canopy/bench/internal/report"
)

// printReport prints the figures, the goals and the reference.
func printReport(out io.Writer, c config, r result, loadStart string) {
	bw := bufio.NewWriter(out)
	defer bw.Flush()
	fmt.Fprintf(bw, "\n=== Syncer benchmark: %d Deployments (%d replica(s) each) in %d logical clusters of a hub on PostgreSQL (fsync on),\n"+
		"server-side applied at %.0f/s, assigned round-robin to %d SyncTargets; %d physical clusters (kube-apiserver, controller-manager,\n"+
		"scheduler, etcd, kwok with %d nodes each), %d syncers as local processes; all share %d CPUs (GOMAXPROCS=%d here) ===\n\n",
		c.deployments, c.replicas, c.lcs, c.rate, c.targets, c.targets, r.Nodes, c.targets, runtime.NumCPU(), runtime.GOMAXPROCS(0))
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "figure\tp50 / p99 / max (count)\tgoal\t\tp99/goal\treference (Karmada pull)\tp99/reference\t")
	latency := func(name string, l benchreport.Latencies, goal bool) {
		if l.N == 0 {
			fmt.Fprintf(tw, "%s\tnone measured\t\t\t\t\t\t\n", name)
			return
		}
		figure := fmt.Sprintf("%.0f / %.0f / %.0f ms (%d)", ms(l.P50), ms(l.P99), ms(l.Max), l.N)
		if !goal {
			fmt.Fprintf(tw, "%s\t%s\t\t\t\t\t\t\n", name, figure)
			return
		}
		fmt.Fprintf(tw, "%s\t%s\tp99 <= %v\t%s\t%.2fx\tp99 %v\t%.2fx\t\n", name, figure, goalP99,
			benchreport.PassMiss(l.P99 <= goalP99), float64(l.P99)/float64(goalP99), karmadaP99, float64(l.P99)/float64(karmadaP99))
	}
	latency("down: hub apply -> created downstream", r.Down, true)
	latency("  from the apply's return", r.DownFromReturn, false)
	latency("  the apply call itself", r.ApplyCall, false)
	latency("up: rolled out downstream -> hub status", r.Up, true)
	if r.UpNegative > 0 {
		fmt.Fprintf(tw, "  seen at the hub before downstream (watch lag here)\t%d\t\t\t\t\t\t\n", r.UpNegative)
	}
	latency("apply -> rolled out at the hub (end to end)", r.EndToEnd, false)
	fmt.Fprintf(tw, "applies\t%d in %v (%.1f/s)\t\t\t\t\t\t\n", c.deployments, r.ApplyWall.Round(time.Millisecond), float64(c.deployments)/r.ApplyWall.Seconds())
	fmt.Fprintf(tw, "first apply -> last rolled out at the hub\t%v\t\t\t\t\t\t\n", r.ConvergeWall.Round(time.Millisecond))
	if cpu := r.CPU; len(cpu.Groups) == 3 && cpu.Machine > 0 {
		fmt.Fprintf(tw, "CPU, first apply to all rolled out: hub / syncers / physical clusters\t%.1f / %.1f / %.1f s\t\t\t\t\t\t\n",
			cpu.Groups[0].Seconds(), cpu.Groups[1].Seconds(), cpu.Groups[2].Seconds())
		fmt.Fprintf(tw, "  the machine, busy (PostgreSQL, this process and others too)\t%.1f of %.1f CPU-s (%.0f%%)\t\t\t\t\t\t\n",
			cpu.MachineBusy.Seconds(), cpu.Machine.Seconds(), 100*float64(cpu.MachineBusy)/float64(cpu.Machine))
	}
	if r.Missing != (missing{}) {
		fmt.Fprintf(tw, "never seen: created / rolled out downstream / at the hub\t%d / %d / %d\t\t\t\t\t\t\n",
			r.Missing.Created, r.Missing.DownRolledOut, r.Missing.HubRolledOut)
	}
	for i, s := range r.Syncers {
		fmt.Fprintf(tw, "syncer %s, idle %v after convergence: CPU\t%.2f%% of a core\t\t\t\t\t\t\n", s.Name, c.idle, s.Idle.CPUPercent)
		fmt.Fprintf(tw, "  RSS idle (min / max) ; with nothing assigned\t%.1f / %.1f MiB ; %.1f MiB\t\t\t\t\t\t\n",
			mib(s.Idle.RSSMinKiB), mib(s.Idle.RSSMaxKiB), mib(s.RSSEmptyKiB))
		fmt.Fprintf(tw, "  errors retried (log lines)\t%d\t\t\t\t\t\t\n", r.Retries[i])
	}
	fmt.Fprintf(tw, "hub, same idle period: CPU ; RSS\t%.2f%% of a core ; %.1f MiB\t\t\t\t\t\t\n", r.HubIdle.CPUPercent, mib(r.HubIdle.RSSMaxKiB))
	tw.Flush()
	fmt.Fprintf(bw, "\nMachine load average (1, 5, 15 min): %s at the start, %s at the end, on %d CPUs.\n", loadStart, benchreport.LoadAverage(), runtime.NumCPU())
	fmt.Fprintf(bw, "Logs: %s/hub.log,", c.out)
	for _, s := range r.Syncers {
		fmt.Fprintf(bw, " %s", s.Log)
	}
	fmt.Fprintf(bw, "; each Deployment's times: %s", r.Times)
	fmt.Fprintf(bw, "\n\nGoals (reported, not enforced); Karmada's pull mode publishes p99 %v:\n", karmadaP99)
	for _, g := range []struct {
		name string
		l    benchreport.Latencies
	}{{"hub apply -> created downstream", r.Down}, {"downstream status -> hub status", r.Up}} {
		fmt.Fprintf(bw, "  %s p99 <= %v: %.0f ms (%.2fx the goal, %.2fx Karmada's)  %s\n", g.name, goalP99, ms(g.l.P99),
			float64(g.l.P99)/float64(goalP99), float64(g.l.P99)/float64(karmadaP99), benchreport.PassMiss(g.l.N > 0 && g.l.P99 <= goalP99))
	}
}

func mib(kib int64) float64 { return float64(kib) / 1024 }
