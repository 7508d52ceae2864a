package shard

import (
	"sync"

	"k8s.io/component-base/metrics"
	"k8s.io/component-base/metrics/legacyregistry"
)

// The values of the change label of ownershipChanges.
const (
	changeGained   = "gained"
	changeLost     = "lost"
	changeReleased = "released"
)

// The values of the previous label of takeoverLatency.
const (
	previousExpired  = "expired"
	previousReleased = "released"
)

// The series of a replica's shards, in component-base's legacy registry,
// which the hub serves at /metrics. Several Managers in one process, as in
// tests, add up.
var (
	ownedShards = metrics.NewGauge(&metrics.GaugeOpts{
		Namespace:      "canopy",
		Subsystem:      "shard",
		Name:           "owned",
		Help:           "Shards of logical clusters this replica holds the lease of, out of 32.",
		StabilityLevel: metrics.ALPHA,
	})
	ownershipChanges = metrics.NewCounterVec(&metrics.CounterOpts{
		Namespace: "canopy",
		Subsystem: "shard",
		Name:      "ownership_changes_total",
		Help: "Shards this replica gained (acquired, or confirmed after its hold lapsed), lost (another replica took the lease " +
			"or the lease went away) or released (for another live replica, or on shutdown).",
		StabilityLevel: metrics.ALPHA,
	}, []string{"change"})
	takeoverLatency = metrics.NewHistogramVec(&metrics.HistogramOpts{
		Namespace: "canopy",
		Subsystem: "shard",
		Name:      "takeover_latency_seconds",
		Help: "Seconds from this replica first seeing the lease it waited on as it last was to acquiring the shard: for previous=expired, " +
			"from the previous holder's last member lease renewal (or the shard's lease, when that member lease was gone), about the lease duration plus a retry period; for previous=released, " +
			"from seeing it released.",
		Buckets:        []float64{0.1, 0.25, 0.5, 1, 2, 4, 8, 10, 12, 14, 16, 20, 30, 60},
		StabilityLevel: metrics.ALPHA,
	}, []string{"previous"})
)

var registerMetrics sync.Once

// register adds the series to the legacy registry, once per process,
// each change counting from zero.
func register() {
	registerMetrics.Do(func() {
		legacyregistry.MustRegister(ownedShards, ownershipChanges, takeoverLatency)
		for _, c := range []string{changeGained, changeLost, changeReleased} {
			ownershipChanges.WithLabelValues(c)
		}
	})
}
