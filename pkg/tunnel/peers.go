package tunnel

import (
	"bufio"
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// RelayProtocol is the Upgrade of a hub replica asking another for a
// stream through a tunnel that one holds.
const RelayProtocol = "canopy-tunnel-relay"

// RelayUser is the user, in group system:masters, of the client
// certificate with which a replica asks another for a stream: each
// replica signs its own with the CA the replicas share
// (pkg/identity), so that only a replica can.
const RelayUser = "system:canopy:tunnel-relay"

// Where a tunnel's record lives: a Lease in root's kube-system, beside
// the shards' (pkg/shard), named leasePrefix and the target's key.
const (
	leaseNamespace = "kube-system"
	leasePrefix    = "canopy-tunnel-"
	// AddressAnnotation holds, on a tunnel's Lease, the https URL at
	// which the other replicas reach the replica holding it.
	AddressAnnotation = "tunnel.canopy.dev/address"
)

// LeaseStore is what Peers needs of the hub's Lease store, written
// directly as the hub's own bookkeeping.
type LeaseStore interface {
	rest.Getter
	rest.Creater
	rest.Updater
	rest.GracefulDeleter
}

// PeerConfig is how a replica records its tunnels and reaches the
// others'.
type PeerConfig struct {
	Leases LeaseStore
	// Identity is this replica's, unique to its process.
	Identity string
	// Address is the https URL at which the other replicas reach this
	// one.
	Address string
	// TLS has RelayUser's client certificate and trusts the hub's CA.
	TLS *tls.Config
}

// NewPeers returns the Peers of c.
func NewPeers(c PeerConfig) Peers { return &leasePeers{c} }

type leasePeers struct{ PeerConfig }

func leaseContext(ctx context.Context) context.Context {
	return logicalcluster.WithCluster(genericapirequest.WithNamespace(ctx, leaseNamespace), logicalcluster.Root)
}

// Hold writes t's Lease naming this replica. It is written when the
// tunnel opens and deleted when it closes, never renewed: a quiet tunnel
// costs no write. A replica that dies leaves it naming that replica,
// which no longer answers, until the syncer opens its tunnel again at
// another, which writes over it.
func (p *leasePeers) Hold(ctx context.Context, t Target) (func(), error) {
	ctx, cancel := context.WithTimeout(leaseContext(context.WithoutCancel(ctx)), 10*time.Second)
	defer cancel()
	name := leasePrefix + t.Key()
	for range 3 {
		obj, err := p.Leases.Get(ctx, name, &metav1.GetOptions{})
		switch {
		case apierrors.IsNotFound(err):
			l := &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: leaseNamespace}}
			p.fill(l, t)
			_, err = p.Leases.Create(ctx, l, rest.ValidateAllObjectFunc, &metav1.CreateOptions{})
		case err == nil:
			l := obj.(*coordinationv1.Lease).DeepCopy()
			p.fill(l, t)
			_, _, err = p.Leases.Update(ctx, name, rest.DefaultUpdatedObjectInfo(l), rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{})
		}
		if apierrors.IsConflict(err) || apierrors.IsAlreadyExists(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		return func() { p.release(name) }, nil
	}
	return nil, fmt.Errorf("writing Lease %s: conflicts on every try", name)
}

func (p *leasePeers) fill(l *coordinationv1.Lease, t Target) {
	if l.Annotations == nil {
		l.Annotations = map[string]string{}
	}
	l.Annotations[AddressAnnotation] = p.Address
	l.Annotations["tunnel.canopy.dev/sync-target"] = t.String()
	l.Spec.HolderIdentity = ptr.To(p.Identity)
	l.Spec.AcquireTime = ptr.To(metav1.NewMicroTime(time.Now()))
}

// release deletes the Lease name if it still names this replica: the
// syncer may have opened its tunnel at another already.
func (p *leasePeers) release(name string) {
	ctx, cancel := context.WithTimeout(leaseContext(context.Background()), 10*time.Second)
	defer cancel()
	obj, err := p.Leases.Get(ctx, name, &metav1.GetOptions{})
	if err != nil {
		return
	}
	l := obj.(*coordinationv1.Lease)
	if ptr.Deref(l.Spec.HolderIdentity, "") != p.Identity {
		return
	}
	if _, _, err := p.Leases.Delete(ctx, name, rest.ValidateAllObjectFunc,
		&metav1.DeleteOptions{Preconditions: &metav1.Preconditions{ResourceVersion: &l.ResourceVersion}}); err != nil && !apierrors.IsNotFound(err) && !apierrors.IsConflict(err) {
		klog.ErrorS(err, "Deleting the Lease of a closed tunnel", "lease", name)
	}
}

// Dial asks the replica that t's Lease names for a stream through t's
// tunnel, and relays it.
func (p *leasePeers) Dial(ctx context.Context, t Target) (net.Conn, error) {
	obj, err := p.Leases.Get(leaseContext(ctx), leasePrefix+t.Key(), &metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, NotConnected(t)
	}
	if err != nil {
		return nil, apierrors.NewInternalError(fmt.Errorf("reading where the tunnel of SyncTarget %s is: %w", t, err))
	}
	l := obj.(*coordinationv1.Lease)
	holder, address := ptr.Deref(l.Spec.HolderIdentity, ""), l.Annotations[AddressAnnotation]
	if holder == p.Identity || address == "" {
		// This replica's tunnel closed before its Lease was deleted.
		return nil, NotConnected(t)
	}
	conn, err := p.relay(ctx, t, address)
	if err != nil {
		return nil, apierrors.NewServiceUnavailable(fmt.Sprintf(
			"the syncer of SyncTarget %s was last connected to hub replica %s, which did not relay to it (%v); it connects again to a live replica within seconds", t, holder, err))
	}
	return conn, nil
}

// relay opens a stream to t's syncer through the replica at address.
func (p *leasePeers) relay(ctx context.Context, t Target, address string) (net.Conn, error) {
	u, err := url.Parse(address + logicalcluster.PathPrefix + string(t.Cluster) + "/apis/" + workloadv1alpha1.SchemeGroupVersion.String() + "/synctargets/" + t.Name + "/" + Subresource)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	cfg := p.TLS.Clone()
	cfg.NextProtos = []string{"http/1.1"}
	var d tls.Dialer
	d.Config = cfg
	raw, err := d.DialContext(ctx, "tcp", u.Host)
	if err != nil {
		return nil, err
	}
	return Upgrade(ctx, raw, u, RelayProtocol)
}

// Upgrade sends, over conn, a GET of u upgrading to protocol, and
// returns conn once upgraded; it closes conn on failure.
func Upgrade(ctx context.Context, conn net.Conn, u *url.URL, protocol string) (net.Conn, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		conn.Close()
		return nil, err
	}
	req.Header.Set("Connection", "Upgrade")
	req.Header.Set("Upgrade", protocol)
	stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Now()) })
	defer stop()
	if err := req.Write(conn); err != nil {
		conn.Close()
		return nil, err
	}
	r := bufio.NewReader(conn)
	resp, err := http.ReadResponse(r, req)
	if err != nil {
		conn.Close()
		return nil, err
	}
	if resp.StatusCode != http.StatusSwitchingProtocols {
		body := make([]byte, 4096)
		n, _ := resp.Body.Read(body)
		conn.Close()
		return nil, fmt.Errorf("refused the upgrade: %s: %s", resp.Status, body[:n])
	}
	if !stop() {
		conn.Close()
		return nil, ctx.Err()
	}
	return Buffered(conn, r), nil
}
