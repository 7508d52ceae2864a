package failover

import (
	"bufio"
	"fmt"
	"io"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	benchreport "github.com/canopy-dev/canopy/bench/internal/report"
)

// printReport prints the figures beside the goal.
func printReport(out io.Writer, c config, r result, loadStart string) {
	bw := bufio.NewWriter(out)
	defer bw.Flush()
	fmt.Fprintf(bw, "\n=== Failover benchmark: %d Deployments of %d replicas in root, divided by a Placement over %d SyncTargets in region=eu\n"+
		"(physical clusters pc1..pc%d: kube-apiserver, controller-manager, scheduler, etcd, kwok with %d nodes each; syncers as local processes),\n"+
		"hub on PostgreSQL with heartbeat timeout %v (syncers report every 10s), placement grace period %v; pc1's syncer killed with SIGKILL;\n"+
		"all share %d CPUs ===\n\n",
		c.deployments, c.replicas, c.targets, c.targets, nodes, c.heartbeat, c.grace, runtime.NumCPU())
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "from the kill to\tp50 / p99 / max (count)\tgoal\t\tmax/goal\t")
	fmt.Fprintf(tw, "SyncTarget pc1 NotReady (once)\t%s\t(%v after the last heartbeat)\t\t\t\n", seconds(r.NotReady), c.heartbeat)
	fmt.Fprintf(tw, "  pc1's last heartbeat before the kill\t%s earlier\t\t\t\t\n", seconds(r.LastHeartbeat))
	latency := func(name string, l benchreport.Latencies, goal time.Duration) {
		if l.N == 0 {
			fmt.Fprintf(tw, "%s\tnone measured\t\t\t\t\n", name)
			return
		}
		figure := fmt.Sprintf("%s / %s / %s (%d)", seconds(l.P50), seconds(l.P99), seconds(l.Max), l.N)
		if goal == 0 {
			fmt.Fprintf(tw, "%s\t%s\t\t\t\t\n", name, figure)
			return
		}
		fmt.Fprintf(tw, "%s\t%s\t<= %v\t%s\t%.2fx\t\n", name, figure, goal, benchreport.PassMiss(l.Max <= goal), float64(l.Max)/float64(goal))
	}
	latency("move started: pc1's share assigned elsewhere", r.MoveStarted, 0)
	latency("  from NotReady (the grace period, and the queue)", r.MoveAfterNotReady, 0)
	latency("pc1 released at the hub", r.Released, 0)
	latency("hub N/N available, pc1 released", r.HubAvailable, 0)
	latency("N available downstream on the others", r.DownAvailable, 0)
	latency("all replicas Available elsewhere (both)", r.AvailableElsewhere, c.goal())
	fmt.Fprintf(tw, "released before running all elsewhere, as watched\t%d\t0\t%s\t\t\n", r.ReleasedEarly, benchreport.PassMiss(r.ReleasedEarly == 0))
	if r.NotDone > 0 {
		fmt.Fprintf(tw, "not Available elsewhere within %v\t%d\t\t\t\t\n", c.timeout, r.NotDone)
	}
	tw.Flush()
	fmt.Fprintf(bw, "\nMachine load average (1, 5, 15 min): %s at the start, %s at the end, on %d CPUs.\n", loadStart, benchreport.LoadAverage(), runtime.NumCPU())
	fmt.Fprintf(bw, "Logs: %s\n", strings.Join(r.Logs, ", "))
	fmt.Fprintf(bw, "\nGoal (reported, not enforced): failover within grace + 30 s = %v (heartbeat timeout %v, grace period %v):\n", c.goal(), c.heartbeat, c.grace)
	done := r.AvailableElsewhere.N > 0 && r.NotDone == 0
	fmt.Fprintf(bw, "  kill -> all replicas Available elsewhere, the last of %d Deployments: %s measured vs %v goal (%.2fx)  %s\n",
		c.deployments, seconds(r.AvailableElsewhere.Max), c.goal(), float64(r.AvailableElsewhere.Max)/float64(c.goal()),
		benchreport.PassMiss(done && r.AvailableElsewhere.Max <= c.goal()))
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.1f s", d.Seconds()) }
