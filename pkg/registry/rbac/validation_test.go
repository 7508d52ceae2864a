package rbac

import (
	"testing"

	"github.com/canopy-dev/canopy/pkg/registry"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

func TestValidateRules(t *testing.T) {
	s := roleStrategy(nil)
	cs := clusterRoleStrategy(nil)
	role := func(rules ...rbacv1.PolicyRule) *rbacv1.Role {
		return &rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Name: "r", Namespace: "default"}, Rules: rules}
	}
	clusterRole := func(rules ...rbacv1.PolicyRule) *rbacv1.ClusterRole {
		return &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: "r"}, Rules: rules}
	}
	for _, tc := range []struct {
		name  string
		valid bool
		obj   runtime.Object
		s     registry.Strategy
	}{
		{"resource rule", true, role(rbacv1.PolicyRule{Verbs: []string{"get"}, APIGroups: []string{""}, Resources: []string{"configmaps"}}), s},
		{"no verbs", false, role(rbacv1.PolicyRule{APIGroups: []string{""}, Resources: []string{"configmaps"}}), s},
		{"no api groups", false, role(rbacv1.PolicyRule{Verbs: []string{"get"}, Resources: []string{"configmaps"}}), s},
		{"no resources", false, role(rbacv1.PolicyRule{Verbs: []string{"get"}, APIGroups: []string{""}}), s},
		{"non-resource URL in a Role", false, role(rbacv1.PolicyRule{Verbs: []string{"get"}, NonResourceURLs: []string{"/healthz"}}), s},
		{"non-resource URL in a ClusterRole", true, clusterRole(rbacv1.PolicyRule{Verbs: []string{"get"}, NonResourceURLs: []string{"/healthz", "*"}}), cs},
		// Upstream does not ask non-resource URLs to start with "/".
		{"relative non-resource URL", true, clusterRole(rbacv1.PolicyRule{Verbs: []string{"get"}, NonResourceURLs: []string{"healthz"}}), cs},
		{"resources and URLs in one rule", false, clusterRole(rbacv1.PolicyRule{Verbs: []string{"get"}, APIGroups: []string{""}, Resources: []string{"pods"}, NonResourceURLs: []string{"/healthz"}}), cs},
		{"aggregation", true, &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: "r"}, AggregationRule: &rbacv1.AggregationRule{
			ClusterRoleSelectors: []metav1.LabelSelector{{MatchLabels: map[string]string{"a": "b"}}},
		}}, cs},
		{"aggregation by a bad selector", false, &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: "r"}, AggregationRule: &rbacv1.AggregationRule{
			ClusterRoleSelectors: []metav1.LabelSelector{{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "a", Operator: "Near"}}}},
		}}, cs},
	} {
		if errs := tc.s.Validate(t.Context(), tc.obj); (len(errs) == 0) != tc.valid {
			t.Errorf("%s: %v", tc.name, errs)
		}
	}
}

// TestValidateBindings checks bindings as the API takes them: defaulted
// as they are decoded, then prepared and validated by upstream.
func TestValidateBindings(t *testing.T) {
	scheme := runtime.NewScheme()
	if err := AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	rb := roleBindingStrategy(nil)
	crb := clusterRoleBindingStrategy(nil)
	user := rbacv1.Subject{Kind: rbacv1.UserKind, Name: "alice"}
	sa := rbacv1.Subject{Kind: rbacv1.ServiceAccountKind, Name: "builder"}
	roleRef := rbacv1.RoleRef{Kind: "Role", Name: "r"}
	clusterRoleRef := rbacv1.RoleRef{Kind: "ClusterRole", Name: "r"}
	binding := func(ref rbacv1.RoleRef, subjects ...rbacv1.Subject) *rbacv1.RoleBinding {
		return &rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "b", Namespace: "default"}, RoleRef: ref, Subjects: subjects}
	}
	clusterBinding := func(ref rbacv1.RoleRef, subjects ...rbacv1.Subject) *rbacv1.ClusterRoleBinding {
		return &rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "b"}, RoleRef: ref, Subjects: subjects}
	}
	for _, tc := range []struct {
		name  string
		valid bool
		obj   runtime.Object
		s     registry.Strategy
	}{
		{"Role, user", true, binding(roleRef, user), rb},
		{"ClusterRole, service account of the namespace", true, binding(clusterRoleRef, sa), rb},
		{"other role kind", false, binding(rbacv1.RoleRef{Kind: "Pod", Name: "r"}, user), rb},
		{"other role group", false, binding(rbacv1.RoleRef{APIGroup: "apps", Kind: "Role", Name: "r"}, user), rb},
		{"unnamed role", false, binding(rbacv1.RoleRef{Kind: "Role"}, user), rb},
		{"unknown subject kind", false, binding(roleRef, rbacv1.Subject{Kind: "Robot", Name: "x"}), rb},
		{"unnamed subject", false, binding(roleRef, rbacv1.Subject{Kind: rbacv1.GroupKind}), rb},
		{"user of another group", false, binding(roleRef, rbacv1.Subject{Kind: rbacv1.UserKind, APIGroup: "example.com", Name: "x"}), rb},
		{"cluster binding of a ClusterRole", true, clusterBinding(clusterRoleRef, user), crb},
		{"cluster binding of a Role", false, clusterBinding(roleRef, user), crb},
		{"cluster binding, service account without namespace", false, clusterBinding(clusterRoleRef, sa), crb},
	} {
		scheme.Default(tc.obj)
		tc.s.PrepareForCreate(t.Context(), tc.obj)
		if errs := tc.s.Validate(t.Context(), tc.obj); (len(errs) == 0) != tc.valid {
			t.Errorf("%s: %v", tc.name, errs)
		}
	}

	old := binding(roleRef, user)
	scheme.Default(old)
	rb.PrepareForCreate(t.Context(), old)
	old.ResourceVersion = "1"
	moreSubjects := old.DeepCopy()
	moreSubjects.Subjects = append(moreSubjects.Subjects, rbacv1.Subject{Kind: rbacv1.GroupKind, Name: "devs"})
	scheme.Default(moreSubjects)
	rb.PrepareForUpdate(t.Context(), moreSubjects, old)
	if errs := rb.ValidateUpdate(t.Context(), moreSubjects, old); len(errs) != 0 {
		t.Errorf("adding a subject: %v", errs)
	}
	otherRole := old.DeepCopy()
	otherRole.RoleRef.Name = "other"
	if errs := rb.ValidateUpdate(t.Context(), otherRole, old); len(errs) == 0 {
		t.Error("the roleRef of a RoleBinding was changed")
	}
}
