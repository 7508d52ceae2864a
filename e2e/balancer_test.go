package e2e

import (
	"testing"

	"github.com/canopy-dev/canopy/internal/tcpbalancer"
)

// balancer is the TCP load balancer in front of hub replicas
// (internal/tcpbalancer), shared with the benchmarks.
type balancer = tcpbalancer.Balancer

// startBalancer balances connections over backends, host:port
// addresses, until the test ends.
func startBalancer(t *testing.T, backends ...string) *balancer {
	t.Helper()
	b, err := tcpbalancer.Start(backends...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}
