package hub

import (
	"context"
	"fmt"
	"io"

	corev1 "k8s.io/api/core/v1"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	genericapiserver "k8s.io/apiserver/pkg/server"

	tenancyv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/tenancy/v1alpha1"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/controller/clusterquota"
	"github.com/canopy-dev/canopy/pkg/controller/clusterroleaggregation"
	crdcontroller "github.com/canopy-dev/canopy/pkg/controller/crd"
	"github.com/canopy-dev/canopy/pkg/controller/csrsigning"
	gccontroller "github.com/canopy-dev/canopy/pkg/controller/garbagecollector"
	lccontroller "github.com/canopy-dev/canopy/pkg/controller/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/controller/losttarget"
	nscontroller "github.com/canopy-dev/canopy/pkg/controller/namespace"
	"github.com/canopy-dev/canopy/pkg/controller/namespacedefaults"
	placementcontroller "github.com/canopy-dev/canopy/pkg/controller/placement"
	"github.com/canopy-dev/canopy/pkg/controller/resourcequota"
	"github.com/canopy-dev/canopy/pkg/controller/rollouthistory"
	"github.com/canopy-dev/canopy/pkg/controller/statusaggregation"
	"github.com/canopy-dev/canopy/pkg/controller/synctarget"
	"github.com/canopy-dev/canopy/pkg/informer"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/loopback"
	"github.com/canopy-dev/canopy/pkg/shard"
)

// controller is what runs until its context ends.
type controller interface{ Run(context.Context) }

// installControllers has the hub start each controller once it serves.
// One of each controller serves every logical cluster.
func (h *hubServer) installControllers() error {
	for _, install := range []func() error{
		h.installInformers,
		h.installLogicalClusterController,
		h.installNamespaceController,
		h.installServiceAccountsController,
		h.installRootCACertPublisher,
		h.installResourceQuotaController,
		h.installClusterQuotaController,
		h.installClusterRoleAggregationController,
		h.installGarbageCollector,
		h.installSyncTargetHeartbeatController,
		h.installLostTargetController,
		h.installStatusAggregationController,
		h.installRolloutHistoryController,
		h.installPlacementController,
		h.installCustomResourceCatalog,
		h.installCRDControllers,
		h.installSyncerRevocation,
		h.installCSRSigningController,
	} {
		if err := install(); err != nil {
			return err
		}
	}
	return nil
}

// addController runs c from the post-start hook canopy-<name>-controller.
func (h *hubServer) addController(name string, c controller) error {
	return h.server.AddPostStartHook("canopy-"+name+"-controller", func(hookCtx genericapiserver.PostStartHookContext) error {
		go c.Run(hookCtx)
		return nil
	})
}

// installLogicalClusterController sets up and tears down the logical
// cluster of each LogicalCluster.
func (h *hubServer) installLogicalClusterController() error {
	return h.addController("logicalcluster", lccontroller.New(lccontroller.Config{
		LogicalClusters: h.apis.clusters,
		Data:            h.allData,
		SetUp:           h.apis.setUp,
		SetUpMissing:    h.apis.rbac.SetUpMissing,
		Admins:          h.apis.rbac.SetAdmins,
		URL:             func(n logicalcluster.Name) string { return "https://" + h.host + logicalcluster.PathPrefix + string(n) },
		Informers:       h.informers,
		Ownership:       h.shards,
	}))
}

// installNamespaceController empties Terminating namespaces and then
// finalizes them.
func (h *hubServer) installNamespaceController() error {
	return h.addController("namespace", nscontroller.New(nscontroller.Config{
		Namespaces: h.apis.Namespaces,
		Delete:     h.apis.NamespaceREST,
		Finalize:   h.apis.NamespaceFinalize,
		Status:     h.apis.NamespaceStatus,
		Data:       h.allData,
		Client:     h.clients.namespace,
		Typer:      h.scheme,
		Informers:  h.informers,
		Ownership:  h.shards,
	}))
}

// installServiceAccountsController keeps the ServiceAccount "default" in
// every namespace.
func (h *hubServer) installServiceAccountsController() error {
	return h.addController("serviceaccounts", namespacedefaults.NewServiceAccounts(h.namespaceDefaults(h.apis.ServiceAccountStore, h.clients.serviceAccounts)))
}

// installRootCACertPublisher keeps the ConfigMap "kube-root-ca.crt", with
// the CA of the hub's serving certificates, in every namespace: the CA a
// client inside a logical cluster verifies the hub with.
func (h *hubServer) installRootCACertPublisher() error {
	return h.addController("root-ca-cert-publisher",
		namespacedefaults.NewRootCAPublisher(h.namespaceDefaults(h.apis.ConfigMaps, h.clients.rootCACertPublisher), h.pki.caPEM))
}

// installResourceQuotaController keeps the status of every ResourceQuota:
// what its namespace uses, of every namespaced built-in resource.
func (h *hubServer) installResourceQuotaController() error {
	return h.addController("resourcequota", resourcequota.New(resourcequota.Config{
		Quotas:    h.apis.ResourceQuotas,
		Counted:   h.apis.quotaCounted(),
		Informers: h.informers,
		Ownership: h.shards,
		Client:    h.clients.resourceQuota,
	}))
}

// installClusterQuotaController recounts the account of every lease of
// capacity (ClusterQuota) from the built-in objects that exist. The
// account is the hub's bookkeeping, which no client may write: like the
// charges admission makes, it is written straight to the lease's store,
// conditionally on the version it was recomputed over, not through a
// loopback client as a user's object would be.
func (h *hubServer) installClusterQuotaController() error {
	return h.addController("clusterquota", clusterquota.New(clusterquota.Config{
		Quotas:    h.apis.clusters.ClusterQuotas,
		Counted:   h.data,
		Informers: h.informers,
		Ownership: h.shards,
	}))
}

// namespaceDefaults is the config of a controller that keeps an object of
// objects in every namespace, writing it with client.
func (h *hubServer) namespaceDefaults(objects *genericregistry.Store, client *loopback.Client) namespacedefaults.Config {
	return namespacedefaults.Config{Namespaces: h.apis.Namespaces, Objects: objects, Informers: h.informers, Ownership: h.shards, Client: client}
}

// installClusterRoleAggregationController fills in aggregated
// ClusterRoles.
func (h *hubServer) installClusterRoleAggregationController() error {
	return h.addController("clusterrole-aggregation", clusterroleaggregation.New(h.apis.rbac.ClusterRoles(), h.informers, h.shards))
}

// installGarbageCollector deletes the objects whose owners are gone, in
// every store; an owner is looked up only in its dependent's own logical
// cluster.
func (h *hubServer) installGarbageCollector() error {
	gc, err := gccontroller.New(gccontroller.Config{
		Stores:    h.data,
		Typer:     h.scheme,
		Client:    h.clients.garbageCollector,
		Custom:    h.customResources,
		Informers: h.informers,
		Ownership: h.shards,
	})
	if err != nil {
		return err
	}
	return h.addController("garbage-collector", gc)
}

// installSyncTargetHeartbeatController turns SyncTargets whose syncers
// stopped reporting not Ready, and evicts them later.
func (h *hubServer) installSyncTargetHeartbeatController() error {
	return h.addController("synctarget-heartbeat", synctarget.New(h.apis.SyncTargets, h.apis.SyncTargetStatus,
		h.SyncTargetHeartbeatTimeout, h.SyncTargetEvictionTimeout, h.informers, h.shards))
}

// installLostTargetController releases what evicted SyncTargets held.
func (h *hubServer) installLostTargetController() error {
	return h.addController("losttarget", losttarget.New(lostTargetConfig(h.apis.SyncTargets, h.data, h.apis.placeableResources(), h.informers, h.shards)))
}

// lostTargetConfig is what the lost targets' controller releases: the
// objects placement places, the pods, nodes and Events syncers copy up,
// and the StatusReports they write.
func lostTargetConfig(syncTargets *genericregistry.Store, data []*genericregistry.Store,
	placeable map[workloadv1alpha1.GroupResource]placementcontroller.Resource, informers *informer.Factory, owner shard.Ownership,
) losttarget.Config {
	cfg := losttarget.Config{SyncTargets: syncTargets, Informers: informers, Ownership: owner}
	for _, r := range placeable {
		cfg.Objects = append(cfg.Objects, r.Store)
	}
	for _, s := range data {
		if gr := s.DefaultQualifiedResource; gr == corev1.Resource("pods") || gr == corev1.Resource("events") || gr == corev1.Resource("nodes") ||
			gr == workloadv1alpha1.Resource("statusreports") {
			cfg.Upsynced = append(cfg.Upsynced, s)
		}
	}
	return cfg
}

// installStatusAggregationController sums up the SyncTargets' status of
// the workloads placement spreads over several of them.
func (h *hubServer) installStatusAggregationController() error {
	return h.addController("status-aggregation", statusaggregation.New(h.apis.SyncTargets, h.apis.StatusReports, h.apis.Aggregated, h.clients.statusAggregation, h.informers, h.shards))
}

// installRolloutHistoryController keeps the ReplicaSets recording each
// Deployment's revisions, and the ControllerRevisions recording each
// StatefulSet's and DaemonSet's.
func (h *hubServer) installRolloutHistoryController() error {
	return h.addController("rollout-history", rollouthistory.New(rollouthistory.Config{
		Deployments:         h.apis.Deployments,
		ReplicaSets:         h.apis.ReplicaSets,
		ReplicaSetStatus:    h.apis.ReplicaSetStatus,
		DeploymentStatus:    h.apis.DeploymentStatus,
		StatefulSets:        h.apis.StatefulSets,
		DaemonSets:          h.apis.DaemonSets,
		ControllerRevisions: h.apis.ControllerRevisions,
		Informers:           h.informers,
		Ownership:           h.shards,
	}))
}

// installPlacementController assigns the objects of placements to
// SyncTargets.
func (h *hubServer) installPlacementController() error {
	return h.addController("placement", placementcontroller.New(placementcontroller.Config{
		Placements:      h.apis.Placements,
		PlacementStatus: h.apis.PlacementStatus,
		Constraints:     h.apis.PlacementConstraints,
		SyncTargets:     h.apis.SyncTargets,
		Namespaces:      h.apis.Namespaces,
		Events:          h.apis.Events,
		Resources:       h.apis.placeableResources(),
		Client:          h.clients.placement,
		Informers:       h.informers,
		Ownership:       h.shards,
		Leases:          h.apis.clusters.ClusterQuotas,
		Reports:         h.apis.StatusReports,
	}))
}

// installCustomResourceCatalog has the custom resources' handler forget
// the storage of deleted definitions, and make that of those defined
// when the hub starts.
func (h *hubServer) installCustomResourceCatalog() error {
	return h.addController("customresource-catalog", h.customResources)
}

// installCRDControllers grant CustomResourceDefinitions their names and
// establish them, and delete the objects of deleted ones before letting
// them go.
func (h *hubServer) installCRDControllers() error {
	if err := h.addController("crd-names", crdcontroller.New(h.apis.Definitions, h.apis.DefinitionStatus, h.informers, h.shards)); err != nil {
		return err
	}
	return h.addController("crd-finalizer", crdcontroller.NewFinalizer(h.apis.Definitions, h.apis.DefinitionStatus, h.customResources, h.informers, h.shards))
}

// installSyncerRevocation feeds the Revoker the SyncTargets of every
// logical cluster, so that it ends the requests in flight of a syncer
// credential once its target is deleted, created again, or revokes it.
func (h *hubServer) installSyncerRevocation() error {
	return h.revoker.Watch(h.informers.For(h.apis.SyncTargets))
}

// installCSRSigningController signs the approved requests for client
// certificates of the hub, each good in its own logical cluster only.
func (h *hubServer) installCSRSigningController() error {
	return h.addController("csr-signing", csrsigning.New(csrsigning.Config{
		Requests:  h.apis.CertificateSigningRequests,
		Informers: h.informers,
		Ownership: h.shards,
		Client:    h.clients.csrSigning,
		CA:        h.pki.ca,
		CAKey:     h.pki.caKey,
		Duration:  leafValidity,
	}))
}

// installReadyMessage tells out how to reach the hub once it serves.
func (h *hubServer) installReadyMessage(out io.Writer) error {
	return h.server.AddPostStartHook("canopy-ready-message", func(genericapiserver.PostStartHookContext) error {
		_, err := fmt.Fprintf(out, "Canopy hub serving on https://%s, data in %s\n\n  export KUBECONFIG=%s\n  kubectl get ns\n\n"+
			"A LogicalCluster (%s) named team in root makes root:team, at https://%s%sroot:team.\n",
			h.host, h.dataDir, h.kubeconfig, tenancyv1alpha1.SchemeGroupVersion, h.host, logicalcluster.PathPrefix)
		return err
	})
}
