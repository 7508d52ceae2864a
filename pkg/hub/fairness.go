package hub

import (
	genericapiserver "k8s.io/apiserver/pkg/server"

	"github.com/canopy-dev/canopy/pkg/fairness"
)

// DefaultMaxRequestsInFlight is kube-apiserver's default seats, its
// --max-requests-inflight and --max-mutating-requests-inflight added.
const DefaultMaxRequestsInFlight = 600

// DefaultMaxSeatsPerClusterPercent is the share of the tenants' seats one
// logical cluster may hold at once unless told otherwise.
const DefaultMaxSeatsPerClusterPercent = fairness.DefaultSharePercent

// applyFairness gives cfg upstream's priority and fairness filter over the
// hub's own configuration (package fairness), sharing this replica's
// MaxRequestsInFlight seats, each logical cluster holding at most
// MaxSeatsPerClusterPercent of the tenants' level; with DisablePriorityAndFairness, the
// generic server's plain in-flight limits instead.
func applyFairness(cfg *genericapiserver.Config, o Options) {
	seats := o.MaxRequestsInFlight
	if seats <= 0 {
		seats = DefaultMaxRequestsInFlight
	}
	// Without priority and fairness, the generic server splits the same
	// seats between reads and writes as kube-apiserver's defaults do.
	cfg.MaxRequestsInFlight, cfg.MaxMutatingRequestsInFlight = seats*2/3, seats-seats*2/3
	if o.DisablePriorityAndFairness {
		return
	}
	share := o.MaxSeatsPerClusterPercent
	if share <= 0 {
		share = DefaultMaxSeatsPerClusterPercent
	}
	cfg.FlowControl = fairness.New(seats, share, cfg.Authorization.Authorizer)
}
