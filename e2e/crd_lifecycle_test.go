package e2e

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"
)

// manifest of a Widget, namespaced at namespace, with the ownerReference
// owner when it is not empty.
func widgetManifest(namespace, name, owner string) string {
	return "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: " + name + "\n  namespace: " + namespace + "\n" + owner + "spec:\n  size: 2\n"
}

// ownedBy is the metadata lines of an ownerReference to the object of
// kind at apiVersion named name, whose uid is uid.
func ownedBy(apiVersion, kind, name, uid string) string {
	return "  ownerReferences:\n  - apiVersion: " + apiVersion + "\n    kind: " + kind + "\n    name: " + name + "\n    uid: " + uid + "\n"
}

// gone waits until kubectl get of args in context finds nothing.
func (k kubectl) gone(context string, args ...string) {
	k.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		_, err := k.run(append([]string{"--context", context, "get"}, args...)...)
		if err != nil && strings.Contains(err.Error(), "NotFound") {
			return
		}
		if time.Now().After(deadline) {
			k.t.Fatalf("after 20s, %s in %s is still there: %v", strings.Join(args, " "), context, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Custom resources go as built-in objects go: with their namespace, with
// their logical cluster, and with their owners, and own objects in turn,
// each in its own logical cluster only.
func TestCRDLifecycle(t *testing.T) {
	t.Parallel()
	h, k, _ := startHubWith(t, "a", "b")
	for _, context := range []string{"a", "b"} {
		k.apply(context, widgetsCRD("v1", sizeSchema))
		k.must("--context", context, "wait", "--for=condition=Established", "crd/widgets.example.com", "--timeout=10s")
		k.must("--context", context, "create", "namespace", "team")
		k.apply(context, widgetManifest("team", "w", ""))
		k.apply(context, widgetManifest("default", "owner", ""))
	}

	// Deleting root:a's namespace deletes its widgets, not root:b's.
	k.must("--context", "a", "delete", "namespace", "team", "--timeout=30s")
	if got := k.must("--context", "a", "get", "widgets", "-A", "-o", "name"); got != "widget.example.com/owner\n" {
		t.Errorf("after its namespace team was deleted root:a has widgets %q", got)
	}
	k.must("--context", "b", "get", "widget", "w", "-n", "team")

	// A ConfigMap owned by a widget goes with it; a widget owned by a
	// ConfigMap goes with that. Same names in root:b stay.
	for _, context := range []string{"a", "b"} {
		uid := k.must("--context", context, "get", "widget", "owner", "-n", "default", "-o", "jsonpath={.metadata.uid}")
		k.apply(context, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: dependent\n  namespace: default\n"+ownedBy("example.com/v1", "Widget", "owner", uid))
		k.must("--context", context, "create", "configmap", "holder", "-n", "default")
		uid = k.must("--context", context, "get", "configmap", "holder", "-n", "default", "-o", "jsonpath={.metadata.uid}")
		k.apply(context, widgetManifest("default", "owned", ownedBy("v1", "ConfigMap", "holder", uid)))
	}
	k.must("--context", "a", "delete", "widget", "owner", "-n", "default")
	k.gone("a", "configmap", "dependent", "-n", "default")
	k.must("--context", "a", "delete", "configmap", "holder", "-n", "default")
	k.gone("a", "widget", "owned", "-n", "default")
	for _, object := range [][]string{{"configmap", "dependent"}, {"widget", "owned"}} {
		k.must(append([]string{"--context", "b", "get", "-n", "default"}, object...)...)
	}

	// Deleting root:a removes its widgets and its definition from the
	// datastore; root:b keeps its own.
	k.must("--context", "root", "delete", "logicalcluster", "a", "--timeout=60s")
	h.stop(t)
	db, err := sql.Open("sqlite", "file:"+filepath.Join(h.dataDir, "canopy.db")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for prefix, want := range map[string]bool{
		"/registry/example.com/widgets/root:a/":                            false,
		"/registry/apiextensions.k8s.io/customresourcedefinitions/root:a/": false,
		"/registry/example.com/widgets/root:b/":                            true,
		"/registry/apiextensions.k8s.io/customresourcedefinitions/root:b/": true,
	} {
		var n int
		if err := db.QueryRow(`SELECT count(*) FROM canopy_revisions WHERE superseded_rev IS NULL AND substr(key, 1, length(?1)) = ?1`, prefix).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if (n > 0) != want {
			t.Errorf("the datastore holds %d objects under %s", n, prefix)
		}
	}
}

// A list or watch selects custom resources by the selectable fields of
// their own logical cluster's definition, through the watch cache their
// group resource shares with every other logical cluster's.
func TestCRDSelectableFields(t *testing.T) {
	t.Parallel()
	_, k, _ := startHubWith(t, "a", "b")
	k.apply("a", strings.Replace(widgetsCRD("v1", nameSchema), "    storage: true\n", "    storage: true\n    selectableFields:\n    - jsonPath: .spec.color\n", 1))
	k.apply("b", widgetsCRD("v1", nameSchema))
	colored := func(name, color string) string {
		return "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: " + name + "\n  namespace: default\nspec:\n  color: " + color + "\n"
	}
	for _, context := range []string{"a", "b"} {
		k.must("--context", context, "wait", "--for=condition=Established", "crd/widgets.example.com", "--timeout=10s")
		k.apply(context, colored("red", "red"))
		k.apply(context, colored("blue", "blue"))
	}

	if got := k.must("--context", "a", "get", "widgets", "--field-selector", "spec.color=red", "-o", "name"); got != "widget.example.com/red\n" {
		t.Errorf("root:a's red widgets are %q", got)
	}
	stop := k.start("--context", "a", "get", "widgets", "--field-selector", "spec.color=red", "--watch", "-o", "name")
	k.apply("a", colored("blue-2", "blue"))
	k.apply("a", colored("red-2", "red"))
	// The watch sees red-2 once written, or not at all.
	time.Sleep(2 * time.Second)
	if got := stop(); got != "widget.example.com/red\nwidget.example.com/red-2" {
		t.Errorf("a watch of root:a's red widgets printed %q", got)
	}

	// root:b's definition selects by no such field.
	if _, err := k.run("--context", "b", "get", "widgets", "--field-selector", "spec.color=red"); err == nil || !strings.Contains(err.Error(), "field label not supported") {
		t.Errorf("root:b, without the selectable field, answered %v", err)
	}
}
