package tenancy

import (
	"context"
	"fmt"
	"slices"

	rbacv1 "k8s.io/api/rbac/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/authentication/serviceaccount"
	"k8s.io/apiserver/pkg/authentication/user"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/storage/names"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	tenancyv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/tenancy/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	rbacregistry "github.com/canopy-dev/canopy/pkg/registry/rbac"
)

// strategy is LogicalClusters' main resource, where clients create,
// change and delete them; only the hub writes their status.
type strategy struct {
	runtime.ObjectTyper
	names.NameGenerator
	guard *dataGuard
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

// PrepareForCreate starts the logical cluster's life, adds the finalizer
// that keeps a deleted LogicalCluster until its data is gone, and makes
// the creator an admin of the logical cluster.
func (strategy) PrepareForCreate(ctx context.Context, obj runtime.Object) {
	lc := obj.(*tenancyv1alpha1.LogicalCluster)
	lc.Generation = 1
	lc.Status = tenancyv1alpha1.LogicalClusterStatus{Phase: tenancyv1alpha1.LogicalClusterInitializing}
	if !slices.Contains(lc.Finalizers, tenancyv1alpha1.LogicalClusterFinalizer) {
		lc.Finalizers = append(lc.Finalizers, tenancyv1alpha1.LogicalClusterFinalizer)
	}
	rbacregistry.DefaultSubjects(lc.Spec.Admins)
	if u, ok := genericapirequest.UserFrom(ctx); ok {
		lc.Spec.Admins = withCreator(lc.Spec.Admins, u)
	}
}

// withCreator is admins with creator u added as a User, unless u is one
// already or gains nothing from it. Those in system:masters may do
// anything anywhere, so a LogicalCluster they create costs no binding.
// A service account is of its own logical cluster only: no subject in the
// child would ever match it.
func withCreator(admins []rbacv1.Subject, u user.Info) []rbacv1.Subject {
	if u.GetName() == "" || slices.Contains(u.GetGroups(), user.SystemPrivilegedGroup) {
		return admins
	}
	if _, _, err := serviceaccount.SplitUsername(u.GetName()); err == nil {
		return admins
	}
	creator := rbacv1.Subject{Kind: rbacv1.UserKind, APIGroup: rbacv1.GroupName, Name: u.GetName()}
	if slices.Contains(admins, creator) {
		return admins
	}
	return append(admins, creator)
}

// PrepareForUpdate keeps the status, which only the hub writes, and counts
// a change of the spec in the generation, so that the hub can tell when
// it has made the logical cluster match.
func (strategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	lc, oldLC := obj.(*tenancyv1alpha1.LogicalCluster), old.(*tenancyv1alpha1.LogicalCluster)
	lc.Status = oldLC.Status
	rbacregistry.DefaultSubjects(lc.Spec.Admins)
	lc.Generation = oldLC.Generation
	if !apiequality.Semantic.DeepEqual(lc.Spec, oldLC.Spec) {
		lc.Generation++
	}
}

func (strategy) Validate(ctx context.Context, obj runtime.Object) field.ErrorList {
	parent, err := clusterOf(ctx)
	if err != nil {
		return field.ErrorList{field.InternalError(field.NewPath("metadata"), err)}
	}
	return ValidateLogicalCluster(parent, obj.(*tenancyv1alpha1.LogicalCluster))
}

// ValidateUpdate also keeps the hub's finalizer while the logical cluster
// holds objects (dataGuard), for the main resource and the status
// subresource alike.
func (s strategy) ValidateUpdate(ctx context.Context, obj, old runtime.Object) field.ErrorList {
	parent, err := clusterOf(ctx)
	if err != nil {
		return field.ErrorList{field.InternalError(field.NewPath("metadata"), err)}
	}
	lc, oldLC := obj.(*tenancyv1alpha1.LogicalCluster), old.(*tenancyv1alpha1.LogicalCluster)
	errs := ValidateLogicalClusterUpdate(parent, lc, oldLC)
	return append(errs, s.guard.validateFinalizer(ctx, parent, lc, oldLC)...)
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
	lc, oldLC := obj.(*tenancyv1alpha1.LogicalCluster), old.(*tenancyv1alpha1.LogicalCluster)
	lc.Spec = oldLC.Spec
	lc.Generation = oldLC.Generation
}

func clusterOf(ctx context.Context) (logicalcluster.Name, error) {
	n, ok := logicalcluster.ClusterFrom(ctx)
	if !ok {
		return "", fmt.Errorf("no logical cluster in the request")
	}
	return n, nil
}
