package tenancy

import (
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"

	tenancyv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/tenancy/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	rbacregistry "github.com/canopy-dev/canopy/pkg/registry/rbac"
)

var phases = sets.New(
	tenancyv1alpha1.LogicalClusterInitializing,
	tenancyv1alpha1.LogicalClusterReady,
	tenancyv1alpha1.LogicalClusterTerminating,
)

// ValidateLogicalCluster checks lc as an object of logical cluster parent:
// its name becomes the last segment of a logical cluster path, so it must
// be a DNS label and make a valid path below parent. Its admins are
// subjects of a ClusterRoleBinding, which has no namespace to default a
// service account's to.
func ValidateLogicalCluster(parent logicalcluster.Name, lc *tenancyv1alpha1.LogicalCluster) field.ErrorList {
	errs := apivalidation.ValidateObjectMeta(&lc.ObjectMeta, false, apivalidation.ValidateNamespaceName, field.NewPath("metadata"))
	if len(errs) == 0 {
		if _, err := parent.Child(lc.Name); err != nil {
			errs = append(errs, field.Invalid(field.NewPath("metadata", "name"), lc.Name, err.Error()))
		}
	}
	admins := field.NewPath("spec", "admins")
	for i, s := range lc.Spec.Admins {
		errs = append(errs, rbacregistry.ValidateSubject(s, false, admins.Index(i))...)
	}
	return append(errs, validateStatus(&lc.Status)...)
}

// ValidateLogicalClusterUpdate checks an update of old to lc in logical
// cluster parent.
func ValidateLogicalClusterUpdate(parent logicalcluster.Name, lc, old *tenancyv1alpha1.LogicalCluster) field.ErrorList {
	errs := apivalidation.ValidateObjectMetaUpdate(&lc.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	return append(errs, ValidateLogicalCluster(parent, lc)...)
}

func validateStatus(s *tenancyv1alpha1.LogicalClusterStatus) field.ErrorList {
	if s.Phase == "" || phases.Has(s.Phase) {
		return nil
	}
	return field.ErrorList{field.NotSupported(field.NewPath("status", "phase"), s.Phase, sets.List(phases))}
}
