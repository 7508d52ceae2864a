package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// What gitops tools need of a cluster, which no other test covers, in a
// logical cluster: a kube-system namespace whose UID identifies it (Argo
// CD and Flux take it for the cluster's ID), server-side field
// validation, OpenAPI v2 of custom resources, server-side apply
// conflicts for built-in kinds, and `kubectl apply --prune` with an
// applyset. Discovery of CRDs, OpenAPI v3, list and watch of every kind
// and conditions are covered by crd_test.go, kubectlflow_test.go,
// isolation_test.go and gitops_test.go.
func TestGitopsReadiness(t *testing.T) {
	t.Parallel()
	h, k, _ := startHubWith(t, "a", "b")
	in := func(args ...string) string { t.Helper(); return k.must(append([]string{"--context", "a"}, args...)...) }

	// kube-system's UID is each logical cluster's own, and survives a
	// restart of the hub.
	uids := map[string]string{}
	for _, context := range []string{"root", "a", "b"} {
		uids[context] = k.must("--context", context, "get", "namespace", "kube-system", "-o", "jsonpath={.metadata.uid}")
	}
	if uids["a"] == "" || uids["a"] == uids["b"] || uids["a"] == uids["root"] || uids["b"] == uids["root"] {
		t.Errorf("kube-system's UIDs are %v, want three distinct ones", uids)
	}
	h.stop(t)
	h.start(t)
	for context, uid := range uids {
		if got := k.must("--context", context, "get", "namespace", "kube-system", "-o", "jsonpath={.metadata.uid}"); got != uid {
			t.Errorf("after a restart, kube-system of %s has UID %q, was %q", context, got, uid)
		}
	}

	// Field validation refuses unknown fields, of built-in kinds and of
	// custom resources alike, saying which: strict decoding for a create,
	// the schema for a server-side apply, as kube-apiserver does.
	k.apply("a", widgetsCRD("v1", sizeSchema))
	in("wait", "--for=condition=Established", "crd/widgets.example.com", "--timeout=10s")
	for _, c := range []struct{ manifest, field string }{
		{"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: typo\ndatta:\n  k: v\n", "datta"},
		{"apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: typo\nspec:\n  sise: 2\n", "spec.sise"},
	} {
		for _, args := range [][]string{{"create", "--validate=strict"}, {"apply", "--server-side", "--validate=strict"}} {
			want := `unknown field "` + c.field + `"`
			if args[0] == "apply" {
				want = "." + c.field + ": field not declared in schema"
			}
			if out, err := k.run(append(append([]string{"--context", "a"}, args...), "-f", writeFile(t, c.manifest))...); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("kubectl %s of\n%s\ngot %q, %v; want %s", strings.Join(args, " "), c.manifest, out, err, want)
			}
		}
	}

	// OpenAPI v2, which older clients and Argo CD read, describes the
	// custom resources of root:a there and nowhere else, in JSON and in
	// protobuf (kubectl explain's v2 output).
	if explain := in("explain", "widgets.spec.size", "--output=plaintext-openapiv2"); !strings.Contains(explain, "integer") {
		t.Errorf("kubectl explain --output=plaintext-openapiv2 printed:\n%s", explain)
	}
	if out, err := k.run("--context", "b", "explain", "widgets", "--output=plaintext-openapiv2"); err == nil {
		t.Errorf("root:b explains widgets:\n%s", out)
	}
	for cluster, want := range map[string]bool{"root:a": true, "root:b": false} {
		v2 := k.must("get", "--raw", "/clusters/"+cluster+"/openapi/v2")
		if !strings.Contains(v2, `"io.k8s.api.apps.v1.Deployment"`) || strings.Contains(v2, `"com.example.v1.Widget"`) != want {
			t.Errorf("/openapi/v2 of %s: Deployment %t, Widget %t, want %t", cluster,
				strings.Contains(v2, `"io.k8s.api.apps.v1.Deployment"`), strings.Contains(v2, `"com.example.v1.Widget"`), want)
		}
	}

	// Server-side apply: a field another manager owns conflicts, and
	// --force-conflicts takes it over.
	cm := func(value string) string {
		return writeFile(t, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: owned\n  namespace: default\ndata:\n  k: "+value+"\n")
	}
	in("apply", "--server-side", "--field-manager", "alice", "-f", cm("alice"))
	if _, err := k.run("--context", "a", "apply", "--server-side", "--field-manager", "bob", "-f", cm("bob")); err == nil ||
		!strings.Contains(err.Error(), `conflict with "alice"`) || !strings.Contains(err.Error(), ".data.k") {
		t.Errorf("bob's apply over alice's field: %v", err)
	}
	in("apply", "--server-side", "--field-manager", "bob", "--force-conflicts", "-f", cm("bob"))
	if got := in("get", "cm", "owned", "-o", `jsonpath={.data.k} {.metadata.managedFields[?(@.operation=="Apply")].manager}`); got != "bob bob" {
		t.Errorf("after a forced apply, data.k and its applier are %q", got)
	}

	// kubectl apply --prune with an applyset prunes what left the set, of
	// any kind, and nothing else.
	dir := t.TempDir()
	files := map[string]string{
		"keep.yaml":   "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: keep\n",
		"drop.yaml":   "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: drop\n",
		"widget.yaml": "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: drop\nspec:\n  size: 2\n",
	}
	for name, manifest := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(manifest), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	applySet := func() string {
		t.Helper()
		withApplySet := k
		withApplySet.env = []string{"KUBECTL_APPLYSET=true"}
		return withApplySet.must("--context", "a", "apply", "-n", "default", "--prune", "--applyset=shop", "-f", dir)
	}
	applySet()
	if got := in("get", "secret", "shop", "-n", "default", "-o", `jsonpath={.metadata.annotations.applyset\.kubernetes\.io/contains-group-kinds}`); got != "ConfigMap,Widget.example.com" {
		t.Errorf("the applyset's parent lists group kinds %q", got)
	}
	for _, name := range []string{"drop.yaml", "widget.yaml"} {
		if err := os.Remove(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if out := applySet(); !strings.Contains(out, "configmap/drop pruned") || !strings.Contains(out, "widget.example.com/drop pruned") {
		t.Errorf("the second apply printed:\n%s", out)
	}
	// kube-root-ca.crt is the root CA published in every namespace.
	if got := in("get", "cm,widgets", "-n", "default", "-o", "name"); got != "configmap/keep\nconfigmap/kube-root-ca.crt\nconfigmap/owned\n" {
		t.Errorf("after pruning, default holds:\n%s", got)
	}
}
