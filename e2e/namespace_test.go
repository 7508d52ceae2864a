package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestNamespaceDeletion deletes a namespace with the real kubectl and
// checks that its content goes with it, in its own logical cluster only,
// and that nothing is created in a namespace that does not exist.
func TestNamespaceDeletion(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("kubectl"); err != nil {
		t.Fatalf("kubectl must be on PATH: %v", err)
	}
	h := &hub{bin: buildHub(t), dataDir: t.TempDir(), port: freePort(t)}
	h.start(t)

	k := kubectl{t: t, kubeconfig: filepath.Join(t.TempDir(), "kubeconfig"), home: t.TempDir()}
	adminBytes, err := os.ReadFile(filepath.Join(h.dataDir, "admin.kubeconfig"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(k.kubeconfig, adminBytes, 0o600); err != nil {
		t.Fatal(err)
	}
	k.addContexts(h, filepath.Join(h.dataDir, "pki"), "admin")
	k.createLogicalCluster("root", "a")
	k.createLogicalCluster("root", "b")

	for _, context := range []string{"a", "b"} {
		k.must("--context", context, "create", "namespace", "team")
		k.must("--context", context, "-n", "team", "create", "configmap", "settings", "--from-literal", "k=v")
		k.must("--context", context, "-n", "team", "create", "secret", "generic", "creds", "--from-literal", "k=v")
		k.must("--context", context, "-n", "team", "create", "role", "reader", "--verb", "get", "--resource", "configmaps")
	}
	if got := k.must("--context", "a", "get", "namespace", "team", "-o", "jsonpath={.spec.finalizers}"); got != `["kubernetes"]` {
		t.Errorf("namespace team has spec.finalizers %s; want [\"kubernetes\"]", got)
	}

	// kubectl waits until the namespace is gone, which is once the
	// controller has emptied it.
	k.must("--context", "a", "delete", "namespace", "team", "--timeout=20s")
	if out, err := k.run("--context", "a", "get", "namespace", "team"); err == nil || !strings.Contains(err.Error(), `namespaces "team" not found`) {
		t.Errorf("namespace team is still there after its deletion: %s %v", out, err)
	}
	if got := k.must("--context", "a", "-n", "team", "get", "cm,secret,role", "-o", "name"); got != "" {
		t.Errorf("namespace team kept content after its deletion:\n%s", got)
	}

	// The same-named namespace of another logical cluster is untouched.
	if got := k.must("--context", "b", "get", "namespace", "team", "-o", "jsonpath={.status.phase}"); got != "Active" {
		t.Errorf("namespace team of root:b is %q; want Active", got)
	}
	// kube-root-ca.crt is the root CA published in every namespace.
	want := "configmap/kube-root-ca.crt\nconfigmap/settings\nsecret/creds\nrole.rbac.authorization.k8s.io/reader"
	if got := strings.TrimSpace(k.must("--context", "b", "-n", "team", "get", "cm,secret,role", "-o", "name")); got != want {
		t.Errorf("namespace team of root:b holds:\n%s\nwant:\n%s", got, want)
	}

	// Nothing is created in a namespace that does not exist.
	// From a file, kubectl prints the server's reason.
	late := writeFile(t, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: late\n  namespace: team\n")
	_, err = k.run("--context", "a", "create", "-f", late)
	if err == nil || !strings.Contains(err.Error(), "(NotFound)") || !strings.Contains(err.Error(), `namespaces "team" not found`) {
		t.Errorf("creating a configmap in a missing namespace: %v; want NotFound", err)
	}

	// A namespace that a metadata finalizer holds stays Terminating once
	// emptied, and takes no new content; it goes once the finalizer does.
	k.apply("a", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: held\n  finalizers: [example.com/hold]\n")
	k.must("--context", "a", "-n", "held", "create", "configmap", "settings")
	k.must("--context", "a", "delete", "namespace", "held", "--wait=false")
	for deadline := time.Now().Add(15 * time.Second); k.must("--context", "a", "get", "namespace", "held", "-o", "jsonpath={.spec.finalizers}") != ""; {
		if time.Now().After(deadline) {
			t.Fatal("namespace held keeps its spec.finalizers 15s after its deletion")
		}
		time.Sleep(100 * time.Millisecond)
	}
	if got := k.must("--context", "a", "-n", "held", "get", "cm", "-o", "name"); got != "" {
		t.Errorf("namespace held kept content after its deletion:\n%s", got)
	}
	_, err = k.run("--context", "a", "create", "-f", writeFile(t, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: late\n  namespace: held\n"))
	if err == nil || !strings.Contains(err.Error(), "(Forbidden)") ||
		!strings.Contains(err.Error(), "unable to create new content in namespace held because it is being terminated") {
		t.Errorf("creating a configmap in a Terminating namespace: %v; want Forbidden", err)
	}
	k.must("--context", "a", "patch", "namespace", "held", "--type=merge", "-p", `{"metadata":{"finalizers":null}}`)
	k.must("--context", "a", "wait", "--for=delete", "namespace/held", "--timeout=15s")

	// The namespaces every cluster has cannot be deleted.
	_, err = k.run("--context", "a", "delete", "namespace", "default")
	if err == nil || !strings.Contains(err.Error(), `(Forbidden): namespaces "default" is forbidden: this namespace may not be deleted`) {
		t.Errorf("deleting namespace default: %v; want Forbidden", err)
	}
	k.must("--context", "a", "get", "namespace", "default")
}
