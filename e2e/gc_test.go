package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestGarbageCollection deletes owners with the real kubectl in each
// cascade mode and checks what happens to their dependents, and that an
// ownerReference only ever names an owner in its dependent's own logical
// cluster.
func TestGarbageCollection(t *testing.T) {
	t.Parallel()
	onEachDatastore(t, func(t *testing.T, h *hub, k kubectl) {
		k.addContexts(h, filepath.Join(h.dataDir, "pki"), "admin")
		k.createLogicalCluster("root", "a")
		k.createLogicalCluster("root", "b")

		t.Run("background", func(t *testing.T) {
			g := gc{t: t, k: k}
			uid := g.configMap("a", "parent", "")
			g.owned("a", "ConfigMap", "child", "parent", uid, false, "")
			g.owned("a", "Secret", "child", "parent", uid, false, "")
			g.settle("a")
			if g.gone("a", "configmap", "child") {
				t.Fatal("a dependent whose owner exists was collected")
			}
			k.must("--context", "a", "-n", "default", "delete", "configmap", "parent")
			g.waitGone("a", "configmap", "child")
			g.waitGone("a", "secret", "child")
		})

		t.Run("orphan", func(t *testing.T) {
			g := gc{t: t, k: k}
			uid := g.configMap("a", "parent", "")
			g.owned("a", "ConfigMap", "orphan", "parent", uid, true, "")
			g.settle("a")
			// kubectl waits until the owner is gone, which is once the
			// collector has orphaned its dependents.
			k.must("--context", "a", "-n", "default", "delete", "configmap", "parent", "--cascade=orphan", "--timeout=20s")
			if got := k.must("--context", "a", "-n", "default", "get", "configmap", "orphan", "-o", "jsonpath={.metadata.ownerReferences}"); got != "" {
				t.Errorf("the orphan still has ownerReferences %s", got)
			}
		})

		t.Run("foreground", func(t *testing.T) {
			g := gc{t: t, k: k}
			uid := g.configMap("a", "parent", "")
			// Held by someone else's finalizer, it blocks its owner.
			g.owned("a", "ConfigMap", "blocking", "parent", uid, true, "example.com/hold")
			g.owned("a", "ConfigMap", "free", "parent", uid, false, "")
			g.settle("a")
			k.must("--context", "a", "-n", "default", "delete", "configmap", "parent", "--cascade=foreground", "--wait=false")
			g.waitGone("a", "configmap", "free")
			g.eventually("the blocking dependent is being deleted", func() bool {
				return g.get("a", "blocking", "{.metadata.deletionTimestamp}") != ""
			})
			g.settle("a")
			if got := g.get("a", "parent", "{.metadata.deletionTimestamp} {.metadata.finalizers}"); !strings.Contains(got, `["foregroundDeletion"]`) ||
				strings.HasPrefix(got, " ") {
				t.Fatalf("the owner has deletionTimestamp and finalizers %q; want it waiting for its blocking dependent", got)
			}
			k.must("--context", "a", "-n", "default", "patch", "configmap", "blocking", "--type=merge", "-p", `{"metadata":{"finalizers":null}}`)
			k.must("--context", "a", "-n", "default", "wait", "--for=delete", "configmap/parent", "--timeout=15s")
		})

		t.Run("cluster-scoped", func(t *testing.T) {
			g := gc{t: t, k: k}
			// A ClusterRole owned by a Namespace, orphaned, then
			// collected.
			k.must("--context", "a", "create", "namespace", "owner")
			uid := k.must("--context", "a", "get", "namespace", "owner", "-o", "jsonpath={.metadata.uid}")
			k.apply("a", clusterRoleOwnedBy("kept", "owner", uid))
			g.settle("a")
			k.must("--context", "a", "delete", "namespace", "owner", "--cascade=orphan", "--timeout=20s")
			if got := k.must("--context", "a", "get", "clusterrole", "kept", "-o", "jsonpath={.metadata.ownerReferences}"); got != "" {
				t.Errorf("the orphaned ClusterRole still has ownerReferences %s", got)
			}
			k.must("--context", "a", "create", "namespace", "owner")
			uid = k.must("--context", "a", "get", "namespace", "owner", "-o", "jsonpath={.metadata.uid}")
			k.apply("a", clusterRoleOwnedBy("collected", "owner", uid))
			g.settle("a")
			k.must("--context", "a", "delete", "namespace", "owner", "--timeout=20s")
			k.must("--context", "a", "wait", "--for=delete", "clusterrole/collected", "--timeout=15s")

			// A Namespace owned by a ClusterRole goes as namespaces go,
			// with its content.
			uid = k.must("--context", "a", "get", "clusterrole", "kept", "-o", "jsonpath={.metadata.uid}")
			k.apply("a", fmt.Sprintf(`apiVersion: v1
kind: Namespace
metadata:
  name: owned
  ownerReferences:
  - {apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRole, name: kept, uid: %s}
`, uid))
			k.must("--context", "a", "-n", "owned", "create", "configmap", "content")
			k.must("--context", "a", "delete", "clusterrole", "kept")
			k.must("--context", "a", "wait", "--for=delete", "namespace/owned", "--timeout=15s")
			if got := k.must("--context", "a", "-n", "owned", "get", "configmap", "-o", "name"); got != "" {
				t.Errorf("the collected namespace kept content:\n%s", got)
			}
		})

		t.Run("logical clusters", func(t *testing.T) {
			g := gc{t: t, k: k}
			uidA := g.configMap("a", "owner", "")
			g.owned("a", "ConfigMap", "dependent", "owner", uidA, false, "")
			onlyInA := g.configMap("a", "only-in-a", "")
			uidB := g.configMap("b", "owner", "")
			g.owned("b", "ConfigMap", "dependent", "owner", uidB, false, "")
			// Owners are looked up in the dependent's own logical
			// cluster only: root:b holds no object of these UIDs, so
			// these have no owner, though root:a holds both.
			g.owned("b", "ConfigMap", "same-name", "owner", uidA, false, "")
			g.owned("b", "ConfigMap", "absent", "only-in-a", onlyInA, false, "")
			g.waitGone("b", "configmap", "same-name")
			g.waitGone("b", "configmap", "absent")

			k.must("--context", "a", "-n", "default", "delete", "configmap", "owner")
			g.waitGone("a", "configmap", "dependent")
			g.settle("b")
			for _, name := range []string{"owner", "dependent"} {
				if g.gone("b", "configmap", name) {
					t.Errorf("configmap %s of root:b went with root:a's owner", name)
				}
			}
		})
	})
}

// gc drives the garbage collector's tests through kubectl, in namespace
// default of each context.
type gc struct {
	t *testing.T
	k kubectl
}

// configMap creates a ConfigMap in context and returns its UID.
func (g gc) configMap(context, name, finalizer string) string {
	g.t.Helper()
	g.k.apply(context, fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\n  namespace: default\n%s", name, finalizers(finalizer)))
	return g.get(context, name, "{.metadata.uid}")
}

// owned creates an object of kind (ConfigMap or Secret) owned by the
// ConfigMap owner of that UID.
func (g gc) owned(context, kind, name, owner, uid string, block bool, finalizer string) {
	g.t.Helper()
	g.k.apply(context, fmt.Sprintf(`apiVersion: v1
kind: %s
metadata:
  name: %s
  namespace: default
  ownerReferences:
  - {apiVersion: v1, kind: ConfigMap, name: %s, uid: %s, blockOwnerDeletion: %t}
%s`, kind, name, owner, uid, block, finalizers(finalizer)))
}

// clusterRoleOwnedBy is a ClusterRole owned by a Namespace.
func clusterRoleOwnedBy(name, namespace, uid string) string {
	return fmt.Sprintf(`apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: %s
  ownerReferences:
  - {apiVersion: v1, kind: Namespace, name: %s, uid: %s}
`, name, namespace, uid)
}

func finalizers(f string) string {
	if f == "" {
		return ""
	}
	return "  finalizers: [" + f + "]\n"
}

// get is the jsonpath of ConfigMap name.
func (g gc) get(context, name, jsonpath string) string {
	g.t.Helper()
	return g.k.must("--context", context, "-n", "default", "get", "configmap", name, "-o", "jsonpath="+jsonpath)
}

func (g gc) gone(context, resource, name string) bool {
	g.t.Helper()
	out, err := g.k.run("--context", context, "-n", "default", "get", resource, name, "-o", "name", "--ignore-not-found")
	if err != nil {
		g.t.Fatal(err)
	}
	return out == ""
}

func (g gc) waitGone(context, resource, name string) {
	g.t.Helper()
	g.eventually(fmt.Sprintf("%s %s of %s is gone", resource, name, context), func() bool { return g.gone(context, resource, name) })
}

func (g gc) eventually(what string, ok func() bool) {
	g.t.Helper()
	for deadline := time.Now().Add(15 * time.Second); !ok(); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			g.t.Fatalf("after 15s, still not: %s", what)
		}
	}
}

// settle waits until the collector has caught up with the writes to
// context so far: it collects a new ConfigMap whose owner never existed.
func (g gc) settle(context string) {
	g.t.Helper()
	g.owned(context, "ConfigMap", "marker", "never", "00000000-0000-0000-0000-000000000000", false, "")
	g.waitGone(context, "configmap", "marker")
}
