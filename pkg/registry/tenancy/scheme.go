package tenancy

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	tenancyv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/tenancy/v1alpha1"
)

var internalVersion = schema.GroupVersion{Group: tenancyv1alpha1.GroupName, Version: runtime.APIVersionInternal}

// AddToScheme registers tenancy.canopy.dev/v1alpha1 and the same Go types
// as its internal version.
func AddToScheme(s *runtime.Scheme) error {
	if err := tenancyv1alpha1.AddToScheme(s); err != nil {
		return err
	}
	s.AddKnownTypes(internalVersion, &tenancyv1alpha1.LogicalCluster{}, &tenancyv1alpha1.LogicalClusterList{},
		&tenancyv1alpha1.ClusterQuota{}, &tenancyv1alpha1.ClusterQuotaList{})
	return s.SetVersionPriority(tenancyv1alpha1.SchemeGroupVersion)
}
