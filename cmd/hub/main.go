package main

import (
	"fmt"
	"math"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"
	genericapiserver "k8s.io/apiserver/pkg/server"
	genericoptions "k8s.io/apiserver/pkg/server/options"
	"k8s.io/component-base/cli"

	"github.com/canopy-dev/canopy/pkg/admission/hublimits"
	"github.com/canopy-dev/canopy/pkg/customresource"
	"github.com/canopy-dev/canopy/pkg/hub"
)

func main() {
	// kubectl runs plugin kubectl-lc for `kubectl lc …`; a symlink of
	// that name to this binary makes the kubeconfig commands the plugin.
	if filepath.Base(os.Args[0]) == pluginName {
		os.Exit(cli.Run(newKubeconfigCommand("kubectl lc")))
	}
	os.Exit(cli.Run(newRootCommand()))
}

func newRootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "hub",
		Short: "Canopy's hub: one API server hosting many logical clusters",
	}
	root.AddCommand(newStartCommand(), newInitCommand(), newKubeconfigCommand("kubeconfig"), newSyncTargetCommand(), newPlacementCommand(), newRolloutCommand())
	return root
}

func newStartCommand() *cobra.Command {
	o := hub.Options{Audit: genericoptions.NewAuditOptions()}
	var configFile, serviceRange string
	fairness := true
	var datastore datastoreFlags
	cmd := &cobra.Command{
		Use:   "start",
		Short: "Serve the hub until interrupted",
		Long: `Serve the hub on https://<bind-address>:<secure-port>.

The hub's identity, its certificate authority and ServiceAccount signing key,
lives in the datastore, sealed with the key in --identity-key-file, and is
shared by every replica on that datastore; the first start creates it (see hub
init). Every start writes the CA into <data-dir>/pki, issues this replica's
serving and admin client certificates there, and writes
<data-dir>/admin.kubeconfig, whose context "root" reaches the
root logical cluster. A LogicalCluster named <child> created in logical cluster
<parent> makes logical cluster <parent>:<child>, served at
/clusters/<parent>:<child>.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := applyConfigFile(cmd.Flags(), configFile); err != nil {
				return err
			}
			if o.CompactionInterval < 0 {
				return fmt.Errorf("--compaction-interval %v is negative; 0 disables compaction", o.CompactionInterval)
			}
			if o.SyncTargetHeartbeatTimeout <= 0 {
				return fmt.Errorf("--sync-target-heartbeat-timeout %v must be positive", o.SyncTargetHeartbeatTimeout)
			}
			if err := validateLimits(o); err != nil {
				return err
			}
			o.DisablePriorityAndFairness = !fairness
			if o.SyncTargetEvictionTimeout <= 0 {
				return fmt.Errorf("--sync-target-eviction-timeout %v must be positive", o.SyncTargetEvictionTimeout)
			}
			var err error
			if o.Datastore, err = datastore.datastore(cmd.Flags()); err != nil {
				return err
			}
			if o.ServiceClusterIPRange, err = netip.ParsePrefix(serviceRange); err != nil {
				return fmt.Errorf("--service-cluster-ip-range %q is no CIDR, as 10.96.0.0/12: %v", serviceRange, err)
			}
			if o.SecurePort <= 0 || o.SecurePort > 65535 {
				return fmt.Errorf("--secure-port %d is not a port", o.SecurePort)
			}
			return hub.Run(genericapiserver.SetupSignalContext(), o, cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&configFile, "config", "", "YAML file setting any of these flags by name, as in \"secure-port: 7443\"; flags on the command line win")
	cmd.Flags().StringVar(&o.DataDir, "data-dir", ".canopy", "directory for the hub's certificates, admin kubeconfig and SQLite database")
	cmd.Flags().IntVar(&o.SecurePort, "secure-port", 6443, "HTTPS port")
	cmd.Flags().IPVar(&o.BindAddress, "bind-address", net.IPv4(127, 0, 0, 1), "IP address to listen on; 0.0.0.0 for every interface")
	cmd.Flags().StringVar(&o.ExternalHostname, "external-hostname", "127.0.0.1", "host name or IP address clients reach the hub by, written into kubeconfigs and logical-cluster URLs")
	cmd.Flags().StringSliceVar(&o.TLSSANs, "tls-san", nil, "more host names or IP addresses for the serving certificate")
	datastore.addFlags(cmd.Flags())
	cmd.Flags().StringVar(&o.IdentityKeyFile, "identity-key-file", "", identityKeyFileUsage)
	cmd.Flags().StringVar(&o.TokenAuthFile, "token-auth-file", "", `CSV file of static bearer tokens, one "token,user,uid,\"group1,group2\"" a line, as kube-apiserver reads it; a token's user is the same in every logical cluster`)
	cmd.Flags().DurationVar(&o.CompactionInterval, "compaction-interval", 5*time.Minute, "how often the datastore drops the history of changes older than one interval (watches and lists from before then get 410 Gone); 0 never does")
	cmd.Flags().DurationVar(&o.SyncTargetHeartbeatTimeout, "sync-target-heartbeat-timeout", hub.DefaultSyncTargetHeartbeatTimeout, "how long after its syncer last reported a SyncTarget's Ready condition turns False (reason HeartbeatTimeout); syncers report every 10s")
	cmd.Flags().IntVar(&o.CustomResourceLimits.MaxDepth, "custom-resource-max-depth", customresource.DefaultLimits.MaxDepth, "how deep maps and lists may nest in a custom resource object (the object being 1, its managedFields left out); a deeper one is refused with 422 Invalid")
	cmd.Flags().IntVar(&o.CustomResourceLimits.MaxBytes, "custom-resource-max-bytes", customresource.DefaultLimits.MaxBytes, "the largest a custom resource object may be, encoded as JSON; a larger one is refused with 413 RequestEntityTooLarge")
	cmd.Flags().StringVar(&o.ServiceAccountIssuer, "service-account-issuer", "", "the https URL each logical cluster's ServiceAccount issuer is under, as <URL>/clusters/<name>: the iss of its tokens and the issuer of its OIDC discovery document; empty means https://<external-hostname>:<secure-port>")
	cmd.Flags().DurationVar(&o.ServiceAccountMaxTokenExpiration, "service-account-max-token-expiration", hub.DefaultServiceAccountMaxTokenExpiration, "the longest a ServiceAccount token may be valid; a TokenRequest for longer is shortened to it, with a warning, as by kube-apiserver's flag of that name")
	cmd.Flags().DurationVar(&o.SyncTargetEvictionTimeout, "sync-target-eviction-timeout", hub.DefaultSyncTargetEvictionTimeout, "how long a SyncTarget stays not Ready before the hub evicts it (condition Evicted) and lets go of what it held: its finalizers, assignments, status reports, pods and Events; placement moves its share to others")
	cmd.Flags().StringVar(&serviceRange, "service-cluster-ip-range", hub.DefaultServiceClusterIPRange.String(), "CIDR the cluster IPs of Services come from, allocated in each logical cluster apart; the physical clusters allocate their own")
	cmd.Flags().StringVar(&o.Audit.LogOptions.Path, "audit-log-path", "", `file to append the audit log to, one audit.k8s.io/v1 Event in JSON a line, each naming its logical cluster in annotation canopy.dev/cluster; "-" is standard output; unset writes none`)
	cmd.Flags().StringVar(&o.Audit.PolicyFile, "audit-policy-file", "", "audit.k8s.io/v1 Policy saying which requests --audit-log-path records and at what level; unset means the hub's default: changes to placements, constraints, SyncTargets, LogicalClusters and RBAC with their objects, other changes without, no reads, as written to <data-dir>/default-audit-policy.yaml")
	cmd.Flags().IntVar(&o.Audit.LogOptions.MaxAge, "audit-log-maxage", o.Audit.LogOptions.MaxAge, "days to keep rotated audit log files, by the time in their names; 0 keeps them whatever their age")
	cmd.Flags().IntVar(&o.Audit.LogOptions.MaxBackups, "audit-log-maxbackup", o.Audit.LogOptions.MaxBackups, "rotated audit log files to keep; 0 keeps them all")
	cmd.Flags().IntVar(&o.Audit.LogOptions.MaxSize, "audit-log-maxsize", o.Audit.LogOptions.MaxSize, "megabytes the audit log file reaches before it is rotated; 0 never rotates it")
	cmd.Flags().StringVar(&o.OTLPEndpoint, "otlp-endpoint", "", "host:port of an OTLP/gRPC collector (plaintext) to send a trace of each request, down to its SQL statements, to; unset means no tracing")
	cmd.Flags().Int32Var(&o.TracingSamplingRatePerMillion, "tracing-sampling-rate-per-million", 1000000, "with --otlp-endpoint, how many requests in a million to trace; a system:masters request carrying a W3C traceparent follows its client's decision instead")
	cmd.Flags().IntVar(&o.HubLimits.LogicalClustersPerParent, "max-logical-clusters-per-parent", hublimits.DefaultLimits.LogicalClustersPerParent, "how many LogicalClusters one logical cluster may hold; a create past it is refused with 403 Forbidden (system:masters is not limited); 0 means no limit")
	cmd.Flags().IntVar(&o.HubLimits.ObjectBytes, "max-object-bytes", hublimits.DefaultLimits.ObjectBytes, "the largest a built-in object may be, encoded as JSON; a create, or an update that grows it, past it is refused with 413 RequestEntityTooLarge (custom resources: --custom-resource-max-bytes); 0 means no limit")
	cmd.Flags().BoolVar(&fairness, "enable-priority-and-fairness", true, "queue requests by priority level and flow, each logical cluster a flow of its own, as kube-apiserver's API Priority and Fairness does (the hub's FlowSchemas are its own: README \"Fairness\"); false serves them first come first served")
	cmd.Flags().IntVar(&o.MaxRequestsInFlight, "max-requests-inflight", hub.DefaultMaxRequestsInFlight, "requests each replica serves at once, shared among its priority levels; each replica applies its own")
	cmd.Flags().DurationVar(&o.RequestTimeout, "request-timeout", time.Minute, "how long a request other than a watch may take, from its headers to its answer, before it gets 504 Timeout, as kube-apiserver's flag of that name")
	cmd.Flags().IntVar(&o.MaxSeatsPerClusterPercent, "max-seats-per-cluster-percent", hub.DefaultMaxSeatsPerClusterPercent, "how much, in percent, of a replica's seats for tenants (the workload priority level's) one logical cluster may hold at once; its other requests wait in a line of their own, at most 100, beyond which they are refused with 429; 100 means no cap (README \"Fairness\")")
	return cmd
}

// validateLimits checks the flags that bound what one request may store or
// be given, as kube-apiserver checks its own.
func validateLimits(o hub.Options) error {
	if o.HubLimits.LogicalClustersPerParent < 0 || o.HubLimits.ObjectBytes < 0 {
		return fmt.Errorf("--max-logical-clusters-per-parent %d and --max-object-bytes %d may not be negative; 0 means no limit",
			o.HubLimits.LogicalClustersPerParent, o.HubLimits.ObjectBytes)
	}
	if o.RequestTimeout <= 0 {
		return fmt.Errorf("--request-timeout %s must be more than 0", o.RequestTimeout)
	}
	if o.MaxRequestsInFlight < 1 {
		return fmt.Errorf("--max-requests-inflight %d must be at least 1", o.MaxRequestsInFlight)
	}
	if o.MaxSeatsPerClusterPercent < 1 || o.MaxSeatsPerClusterPercent > 100 {
		return fmt.Errorf("--max-seats-per-cluster-percent %d must be from 1 to 100; 100 means no cap", o.MaxSeatsPerClusterPercent)
	}
	if o.CustomResourceLimits.MaxDepth < 1 {
		return fmt.Errorf("--custom-resource-max-depth %d must be at least 1", o.CustomResourceLimits.MaxDepth)
	}
	if o.CustomResourceLimits.MaxBytes < 1 {
		return fmt.Errorf("--custom-resource-max-bytes %d must be at least 1", o.CustomResourceLimits.MaxBytes)
	}
	if o.ServiceAccountMaxTokenExpiration < time.Hour || o.ServiceAccountMaxTokenExpiration > math.MaxUint32*time.Second {
		return fmt.Errorf("--service-account-max-token-expiration %v must be between 1h and 2^32 seconds, as kube-apiserver's", o.ServiceAccountMaxTokenExpiration)
	}
	return nil
}
