package rbac

import (
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/rbac"
	k8s_rbac_v1 "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/rbac/v1"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/rbac/validation"
)

// ValidateSubject checks a subject as upstream checks those of bindings,
// for the hub's own kinds that name subjects. A subject of a binding
// without a namespace must give a service account's.
func ValidateSubject(s rbacv1.Subject, namespaced bool, p *field.Path) field.ErrorList {
	var in rbac.Subject
	if err := k8s_rbac_v1.Convert_v1_Subject_To_rbac_Subject(&s, &in, nil); err != nil {
		return field.ErrorList{field.InternalError(p, err)}
	}
	return validation.ValidateRoleBindingSubject(in, namespaced, p)
}
