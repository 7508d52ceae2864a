package bootstrappolicy

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestPinnedVersion: the data file is of the kube-apiserver the e2e
// physical clusters run, which hack/tools/kube pins; moving the pin
// means reading the policy again.
func TestPinnedVersion(t *testing.T) {
	gomod, err := os.ReadFile(filepath.Join("..", "..", "..", "hack", "tools", "kube", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*k8s\.io/kubernetes (v\S+)`).FindSubmatch(gomod)
	if m == nil {
		t.Fatal("hack/tools/kube/go.mod requires no k8s.io/kubernetes")
	}
	if string(m[1]) != KubernetesVersion {
		t.Errorf("hack/tools/kube pins kube-apiserver %s, %s is of %s: run go test ./e2e -run TestBootstrapPolicy -args -update-bootstrap-policy and set KubernetesVersion",
			m[1], File, KubernetesVersion)
	}
}

// TestPolicy checks the data file: the version it was read from, the
// roles the hub relies on by name, and that it holds nothing Excluded
// names, and every binding's role.
func TestPolicy(t *testing.T) {
	if policy.KubernetesVersion != KubernetesVersion {
		t.Errorf("%s was read from kube-apiserver %s, not %s", File, policy.KubernetesVersion, KubernetesVersion)
	}
	for _, name := range []string{"cluster-admin", "admin", "edit", "view", "system:discovery", "system:basic-user",
		"system:public-info-viewer", "system:auth-delegator", "system:service-account-issuer-discovery"} {
		if ClusterRole(name) == nil {
			t.Errorf("%s has no ClusterRole %s", File, name)
		}
	}
	for _, r := range ClusterRoles() {
		if reason, ok := Excluded(r.Name); ok {
			t.Errorf("%s has ClusterRole %s, which is excluded: %s", File, r.Name, reason)
		}
	}
	for _, b := range ClusterRoleBindings() {
		if reason, ok := Excluded(b.Name); ok {
			t.Errorf("%s has ClusterRoleBinding %s, which is excluded: %s", File, b.Name, reason)
		}
		if ClusterRole(b.RoleRef.Name) == nil {
			t.Errorf("ClusterRoleBinding %s binds ClusterRole %s, which %s lacks", b.Name, b.RoleRef.Name, File)
		}
	}
	if a, b := ClusterRole("view"), ClusterRole("view"); &a.Rules[0] == &b.Rules[0] {
		t.Errorf("ClusterRole returns the same rules twice, which a caller could change for all")
	}
}
