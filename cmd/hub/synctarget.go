package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/runtime/schema"
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
	var dataDir, hubURL, cluster, image string
	var labels map[string]string
	var resources []string
	create := &cobra.Command{
		Use:   "create NAME",
		Short: "Create SyncTarget NAME at the hub, and print the manifest that runs its syncer",
		Long: `Create SyncTarget NAME in --logical-cluster at the hub; then print to stdout
the manifest to apply to the physical cluster, which runs the syncer there:

  hub synctarget create pc1 --logical-cluster root:platform --label region=eu \
      --hub-url https://hub.example.com:6443 | kubectl --context pc1 apply -f -

It talks to the hub as admin, with <data-dir>/admin.kubeconfig, and signs the
syncer's client certificate (user syncer:<target key>, groups canopy:syncers
and canopy:synctarget:<logical cluster>:<name>) with the CA in <data-dir>/pki,
so it runs where the hub's data directory is. The manifest holds that
certificate's key: treat it as a secret. Running it again updates the
SyncTarget and issues a new certificate.

The hub confines that certificate to the target: across every logical
cluster, it reads only the objects assigned to the target and what their pods
refer to, and writes only their status, its finalizer on them, and the pods
and Events it copies up (see deploy/syncer). No RBAC is needed anywhere.

The syncer's image, --image, is by default the one built from the same
sources as this hub: ghcr.io/canopy-dev/syncer tagged with the release
version, or latest for a build from a work tree. bash hack/image.sh syncer
builds it, for linux/amd64 and linux/arm64, as _output/images/syncer.tar,
to push to a registry the physical cluster pulls from (see deploy/syncer).`,
		Args:         cobra.ExactArgs(1),
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			t, err := syncTarget(args[0], cluster, labels, resources)
			if err != nil {
				return err
			}
			admin, err := clientcmd.BuildConfigFromFlags("", hub.KubeconfigPath(dataDir))
			if err != nil {
				return fmt.Errorf("the admin kubeconfig of --data-dir %s: %w", dataDir, err)
			}
			if hubURL == "" {
				hubURL, _, _ = strings.Cut(admin.Host, logicalcluster.PathPrefix)
			}
			if !strings.HasPrefix(hubURL, "https://") || strings.Contains(hubURL, logicalcluster.PathPrefix) {
				return fmt.Errorf("--hub-url %q must be the hub's https://host:port, as the physical cluster reaches it, without a logical cluster path", hubURL)
			}
			kubeconfig, err := hub.ClientKubeconfig(dataDir, strings.TrimSuffix(hubURL, "/")+logicalcluster.PathPrefix+string(t.Cluster), t.User(), t.Groups())
			if err != nil {
				return err
			}
			manifest, err := syncerdeploy.Manifest(t, image, kubeconfig)
			if err != nil {
				return err
			}
			if err := syncerdeploy.Register(cmd.Context(), admin, t); err != nil {
				return err
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "SyncTarget %s has key %s; assign an object to it with the label %s=%s.\n"+
				"Besides the admins of %s, only users granted the verb use on synctargets %q there may.\n",
				t.Path(), t.Key(), workloadv1alpha1.StateLabel(t.Key()), workloadv1alpha1.StateSync, t.Cluster, t.Name)
			_, err = cmd.OutOrStdout().Write(manifest)
			return err
		},
	}
	create.Flags().StringVar(&dataDir, "data-dir", ".canopy", "the hub's data directory, for its admin kubeconfig and CA")
	create.Flags().StringVar(&hubURL, "hub-url", "", "https://host:port the syncer reaches the hub at from the physical cluster (default: the admin kubeconfig's)")
	create.Flags().StringVar(&cluster, "logical-cluster", "", "logical cluster to create the SyncTarget in, as root:platform")
	create.Flags().StringToStringVar(&labels, "label", nil, "label of the SyncTarget, k=v, for placement to select on; repeatable")
	create.Flags().StringSliceVar(&resources, "resources", nil, "resources the target accepts, as deployments.apps,configmaps (default "+defaultResources()+")")
	create.Flags().StringVar(&image, "image", release.Image("syncer", release.Version()), "the syncer's container image: this build's, see above")
	cmd.AddCommand(create)
	return cmd
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
