package rbac

import (
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var internalVersion = schema.GroupVersion{Group: rbacv1.GroupName, Version: runtime.APIVersionInternal}

// AddToScheme registers rbac.authorization.k8s.io/v1 and the same Go
// types as its internal version.
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
	return s.SetVersionPriority(rbacv1.SchemeGroupVersion)
}
