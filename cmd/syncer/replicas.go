package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"k8s.io/component-base/metrics"
	"k8s.io/component-base/metrics/legacyregistry"
	"k8s.io/klog/v2"
)

// replicaDialTimeout bounds one connection attempt to a replica, so that
// a replica whose machine is gone, which answers nothing rather than
// refusing, holds the syncer up that long before it tries the next.
const replicaDialTimeout = 5 * time.Second

// The keepalives of connections to the hub. A replica killed with its
// machine, or cut off behind a balancer, sends no reset: without them an
// idle connection, as a watch's, would wait for the kernel's two hours.
// The HTTP/2 pings notice it even while requests are in flight.
const (
	tcpKeepAliveIdle     = 5 * time.Second
	tcpKeepAliveInterval = 5 * time.Second
	tcpKeepAliveCount    = 3
	http2ReadIdleTimeout = 5 * time.Second
	http2PingTimeout     = 5 * time.Second
)

var replicaSwitches = metrics.NewCounter(&metrics.CounterOpts{
	Namespace:      "canopy",
	Subsystem:      "syncer",
	Name:           "hub_replica_switches_total",
	Help:           "Times the syncer moved to another hub replica of --hub-url because the one it used refused a connection, did not take it in time, or answered nothing on it.",
	StabilityLevel: metrics.ALPHA,
})

func init() {
	legacyregistry.MustRegister(replicaSwitches)
}

// hubReplicas sends the connections that the syncer's hub client makes to
// the server of its kubeconfig to one of the hub's replicas instead: the
// one that took the last connection, or, when it does not take this one,
// the next in order that does. Every request, the informers' watches
// among them, travels on those connections, so the syncer moves to
// another replica as soon as its connection to one breaks, and its
// informers watch again from their resourceVersions there.
//
// The requests still name the kubeconfig's server, and TLS verifies its
// name, as it would through a load balancer: every replica's serving
// certificate, issued by the hub's one CA, must name that server too
// (hub start --tls-san).
type hubReplicas struct {
	// server is the host:port the client dials for the kubeconfig's
	// server; other addresses, as a proxy's, are dialed as they are.
	server   string
	replicas []string
	current  atomic.Int32
	dial     func(ctx context.Context, network, address string) (net.Conn, error)
}

// newHubReplicas sends the connections to server, the kubeconfig's
// server URL, to the replicas at urls, each https://host:port; none means
// to server itself.
func newHubReplicas(server string, urls []string) (*hubReplicas, error) {
	from, err := hostPort(server)
	if err != nil {
		return nil, fmt.Errorf("the server of the hub kubeconfig: %w", err)
	}
	d := &net.Dialer{KeepAliveConfig: net.KeepAliveConfig{Enable: true, Idle: tcpKeepAliveIdle, Interval: tcpKeepAliveInterval, Count: tcpKeepAliveCount}}
	h := &hubReplicas{server: from, replicas: []string{from}, dial: d.DialContext}
	if len(urls) > 0 {
		h.replicas = nil
	}
	for _, u := range urls {
		u = strings.TrimSuffix(u, "/")
		if !strings.HasPrefix(u, "https://") || strings.Contains(strings.TrimPrefix(u, "https://"), "/") {
			return nil, fmt.Errorf("--hub-url %q must be a hub replica's https://host:port, without a path", u)
		}
		replica, err := hostPort(u)
		if err != nil {
			return nil, fmt.Errorf("--hub-url %q: %w", u, err)
		}
		h.replicas = append(h.replicas, replica)
	}
	return h, nil
}

// hostPort is the host:port a client dials for URL s.
func hostPort(s string) (string, error) {
	u, err := url.Parse(s)
	if err != nil {
		return "", err
	}
	if u.Hostname() == "" {
		return "", fmt.Errorf("%q names no host", s)
	}
	port := u.Port()
	if port == "" {
		port = "443"
	}
	return net.JoinHostPort(u.Hostname(), port), nil
}

// DialContext connects to the replica in use for the kubeconfig's server,
// or to the next that takes the connection, which it uses from then on.
func (h *hubReplicas) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	if address != h.server {
		return h.dial(ctx, network, address)
	}
	first := int(h.current.Load())
	var errs []error
	for i := range h.replicas {
		n := (first + i) % len(h.replicas)
		attempt, cancel := context.WithTimeout(ctx, replicaDialTimeout)
		conn, err := h.dial(attempt, network, h.replicas[n])
		cancel()
		if err == nil {
			if n != first && h.current.CompareAndSwap(int32(first), int32(n)) {
				replicaSwitches.Inc()
				klog.InfoS("Connected to another hub replica", "replica", h.replicas[n], "unreachable", h.replicas[first], "err", errors.Join(errs...))
			}
			return &replicaConn{Conn: conn, replicas: h, n: n}, nil
		}
		errs = append(errs, err)
		if ctx.Err() != nil {
			break
		}
	}
	return nil, errors.Join(errs...)
}

// replicaConn is a connection to replica n. A replica that takes
// connections but answers nothing on them, as one hung, or behind a
// balancer that lost it, is no better than one that refuses them: once
// such a connection is closed, as when the TLS handshake times out, the
// next goes to the next replica.
type replicaConn struct {
	net.Conn
	replicas *hubReplicas
	n        int
	answered atomic.Bool
}

func (c *replicaConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	if n > 0 && !c.answered.Load() {
		c.answered.Store(true)
	}
	return n, err
}

func (c *replicaConn) Close() error {
	h := c.replicas
	if !c.answered.Load() && len(h.replicas) > 1 {
		next := (c.n + 1) % len(h.replicas)
		if h.current.CompareAndSwap(int32(c.n), int32(next)) {
			replicaSwitches.Inc()
			klog.InfoS("A hub replica took a connection but answered nothing on it; connecting to the next", "replica", h.replicas[c.n], "next", h.replicas[next])
		}
	}
	return c.Conn.Close()
}
