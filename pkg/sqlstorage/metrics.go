package sqlstorage

import (
	"sync"

	"k8s.io/component-base/metrics"
	"k8s.io/component-base/metrics/legacyregistry"
)

// statements counts the SQL statements the stores run for requests, by
// operation (get, list, count, revision, insert, update, delete) and
// resource, in component-base's legacy registry, which the hub serves at
// /metrics. The background loops (the watch poller, compaction) serve no
// request and are left out, so a count over an interval is what the
// requests of that interval cost the database: what a test asserts to
// bound the reads a flood causes.
var statements = metrics.NewCounterVec(&metrics.CounterOpts{
	Namespace:      "canopy",
	Subsystem:      "sqlstorage",
	Name:           "statements_total",
	Help:           "SQL statements the stores ran for requests, by operation and resource; the watch poller's and compaction's are not counted.",
	StabilityLevel: metrics.ALPHA,
}, []string{"operation", "resource"})

var registerMetrics sync.Once

// register adds the series to the legacy registry, once per process.
func register() {
	registerMetrics.Do(func() { legacyregistry.MustRegister(statements) })
}
