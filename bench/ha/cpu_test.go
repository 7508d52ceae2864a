package ha

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/canopy-dev/canopy/bench/internal/proc"
)

// cpuUse is the CPU time used so far by each replica, by PostgreSQL (the
// postmaster this benchmark started and its backends), by this process
// (the clients and the balancer) and by the whole machine.
type cpuUse struct {
	Hubs                 []time.Duration
	Postgres             time.Duration
	Bench                time.Duration
	MachineBusy, Machine time.Duration
}

// postmaster is the pid of the PostgreSQL server pgtest started as this
// process's child.
func postmaster(b *testing.B) int {
	pids := proc.Named(proc.Children(os.Getpid()), "postgres")
	if len(pids) != 1 {
		b.Fatalf("found %d postgres processes started by this benchmark, want the one postmaster", len(pids))
	}
	return pids[0]
}

// cpuSnapshot is the CPU time used so far by c's replicas, by PostgreSQL
// and by the machine; a process that cannot be read counts nothing.
func cpuSnapshot(c *replicas) cpuUse {
	var u cpuUse
	for _, h := range c.hubs {
		d, err := proc.CPUTime(h.PID())
		if err != nil {
			logf("CPU time of replica %d: %v", h.PID(), err)
		}
		u.Hubs = append(u.Hubs, d)
	}
	var err error
	if u.Postgres, err = proc.TreeCPUTime(c.postgres); err != nil {
		logf("CPU time of PostgreSQL: %v", err)
	}
	if u.Bench, err = proc.CPUTime(os.Getpid()); err != nil {
		logf("CPU time of this process: %v", err)
	}
	if u.MachineBusy, u.Machine, err = proc.MachineCPU(); err != nil {
		logf("the machine's CPU time: %v", err)
	}
	return u
}

// since is what was used from start to u.
func (u cpuUse) since(start cpuUse) cpuUse {
	d := cpuUse{Postgres: u.Postgres - start.Postgres, Bench: u.Bench - start.Bench, MachineBusy: u.MachineBusy - start.MachineBusy, Machine: u.Machine - start.Machine}
	for i := range u.Hubs {
		d.Hubs = append(d.Hubs, u.Hubs[i]-start.Hubs[i])
	}
	return d
}

// hubs is the CPU time of all replicas together.
func (u cpuUse) hubs() time.Duration {
	var t time.Duration
	for _, d := range u.Hubs {
		t += d
	}
	return t
}

// measureIdle is the CPU time each replica uses, per second, over d with
// no client request: polls, lease renewals, timers. It waits d first, for
// the replicas to finish starting: sharing out the shards, their
// controllers' first passes.
// PostgreSQL's, for the polls and renewals of them all, comes last.
func measureIdle(c *replicas, d time.Duration) []float64 {
	time.Sleep(d)
	start := cpuSnapshot(c)
	time.Sleep(d)
	used := cpuSnapshot(c).since(start)
	perSec := make([]float64, 0, len(used.Hubs)+1)
	for _, t := range append(used.Hubs, used.Postgres) {
		perSec = append(perSec, float64(t.Milliseconds())/d.Seconds())
	}
	return perSec
}

// profile fetches a CPU profile of secs seconds from every replica into
// out, in the background; the returned function waits for them.
func profile(c *replicas, out, phase string, secs int) func() {
	if secs <= 0 {
		return func() {}
	}
	var wg sync.WaitGroup
	for i, h := range c.hubs {
		wg.Go(func() {
			file := filepath.Join(out, fmt.Sprintf("hub-%d-of-%d-%s.pprof", i+1, len(c.hubs), phase))
			if err := h.FetchTo(fmt.Sprintf("/debug/pprof/profile?seconds=%d", secs), file, time.Duration(secs+60)*time.Second); err != nil {
				logf("CPU profile of replica %d: %v", i+1, err)
				return
			}
			logf("CPU profile of replica %d during %s: %s", i+1, phase, file)
		})
	}
	return wg.Wait
}
