package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/hub"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/release"
	"github.com/canopy-dev/canopy/pkg/syncerdeploy"
)

// newSyncTargetCommand is `hub synctarget`.
func newSyncTargetCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "synctarget",
		Short: "Register physical clusters that syncers pull workloads into",
	}
	var h hubFlags
	var image string
	var labels map[string]string
	var resources []string
	var output string
	create := &cobra.Command{
		Use:   "create NAME",
		Short: "Create SyncTarget NAME at the hub, and print the manifest that runs its syncer",
		Long: `Create SyncTarget NAME in --logical-cluster at the hub; then print to stdout
the manifest to apply to the physical cluster, which runs the syncer there:

  hub synctarget create pc1 --logical-cluster root:platform --label region=eu \
      --hub-url https://hub.example.com:6443 | kubectl --context pc1 apply -f -

A hub of several replicas is best reached at one load-balanced address. Without
one, repeat --hub-url for each replica: the syncer connects to the first that
takes a connection and moves to another when it dies.

It talks to the hub as admin, with <data-dir>/admin.kubeconfig, and signs the
syncer's client certificate (user syncer:<target key>, groups canopy:syncers,
canopy:synctarget:<logical cluster>:<name> and canopy:synctarget-uid:<UID of
the SyncTarget>) with the CA in <data-dir>/pki, so it runs where the hub's
data directory is. The manifest holds that certificate's key: treat it as a
secret. Running it again updates the SyncTarget and issues a new certificate.

The hub confines that certificate to the target: across every logical
cluster, it reads only the objects assigned to the target and what their pods
refer to, and writes only their status, its finalizer on them, and the pods
and Events it copies up where the target has work (see deploy/syncer). No
RBAC is needed anywhere. The certificate is bound to the SyncTarget's UID: it
stops working, open watches included, as soon as the SyncTarget is deleted,
and a SyncTarget created again under the same name does not revive it. hub
synctarget rotate replaces it.

The syncer's image, --image, is by default the one built from the same
sources as this hub: ghcr.io/canopy-dev/syncer tagged with the release
version, or latest for a build from a work tree. bash hack/image.sh syncer
builds it, for linux/amd64 and linux/arm64, as _output/images/syncer.tar,
to push to a registry the physical cluster pulls from (see deploy/syncer).

--output values prints, instead of the manifest, the values of the Helm
chart deploy/syncer that make the same objects, to install in namespace
canopy-syncer:

  hub synctarget create pc1 --logical-cluster root:platform --output values > pc1.yaml
  helm install pc1 deploy/syncer -n canopy-syncer --create-namespace -f pc1.yaml`,
		Args:         cobra.ExactArgs(1),
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			render, ok := createOutputs[output]
			if !ok {
				return fmt.Errorf("--output %q: want manifest, or values for the Helm chart deploy/syncer", output)
			}
			t, err := syncTarget(args[0], h.cluster, labels, resources)
			if err != nil {
				return err
			}
			admin, err := h.admin()
			if err != nil {
				return err
			}
			// The credential names the UID of the SyncTarget, which
			// must exist first.
			uid, err := syncerdeploy.Register(cmd.Context(), admin, t)
			if err != nil {
				return err
			}
			kubeconfig, _, err := h.kubeconfig(t, uid)
			if err != nil {
				return err
			}
			// One URL is the kubeconfig's; several are the replicas
			// the syncer moves between.
			var replicas []string
			if len(h.hubURLs) > 1 {
				replicas = h.hubURLs
			}
			printed, err := render(t, image, kubeconfig, replicas...)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "SyncTarget %s has key %s; assign an object to it with the label %s=%s.\n"+
				"Besides the admins of %s, only users granted the verb use on synctargets %q there may.\n",
				t.Path(), t.Key(), workloadv1alpha1.StateLabel(t.Key()), workloadv1alpha1.StateSync, t.Cluster, t.Name)
			_, err = cmd.OutOrStdout().Write(printed)
			return err
		},
	}
	h.addFlags(create)
	create.Flags().StringToStringVar(&labels, "label", nil, "label of the SyncTarget, k=v, for placement to select on; repeatable")
	create.Flags().StringSliceVar(&resources, "resources", nil, "resources the target accepts, as deployments.apps,configmaps (default "+defaultResources()+")")
	create.Flags().StringVar(&output, "output", "manifest", "what to print: manifest, or values for the Helm chart deploy/syncer")
	create.Flags().StringVar(&image, "image", release.Image("syncer", release.Version()), "the syncer's container image: this build's, see above")
	cmd.AddCommand(create, newRotateCommand(), newEvictCommand())
	return cmd
}

// createOutputs are what hub synctarget create prints, by --output: the
// manifest, or the Helm chart's values that make the same objects.
var createOutputs = map[string]func(t syncerdeploy.Target, image string, hubKubeconfig []byte, hubURLs ...string) ([]byte, error){
	"manifest": syncerdeploy.Manifest,
	"values":   syncerdeploy.Values,
}

// newRotateCommand is `hub synctarget rotate`.
func newRotateCommand() *cobra.Command {
	var h hubFlags
	var revoke bool
	rotate := &cobra.Command{
		Use:   "rotate NAME",
		Short: "Issue a new hub credential for the syncer of SyncTarget NAME, and print the Secret that holds it",
		Long: `Issue a new client certificate for the syncer of SyncTarget NAME in
--logical-cluster, bound to the SyncTarget as it is now (its UID), and print
to stdout the syncer's kubeconfig Secret, the same that hub synctarget create
prints in its manifest, to apply to the physical cluster:

  hub synctarget rotate pc1 --logical-cluster root:platform \
      --hub-url https://hub.example.com:6443 | kubectl --context pc1 apply -f -

The syncer reads its kubeconfig file again every few seconds and, once the
Secret's new content reaches its volume (up to a minute or so, as the kubelet
syncs it), reconnects to the hub with the new certificate, without a restart
and without rewriting anything in the physical cluster. Its next status
report, within 10s, records the new certificate's issue time in the
SyncTarget's status.credentialNotBefore, and from then on the hub refuses
every certificate of the target issued before it.

--revoke refuses them at once instead, by setting the SyncTarget's
spec.credentialsNotBefore to the new certificate's issue time: for a
credential that was stolen. The syncer then stops working until the new
Secret reaches it. Certificates hold their issue time in whole seconds: two
issued within the same second are not told apart.

A credential the hub refuses, as that of a deleted SyncTarget or one
created again under the same name, gets a 403 saying so; this command makes
a new one.`,
		Args:         cobra.ExactArgs(1),
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			t, err := syncTarget(args[0], h.cluster, nil, nil)
			if err != nil {
				return err
			}
			admin, err := h.admin()
			if err != nil {
				return err
			}
			uid, err := syncerdeploy.UID(cmd.Context(), admin, t)
			if err != nil {
				return err
			}
			kubeconfig, issued, err := h.kubeconfig(t, uid)
			if err != nil {
				return err
			}
			secret, err := syncerdeploy.KubeconfigSecret(t, kubeconfig)
			if err != nil {
				return err
			}
			if revoke {
				if err := syncerdeploy.Revoke(cmd.Context(), admin, t, issued); err != nil {
					return err
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "Every credential of SyncTarget %s issued before %s is revoked.\n", t.Path(), issued.UTC().Format(time.RFC3339))
			} else {
				fmt.Fprintf(cmd.ErrOrStderr(), "The credentials of SyncTarget %s issued before %s are revoked once its syncer has reported with this one.\n", t.Path(), issued.UTC().Format(time.RFC3339))
			}
			_, err = cmd.OutOrStdout().Write(secret)
			return err
		},
	}
	h.addFlags(rotate)
	rotate.Flags().BoolVar(&revoke, "revoke", false, "revoke every older credential of the target at once, rather than once the syncer uses the new one")
	return rotate
}

// newEvictCommand is `hub synctarget evict`.
func newEvictCommand() *cobra.Command {
	var h hubFlags
	evict := &cobra.Command{
		Use:   "evict NAME",
		Short: "Let go at once of SyncTarget NAME, lost for good, and of everything it held",
		Long: `Mark SyncTarget NAME in --logical-cluster evicted (condition Evicted, reason
EvictedByAdmin), as the hub does on its own once the target has not been Ready
for --sync-target-eviction-timeout:

  hub synctarget evict pc2 --logical-cluster root:platform

The hub then releases everything the target held: its finalizers on hub
objects, so that deletions waiting for it complete; its assignment labels and
replica shares, which placement moves to other targets; its status reports;
and the pods and Events its syncer copied up. Placement puts nothing on it
again while it is evicted. Should its syncer come back, its next Ready report
after having been not Ready ends the eviction, and it starts again from what is
assigned to it then: nothing, until placement or an admin assigns it work.
Evicting a target whose syncer still reports holds until the syncer stops and
comes back. Deleting the SyncTarget lets go of it just the same.`,
		Args:         cobra.ExactArgs(1),
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			t, err := syncTarget(args[0], h.cluster, nil, nil)
			if err != nil {
				return err
			}
			admin, err := h.admin()
			if err != nil {
				return err
			}
			if err := syncerdeploy.Evict(cmd.Context(), admin, t, time.Now()); err != nil {
				return fmt.Errorf("evicting SyncTarget %s: %w", t.Path(), err)
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "SyncTarget %s is evicted; the hub releases what it held.\n", t.Path())
			return nil
		},
	}
	h.addFlags(evict)
	return evict
}

// hubFlags are the flags telling hub synctarget commands where the hub's
// data directory is, and how the syncer reaches the hub.
type hubFlags struct {
	dataDir, cluster string
	// hubURLs are the hub's replicas; the first is the kubeconfig's
	// server.
	hubURLs []string
}

func (h *hubFlags) addFlags(cmd *cobra.Command) {
	cmd.Flags().StringVar(&h.dataDir, "data-dir", ".canopy", "the hub's data directory, for its admin kubeconfig and CA")
	cmd.Flags().StringArrayVar(&h.hubURLs, "hub-url", nil, "https://host:port the syncer reaches the hub at from the physical cluster (default: the admin kubeconfig's); "+
		"repeated for each replica of a hub without one address for all, the first being the kubeconfig's server and every replica's certificate naming it")
	cmd.Flags().StringVar(&h.cluster, "logical-cluster", "", "logical cluster of the SyncTarget, as root:platform")
}

// admin is the client configuration of the hub's admin kubeconfig, and
// sets the hub URL from it if none was given.
func (h *hubFlags) admin() (*rest.Config, error) {
	admin, err := clientcmd.BuildConfigFromFlags("", hub.KubeconfigPath(h.dataDir))
	if err != nil {
		return nil, fmt.Errorf("the admin kubeconfig of --data-dir %s: %w", h.dataDir, err)
	}
	if len(h.hubURLs) == 0 {
		server, _, _ := strings.Cut(admin.Host, logicalcluster.PathPrefix)
		h.hubURLs = []string{server}
	}
	for _, u := range h.hubURLs {
		if !strings.HasPrefix(u, "https://") || strings.Contains(u, logicalcluster.PathPrefix) {
			return nil, fmt.Errorf("--hub-url %q must be the hub's https://host:port, as the physical cluster reaches it, without a logical cluster path", u)
		}
	}
	return admin, nil
}

// kubeconfig is a new hub kubeconfig of the syncer of t, bound to t's
// SyncTarget of uid, and its credential's issue time.
func (h *hubFlags) kubeconfig(t syncerdeploy.Target, uid types.UID) ([]byte, time.Time, error) {
	server := strings.TrimSuffix(h.hubURLs[0], "/") + logicalcluster.PathPrefix + string(t.Cluster)
	return hub.ClientKubeconfig(h.dataDir, server, t.User(), t.Groups(uid))
}

// syncTarget is the target that the arguments of synctarget create name,
// or an error saying which is wrong.
func syncTarget(name, cluster string, labels map[string]string, resources []string) (syncerdeploy.Target, error) {
	if cluster == "" {
		return syncerdeploy.Target{}, fmt.Errorf("--logical-cluster is required: the logical cluster to create SyncTarget %s in, as root:platform", name)
	}
	n, err := logicalcluster.Parse(cluster)
	if err != nil {
		return syncerdeploy.Target{}, fmt.Errorf("--logical-cluster: %w", err)
	}
	t := syncerdeploy.Target{Cluster: n, Name: name, Labels: labels}
	for _, r := range resources {
		gr := schema.ParseGroupResource(strings.TrimSpace(r))
		if gr.Resource == "" {
			return syncerdeploy.Target{}, fmt.Errorf("--resources %q names no resource; write resource.group, as deployments.apps, or resource for the core group", r)
		}
		t.Resources = append(t.Resources, workloadv1alpha1.GroupResource{Group: gr.Group, Resource: gr.Resource})
	}
	return t, nil
}

func defaultResources() string {
	names := make([]string, len(workloadv1alpha1.DefaultResources))
	for i, r := range workloadv1alpha1.DefaultResources {
		names[i] = r.String()
	}
	return strings.Join(names, ",")
}
