package rbac

import (
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// aggregateTo is the label prefix by which admin, edit and view pick up
// the rules of other ClusterRoles, as in Kubernetes: a ClusterRole labeled
// rbac.authorization.k8s.io/aggregate-to-edit=true adds its rules to edit.
const aggregateTo = "rbac.authorization.k8s.io/aggregate-to-"

var (
	read      = []string{"get", "list", "watch"}
	write     = []string{"create", "delete", "deletecollection", "patch", "update"}
	readWrite = append(append([]string{}, read...), write...)
)

// userFacing are the resources, by API group, that an application team
// works with, and so that the user-facing roles grant; subresources
// without a verb of their own (status, scale) come with their resource.
var userFacing = []struct {
	group     string
	resources []string
}{
	{"", []string{"configmaps", "endpoints", "persistentvolumeclaims", "pods", "pods/status", "podtemplates",
		"replicationcontrollers", "replicationcontrollers/scale", "services", "services/status", "serviceaccounts"}},
	{"apps", []string{"controllerrevisions", "daemonsets", "daemonsets/status", "deployments", "deployments/scale", "deployments/status",
		"replicasets", "replicasets/scale", "replicasets/status", "statefulsets", "statefulsets/scale", "statefulsets/status"}},
	{"autoscaling", []string{"horizontalpodautoscalers", "horizontalpodautoscalers/status"}},
	{"batch", []string{"cronjobs", "cronjobs/status", "jobs", "jobs/status"}},
	{"discovery.k8s.io", []string{"endpointslices"}},
	{"networking.k8s.io", []string{"ingresses", "ingresses/status", "networkpolicies"}},
	{"policy", []string{"poddisruptionbudgets", "poddisruptionbudgets/status"}},
}

// viewOnly are what view reads and edit does not write beyond reading:
// the namespace and its quotas, limits and events.
var viewOnly = []string{"events", "limitranges", "namespaces", "namespaces/status", "resourcequotas", "resourcequotas/status"}

// clusterAdminRules grant everything.
var clusterAdminRules = []rbacv1.PolicyRule{
	{Verbs: []string{"*"}, APIGroups: []string{"*"}, Resources: []string{"*"}},
	{Verbs: []string{"*"}, NonResourceURLs: []string{"*"}},
}

// defaultRoles are Kubernetes' user-facing ClusterRoles: cluster-admin,
// and admin, edit and view, which aggregate the system:aggregate-to-*
// roles so that new APIs can extend them with a labeled ClusterRole.
func defaultRoles() []*rbacv1.ClusterRole {
	rule := func(verbs []string, group string, resources ...string) rbacv1.PolicyRule {
		return rbacv1.PolicyRule{Verbs: verbs, APIGroups: []string{group}, Resources: resources}
	}
	var viewRules, editRules []rbacv1.PolicyRule
	for _, g := range userFacing {
		viewRules = append(viewRules, rule(read, g.group, g.resources...))
		editRules = append(editRules, rule(write, g.group, g.resources...))
	}
	viewRules = append(viewRules, rule(read, "", viewOnly...))
	// Secrets can be read by editors only: reading them is as good as
	// acting as the ServiceAccounts whose tokens they hold.
	editRules = append(editRules,
		rule(readWrite, "", "secrets"),
		rule([]string{"create"}, "", "serviceaccounts/token"),
		rule(readWrite, "coordination.k8s.io", "leases"),
	)
	adminRules := []rbacv1.PolicyRule{
		rule(readWrite, "rbac.authorization.k8s.io", "rolebindings", "roles"),
	}
	aggregated := func(name, to string, labels map[string]string) *rbacv1.ClusterRole {
		return &rbacv1.ClusterRole{
			ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels},
			AggregationRule: &rbacv1.AggregationRule{ClusterRoleSelectors: []metav1.LabelSelector{
				{MatchLabels: map[string]string{aggregateTo + to: "true"}},
			}},
		}
	}
	component := func(to string, rules []rbacv1.PolicyRule) *rbacv1.ClusterRole {
		return &rbacv1.ClusterRole{
			ObjectMeta: metav1.ObjectMeta{Name: "system:aggregate-to-" + to, Labels: map[string]string{aggregateTo + to: "true"}},
			Rules:      rules,
		}
	}
	return []*rbacv1.ClusterRole{
		{ObjectMeta: metav1.ObjectMeta{Name: "cluster-admin"}, Rules: clusterAdminRules},
		// admin includes edit, and edit includes view, by carrying the
		// label the other aggregates by.
		aggregated("admin", "admin", nil),
		aggregated("edit", "edit", map[string]string{aggregateTo + "admin": "true"}),
		aggregated("view", "view", map[string]string{aggregateTo + "edit": "true"}),
		component("admin", adminRules),
		component("edit", editRules),
		component("view", viewRules),
	}
}
