package rbac

import (
	"testing"

	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"
)

func resource(verb, group, res, sub, name string) authorizer.AttributesRecord {
	return authorizer.AttributesRecord{Verb: verb, APIGroup: group, Resource: res, Subresource: sub, Name: name, ResourceRequest: true}
}

func nonResource(verb, path string) authorizer.AttributesRecord {
	return authorizer.AttributesRecord{Verb: verb, Path: path}
}

func TestRuleAllows(t *testing.T) {
	configMaps := rbacv1.PolicyRule{Verbs: []string{"get", "list"}, APIGroups: []string{""}, Resources: []string{"configmaps"}}
	everything := rbacv1.PolicyRule{Verbs: []string{"*"}, APIGroups: []string{"*"}, Resources: []string{"*"}}
	for _, tc := range []struct {
		name  string
		rule  rbacv1.PolicyRule
		attrs authorizer.AttributesRecord
		want  bool
	}{
		{"listed verb", configMaps, resource("get", "", "configmaps", "", "x"), true},
		{"unlisted verb", configMaps, resource("delete", "", "configmaps", "", "x"), false},
		{"other group", configMaps, resource("get", "apps", "configmaps", "", "x"), false},
		{"other resource", configMaps, resource("get", "", "secrets", "", "x"), false},
		{"subresource needs naming", configMaps, resource("get", "", "configmaps", "status", "x"), false},
		{"all verbs, groups, resources", everything, resource("escalate", "rbac.authorization.k8s.io", "roles", "", "x"), true},
		{"* covers subresources", everything, resource("update", "", "pods", "status", "x"), true},
		{"resource/subresource", rbacv1.PolicyRule{Verbs: []string{"update"}, APIGroups: []string{""}, Resources: []string{"pods/status"}},
			resource("update", "", "pods", "status", "x"), true},
		{"resource/subresource is not the resource", rbacv1.PolicyRule{Verbs: []string{"update"}, APIGroups: []string{""}, Resources: []string{"pods/status"}},
			resource("update", "", "pods", "", "x"), false},
		{"*/subresource", rbacv1.PolicyRule{Verbs: []string{"get"}, APIGroups: []string{"*"}, Resources: []string{"*/scale"}},
			resource("get", "apps", "deployments", "scale", "x"), true},
		{"*/subresource is no resource", rbacv1.PolicyRule{Verbs: []string{"get"}, APIGroups: []string{"*"}, Resources: []string{"*/scale"}},
			resource("get", "apps", "deployments", "", "x"), false},
		{"*/subresource of another subresource", rbacv1.PolicyRule{Verbs: []string{"get"}, APIGroups: []string{"*"}, Resources: []string{"*/scale"}},
			resource("get", "apps", "deployments", "status", "x"), false},
		{"resource name", rbacv1.PolicyRule{Verbs: []string{"get"}, APIGroups: []string{""}, Resources: []string{"configmaps"}, ResourceNames: []string{"a", "b"}},
			resource("get", "", "configmaps", "", "b"), true},
		{"other resource name", rbacv1.PolicyRule{Verbs: []string{"get"}, APIGroups: []string{""}, Resources: []string{"configmaps"}, ResourceNames: []string{"a"}},
			resource("get", "", "configmaps", "", "b"), false},
		{"resource names never match a list", rbacv1.PolicyRule{Verbs: []string{"list"}, APIGroups: []string{""}, Resources: []string{"configmaps"}, ResourceNames: []string{"a"}},
			resource("list", "", "configmaps", "", ""), false},
		{"resource rule, non-resource request", everything, nonResource("get", "/healthz"), false},
		{"non-resource URL", rbacv1.PolicyRule{Verbs: []string{"get"}, NonResourceURLs: []string{"/healthz"}}, nonResource("get", "/healthz"), true},
		{"non-resource URL, other verb", rbacv1.PolicyRule{Verbs: []string{"get"}, NonResourceURLs: []string{"/healthz"}}, nonResource("post", "/healthz"), false},
		{"non-resource URL is exact", rbacv1.PolicyRule{Verbs: []string{"get"}, NonResourceURLs: []string{"/healthz"}}, nonResource("get", "/healthz/etcd"), false},
		{"non-resource prefix", rbacv1.PolicyRule{Verbs: []string{"get"}, NonResourceURLs: []string{"/apis/*"}}, nonResource("get", "/apis/rbac.authorization.k8s.io/v1"), true},
		{"non-resource prefix is no exact match", rbacv1.PolicyRule{Verbs: []string{"get"}, NonResourceURLs: []string{"/apis/*"}}, nonResource("get", "/apis"), false},
		{"non-resource *", rbacv1.PolicyRule{Verbs: []string{"*"}, NonResourceURLs: []string{"*"}}, nonResource("get", "/metrics"), true},
		{"non-resource rule, resource request", rbacv1.PolicyRule{Verbs: []string{"*"}, NonResourceURLs: []string{"*"}}, resource("get", "", "configmaps", "", ""), false},
	} {
		if got := RuleAllows(tc.attrs, &tc.rule); got != tc.want {
			t.Errorf("%s: RuleAllows = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestAppliesTo(t *testing.T) {
	alice := &user.DefaultInfo{Name: "alice", Groups: []string{"devs", user.AllAuthenticated}}
	sa := &user.DefaultInfo{Name: "system:serviceaccount:ns1:builder", Groups: []string{"system:serviceaccounts", "system:serviceaccounts:ns1"}}
	for _, tc := range []struct {
		name      string
		u         user.Info
		subject   rbacv1.Subject
		namespace string
		want      bool
	}{
		{"user", alice, rbacv1.Subject{Kind: rbacv1.UserKind, Name: "alice"}, "", true},
		{"other user", alice, rbacv1.Subject{Kind: rbacv1.UserKind, Name: "bob"}, "", false},
		{"group", alice, rbacv1.Subject{Kind: rbacv1.GroupKind, Name: "devs"}, "", true},
		{"a user's name is no group", alice, rbacv1.Subject{Kind: rbacv1.GroupKind, Name: "alice"}, "", false},
		{"service account", sa, rbacv1.Subject{Kind: rbacv1.ServiceAccountKind, Name: "builder", Namespace: "ns1"}, "", true},
		{"service account of another namespace", sa, rbacv1.Subject{Kind: rbacv1.ServiceAccountKind, Name: "builder", Namespace: "ns2"}, "", false},
		{"service account of the binding's namespace", sa, rbacv1.Subject{Kind: rbacv1.ServiceAccountKind, Name: "builder"}, "ns1", true},
		{"service account without a namespace", sa, rbacv1.Subject{Kind: rbacv1.ServiceAccountKind, Name: "builder"}, "", false},
		{"service account as user", sa, rbacv1.Subject{Kind: rbacv1.UserKind, Name: "system:serviceaccount:ns1:builder"}, "", true},
		{"all service accounts", sa, rbacv1.Subject{Kind: rbacv1.GroupKind, Name: "system:serviceaccounts"}, "", true},
		{"service accounts of a namespace", sa, rbacv1.Subject{Kind: rbacv1.GroupKind, Name: "system:serviceaccounts:ns1"}, "", true},
		{"service accounts of another namespace", sa, rbacv1.Subject{Kind: rbacv1.GroupKind, Name: "system:serviceaccounts:ns2"}, "", false},
		{"a user is no service account", alice, rbacv1.Subject{Kind: rbacv1.ServiceAccountKind, Name: "alice", Namespace: "ns1"}, "", false},
		{"unknown kind", alice, rbacv1.Subject{Kind: "Robot", Name: "alice"}, "", false},
	} {
		if _, got := appliesTo(tc.u, []rbacv1.Subject{tc.subject}, tc.namespace); got != tc.want {
			t.Errorf("%s: appliesTo = %v, want %v", tc.name, got, tc.want)
		}
	}
}
