package tenancy

import (
	"context"
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/storage/names"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	tenancyv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/tenancy/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// strategy is LogicalClusters' main resource, where clients create,
// change and delete them; only the hub writes their status.
type strategy struct {
	runtime.ObjectTyper
	names.NameGenerator
}

func (strategy) NamespaceScoped() bool                         { return false }
func (strategy) Canonicalize(runtime.Object)                   {}
func (strategy) AllowCreateOnUpdate(context.Context) bool      { return false }
func (strategy) AllowUnconditionalUpdate(context.Context) bool { return true }
func (strategy) WarningsOnCreate(context.Context, runtime.Object) []string {
	return nil
}
func (strategy) WarningsOnUpdate(context.Context, runtime.Object, runtime.Object) []string {
	return nil
}

func (strategy) GetResetFields() map[fieldpath.APIVersion]*fieldpath.Set {
	return map[fieldpath.APIVersion]*fieldpath.Set{
		fieldpath.APIVersion(tenancyv1alpha1.SchemeGroupVersion.String()): fieldpath.NewSet(fieldpath.MakePathOrDie("status")),
	}
}

// PrepareForCreate starts the logical cluster's life, and adds the
// finalizer that keeps a deleted LogicalCluster until its data is gone.
func (strategy) PrepareForCreate(_ context.Context, obj runtime.Object) {
	lc := obj.(*tenancyv1alpha1.LogicalCluster)
	lc.Status = tenancyv1alpha1.LogicalClusterStatus{Phase: tenancyv1alpha1.LogicalClusterInitializing}
	if !slices.Contains(lc.Finalizers, tenancyv1alpha1.LogicalClusterFinalizer) {
		lc.Finalizers = append(lc.Finalizers, tenancyv1alpha1.LogicalClusterFinalizer)
	}
}

func (strategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	obj.(*tenancyv1alpha1.LogicalCluster).Status = old.(*tenancyv1alpha1.LogicalCluster).Status
}

func (strategy) Validate(ctx context.Context, obj runtime.Object) field.ErrorList {
	parent, err := clusterOf(ctx)
	if err != nil {
		return field.ErrorList{field.InternalError(field.NewPath("metadata"), err)}
	}
	return ValidateLogicalCluster(parent, obj.(*tenancyv1alpha1.LogicalCluster))
}

func (strategy) ValidateUpdate(ctx context.Context, obj, old runtime.Object) field.ErrorList {
	parent, err := clusterOf(ctx)
	if err != nil {
		return field.ErrorList{field.InternalError(field.NewPath("metadata"), err)}
	}
	return ValidateLogicalClusterUpdate(parent, obj.(*tenancyv1alpha1.LogicalCluster), old.(*tenancyv1alpha1.LogicalCluster))
}

// statusStrategy is the status subresource, through which the hub reports
// on a logical cluster.
type statusStrategy struct{ strategy }

func (statusStrategy) GetResetFields() map[fieldpath.APIVersion]*fieldpath.Set {
	return map[fieldpath.APIVersion]*fieldpath.Set{
		fieldpath.APIVersion(tenancyv1alpha1.SchemeGroupVersion.String()): fieldpath.NewSet(fieldpath.MakePathOrDie("spec")),
	}
}

func (statusStrategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	obj.(*tenancyv1alpha1.LogicalCluster).Spec = old.(*tenancyv1alpha1.LogicalCluster).Spec
}

func clusterOf(ctx context.Context) (logicalcluster.Name, error) {
	n, ok := logicalcluster.ClusterFrom(ctx)
	if !ok {
		return "", fmt.Errorf("no logical cluster in the request")
	}
	return n, nil
}
