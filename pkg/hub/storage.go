package hub

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	certificatesv1 "k8s.io/api/certificates/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	eventsv1 "k8s.io/api/events/v1"
	flowcontrolv1 "k8s.io/api/flowcontrol/v1"
	networkingv1 "k8s.io/api/networking/v1"
	nodev1 "k8s.io/api/node/v1"
	policyv1 "k8s.io/api/policy/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	storagemigrationv1 "k8s.io/api/storagemigration/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"

	placementv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/placement/v1alpha1"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	rbacauthorizer "github.com/canopy-dev/canopy/pkg/authorization/rbac"
	placementcontroller "github.com/canopy-dev/canopy/pkg/controller/placement"
	"github.com/canopy-dev/canopy/pkg/controller/statusaggregation"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/registry"
	"github.com/canopy-dev/canopy/pkg/registry/admissionregistration"
	apiextensionsregistry "github.com/canopy-dev/canopy/pkg/registry/apiextensions"
	"github.com/canopy-dev/canopy/pkg/registry/apps"
	"github.com/canopy-dev/canopy/pkg/registry/autoscaling"
	"github.com/canopy-dev/canopy/pkg/registry/batch"
	"github.com/canopy-dev/canopy/pkg/registry/certificates"
	"github.com/canopy-dev/canopy/pkg/registry/coordination"
	"github.com/canopy-dev/canopy/pkg/registry/core"
	"github.com/canopy-dev/canopy/pkg/registry/discovery"
	"github.com/canopy-dev/canopy/pkg/registry/events"
	"github.com/canopy-dev/canopy/pkg/registry/flowcontrol"
	"github.com/canopy-dev/canopy/pkg/registry/networking"
	noderegistry "github.com/canopy-dev/canopy/pkg/registry/node"
	placementregistry "github.com/canopy-dev/canopy/pkg/registry/placement"
	"github.com/canopy-dev/canopy/pkg/registry/policy"
	rbacregistry "github.com/canopy-dev/canopy/pkg/registry/rbac"
	"github.com/canopy-dev/canopy/pkg/registry/scheduling"
	storageregistry "github.com/canopy-dev/canopy/pkg/registry/storage"
	"github.com/canopy-dev/canopy/pkg/registry/storagemigration"
	"github.com/canopy-dev/canopy/pkg/registry/tenancy"
	"github.com/canopy-dev/canopy/pkg/registry/workload"
	"github.com/canopy-dev/canopy/pkg/serviceaccount"
	"github.com/canopy-dev/canopy/pkg/serviceip"
	"github.com/canopy-dev/canopy/pkg/syncerscope"
)

// apiStorage is the storage of every API the hub serves. The groups are
// as the generic API server installs them, by resource name; the typed
// fields are the stores and subresources the admission plugins and
// controllers take, looked up by name once, in lookUp, so that a wiring
// mistake fails the start with an error naming what is missing.
type apiStorage struct {
	factory  *registry.Factory
	core     registry.Group
	clusters *tenancy.Storage
	rbac     *rbacregistry.Storage
	// groups are the stored groups, CustomResourceDefinitions' last.
	groups []storedGroup

	ServiceAccounts rest.Getter
	// ServiceAccountStore and ConfigMaps hold the objects kept in every
	// namespace (pkg/controller/namespacedefaults).
	ServiceAccountStore, ConfigMaps *genericregistry.Store
	Services                        *genericregistry.Store
	ResourceQuotas                  *genericregistry.Store
	// ResourceQuotaStatus is where quota admission writes its charges
	// (pkg/admission/resourcequota).
	ResourceQuotaStatus rest.Updater
	// Pods, LimitRanges, PriorityClasses and RuntimeClasses are read by
	// kube-apiserver's pod admission plugins (pkg/admission/kubeplugins).
	Pods, LimitRanges, PriorityClasses, RuntimeClasses *genericregistry.Store
	IPAddresses                                        *genericregistry.Store
	Events                                             rest.Creater
	// Namespaces is the namespaces' store; NamespaceREST serves them,
	// deleting one by marking it Terminating until it is emptied,
	// NamespaceFinalize is their finalize subresource and NamespaceStatus
	// their status.
	Namespaces        *genericregistry.Store
	NamespaceREST     namespaceStorage
	NamespaceFinalize rest.Updater
	NamespaceStatus   rest.Updater

	Deployments, ReplicaSets, StatefulSets, DaemonSets, ControllerRevisions *genericregistry.Store
	ReplicaSetStatus, DeploymentStatus                                      rest.Updater
	// Aggregated are the workload resources whose status is the
	// aggregate of their SyncTargets', by group resource.
	Aggregated map[string]statusaggregation.Resource

	SyncTargets          *genericregistry.Store
	StatusReports        *genericregistry.Store
	SyncTargetStatus     rest.Updater
	Placements           *genericregistry.Store
	PlacementStatus      rest.Updater
	PlacementConstraints *genericregistry.Store

	// Leases are coordination.k8s.io's, in which the hub replicas keep
	// who owns which shard of logical clusters (pkg/shard).
	Leases *genericregistry.Store

	ValidatingPolicies, ValidatingPolicyBindings *genericregistry.Store
	MutatingPolicies, MutatingPolicyBindings     *genericregistry.Store

	Definitions      *genericregistry.Store
	DefinitionStatus rest.Updater

	// CertificateSigningRequests are signed by the hub's CA for its own
	// client certificates (pkg/controller/csrsigning).
	CertificateSigningRequests *genericregistry.Store
}

// namespaceStorage is what the namespaces are served by.
type namespaceStorage interface {
	rest.Creater
	rest.Getter
	rest.Lister
	rest.GracefulDeleter
}

// storedGroup is the storage of one served group version whose
// resources are registry stores.
type storedGroup struct {
	version schema.GroupVersion
	registry.Group
}

// storedGroups are the workload and networking API groups and Canopy's
// SyncTargets and placements, each served at one version in every
// logical cluster.
var storedGroups = []struct {
	version     schema.GroupVersion
	addToScheme func(*runtime.Scheme) error
	build       func(*registry.Factory, runtime.ObjectTyper) (registry.Group, error)
}{
	{appsv1.SchemeGroupVersion, apps.AddToScheme, apps.NewStorage},
	{batchv1.SchemeGroupVersion, batch.AddToScheme, batch.NewStorage},
	{networkingv1.SchemeGroupVersion, networking.AddToScheme, networking.NewStorage},
	{policyv1.SchemeGroupVersion, policy.AddToScheme, policy.NewStorage},
	{autoscalingv2.SchemeGroupVersion, autoscaling.AddToScheme, autoscaling.NewStorage},
	{coordinationv1.SchemeGroupVersion, coordination.AddToScheme, coordination.NewStorage},
	{discoveryv1.SchemeGroupVersion, discovery.AddToScheme, discovery.NewStorage},
	{workloadv1alpha1.SchemeGroupVersion, workload.AddToScheme, workload.NewStorage},
	{placementv1alpha1.SchemeGroupVersion, placementregistry.AddToScheme, placementregistry.NewStorage},
	{certificatesv1.SchemeGroupVersion, certificates.AddToScheme, certificates.NewStorage},
	{flowcontrolv1.SchemeGroupVersion, flowcontrol.AddToScheme, flowcontrol.NewStorage},
	{storagemigrationv1.SchemeGroupVersion, storagemigration.AddToScheme, storagemigration.NewStorage},
	{storagev1.SchemeGroupVersion, storageregistry.AddToScheme, storageregistry.NewStorage},
	{nodev1.SchemeGroupVersion, noderegistry.AddToScheme, noderegistry.NewStorage},
	{schedulingv1.SchemeGroupVersion, scheduling.AddToScheme, scheduling.NewStorage},
}

// newAPIStorage builds the storage of every API over c's datastore.
func newAPIStorage(c *config) (*apiStorage, error) {
	s := &apiStorage{factory: registry.NewFactory(c.backend, c.codecs)}
	signer, err := serviceaccount.NewSigner(c.pki.serviceAccountKey, c.issuers, c.ServiceAccountMaxTokenExpiration)
	if err != nil {
		return nil, err
	}
	if s.core, err = core.NewStorage(s.factory, c.scheme, signer); err != nil {
		return nil, err
	}
	if s.clusters, err = tenancy.NewStorage(s.factory, c.scheme); err != nil {
		return nil, err
	}
	if s.rbac, err = rbacregistry.NewStorage(s.factory, c.scheme); err != nil {
		return nil, err
	}
	for _, g := range storedGroups {
		storage, err := g.build(s.factory, c.scheme)
		if err != nil {
			return nil, err
		}
		s.groups = append(s.groups, storedGroup{g.version, storage})
	}
	// events.k8s.io/v1 serves core/v1's Events at another version.
	s.groups = append(s.groups, storedGroup{eventsv1.SchemeGroupVersion, events.Serve(s.core)})
	// Admission policies and bindings are checked, as kube-apiserver
	// checks them, against who may read their params: by the logical
	// cluster's RBAC, over the kinds of the groups built above.
	policies, err := admissionregistration.NewStorage(s.factory, c.scheme, admissionregistration.ParamAccess{Authorizer: rbacauthorizer.New(s.rbac), Stores: s.allStores()})
	if err != nil {
		return nil, err
	}
	s.groups = append(s.groups, storedGroup{admissionregistrationv1.SchemeGroupVersion, policies})
	// Definitions are checked against the scheme: complete, it names the
	// groups the hub serves itself.
	definitions, err := apiextensionsregistry.NewStorage(s.factory, c.scheme)
	if err != nil {
		return nil, err
	}
	s.groups = append(s.groups, storedGroup{apiextensionsv1.SchemeGroupVersion, definitions})
	if err := s.lookUp(); err != nil {
		return nil, err
	}
	// The Services' store gives cluster IPs of the range, claimed in the
	// networking group's IPAddresses.
	a := &serviceip.Allocator{Range: c.ServiceClusterIPRange.Masked(), Claims: s.IPAddresses}
	a.Install(s.Services)
	return s, nil
}

// lookUp fills in the typed fields from the groups: the one place that
// knows under which names the registries serve what.
func (s *apiStorage) lookUp() error {
	l := storageLookup{groups: map[schema.GroupVersion]registry.Group{corev1.SchemeGroupVersion: s.core}}
	for _, g := range s.groups {
		l.groups[g.version] = g.Group
	}
	v1, apps, workload := corev1.SchemeGroupVersion, appsv1.SchemeGroupVersion, workloadv1alpha1.SchemeGroupVersion
	placement, policies := placementv1alpha1.SchemeGroupVersion, admissionregistrationv1.SchemeGroupVersion
	s.ServiceAccounts = lookUp[rest.Getter](&l, v1, "serviceaccounts")
	s.ServiceAccountStore = l.store(v1, "serviceaccounts")
	s.ConfigMaps = l.store(v1, "configmaps")
	s.ResourceQuotas = l.store(v1, "resourcequotas")
	s.ResourceQuotaStatus = lookUp[rest.Updater](&l, v1, "resourcequotas/status")
	s.Pods = l.store(v1, "pods")
	s.LimitRanges = l.store(v1, "limitranges")
	s.PriorityClasses = l.store(schedulingv1.SchemeGroupVersion, "priorityclasses")
	s.RuntimeClasses = l.store(nodev1.SchemeGroupVersion, "runtimeclasses")
	s.Services = l.store(v1, "services")
	s.IPAddresses = l.store(networkingv1.SchemeGroupVersion, "ipaddresses")
	s.Events = lookUp[rest.Creater](&l, v1, "events")
	s.Namespaces = l.store(v1, "namespaces")
	s.NamespaceREST = lookUp[namespaceStorage](&l, v1, "namespaces")
	s.NamespaceFinalize = lookUp[rest.Updater](&l, v1, "namespaces/finalize")
	s.NamespaceStatus = lookUp[rest.Updater](&l, v1, "namespaces/status")
	s.Deployments = l.store(apps, "deployments")
	s.ReplicaSets = l.store(apps, "replicasets")
	s.ReplicaSetStatus = lookUp[rest.Updater](&l, apps, "replicasets/status")
	s.DeploymentStatus = lookUp[rest.Updater](&l, apps, "deployments/status")
	s.StatefulSets = l.store(apps, "statefulsets")
	s.DaemonSets = l.store(apps, "daemonsets")
	s.ControllerRevisions = l.store(apps, "controllerrevisions")
	s.Aggregated = l.aggregated()
	s.SyncTargets = l.store(workload, "synctargets")
	s.StatusReports = l.store(workload, "statusreports")
	s.SyncTargetStatus = lookUp[rest.Updater](&l, workload, "synctargets/status")
	s.Placements = l.store(placement, "placements")
	s.PlacementStatus = lookUp[rest.Updater](&l, placement, "placements/status")
	s.PlacementConstraints = l.store(placement, "placementconstraints")
	s.Leases = l.store(coordinationv1.SchemeGroupVersion, "leases")
	s.ValidatingPolicies = l.store(policies, "validatingadmissionpolicies")
	s.ValidatingPolicyBindings = l.store(policies, "validatingadmissionpolicybindings")
	s.MutatingPolicies = l.store(policies, "mutatingadmissionpolicies")
	s.MutatingPolicyBindings = l.store(policies, "mutatingadmissionpolicybindings")
	s.Definitions = l.store(apiextensionsv1.SchemeGroupVersion, apiextensionsregistry.Resource.Resource)
	s.DefinitionStatus = lookUp[rest.Updater](&l, apiextensionsv1.SchemeGroupVersion, apiextensionsregistry.Resource.Resource+"/status")
	s.CertificateSigningRequests = l.store(certificatesv1.SchemeGroupVersion, "certificatesigningrequests")
	return errors.Join(l.errs...)
}

// storageLookup finds the storage of served resources by group version
// and name, and remembers each it could not find.
type storageLookup struct {
	groups map[schema.GroupVersion]registry.Group
	errs   []error
}

// lookUp is the storage of resource, a resource or subresource of
// version, as a T.
func lookUp[T any](l *storageLookup, version schema.GroupVersion, resource string) T {
	var zero T
	g, ok := l.groups[version]
	if !ok {
		l.errs = append(l.errs, fmt.Errorf("%s is not served, so there is no %s", version, resource))
		return zero
	}
	s, ok := g.Storage[resource]
	if !ok {
		l.errs = append(l.errs, fmt.Errorf("%s serves no %s", version, resource))
		return zero
	}
	t, ok := s.(T)
	if !ok {
		l.errs = append(l.errs, fmt.Errorf("%s of %s is served by a %T, which is no %s", resource, version, s, reflect.TypeFor[T]()))
	}
	return t
}

// store is the registry store of resource of version.
func (l *storageLookup) store(version schema.GroupVersion, resource string) *genericregistry.Store {
	g, ok := l.groups[version]
	if !ok {
		l.errs = append(l.errs, fmt.Errorf("%s is not served, so there is no %s", version, resource))
		return nil
	}
	for _, s := range g.Stores {
		if s.DefaultQualifiedResource.Resource == resource {
			return s
		}
	}
	l.errs = append(l.errs, fmt.Errorf("%s has no store of %s", version, resource))
	return nil
}

// aggregated are the workload resources whose objects placement may
// spread over several SyncTargets, so that their status is the aggregate
// of the targets'.
func (l *storageLookup) aggregated() map[string]statusaggregation.Resource {
	out := map[string]statusaggregation.Resource{}
	for _, r := range []schema.GroupVersionResource{
		appsv1.SchemeGroupVersion.WithResource("deployments"),
		appsv1.SchemeGroupVersion.WithResource("statefulsets"),
		appsv1.SchemeGroupVersion.WithResource("replicasets"),
		appsv1.SchemeGroupVersion.WithResource("daemonsets"),
		batchv1.SchemeGroupVersion.WithResource("jobs"),
	} {
		out[r.GroupResource().String()] = statusaggregation.Resource{Store: l.store(r.GroupVersion(), r.Resource), Resource: r}
	}
	return out
}

// allStores are the stores of every group but the LogicalClusters' and
// RBAC's.
func (s *apiStorage) allStores() []*genericregistry.Store {
	stores := append([]*genericregistry.Store(nil), s.core.Stores...)
	for _, g := range s.groups {
		stores = append(stores, g.Stores...)
	}
	return stores
}

// dataStores are the stores of every built-in resource, each keeping its
// objects per logical cluster.
func (s *apiStorage) dataStores() []*genericregistry.Store {
	data := append([]*genericregistry.Store{s.clusters.LogicalClusters, s.clusters.ClusterQuotas}, s.core.Stores...)
	data = append(data, s.rbac.Stores()...)
	for _, g := range s.groups {
		data = append(data, g.Stores...)
	}
	return data
}

// quotaCounted are the stores of the resources whose objects quota
// counts, at admission and in its controller: every namespaced one.
func (s *apiStorage) quotaCounted() []*genericregistry.Store {
	var counted []*genericregistry.Store
	for _, st := range s.dataStores() {
		if st.NamespaceScoped() {
			counted = append(counted, st)
		}
	}
	return counted
}

// placeableResources are the resources whose objects placement assigns
// to SyncTargets: every namespaced resource the hub stores, which a
// SyncTarget may accept, but for Canopy's own and the pods and Events
// at the hub, which are the syncers' copies of what runs downstream.
func (s *apiStorage) placeableResources() map[workloadv1alpha1.GroupResource]placementcontroller.Resource {
	out := map[workloadv1alpha1.GroupResource]placementcontroller.Resource{}
	add := func(g registry.Group, version string) {
		for _, st := range g.Stores {
			gr := st.DefaultQualifiedResource
			if !st.NamespaceScoped() || gr == corev1.Resource("pods") || gr == corev1.Resource("events") {
				continue
			}
			status, _ := g.Storage[gr.Resource+"/status"].(rest.Updater)
			out[workloadv1alpha1.GroupResource{Group: gr.Group, Resource: gr.Resource}] = placementcontroller.Resource{Store: st, Version: version, Status: status}
		}
	}
	add(s.core, corev1.SchemeGroupVersion.Version)
	for _, g := range s.groups {
		if g.version != workloadv1alpha1.SchemeGroupVersion && g.version != placementv1alpha1.SchemeGroupVersion {
			add(g.Group, g.version.Version)
		}
	}
	return out
}

// syncerStores are the stores of the resources a syncer may be assigned
// objects of, and of SyncTargets, from which its scope is decided.
func (s *apiStorage) syncerStores() syncerscope.Stores {
	stores := syncerscope.Stores{}
	add := func(group string, storage map[string]rest.Storage) {
		for resource, st := range storage {
			if !strings.Contains(resource, "/") {
				stores[schema.GroupResource{Group: group, Resource: resource}] = st
			}
		}
	}
	add(corev1.GroupName, s.core.Storage)
	for _, g := range s.groups {
		add(g.version.Group, g.Storage)
	}
	return stores
}

// setUp sets up a new logical cluster: its bootstrap RBAC, the
// namespaces every Kubernetes cluster has, which tools assume, and the
// system PriorityClasses.
func (s *apiStorage) setUp(ctx context.Context, cluster logicalcluster.Name) error {
	var rbacErr, classesErr error
	var wg sync.WaitGroup
	wg.Go(func() { rbacErr = s.rbac.SetUp(ctx, cluster) })
	wg.Go(func() { classesErr = scheduling.SetUp(ctx, s.PriorityClasses, cluster) })
	err := createDefaultNamespaces(ctx, s.NamespaceREST, cluster)
	wg.Wait()
	return errors.Join(err, rbacErr, classesErr)
}

// createDefaultNamespaces creates the namespaces every Kubernetes cluster
// has in cluster, unless they exist.
func createDefaultNamespaces(ctx context.Context, namespaces rest.Creater, cluster logicalcluster.Name) error {
	ctx = logicalcluster.WithCluster(genericapirequest.WithNamespace(ctx, ""), cluster)
	names := []string{metav1.NamespaceDefault, metav1.NamespaceSystem, metav1.NamespacePublic}
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Go(func() {
			_, err := namespaces.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, rest.ValidateAllObjectFunc, &metav1.CreateOptions{})
			if err != nil && !apierrors.IsAlreadyExists(err) {
				errs[i] = err
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}
