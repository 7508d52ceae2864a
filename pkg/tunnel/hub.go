package tunnel

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/yamux"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/endpoints/handlers/responsewriters"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/klog/v2"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// Target names a SyncTarget.
type Target struct {
	Cluster logicalcluster.Name
	Name    string
}

func (t Target) String() string { return string(t.Cluster) + ":" + t.Name }

// Key is the target's key, as pods its syncer upsynced carry it in
// workloadv1alpha1.UpsyncedLabel.
func (t Target) Key() string { return workloadv1alpha1.TargetKey(string(t.Cluster), t.Name) }

// Dialer opens byte streams to the http.Handler the syncer of a target
// serves inside its tunnel. It is what the hub's pod subresources are
// carried over.
type Dialer interface {
	// Dial opens a stream to t's syncer, through whichever hub replica
	// holds its tunnel. The error is a *apierrors.StatusError: 503 when
	// t's syncer is not connected.
	Dial(ctx context.Context, t Target) (net.Conn, error)
}

// Hub holds the tunnels the syncers opened to this replica, one per
// target, and dials the others' through the replicas that hold them.
type Hub struct {
	mu      sync.Mutex
	tunnels map[Target]*tunnel
	// peers, when set, reaches the tunnels other replicas hold and
	// records those this one holds.
	peers Peers
}

// Peers is how replicas sharing a database find each other's tunnels.
type Peers interface {
	// Hold records that this replica holds t's tunnel, until release is
	// called.
	Hold(ctx context.Context, t Target) (release func(), err error)
	// Dial opens a stream to t's syncer through the replica that holds
	// its tunnel; a 503 if none does.
	Dial(ctx context.Context, t Target) (net.Conn, error)
}

// tunnel is one syncer's open tunnel.
type tunnel struct {
	uid string
	mux *yamux.Session
}

// NewHub returns a Hub holding no tunnel; peers may be nil, for a hub of
// one replica.
func NewHub(peers Peers) *Hub {
	return &Hub{tunnels: map[Target]*tunnel{}, peers: peers}
}

// NotConnected is the error for a target whose syncer has no tunnel open
// to any hub replica.
func NotConnected(t Target) error {
	return apierrors.NewServiceUnavailable(fmt.Sprintf(
		"the syncer of SyncTarget %s is not connected to the hub, so its pods cannot be reached now; check that it runs, and its logs, in its physical cluster", t))
}

var _ Dialer = &Hub{}

func (h *Hub) Dial(ctx context.Context, t Target) (net.Conn, error) {
	if conn, ok, err := h.DialLocal(t); ok {
		return conn, err
	}
	if h.peers == nil {
		return nil, NotConnected(t)
	}
	return h.peers.Dial(ctx, t)
}

// DialLocal opens a stream through t's tunnel if this replica holds it;
// false if it does not.
func (h *Hub) DialLocal(t Target) (net.Conn, bool, error) {
	h.mu.Lock()
	tun := h.tunnels[t]
	h.mu.Unlock()
	if tun == nil {
		return nil, false, nil
	}
	conn, err := tun.mux.OpenStream()
	if err != nil {
		return nil, true, apierrors.NewServiceUnavailable(fmt.Sprintf("the tunnel of the syncer of SyncTarget %s has just closed (%v); retry once it connects again", t, err))
	}
	return conn, true, nil
}

// Connected tells whether this replica holds t's tunnel.
func (h *Hub) Connected(t Target) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.tunnels[t] != nil
}

// RoundTripper carries HTTP requests to t's syncer through d: each on
// its own stream, in HTTP/1.1 without TLS, the tunnel being the
// syncer's TLS connection already. The host of the request's URL is not
// used.
func RoundTripper(d Dialer, t Target) http.RoundTripper {
	// No proxy, whatever the environment says: the stream is the way.
	return &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) { return d.Dial(ctx, t) },
		// A stream costs a frame to open; keeping it idle would keep
		// its window buffers.
		DisableKeepAlives: true,
	}
}

// serve runs t's tunnel over conn until it closes or ctx ends, replacing
// the one the target had on this replica.
func (h *Hub) serve(ctx context.Context, t Target, uid string, conn net.Conn) {
	mux, err := yamux.Client(conn, MuxConfig())
	if err != nil {
		conn.Close()
		klog.ErrorS(err, "Opening a tunnel", "syncTarget", t.String())
		return
	}
	tun := &tunnel{uid: uid, mux: mux}
	h.mu.Lock()
	old := h.tunnels[t]
	h.tunnels[t] = tun
	h.mu.Unlock()
	if old != nil {
		old.mux.Close()
	}
	release := func() {}
	if h.peers != nil {
		if release, err = h.peers.Hold(ctx, t); err != nil {
			klog.ErrorS(err, "Recording the tunnel for the other hub replicas", "syncTarget", t.String())
			release = func() {}
		}
	}
	klog.V(2).InfoS("Tunnel opened", "syncTarget", t.String(), "remote", conn.RemoteAddr())
	select {
	case <-ctx.Done():
	case <-mux.CloseChan():
	}
	mux.Close()
	h.mu.Lock()
	if h.tunnels[t] == tun {
		delete(h.tunnels, t)
	}
	h.mu.Unlock()
	release()
	klog.V(2).InfoS("Tunnel closed", "syncTarget", t.String(), "cause", context.Cause(ctx))
}

// Endpoint is the storage of synctargets/tunnel, at which each syncer
// opens its tunnel.
func (h *Hub) Endpoint() rest.Storage { return &endpoint{hub: h} }

type endpoint struct{ hub *Hub }

var _ rest.Connecter = &endpoint{}

func (e *endpoint) New() runtime.Object                               { return &workloadv1alpha1.SyncTarget{} }
func (e *endpoint) Destroy()                                          {}
func (e *endpoint) NewConnectOptions() (runtime.Object, bool, string) { return nil, false, "" }
func (e *endpoint) ConnectMethods() []string                          { return []string{http.MethodGet} }

// Connect takes a tunnel from the syncer of SyncTarget name only: not
// from anyone RBAC lets get synctargets/tunnel, since the hub would send
// that one requests meant for the pods of the target. The syncer's
// credential names its target's UID; the Revoker ends this request, and
// so the tunnel, once that credential is revoked, as when the
// SyncTarget is deleted. Another replica, as RelayUser, gets a stream
// through the tunnel instead.
func (e *endpoint) Connect(ctx context.Context, name string, _ runtime.Object, _ rest.Responder) (http.Handler, error) {
	cluster, _ := logicalcluster.ClusterFrom(ctx)
	t := Target{Cluster: cluster, Name: name}
	u, _ := genericapirequest.UserFrom(ctx)
	if isRelay(u) {
		return e.relay(t), nil
	}
	uid, err := syncerOf(u, t)
	if err != nil {
		return nil, apierrors.NewForbidden(workloadv1alpha1.Resource("synctargets"), name, err)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		conn, ok := upgrade(w, req, t, Protocol)
		if ok {
			e.hub.serve(req.Context(), t, uid, conn)
		}
	}), nil
}

// relay serves another replica's request for a stream through t's
// tunnel, which this one holds: it splices the two.
func (e *endpoint) relay(t Target) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		stream, held, err := e.hub.DialLocal(t)
		if !held {
			err = NotConnected(t)
		}
		if err != nil {
			writeError(w, err.(*apierrors.StatusError))
			return
		}
		defer stream.Close()
		conn, ok := upgrade(w, req, t, RelayProtocol)
		if !ok {
			return
		}
		defer conn.Close()
		done := make(chan struct{}, 2)
		// Half-close is not relayed: the first direction to end ends
		// both, as in UpgradeAwareHandler, which the replicas proxy with.
		// A stream whose writes fail ends the relay only once what the
		// syncer sent last is relayed too (ProxyBackend).
		for _, c := range [][2]net.Conn{{ProxyBackend(stream), conn}, {conn, stream}} {
			go func() {
				_, _ = io.Copy(c[0], c[1])
				done <- struct{}{}
			}()
		}
		select {
		case <-done:
		case <-req.Context().Done():
		}
	})
}

// isRelay tells whether u is another hub replica asking for a relay.
func isRelay(u user.Info) bool {
	return u != nil && u.GetName() == RelayUser && slices.Contains(u.GetGroups(), user.SystemPrivilegedGroup)
}

// upgrade switches req's connection to protocol and takes it from the
// server; false if it could not, having answered.
func upgrade(w http.ResponseWriter, req *http.Request, t Target, protocol string) (net.Conn, bool) {
	if !strings.EqualFold(req.Header.Get("Upgrade"), protocol) {
		writeError(w, apierrors.NewBadRequest(fmt.Sprintf("the tunnel of SyncTarget %s is opened with the headers Connection: Upgrade and Upgrade: %s, over HTTP/1.1", t, protocol)))
		return nil, false
	}
	hijacker, ok := w.(http.Hijacker)
	if !ok {
		writeError(w, apierrors.NewBadRequest(fmt.Sprintf("the tunnel of SyncTarget %s needs HTTP/1.1, not %s", t, req.Proto)))
		return nil, false
	}
	conn, rw, err := hijacker.Hijack()
	if err != nil {
		klog.ErrorS(err, "Taking the connection of a tunnel", "syncTarget", t.String())
		return nil, false
	}
	if _, err := fmt.Fprintf(rw, "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: %s\r\n\r\n", protocol); err != nil || rw.Flush() != nil {
		conn.Close()
		return nil, false
	}
	// Hijacked, the connection has no deadline but those set here.
	_ = conn.SetDeadline(time.Time{})
	return Buffered(conn, rw.Reader), true
}

// syncerOf is the SyncTarget UID u's credential names if it is the
// credential of t's syncer.
func syncerOf(u user.Info, t Target) (string, error) {
	if u == nil {
		return "", errors.New("the tunnel is opened by the syncer only")
	}
	var named bool
	var uid string
	for _, g := range u.GetGroups() {
		if cluster, name, ok := workloadv1alpha1.SyncTargetOfGroup(g); ok && cluster == string(t.Cluster) && name == t.Name {
			named = true
		}
		if id, ok := workloadv1alpha1.SyncTargetUIDOfGroup(g); ok {
			uid = id
		}
	}
	if !named || uid == "" || u.GetName() != workloadv1alpha1.SyncerUser(t.Key()) {
		return "", fmt.Errorf("the tunnel of SyncTarget %s is opened by its syncer only, with the credential `hub synctarget create` or `rotate` issued for it, not by %s", t, u.GetName())
	}
	return uid, nil
}

// Buffered is conn, reading first what r read ahead of an upgrade's
// request or answer.
func Buffered(conn net.Conn, r *bufio.Reader) net.Conn { return &bufferedConn{Conn: conn, r: r} }

type bufferedConn struct {
	net.Conn
	r *bufio.Reader
}

func (c *bufferedConn) Read(b []byte) (int, error) { return c.r.Read(b) }

// writeError answers with err's Status.
func writeError(w http.ResponseWriter, err *apierrors.StatusError) {
	s := err.Status()
	s.TypeMeta = metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}
	responsewriters.WriteRawJSON(int(s.Code), s, w)
}
