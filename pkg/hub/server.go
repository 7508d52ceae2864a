package hub

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/netip"
	"path/filepath"
	"time"

	genericoptions "k8s.io/apiserver/pkg/server/options"

	"github.com/canopy-dev/canopy/pkg/admission/hublimits"
	"github.com/canopy-dev/canopy/pkg/customresource"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// Options configure a hub.
type Options struct {
	// DataDir holds the certificates, the admin kubeconfig and, by
	// default, the SQLite database.
	DataDir string
	// SecurePort is the HTTPS port.
	SecurePort int
	// BindAddress is the IP address the hub listens on.
	BindAddress net.IP
	// ExternalHostname is the host name or IP address clients reach the
	// hub by: the one in the admin kubeconfig and in each logical
	// cluster's URL.
	ExternalHostname string
	// TLSSANs are more names and IP addresses for the serving
	// certificate, besides loopback and ExternalHostname.
	TLSSANs []string
	// Datastore is a sqlstorage URL; empty means SQLite in DataDir.
	Datastore string
	// IdentityKeyFile holds the key that seals the hub's identity in the
	// datastore (pkg/identity); empty means IdentityKeyPath(DataDir).
	IdentityKeyFile string
	// OTLPEndpoint is the host:port of an OTLP/gRPC collector to send
	// traces to; empty means no tracing.
	OTLPEndpoint string
	// TracingSamplingRatePerMillion is how many requests in a million are
	// traced. A request of system:masters carrying a W3C traceparent
	// follows its client's decision instead, as in kube-apiserver.
	TracingSamplingRatePerMillion int32
	// TokenAuthFile is a CSV file of static bearer tokens, in
	// kube-apiserver's --token-auth-file format: token,user,uid,"group,…".
	TokenAuthFile string
	// CompactionInterval is how often the datastore drops history older
	// than one interval; zero disables compaction, as it does for
	// kube-apiserver's --etcd-compaction-interval.
	CompactionInterval time.Duration
	// SyncTargetHeartbeatTimeout is how long after its syncer's last
	// heartbeat a SyncTarget's Ready condition turns False; zero means
	// DefaultSyncTargetHeartbeatTimeout.
	SyncTargetHeartbeatTimeout time.Duration
	// CustomResourceLimits bound the depth and size of each custom
	// resource object; zero limits are customresource.DefaultLimits.
	CustomResourceLimits customresource.Limits
	// ServiceAccountMaxTokenExpiration is the longest a ServiceAccount
	// token may be valid: longer requests are shortened to it, with a
	// warning, as kube-apiserver's --service-account-max-token-expiration
	// does; zero means DefaultServiceAccountMaxTokenExpiration.
	ServiceAccountMaxTokenExpiration time.Duration
	// ServiceAccountIssuer is the https URL under which each logical
	// cluster's ServiceAccount issuer is, as <URL>/clusters/<name>, which
	// its tokens name and its OIDC discovery document says; empty means
	// https://<ExternalHostname>:<SecurePort>. Replicas behind one
	// address should all be given it.
	ServiceAccountIssuer string
	// SyncTargetEvictionTimeout is how long a SyncTarget stays not Ready
	// before the hub evicts it and lets go of what it held; zero means
	// DefaultSyncTargetEvictionTimeout.
	SyncTargetEvictionTimeout time.Duration
	// ServiceClusterIPRange is where the cluster IPs of Services come
	// from, in each logical cluster (pkg/serviceip); invalid means
	// DefaultServiceClusterIPRange.
	ServiceClusterIPRange netip.Prefix
	// Audit configures the audit log as kube-apiserver's --audit-* flags
	// do: nil, or no LogOptions.Path, writes none; no PolicyFile means
	// DefaultAuditPolicy.
	Audit *genericoptions.AuditOptions
	// HubLimits bound the logical clusters a parent holds and the size
	// of a built-in object; zero limits are not enforced.
	HubLimits hublimits.Limits
	// MaxRequestsInFlight is the requests this replica serves at once,
	// shared among the priority levels of package fairness; zero means
	// DefaultMaxRequestsInFlight.
	MaxRequestsInFlight int
	// DisablePriorityAndFairness serves requests first come first served
	// within MaxRequestsInFlight, as kube-apiserver's
	// --enable-priority-and-fairness=false does.
	DisablePriorityAndFairness bool
	// RequestTimeout is how long a request other than a watch may take,
	// from its headers to its answer, before it gets 504 Timeout, as
	// kube-apiserver's --request-timeout; zero means its one minute.
	RequestTimeout time.Duration
	// MaxSeatsPerClusterPercent is how much of the workload priority
	// level's seats one logical cluster may hold at once, its other
	// requests waiting in a line of their own (package fairness, share.go);
	// zero means fairness.DefaultSharePercent, 100 no cap.
	MaxSeatsPerClusterPercent int
}

// DefaultSyncTargetHeartbeatTimeout is four of the syncer's 10s
// heartbeats: a syncer is deemed gone after missing three in a row.
const DefaultSyncTargetHeartbeatTimeout = 40 * time.Second

// DefaultServiceAccountMaxTokenExpiration is two days: a token renewed
// by its client, as client-go and kubelet do at 80% of its life, never
// needs more, and a stolen one stops working soon.
const DefaultServiceAccountMaxTokenExpiration = 48 * time.Hour

// DefaultSyncTargetEvictionTimeout is how long a target may be down, as
// for a restart of its physical cluster, before the hub gives it up:
// twice placements' default grace period for moves, which placement
// makes make-before-break while the target may still come back.
const DefaultSyncTargetEvictionTimeout = 10 * time.Minute

// DefaultServiceClusterIPRange is kubeadm's default service subnet.
var DefaultServiceClusterIPRange = netip.MustParsePrefix("10.96.0.0/12")

// KubeconfigPath is where the hub writes the admin kubeconfig for dataDir.
func KubeconfigPath(dataDir string) string { return filepath.Join(dataDir, "admin.kubeconfig") }

// Run serves the hub until ctx ends. It tells out how to reach it once it
// serves.
func Run(ctx context.Context, o Options, out io.Writer) error {
	c, err := newConfig(ctx, o)
	if err != nil {
		return err
	}
	defer c.close()
	apis, err := newAPIStorage(c)
	if err != nil {
		return err
	}
	h, err := newHubServer(c, apis)
	if err != nil {
		return err
	}
	if h.shards, err = installShards(h.server, apis.Leases); err != nil {
		return err
	}
	// Root has no LogicalCluster to be set up by; every other logical
	// cluster is set up by the controller when its LogicalCluster is
	// created.
	if err := apis.setUp(ctx, logicalcluster.Root); err != nil {
		return fmt.Errorf("setting up %s: %w", logicalcluster.Root, err)
	}
	if err := h.installControllers(); err != nil {
		return err
	}
	if err := h.installReadyMessage(out); err != nil {
		return err
	}
	return h.server.PrepareRun().RunWithContext(ctx)
}
