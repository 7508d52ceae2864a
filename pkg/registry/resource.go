package registry

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/registry/generic"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// Resource is one resource of an API group version, declared as data so
// that every group builds its stores the same way.
type Resource struct {
	Singular, Plural string
	// ShortNames and Categories are what discovery tells kubectl, for
	// `kubectl get deploy` and `kubectl get all`.
	ShortNames, Categories []string
	New, NewList           func() runtime.Object
	Strategy               Strategy
	// Status is the strategy of the status subresource; nil means the
	// resource has none.
	Status rest.RESTUpdateStrategy
	// Scale, when set, serves the scale subresource with it.
	Scale *Scaled
	// Table is what kubectl get prints. Kubernetes' own columns for the
	// built-in kinds, so that output reads the same.
	Table Table
	// Fields, when set, are what lists and watches may select objects by
	// besides their name and namespace; the scheme must accept their
	// labels too (AddFieldLabelConversion).
	Fields Selectable
	// Configure adjusts the store before it is completed.
	Configure func(*genericregistry.Store)
	// Serve, when set, gives the storage of the resource and of its
	// subresources by name, in place of the main store and its status.
	Serve func(main *Served) map[string]rest.Storage
}

// Served is a resource's completed store as the API serves it.
type Served struct {
	*genericregistry.Store
	shortNames, categories []string
}

// Update updates as the store does, as a client's update (ClientUpdate).
func (s *Served) Update(ctx context.Context, name string, objInfo rest.UpdatedObjectInfo, createValidation rest.ValidateObjectFunc,
	updateValidation rest.ValidateObjectUpdateFunc, forceAllowCreate bool, options *metav1.UpdateOptions,
) (runtime.Object, bool, error) {
	return s.Store.Update(ctx, name, ClientUpdate(objInfo), createValidation, updateValidation, forceAllowCreate, options)
}

func (s *Served) ShortNames() []string { return s.shortNames }
func (s *Served) Categories() []string { return s.categories }

// Group is the storage of the resources of one group version.
type Group struct {
	// Storage is by resource and subresource name, for
	// genericapiserver.APIGroupInfo.VersionedResourcesStorageMap.
	Storage map[string]rest.Storage
	// Stores are the registry stores, for the controllers that act on
	// every object of every logical cluster.
	Stores []*genericregistry.Store
}

// Build completes the stores of the resources of gv, stored as gv.
func (f *Factory) Build(gv schema.GroupVersion, resources ...Resource) (Group, error) {
	g := Group{Storage: map[string]rest.Storage{}}
	for _, r := range resources {
		s := &genericregistry.Store{
			NewFunc:                   r.New,
			NewListFunc:               r.NewList,
			DefaultQualifiedResource:  schema.GroupResource{Group: gv.Group, Resource: r.Plural},
			SingularQualifiedResource: schema.GroupResource{Group: gv.Group, Resource: r.Singular},
			CreateStrategy:            r.Strategy,
			UpdateStrategy:            r.Strategy,
			DeleteStrategy:            r.Strategy,
			TableConvertor:            r.Table,
		}
		if reset, ok := r.Strategy.(rest.ResetFieldsStrategy); ok {
			s.ResetFieldsStrategy = reset
		}
		if r.Configure != nil {
			r.Configure(s)
		}
		var opts generic.StoreOptions
		if r.Fields != nil {
			opts.AttrFunc = r.Fields.Attrs
		}
		if err := f.Complete(s, gv, opts); err != nil {
			return Group{}, err
		}
		g.Stores = append(g.Stores, s)
		main := &Served{Store: s, shortNames: r.ShortNames, categories: r.Categories}
		if r.Serve != nil {
			for name, storage := range r.Serve(main) {
				g.Storage[name] = storage
			}
			continue
		}
		g.Storage[r.Plural] = main
		if r.Status != nil {
			g.Storage[r.Plural+"/status"] = NewStatus(s, r.Status)
		}
		if r.Scale != nil {
			g.Storage[r.Plural+"/scale"] = NewScale(s, *r.Scale)
		}
	}
	return g, nil
}

// Status is a status subresource: get, and update through its own
// strategy, which changes nothing but the status.
type Status struct{ store *genericregistry.Store }

// NewStatus serves the status subresource of s with strategy.
func NewStatus(s *genericregistry.Store, strategy rest.RESTUpdateStrategy) *Status {
	status := *s
	status.UpdateStrategy = strategy
	status.ResetFieldsStrategy = nil
	if reset, ok := strategy.(rest.ResetFieldsStrategy); ok {
		status.ResetFieldsStrategy = reset
	}
	return &Status{store: &status}
}

func (r *Status) New() runtime.Object { return r.store.New() }

// Destroy leaves the shared storage to the main resource's store.
func (r *Status) Destroy() {}

func (r *Status) Get(ctx context.Context, name string, options *metav1.GetOptions) (runtime.Object, error) {
	return r.store.Get(ctx, name, options)
}

func (r *Status) Update(ctx context.Context, name string, objInfo rest.UpdatedObjectInfo, createValidation rest.ValidateObjectFunc, updateValidation rest.ValidateObjectUpdateFunc, _ bool, options *metav1.UpdateOptions) (runtime.Object, bool, error) {
	// A status update never creates the object it is the status of.
	return r.store.Update(ctx, name, ClientUpdate(objInfo), createValidation, updateValidation, false, options)
}

func (r *Status) GetResetFields() map[fieldpath.APIVersion]*fieldpath.Set {
	return r.store.GetResetFields()
}

func (r *Status) ConvertToTable(ctx context.Context, object, tableOptions runtime.Object) (*metav1.Table, error) {
	return r.store.ConvertToTable(ctx, object, tableOptions)
}
