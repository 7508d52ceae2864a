package apiextensions

import (
	"context"
	"fmt"
	"slices"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition"
	crdtable "k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition/tableconvertor"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"

	"github.com/canopy-dev/canopy/pkg/registry"
)

// Resource is the CustomResourceDefinitions' group resource.
var Resource = apiextensions.Resource("customresourcedefinitions")

// NewStorage completes the store of CustomResourceDefinitions over f's
// backend. scheme is the hub's: a definition may not add to a group it
// has types of, since the hub serves that group itself.
func NewStorage(f *registry.Factory, scheme *runtime.Scheme) (registry.Group, error) {
	s := strategy{
		upstreamStrategy: customresourcedefinition.NewStrategy(scheme),
		reserved:         scheme.IsGroupRegistered,
	}
	return f.Build(apiextensionsv1.SchemeGroupVersion, registry.Resource{
		Singular: "customresourcedefinition", Plural: Resource.Resource,
		ShortNames: []string{"crd", "crds"}, Categories: []string{"api-extensions"},
		New:      func() runtime.Object { return &apiextensions.CustomResourceDefinition{} },
		NewList:  func() runtime.Object { return &apiextensions.CustomResourceDefinitionList{} },
		Strategy: s,
		Configure: func(store *genericregistry.Store) {
			store.PredicateFunc = customresourcedefinition.MatchCustomResourceDefinition
			store.TableConvertor = crdtable.New()
		},
		Serve: func(main *registry.Served) map[string]rest.Storage {
			return map[string]rest.Storage{
				Resource.Resource:             definitions{main, &customresourcedefinition.REST{Store: main.Store}},
				Resource.Resource + "/status": registry.NewStatus(main.Store, customresourcedefinition.NewStatusStrategy(scheme)),
			}
		},
	})
}

// definitions are served as any store, but deleted as upstream deletes
// them: a deletion marks a definition Terminating and holds it by the
// customresourcecleanup.apiextensions.k8s.io finalizer until its objects
// are gone.
type definitions struct {
	*registry.Served
	upstream *customresourcedefinition.REST
}

func (d definitions) Delete(ctx context.Context, name string, deleteValidation rest.ValidateObjectFunc, options *metav1.DeleteOptions) (runtime.Object, bool, error) {
	return d.upstream.Delete(ctx, name, deleteValidation, options)
}

// upstreamStrategy is what upstream's definition strategy is to a store.
type upstreamStrategy interface {
	registry.Strategy
	rest.ResetFieldsStrategy
}

// strategy is upstream's, with what the hub does not do refused: a
// definition in a group the hub serves, and conversion by webhook.
type strategy struct {
	upstreamStrategy
	reserved func(group string) bool
}

func (s strategy) Validate(ctx context.Context, obj runtime.Object) field.ErrorList {
	return s.supported(obj.(*apiextensions.CustomResourceDefinition), s.upstreamStrategy.Validate(ctx, obj))
}

func (s strategy) ValidateUpdate(ctx context.Context, obj, old runtime.Object) field.ErrorList {
	return s.supported(obj.(*apiextensions.CustomResourceDefinition), s.upstreamStrategy.ValidateUpdate(ctx, obj, old))
}

// supported adds to errs, upstream's, what upstream accepts but the hub
// cannot serve. A group upstream refuses already, such as none, is not
// refused again for being the hub's.
func (s strategy) supported(crd *apiextensions.CustomResourceDefinition, errs field.ErrorList) field.ErrorList {
	group := field.NewPath("spec", "group")
	if !slices.ContainsFunc(errs, func(e *field.Error) bool { return e.Field == group.String() }) && s.reserved(crd.Spec.Group) {
		errs = append(errs, field.Forbidden(group,
			fmt.Sprintf("%s is served by the hub itself; a CustomResourceDefinition needs a group of its own", crd.Spec.Group)))
	}
	if c := crd.Spec.Conversion; c != nil && c.Strategy == apiextensions.WebhookConverter {
		errs = append(errs, field.NotSupported(field.NewPath("spec", "conversion", "strategy"), c.Strategy,
			[]apiextensions.ConversionStrategyType{apiextensions.NoneConverter}))
	}
	return errs
}
