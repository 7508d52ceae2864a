package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDefaultRoles checks that every logical cluster has Kubernetes'
// user-facing roles: admin bound in a namespace grants that namespace,
// view withholds secrets, and a labeled ClusterRole extends view, edit and
// admin, which only a full admin of the logical cluster may arrange.
func TestDefaultRoles(t *testing.T) {
	t.Parallel()
	h, admin := startHub(t, buildHub(t), "")
	pki := filepath.Join(h.dataDir, "pki")
	bob := userKubeconfig(t, pki, "bob")
	carol := userKubeconfig(t, pki, "carol")
	admin.addContexts(h, pki, "admin")
	bob.addContexts(h, pki, "bob")
	carol.addContexts(h, pki, "carol")
	admin.createLogicalCluster("root", "a")

	for _, role := range []string{"cluster-admin", "admin", "edit", "view"} {
		admin.must("--context", "a", "get", "clusterrole", role)
	}
	admin.must("--context", "a", "create", "rolebinding", "bob-admin", "--clusterrole", "admin", "--user", "bob", "-n", "default")
	admin.must("--context", "a", "create", "rolebinding", "carol-view", "--clusterrole", "view", "--user", "carol", "-n", "default")
	for _, tc := range []struct {
		who    kubectl
		args   []string
		answer string
	}{
		{bob, []string{"create", "configmaps", "-n", "default"}, "yes"},
		{bob, []string{"create", "rolebindings", "-n", "default"}, "yes"},
		{bob, []string{"get", "secrets", "-n", "default"}, "yes"},
		{bob, []string{"create", "configmaps", "-n", "kube-system"}, "no"},
		{bob, []string{"create", "clusterroles"}, "no"},
		{carol, []string{"list", "configmaps", "-n", "default"}, "yes"},
		{carol, []string{"get", "secrets", "-n", "default"}, "no"},
		{carol, []string{"create", "configmaps", "-n", "default"}, "no"},
	} {
		args := append([]string{"--context", "a", "auth", "can-i"}, tc.args...)
		out, _ := tc.who.run(args...)
		if got := strings.TrimSpace(out); got != tc.answer {
			t.Errorf("kubectl auth can-i %s: %q, want %q", strings.Join(tc.args, " "), got, tc.answer)
		}
	}
	bob.must("--context", "a", "create", "configmap", "mine", "-n", "default")
	if who := bob.must("--context", "a", "auth", "whoami", "-o", "jsonpath={.status.userInfo.username} {.status.userInfo.groups}"); who != `bob ["system:authenticated"]` {
		t.Errorf("kubectl auth whoami as bob: %q", who)
	}

	// A ClusterRole labeled to aggregate to view extends view, and so
	// edit and admin, in its own logical cluster.
	admin.apply("a", `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: tokens-view
  labels:
    rbac.authorization.k8s.io/aggregate-to-view: "true"
rules:
- apiGroups: [""]
  resources: ["serviceaccounts/token"]
  verbs: ["create"]
`)
	deadline := time.Now().Add(10 * time.Second)
	for {
		out, _ := carol.run("--context", "a", "auth", "can-i", "create", "serviceaccounts", "--subresource", "token", "-n", "default")
		if strings.TrimSpace(out) == "yes" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("view was not extended by tokens-view: can-i says %q", out)
		}
		time.Sleep(100 * time.Millisecond)
	}
	for _, role := range []string{"view", "edit", "admin"} {
		if rules := admin.must("--context", "a", "get", "clusterrole", role, "-o", "jsonpath={.rules}"); !strings.Contains(rules, "serviceaccounts/token") {
			t.Errorf("ClusterRole %s lacks the aggregated rule: %s", role, rules)
		}
	}
	admin.must("--context", "root", "create", "namespace", "probe")
	if rules := admin.must("--context", "root", "get", "clusterrole", "view", "-o", "jsonpath={.rules}"); strings.Contains(rules, "serviceaccounts/token") {
		t.Errorf("view in root took in a ClusterRole of root:a: %s", rules)
	}

	// Taking away the label takes away the rules.
	admin.must("--context", "a", "label", "clusterrole", "tokens-view", "rbac.authorization.k8s.io/aggregate-to-view-")
	deadline = time.Now().Add(10 * time.Second)
	for strings.Contains(admin.must("--context", "a", "get", "clusterrole", "view", "-o", "jsonpath={.rules}"), "serviceaccounts/token") {
		if time.Now().After(deadline) {
			t.Fatal("view kept the aggregated rule after its source lost the label")
		}
		time.Sleep(100 * time.Millisecond)
	}

	// Making an aggregated role takes every permission: bob, who may
	// write ClusterRoles, may not make one that gathers others' rules.
	admin.apply("a", `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: role-writer
rules:
- apiGroups: ["rbac.authorization.k8s.io"]
  resources: ["clusterroles"]
  verbs: ["create"]
`)
	admin.must("--context", "a", "create", "clusterrolebinding", "bob-roles", "--clusterrole", "role-writer", "--user", "bob")
	_, err := bob.run("--context", "a", "create", "-f", writeFile(t, `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: gather
aggregationRule:
  clusterRoleSelectors:
  - matchLabels:
      rbac.authorization.k8s.io/aggregate-to-admin: "true"
`))
	if err == nil || !strings.Contains(err.Error(), "must have cluster-admin privileges to use the aggregationRule") {
		t.Errorf("bob made an aggregated ClusterRole: %v", err)
	}
}
