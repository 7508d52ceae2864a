package e2e

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAdmins checks, with the real kubectl, that a user who is
// cluster-admin of root:a but not in system:masters can make a logical
// cluster there, is its admin, and can choose its admins, who then have
// rights there and nowhere else, for as long as they are listed.
func TestAdmins(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("kubectl"); err != nil {
		t.Fatalf("kubectl must be on PATH: %v", err)
	}
	h, admin := startHub(t, buildHub(t), "")
	pki := filepath.Join(h.dataDir, "pki")
	users := map[string]kubectl{"admin": admin}
	for _, name := range []string{"alice", "bob", "carol", "dave"} {
		users[name] = userKubeconfig(t, pki, name)
	}
	for name, k := range users {
		k.addContexts(h, pki, name)
	}
	alice, bob, carol, dave := users["alice"], users["bob"], users["carol"], users["dave"]

	admin.createLogicalCluster("root", "a")
	admin.createLogicalCluster("root", "b")
	// A LogicalCluster created by system:masters names no admins, so it
	// costs no binding.
	if got := admin.must("--context", "root", "get", "logicalcluster", "b", "-o", "jsonpath={.spec.admins}"); got != "" {
		t.Errorf("the admin's LogicalCluster b has admins %s", got)
	}

	admin.must("--context", "a", "create", "clusterrolebinding", "alice-admin", "--clusterrole", "cluster-admin", "--user", "alice")
	alice.eventually("--context", "a", "auth", "can-i", "create", "logicalclusters")
	alice.createLogicalCluster("a", "child")
	if got := alice.must("--context", "a", "get", "logicalcluster", "child", "-o",
		"jsonpath={.spec.admins[*].kind}/{.spec.admins[*].name} {.metadata.generation} {.status.observedGeneration}"); got != "User/alice 1 1" {
		t.Errorf("alice's LogicalCluster child has admins, generation and observed generation %q", got)
	}

	// Alice is cluster-admin of root:a:child: she can write there, and
	// grant carol what she has.
	alice.eventually("--context", "child", "auth", "can-i", "create", "configmaps")
	alice.must("--context", "child", "create", "configmap", "mine", "--from-literal", "k=v")
	alice.must("--context", "child", "create", "clusterrolebinding", "carol-admin", "--clusterrole", "cluster-admin", "--user", "carol")
	carol.eventually("--context", "child", "get", "configmap", "mine")

	// Or she names bob in the LogicalCluster, in root:a.
	alice.must("--context", "a", "patch", "logicalcluster", "child", "--type", "json", "-p",
		`[{"op": "add", "path": "/spec/admins/-", "value": {"kind": "User", "name": "bob"}}]`)
	alice.must("--context", "a", "wait", "--for=jsonpath={.status.observedGeneration}=2", "logicalcluster/child", "--timeout=15s")
	if got := admin.must("--context", "child", "get", "clusterrolebinding", "canopy:admins", "-o",
		"jsonpath={.roleRef.name}: {.subjects[*].name}"); got != "cluster-admin: alice bob" {
		t.Errorf("canopy:admins in root:a:child is %q", got)
	}
	bob.eventually("--context", "child", "auth", "can-i", "create", "configmaps")
	bob.must("--context", "child", "create", "configmap", "bobs")
	for _, tc := range []struct{ context, cluster, verb, resource string }{
		{"a", "root:a", "get", "configmaps"},
		{"a", "root:a", "create", "logicalclusters"},
		{"a", "root:a", "update", "logicalclusters"},
		{"b", "root:b", "get", "configmaps"},
		{"root", "root", "get", "configmaps"},
	} {
		if out, _ := bob.run("--context", tc.context, "auth", "can-i", tc.verb, tc.resource); !strings.HasPrefix(out, `no - rbac: "bob" has no role in logical cluster `+tc.cluster+":") {
			t.Errorf("bob: can-i %s %s in %s: %q", tc.verb, tc.resource, tc.context, out)
		}
	}
	// Who the admins of root:a:child are is decided in root:a, where bob
	// has no rights.
	if _, err := bob.run("--context", "a", "patch", "logicalcluster", "child", "--type", "merge", "-p", `{"spec": {"admins": []}}`); err == nil || !strings.Contains(err.Error(), "Forbidden") {
		t.Errorf("bob changed child's admins in root:a: %v", err)
	}

	// A malformed admin is refused with what to fix.
	if _, err := alice.run("--context", "a", "patch", "logicalcluster", "child", "--type", "json", "-p",
		`[{"op": "add", "path": "/spec/admins/-", "value": {"kind": "ServiceAccount", "name": "bot"}}]`); err == nil ||
		!strings.Contains(err.Error(), "spec.admins[2].namespace: Required value") {
		t.Errorf("an admin service account without a namespace: %v", err)
	}

	// Removed from the admins, bob loses his rights in root:a:child.
	alice.must("--context", "a", "patch", "logicalcluster", "child", "--type", "merge", "-p",
		`{"spec": {"admins": [{"kind": "User", "apiGroup": "rbac.authorization.k8s.io", "name": "alice"}]}}`)
	deadline := time.Now().Add(10 * time.Second)
	for {
		out, _ := bob.run("--context", "child", "auth", "can-i", "create", "configmaps")
		if strings.HasPrefix(out, `no - rbac: "bob" has no role in logical cluster root:a:child:`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("bob removed from child's admins: can-i create configmaps there still says %q after 10s", out)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if _, err := bob.run("--context", "child", "get", "configmap", "mine"); err == nil || !strings.Contains(err.Error(), "Forbidden") {
		t.Errorf("bob removed from child's admins: get configmap: %v", err)
	}

	// Dave has no rights in root:a, so cannot make logical clusters there,
	// whoever he would name admin.
	manifest := writeFile(t, "apiVersion: tenancy.canopy.dev/v1alpha1\nkind: LogicalCluster\nmetadata:\n  name: daves\nspec:\n  admins:\n  - kind: User\n    name: dave\n")
	if _, err := dave.run("--context", "a", "create", "-f", manifest); err == nil || !strings.Contains(err.Error(), "(Forbidden)") ||
		!strings.Contains(err.Error(), `User "dave" cannot create resource "logicalclusters" in API group "tenancy.canopy.dev"`) {
		t.Errorf("dave created a LogicalCluster in root:a: %v", err)
	}
	if _, err := dave.run("--context", "child", "get", "configmaps"); err == nil || !strings.Contains(err.Error(), "Forbidden") {
		t.Errorf("dave listed configmaps in root:a:child: %v", err)
	}
}
