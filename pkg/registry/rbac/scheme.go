package rbac

import (
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	k8s_rbac_v1 "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/rbac/v1"
)

var internalVersion = schema.GroupVersion{Group: rbacv1.GroupName, Version: runtime.APIVersionInternal}

// AddToScheme registers rbac.authorization.k8s.io/v1, the same Go types as
// its internal version, and upstream's defaults, which the decoder fills
// in: the API group of role references and of User and Group subjects.
func AddToScheme(s *runtime.Scheme) error {
	if err := rbacv1.AddToScheme(s); err != nil {
		return err
	}
	s.AddKnownTypes(internalVersion,
		&rbacv1.Role{}, &rbacv1.RoleList{},
		&rbacv1.RoleBinding{}, &rbacv1.RoleBindingList{},
		&rbacv1.ClusterRole{}, &rbacv1.ClusterRoleList{},
		&rbacv1.ClusterRoleBinding{}, &rbacv1.ClusterRoleBindingList{},
	)
	if err := k8s_rbac_v1.RegisterDefaults(s); err != nil {
		return err
	}
	return s.SetVersionPriority(rbacv1.SchemeGroupVersion)
}
