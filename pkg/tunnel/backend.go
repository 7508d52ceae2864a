package tunnel

import (
	"context"
	"net"
	"sync/atomic"

	utilnet "k8s.io/apimachinery/pkg/util/net"
)

// ProxyBackend is conn as the backend connection of a proxied upgrade
// (exec, attach, port-forward): once a write to it has failed, it
// discards what it is given instead of failing.
//
// k8s.io/apimachinery's UpgradeAwareHandler, which the hub and the
// syncer proxy upgrades with, ends both directions as soon as one ends.
// A backend that has finished, as kwok does once a command ends, closes
// its connection while the client may still send (the end of stdin, a
// ping); the next write fails, and the handler would close the client's
// connection before copying what the backend sent last, which is the
// command's output and status. Reads go on, so the handler ends when the
// backend's output does, having relayed all of it; a backend that is
// gone fails its reads too.
func ProxyBackend(conn net.Conn) net.Conn { return &proxyBackend{Conn: conn} }

// DialProxyBackend is dial, its connections made ProxyBackends.
func DialProxyBackend(dial utilnet.DialFunc) utilnet.DialFunc {
	return func(ctx context.Context, network, address string) (net.Conn, error) {
		conn, err := dial(ctx, network, address)
		if err != nil {
			return nil, err
		}
		return ProxyBackend(conn), nil
	}
}

type proxyBackend struct {
	net.Conn
	failed atomic.Bool
}

func (c *proxyBackend) Write(b []byte) (int, error) {
	if !c.failed.Load() {
		if _, err := c.Conn.Write(b); err != nil {
			c.failed.Store(true)
		}
	}
	return len(b), nil
}
