package fairness

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// metrics is a scrape of a hub's /metrics: each series, name and labels
// as printed, to its value.
type metrics map[string]float64

func scrape(b *testing.B, t *target) metrics {
	body, err := t.get("/metrics")
	if err != nil {
		b.Fatalf("scraping the server: %v", err)
	}
	m := metrics{}
	for _, line := range strings.Split(string(body), "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if i < 0 {
			continue
		}
		if v, err := strconv.ParseFloat(line[i+1:], 64); err == nil {
			m[line[:i]] = v
		}
	}
	return m
}

// sum is the sum of the series of metric name whose labels hold every
// one of labels (as `key="value"`).
func (m metrics) sum(name string, labels ...string) float64 {
	var total float64
	for series, v := range m {
		if matches(series, name, labels) {
			total += v
		}
	}
	return total
}

func matches(series, name string, labels []string) bool {
	n, rest, _ := strings.Cut(series, "{")
	if n != name {
		return false
	}
	for _, l := range labels {
		if !strings.Contains(rest, l) {
			return false
		}
	}
	return true
}

// quantile is histogram name's q-quantile over the series whose labels
// hold labels, as the upper bound of the first bucket reaching it (so at
// most one bucket too high), or NaN without observations.
func (m metrics) quantile(name string, q float64, labels ...string) float64 {
	buckets := map[float64]float64{}
	for series, v := range m {
		if !matches(series, name+"_bucket", labels) {
			continue
		}
		i := strings.Index(series, `le="`)
		if i < 0 {
			continue
		}
		le := series[i+4:]
		le = le[:strings.IndexByte(le, '"')]
		bound, err := strconv.ParseFloat(le, 64)
		if err != nil {
			continue
		}
		buckets[bound] += v
	}
	bounds := make([]float64, 0, len(buckets))
	for bound := range buckets {
		bounds = append(bounds, bound)
	}
	sort.Float64s(bounds)
	if len(bounds) == 0 || buckets[bounds[len(bounds)-1]] == 0 {
		return math.NaN()
	}
	total := buckets[bounds[len(bounds)-1]]
	for _, bound := range bounds {
		if buckets[bound] >= q*total {
			return bound
		}
	}
	return math.Inf(1)
}

// since is m less an earlier scrape of the same server: counters and
// histograms over the time between, of the tenants' priority level.
func (m metrics) since(before metrics, level string) hubFigures {
	d := metrics{}
	for k, v := range m {
		d[k] = v - before[k]
	}
	workload := []string{`priority_level="` + level + `"`}
	var f hubFigures
	f.waitN = d.sum("apiserver_flowcontrol_request_wait_duration_seconds_count", workload...)
	if f.waitN > 0 {
		f.waitMean = d.sum("apiserver_flowcontrol_request_wait_duration_seconds_sum", workload...) / f.waitN
	}
	f.waitP99 = d.quantile("apiserver_flowcontrol_request_wait_duration_seconds", 0.99, workload...)
	if n := d.sum("apiserver_flowcontrol_request_execution_seconds_count", workload...); n > 0 {
		f.execMean = d.sum("apiserver_flowcontrol_request_execution_seconds_sum", workload...) / n
	}
	f.execP99 = d.quantile("apiserver_flowcontrol_request_execution_seconds", 0.99, workload...)
	f.rejected = d.sum("apiserver_flowcontrol_rejected_requests_total")
	f.gcPauses = d.sum("go_gc_duration_seconds_count")
	f.gcPause = d.sum("go_gc_duration_seconds_sum")
	f.schedP99 = d.quantile("go_sched_latencies_seconds", 0.99)
	f.statements = d.sum("canopy_sqlstorage_statements_total")
	return f
}

// hubFigures are what the hub's metrics say of a phase.
type hubFigures struct {
	waitN, waitMean, waitP99 float64 // seconds queued in the workload level
	execMean, execP99        float64 // seconds executing in it
	rejected                 float64 // requests refused 429
	gcPauses, gcPause        float64 // GC cycles and their stop-the-world seconds
	schedP99                 float64 // goroutines' wait to run, seconds
	statements               float64
}

func (s sample) summary() string {
	secs := s.elapsed.Seconds()
	h := s.hub
	return fmt.Sprintf("flood %.0f ops/s (%d errors); CPU server %.2f load %.2f; tenants' level: %.0f req/s, wait mean %.1f p99≤%.0f ms, exec mean %.1f p99≤%.0f ms; %.0f rejected; GC %.1f/s, pauses %.2f ms/s; sched p99≤%.2f ms; %.0f SQL/s",
		s.floodOps, s.floodErr, s.hubCPU.Seconds()/secs, s.loadCPU.Seconds()/(secs+warmUp.Seconds()),
		h.waitN/secs, h.waitMean*1e3, h.waitP99*1e3, h.execMean*1e3, h.execP99*1e3, h.rejected,
		h.gcPauses/secs, h.gcPause*1e3/secs, h.schedP99*1e3, h.statements/secs)
}
