package tenancy

import (
	"context"
	"errors"
	"fmt"

	"golang.org/x/time/rate"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/registry/generic"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/storage/names"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	tenancyv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/tenancy/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/registry"
)

// Storage is the REST storage of LogicalClusters.
type Storage struct {
	// LogicalClusters is the main resource.
	LogicalClusters *genericregistry.Store
	// Status is the status subresource.
	Status *StatusREST
	// ClusterQuotas are the leases of capacity given to children.
	ClusterQuotas *genericregistry.Store
	quotas        map[string]rest.Storage

	guard     *dataGuard
	followers followers
	// confirmations bounds the database reads that confirm a refusal
	// (Served).
	confirmations *rate.Limiter
}

// NewStorage completes LogicalClusters' stores over f's backend.
func NewStorage(f *registry.Factory, typer runtime.ObjectTyper) (*Storage, error) {
	guard := &dataGuard{}
	s := strategy{typer, names.SimpleNameGenerator, guard}
	store := &genericregistry.Store{
		NewFunc:                   func() runtime.Object { return &tenancyv1alpha1.LogicalCluster{} },
		NewListFunc:               func() runtime.Object { return &tenancyv1alpha1.LogicalClusterList{} },
		DefaultQualifiedResource:  tenancyv1alpha1.Resource("logicalclusters"),
		SingularQualifiedResource: tenancyv1alpha1.Resource("logicalcluster"),
		CreateStrategy:            s,
		UpdateStrategy:            s,
		DeleteStrategy:            s,
		ResetFieldsStrategy:       s,
		TableConvertor: registry.Table{
			Columns: []metav1.TableColumnDefinition{
				registry.Column("Phase", "string", "Initializing, Ready or Terminating"),
				registry.Column("URL", "string", "Where clients reach the logical cluster"),
			},
			Cells: func(o runtime.Object) []any {
				lc := o.(*tenancyv1alpha1.LogicalCluster)
				return []any{string(lc.Status.Phase), lc.Status.URL}
			},
		},
	}
	jsonFactory := *f
	jsonFactory.StorageMediaType = runtime.ContentTypeJSON
	if err := jsonFactory.Complete(store, tenancyv1alpha1.SchemeGroupVersion, generic.StoreOptions{}); err != nil {
		return nil, err
	}
	// The status subresource shares the main resource's storage and watch
	// cache; only how an update is prepared and validated differs.
	statusStore := *store
	statusStore.UpdateStrategy = statusStrategy{s}
	statusStore.ResetFieldsStrategy = statusStrategy{s}
	quotas, err := newClusterQuotas(&jsonFactory, typer)
	if err != nil {
		return nil, err
	}
	return &Storage{
		LogicalClusters: store, Status: &StatusREST{store: &statusStore}, guard: guard,
		ClusterQuotas: quotas.Stores[0], quotas: quotas.Storage,
		confirmations: rate.NewLimiter(ConfirmationRate, ConfirmationBurst),
	}, nil
}

// Resources are the REST storage by resource path, for
// genericapiserver.APIGroupInfo.VersionedResourcesStorageMap["v1alpha1"].
func (s *Storage) Resources() map[string]rest.Storage {
	resources := map[string]rest.Storage{
		"logicalclusters":        mainREST{s.LogicalClusters},
		"logicalclusters/status": s.Status,
	}
	for name, storage := range s.quotas {
		resources[name] = storage
	}
	return resources
}

// StatusREST is the status subresource of LogicalClusters.
type StatusREST struct {
	store *genericregistry.Store
}

var (
	_ rest.Patcher              = &StatusREST{}
	_ rest.ResetFieldsStrategy  = &StatusREST{}
	_ rest.TableConvertor       = &StatusREST{}
	_ rest.SingularNameProvider = &StatusREST{}
)

func (r *StatusREST) New() runtime.Object { return &tenancyv1alpha1.LogicalCluster{} }

// Destroy leaves the shared store to the main resource, which owns it.
func (r *StatusREST) Destroy() {}

func (r *StatusREST) Get(ctx context.Context, name string, options *metav1.GetOptions) (runtime.Object, error) {
	return r.store.Get(ctx, name, options)
}

// Update updates the status of LogicalCluster name, leaving the rest of
// it as it is.
func (r *StatusREST) Update(ctx context.Context, name string, objInfo rest.UpdatedObjectInfo, createValidation rest.ValidateObjectFunc,
	updateValidation rest.ValidateObjectUpdateFunc, forceAllowCreate bool, options *metav1.UpdateOptions,
) (runtime.Object, bool, error) {
	// A status update never creates the object.
	return r.store.Update(ctx, name, objInfo, createValidation, updateValidation, false, options)
}

func (r *StatusREST) GetResetFields() map[fieldpath.APIVersion]*fieldpath.Set {
	return r.store.GetResetFields()
}

func (r *StatusREST) ConvertToTable(ctx context.Context, object runtime.Object, tableOptions runtime.Object) (*metav1.Table, error) {
	return r.store.ConvertToTable(ctx, object, tableOptions)
}

func (r *StatusREST) GetSingularName() string { return r.store.GetSingularName() }

// mainREST is the main resource as the API serves it: a create of a name
// whose previous logical cluster is still being deleted says so.
type mainREST struct {
	*genericregistry.Store
}

// Create creates a LogicalCluster. Its name cannot be used again while
// the LogicalCluster of the name is there, being deleted: the objects
// of that logical cluster are kept under its name, and the object stays
// until they are gone (dataGuard).
func (r mainREST) Create(ctx context.Context, obj runtime.Object, createValidation rest.ValidateObjectFunc, options *metav1.CreateOptions) (runtime.Object, error) {
	out, err := r.Store.Create(ctx, obj, createValidation, options)
	var status apierrors.APIStatus
	if !apierrors.IsAlreadyExists(err) || !errors.As(err, &status) {
		return out, err
	}
	name := obj.(*tenancyv1alpha1.LogicalCluster).Name
	existing, getErr := r.Store.Get(ctx, name, &metav1.GetOptions{})
	if getErr != nil {
		return nil, err
	}
	previous := existing.(*tenancyv1alpha1.LogicalCluster)
	parent, _ := clusterOf(ctx)
	n, childErr := parent.Child(name)
	if previous.DeletionTimestamp == nil || childErr != nil {
		return nil, err
	}
	s := status.Status()
	s.Message = fmt.Sprintf("logicalclusters.%s %q already exists: the previous logical cluster %s is still being deleted (%s); "+
		"the name can be used again once its objects are gone and its LogicalCluster with them: retry then",
		tenancyv1alpha1.GroupName, name, n, progress(previous))
	return nil, &apierrors.StatusError{ErrStatus: s}
}

// progress is what the hub last reported of the deletion of lc.
func progress(lc *tenancyv1alpha1.LogicalCluster) string {
	if lc.Status.Message == "" {
		return "its deletion has not started yet"
	}
	return lc.Status.Message
}
