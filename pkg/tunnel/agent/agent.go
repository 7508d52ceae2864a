package agent

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/hashicorp/yamux"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/tunnel"
)

// Agent keeps the syncer's tunnel to the hub open, serving the hub's
// requests inside it with a handler.
type Agent struct {
	target  tunnel.Target
	url     *url.URL
	tls     *tls.Config
	dial    func(ctx context.Context, network, address string) (net.Conn, error)
	handler http.Handler
}

// New returns the Agent of target's syncer, which reaches the hub as hub
// does, with its credential, and serves handler inside the tunnel.
func New(hub *rest.Config, target tunnel.Target, handler http.Handler) (*Agent, error) {
	base, _, _ := strings.Cut(strings.TrimSuffix(hub.Host, "/"), logicalcluster.PathPrefix)
	u, err := url.Parse(base + logicalcluster.PathPrefix + string(target.Cluster) + "/apis/" + workloadv1alpha1.SchemeGroupVersion.String() +
		"/synctargets/" + target.Name + "/" + tunnel.Subresource)
	if err != nil {
		return nil, fmt.Errorf("the hub's URL %q: %w", hub.Host, err)
	}
	a := &Agent{target: target, url: u, handler: handler}
	// The syncer's own transport carries its credential, which it may
	// replace without a restart, and its dialer, which picks a hub
	// replica and closes its connections when the credential changes: the
	// tunnel is then opened again with the new one.
	if t, ok := hub.Transport.(*http.Transport); ok && t.TLSClientConfig != nil {
		a.tls, a.dial = t.TLSClientConfig.Clone(), t.DialContext
	} else if a.tls, err = rest.TLSConfigFor(hub); err != nil {
		return nil, err
	}
	if a.dial == nil {
		d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
		a.dial = d.DialContext
	}
	if a.tls == nil {
		a.tls = &tls.Config{}
	}
	// An upgrade is HTTP/1.1 only.
	a.tls.NextProtos = []string{"http/1.1"}
	return a, nil
}

// Run keeps the tunnel open until ctx ends, opening it again, with
// backoff, whenever it closes or cannot be opened.
func (a *Agent) Run(ctx context.Context) {
	backoff := wait.Backoff{Duration: 200 * time.Millisecond, Factor: 2, Jitter: 0.2, Steps: 8, Cap: 10 * time.Second}
	delay := backoff
	for ctx.Err() == nil {
		start := time.Now()
		err := a.serveOnce(ctx)
		if ctx.Err() != nil {
			return
		}
		if time.Since(start) > time.Minute {
			// A tunnel that stayed up a while starts the backoff over.
			delay = backoff
		}
		wait := delay.Step()
		klog.InfoS("The tunnel to the hub closed; opening it again", "syncTarget", a.target.String(), "err", err, "after", wait)
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
	}
}

// serveOnce opens the tunnel and serves it until it closes.
func (a *Agent) serveOnce(ctx context.Context) error {
	conn, err := a.open(ctx)
	if err != nil {
		return err
	}
	mux, err := yamux.Server(conn, tunnel.MuxConfig())
	if err != nil {
		conn.Close()
		return err
	}
	klog.InfoS("Tunnel to the hub opened", "syncTarget", a.target.String(), "hub", a.url.Host)
	server := &http.Server{Handler: a.handler, ReadHeaderTimeout: 30 * time.Second}
	stop := context.AfterFunc(ctx, func() { mux.Close() })
	defer stop()
	go func() {
		<-mux.CloseChan()
		server.Close()
	}()
	// The session is the listener: each stream the hub opens is one
	// connection.
	err = server.Serve(mux)
	if errors.Is(err, http.ErrServerClosed) {
		err = errors.New("closed")
	}
	return err
}

// open connects to the hub and upgrades the connection to the tunnel.
func (a *Agent) open(ctx context.Context) (net.Conn, error) {
	dialCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	host := a.url.Host
	if a.url.Port() == "" {
		host = net.JoinHostPort(a.url.Hostname(), "443")
	}
	raw, err := a.dial(dialCtx, "tcp", host)
	if err != nil {
		return nil, err
	}
	cfg := a.tls.Clone()
	if cfg.ServerName == "" {
		cfg.ServerName = a.url.Hostname()
	}
	conn := tls.Client(raw, cfg)
	if err := conn.HandshakeContext(dialCtx); err != nil {
		raw.Close()
		return nil, err
	}
	return tunnel.Upgrade(dialCtx, conn, a.url, tunnel.Protocol)
}
