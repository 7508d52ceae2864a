package rbac

import (
	"context"
	"strings"
	"testing"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// objects is a Source over fixed objects, each with its logical cluster
// in the annotation, as the registry stores them.
type objects []metav1.Object

func (o objects) in(cluster logicalcluster.Name) []metav1.Object {
	var out []metav1.Object
	for _, obj := range o {
		if c, err := logicalcluster.FromObject(obj); err == nil && c == cluster {
			out = append(out, obj)
		}
	}
	return out
}

func (o objects) ClusterRoleBindings(_ context.Context, c logicalcluster.Name) ([]*rbacv1.ClusterRoleBinding, error) {
	var out []*rbacv1.ClusterRoleBinding
	for _, obj := range o.in(c) {
		if b, ok := obj.(*rbacv1.ClusterRoleBinding); ok {
			out = append(out, b)
		}
	}
	return out, nil
}

func (o objects) RoleBindings(_ context.Context, c logicalcluster.Name, ns string) ([]*rbacv1.RoleBinding, error) {
	var out []*rbacv1.RoleBinding
	for _, obj := range o.in(c) {
		if b, ok := obj.(*rbacv1.RoleBinding); ok && (ns == metav1.NamespaceAll || b.Namespace == ns) {
			out = append(out, b)
		}
	}
	return out, nil
}

func (o objects) ClusterRole(_ context.Context, c logicalcluster.Name, name string) (*rbacv1.ClusterRole, error) {
	for _, obj := range o.in(c) {
		if r, ok := obj.(*rbacv1.ClusterRole); ok && r.Name == name {
			return r, nil
		}
	}
	return nil, nil
}

func (o objects) Role(_ context.Context, c logicalcluster.Name, ns, name string) (*rbacv1.Role, error) {
	for _, obj := range o.in(c) {
		if r, ok := obj.(*rbacv1.Role); ok && r.Namespace == ns && r.Name == name {
			return r, nil
		}
	}
	return nil, nil
}

func meta(cluster logicalcluster.Name, ns, name string) metav1.ObjectMeta {
	m := metav1.ObjectMeta{Namespace: ns, Name: name}
	logicalcluster.SetOn(&m, cluster)
	return m
}

func TestAuthorizerIsolatesLogicalClusters(t *testing.T) {
	readCM := []rbacv1.PolicyRule{{Verbs: []string{"get"}, APIGroups: []string{""}, Resources: []string{"configmaps"}}}
	ref := func(kind, name string) rbacv1.RoleRef {
		return rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: kind, Name: name}
	}
	to := func(name string) []rbacv1.Subject {
		return []rbacv1.Subject{{Kind: rbacv1.UserKind, APIGroup: rbacv1.GroupName, Name: name}}
	}
	a := New(objects{
		// root:a: alice everywhere, bob in ns1 through a ClusterRole,
		// carol in ns1 through a Role, dave bound to a missing role.
		&rbacv1.ClusterRole{ObjectMeta: meta("root:a", "", "read-cm"), Rules: readCM},
		&rbacv1.ClusterRoleBinding{ObjectMeta: meta("root:a", "", "alice"), RoleRef: ref("ClusterRole", "read-cm"), Subjects: to("alice")},
		&rbacv1.RoleBinding{ObjectMeta: meta("root:a", "ns1", "bob"), RoleRef: ref("ClusterRole", "read-cm"), Subjects: to("bob")},
		&rbacv1.Role{ObjectMeta: meta("root:a", "ns1", "read-cm"), Rules: readCM},
		&rbacv1.RoleBinding{ObjectMeta: meta("root:a", "ns1", "carol"), RoleRef: ref("Role", "read-cm"), Subjects: to("carol")},
		&rbacv1.RoleBinding{ObjectMeta: meta("root:a", "ns1", "dave"), RoleRef: ref("Role", "missing"), Subjects: to("dave")},
		// root:b has a ClusterRole of the same name that alice is not
		// bound to there.
		&rbacv1.ClusterRole{ObjectMeta: meta("root:b", "", "read-cm"), Rules: readCM},
	})
	for _, tc := range []struct {
		user, cluster, namespace string
		want                     authorizer.Decision
	}{
		{"alice", "root:a", "ns1", authorizer.DecisionAllow},
		{"alice", "root:a", "ns2", authorizer.DecisionAllow},
		{"alice", "root:b", "ns1", authorizer.DecisionNoOpinion},
		{"alice", "root", "ns1", authorizer.DecisionNoOpinion},
		{"alice", "root:a:child", "ns1", authorizer.DecisionNoOpinion},
		{"bob", "root:a", "ns1", authorizer.DecisionAllow},
		{"bob", "root:a", "ns2", authorizer.DecisionNoOpinion},
		{"carol", "root:a", "ns1", authorizer.DecisionAllow},
		{"carol", "root:a", "ns2", authorizer.DecisionNoOpinion},
		{"dave", "root:a", "ns1", authorizer.DecisionNoOpinion},
	} {
		ctx := logicalcluster.WithCluster(t.Context(), logicalcluster.Name(tc.cluster))
		attrs := resource("get", "", "configmaps", "", "x")
		attrs.User, attrs.Namespace = &user.DefaultInfo{Name: tc.user}, tc.namespace
		got, reason, err := a.Authorize(ctx, attrs)
		if err != nil || got != tc.want {
			t.Errorf("%s getting a configmap in %s/%s: %v (%s, %v), want %v", tc.user, tc.cluster, tc.namespace, got, reason, err, tc.want)
		}
	}

	// Cluster-wide rules do not include namespaced bindings' rules.
	rules, err := a.RulesFor(t.Context(), "root:a", &user.DefaultInfo{Name: "bob"}, "")
	if err != nil || len(rules) != 0 {
		t.Errorf("bob's cluster-wide rules in root:a: %v, %v", rules, err)
	}
	rules, err = a.RulesFor(t.Context(), "root:a", &user.DefaultInfo{Name: "bob"}, "ns1")
	if err != nil || len(rules) != 1 {
		t.Errorf("bob's rules in root:a/ns1: %v, %v", rules, err)
	}
}

// TestMembers: a logical cluster's members are the users and groups its
// bindings name, in any namespace, but not through the bindings every
// logical cluster has for everyone, its ServiceAccounts, and
// system:masters; a refusal tells a non-member so.
func TestMembers(t *testing.T) {
	ref := func(name string) rbacv1.RoleRef {
		return rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: name}
	}
	subject := func(kind, name string) []rbacv1.Subject {
		return []rbacv1.Subject{{Kind: kind, APIGroup: rbacv1.GroupName, Name: name}}
	}
	discovery := []rbacv1.PolicyRule{{Verbs: []string{"get"}, NonResourceURLs: []string{"/api", "/apis", "/apis/*"}}}
	readCM := []rbacv1.PolicyRule{{Verbs: []string{"get"}, APIGroups: []string{""}, Resources: []string{"configmaps"}}}
	var objs objects
	for _, c := range []logicalcluster.Name{"root:a", "root:b", "root:public"} {
		objs = append(objs,
			&rbacv1.ClusterRole{ObjectMeta: meta(c, "", "system:discovery"), Rules: discovery},
			&rbacv1.ClusterRoleBinding{ObjectMeta: meta(c, "", "system:discovery"), RoleRef: ref("system:discovery"), Subjects: subject(rbacv1.GroupKind, user.AllAuthenticated)},
			&rbacv1.ClusterRole{ObjectMeta: meta(c, "", "read-cm"), Rules: readCM},
		)
	}
	objs = append(objs,
		// root:a: alice cluster-wide, bob in namespace ns1 only, and
		// the team group in ns2.
		&rbacv1.ClusterRoleBinding{ObjectMeta: meta("root:a", "", "alice"), RoleRef: ref("read-cm"), Subjects: subject(rbacv1.UserKind, "alice")},
		&rbacv1.RoleBinding{ObjectMeta: meta("root:a", "ns1", "bob"), RoleRef: ref("read-cm"), Subjects: subject(rbacv1.UserKind, "bob")},
		&rbacv1.RoleBinding{ObjectMeta: meta("root:a", "ns2", "team"), RoleRef: ref("read-cm"), Subjects: subject(rbacv1.GroupKind, "team")},
		// root:public opens configmaps to everyone, on purpose.
		&rbacv1.ClusterRoleBinding{ObjectMeta: meta("root:public", "", "everyone"), RoleRef: ref("read-cm"), Subjects: subject(rbacv1.GroupKind, user.AllAuthenticated)},
	)
	a := New(objs)
	authenticated := func(name string, groups ...string) user.Info {
		return &user.DefaultInfo{Name: name, Groups: append(groups, user.AllAuthenticated)}
	}
	for _, tc := range []struct {
		who     user.Info
		cluster logicalcluster.Name
		want    bool
	}{
		{authenticated("alice"), "root:a", true},
		{authenticated("bob"), "root:a", true},
		{authenticated("carol", "team"), "root:a", true},
		{authenticated("system:serviceaccount:default:bot", "system:serviceaccounts"), "root:b", true},
		{authenticated("admin", user.SystemPrivilegedGroup), "root:b", true},
		{authenticated("eve"), "root:public", true},
		{authenticated("alice"), "root:b", false},
		{authenticated("bob"), "root:b", false},
		{authenticated("carol", "team"), "root:b", false},
		{authenticated("eve"), "root:a", false},
	} {
		got, err := a.IsMember(t.Context(), tc.cluster, tc.who)
		if err != nil || got != tc.want {
			t.Errorf("%s a member of %s: %v, %v; want %v", tc.who.GetName(), tc.cluster, got, err, tc.want)
		}
		// Everyone may discover the hub's own APIs, as in Kubernetes.
		ctx := logicalcluster.WithCluster(t.Context(), tc.cluster)
		if d, reason, err := a.Authorize(ctx, authorizer.AttributesRecord{User: tc.who, Verb: "get", Path: "/apis"}); d != authorizer.DecisionAllow {
			t.Errorf("%s reading /apis in %s: %v (%s, %v)", tc.who.GetName(), tc.cluster, d, reason, err)
		}
		attrs := resource("delete", "", "configmaps", "ns1", "x")
		attrs.User = tc.who
		d, reason, err := a.Authorize(ctx, attrs)
		if d == authorizer.DecisionAllow || err != nil {
			t.Fatalf("%s deleting a configmap in %s: %v, %v", tc.who.GetName(), tc.cluster, d, err)
		}
		if told := strings.Contains(reason, "has no role in logical cluster "+tc.cluster.String()); told == tc.want {
			t.Errorf("%s refused in %s with reason %q", tc.who.GetName(), tc.cluster, reason)
		}
	}
}

// TestAllowedReason: an allowed request's reason names the binding, role
// and subject as Kubernetes' RBAC authorizer does (a RoleBinding as
// name/namespace, a ServiceAccount as name/namespace), so that a
// SubjectAccessReview answers as kube-apiserver's does.
func TestAllowedReason(t *testing.T) {
	readCM := []rbacv1.PolicyRule{{Verbs: []string{"get"}, APIGroups: []string{""}, Resources: []string{"configmaps"}}}
	ref := func(kind, name string) rbacv1.RoleRef {
		return rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: kind, Name: name}
	}
	a := New(objects{
		&rbacv1.ClusterRole{ObjectMeta: meta("root:a", "", "read-cm"), Rules: readCM},
		&rbacv1.ClusterRoleBinding{ObjectMeta: meta("root:a", "", "alice"), RoleRef: ref("ClusterRole", "read-cm"),
			Subjects: []rbacv1.Subject{{Kind: rbacv1.UserKind, Name: "someone"}, {Kind: rbacv1.UserKind, Name: "alice"}}},
		&rbacv1.Role{ObjectMeta: meta("root:a", "ns1", "read-cm"), Rules: readCM},
		&rbacv1.RoleBinding{ObjectMeta: meta("root:a", "ns1", "sa"), RoleRef: ref("Role", "read-cm"),
			Subjects: []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: "builder"}}},
		&rbacv1.RoleBinding{ObjectMeta: meta("root:a", "ns1", "team"), RoleRef: ref("ClusterRole", "read-cm"),
			Subjects: []rbacv1.Subject{{Kind: rbacv1.GroupKind, Name: "team"}}},
	})
	ctx := logicalcluster.WithCluster(t.Context(), "root:a")
	for _, tc := range []struct {
		name string
		user user.Info
		want string
	}{
		{"cluster role binding", &user.DefaultInfo{Name: "alice"}, `RBAC: allowed by ClusterRoleBinding "alice" of ClusterRole "read-cm" to User "alice"`},
		{"service account", &user.DefaultInfo{Name: "system:serviceaccount:ns1:builder"}, `RBAC: allowed by RoleBinding "sa/ns1" of Role "read-cm" to ServiceAccount "builder/ns1"`},
		{"group", &user.DefaultInfo{Name: "bob", Groups: []string{"team"}}, `RBAC: allowed by RoleBinding "team/ns1" of ClusterRole "read-cm" to Group "team"`},
	} {
		attrs := resource("get", "", "configmaps", "", "x")
		attrs.User, attrs.Namespace = tc.user, "ns1"
		if got, reason, err := a.Authorize(ctx, attrs); err != nil || got != authorizer.DecisionAllow || reason != tc.want {
			t.Errorf("%s: %v, %q, %v; want allowed, %q", tc.name, got, reason, err, tc.want)
		}
	}
	// What every logical cluster grants is told by the binding that
	// grants it in kube-apiserver.
	discovery := authorizer.AttributesRecord{User: &user.DefaultInfo{Name: "alice", Groups: []string{user.AllAuthenticated}}, Verb: "get", Path: "/apis"}
	if _, reason, _ := a.Authorize(ctx, discovery); reason != `RBAC: allowed by ClusterRoleBinding "system:discovery" of ClusterRole "system:discovery" to Group "system:authenticated"` {
		t.Errorf("discovery allowed saying %q", reason)
	}
	review := authorizer.AttributesRecord{User: discovery.User, Verb: "create", APIGroup: "authorization.k8s.io", Resource: "selfsubjectaccessreviews", ResourceRequest: true}
	if _, reason, _ := a.Authorize(ctx, review); reason != `RBAC: allowed by ClusterRoleBinding "system:basic-user" of ClusterRole "system:basic-user" to Group "system:authenticated"` {
		t.Errorf("a SelfSubjectAccessReview allowed saying %q", reason)
	}
	health := authorizer.AttributesRecord{User: &user.DefaultInfo{Name: user.Anonymous, Groups: []string{user.AllUnauthenticated}}, Verb: "get", Path: "/readyz"}
	if _, reason, _ := a.Authorize(ctx, health); reason != `RBAC: allowed by ClusterRoleBinding "system:public-info-viewer" of ClusterRole "system:public-info-viewer" to Group "system:unauthenticated"` {
		t.Errorf("readyz allowed saying %q", reason)
	}
}
