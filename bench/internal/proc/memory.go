package proc

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Memory is what a hub holds at one moment.
type Memory struct {
	RSSKiB int64
	// HeapKiB is go_memstats_heap_alloc_bytes and HeapInuseKiB
	// go_memstats_heap_inuse_bytes, in KiB; Goroutines is go_goroutines.
	// Each is -1 when /metrics does not tell it.
	HeapKiB, HeapInuseKiB, Goroutines int64
}

// Memory reads the hub's RSS, Go heap and goroutines; with gc, it first
// makes the hub collect garbage (a heap profile with gc=1 does). A failed
// read is logged with logf and leaves the figures it would give at -1.
func (h *Hub) Memory(gc bool, logf func(format string, args ...any)) Memory {
	if gc {
		if _, err := h.Get("/debug/pprof/heap?gc=1", time.Minute); err != nil {
			logf("forcing a GC through /debug/pprof/heap?gc=1: %v", err)
		}
	}
	m := Memory{RSSKiB: RSSKiB(h.PID()), HeapKiB: -1, HeapInuseKiB: -1, Goroutines: -1}
	body, err := h.Get("/metrics", time.Minute)
	if err != nil {
		logf("/metrics: %v", err)
		return m
	}
	for line := range strings.SplitSeq(string(body), "\n") {
		f := strings.Fields(line)
		if len(f) != 2 {
			continue
		}
		v, err := strconv.ParseFloat(f[1], 64)
		if err != nil {
			continue
		}
		switch f[0] {
		case "go_goroutines":
			m.Goroutines = int64(v)
		case "go_memstats_heap_alloc_bytes":
			m.HeapKiB = int64(v / 1024)
		case "go_memstats_heap_inuse_bytes":
			m.HeapInuseKiB = int64(v / 1024)
		}
	}
	return m
}

func (m Memory) String() string {
	return fmt.Sprintf("RSS %.1f MiB, Go heap %s (in use %s), goroutines %s", float64(m.RSSKiB)/1024, mib(m.HeapKiB), mib(m.HeapInuseKiB), orNA(m.Goroutines, func(v int64) string { return strconv.FormatInt(v, 10) }))
}

func mib(kib int64) string {
	return orNA(kib, func(v int64) string { return fmt.Sprintf("%.1f MiB", float64(v)/1024) })
}

func orNA(v int64, f func(int64) string) string {
	if v < 0 {
		return "n/a"
	}
	return f(v)
}
