package e2e

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// rootCAPublished is what kube's root-ca-cert-publisher annotates
// kube-root-ca.crt with.
const rootCAPublished = "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. " +
	"No other usage is guaranteed across distributions of Kubernetes clusters."

// TestNamespaceDefaults checks that every namespace of every logical
// cluster gets the ServiceAccount "default" and the ConfigMap
// "kube-root-ca.crt", with the hub's CA, as kube-controller-manager gives
// every namespace of a cluster; that deleting or editing them brings them
// back; and that namespaces made before the hub kept them get them too.
func TestNamespaceDefaults(t *testing.T) {
	t.Parallel()
	h, k, pki := startHubWith(t, "a", "b")
	ca, err := os.ReadFile(filepath.Join(pki, "ca.crt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, context := range []string{"a", "b"} {
		k.must("--context", context, "create", "namespace", "team")
	}
	namespaces := []string{"default", "kube-system", "kube-public", "team"}
	waitDefaults := func(what string) {
		t.Helper()
		for _, context := range []string{"a", "b"} {
			for _, ns := range namespaces {
				waitFor(t, 20*time.Second, what+": namespace "+ns+" of "+context+" has its ServiceAccount default and ConfigMap kube-root-ca.crt", func() (bool, string) {
					return namespaceDefaults(k, context, ns, string(ca))
				})
			}
		}
	}
	waitDefaults("new namespaces")

	// Deleted, they come back; edited, the ConfigMap is put back, but for
	// what its users may add.
	uid := k.must("--context", "a", "-n", "team", "get", "serviceaccount", "default", "-o", "jsonpath={.metadata.uid}")
	k.must("--context", "a", "-n", "team", "delete", "serviceaccount", "default")
	k.must("--context", "a", "-n", "team", "delete", "configmap", "kube-root-ca.crt")
	waitFor(t, 20*time.Second, "the deleted ServiceAccount default and ConfigMap kube-root-ca.crt are made again", func() (bool, string) {
		ok, instead := namespaceDefaults(k, "a", "team", string(ca))
		if now, _ := k.run("--context", "a", "-n", "team", "get", "serviceaccount", "default", "-o", "jsonpath={.metadata.uid}"); ok && now == uid {
			return false, "the ServiceAccount default kept uid " + uid
		}
		return ok, instead
	})
	k.must("--context", "a", "-n", "team", "patch", "configmap", "kube-root-ca.crt", "--type=merge", "-p",
		`{"metadata":{"labels":{"mine":"yes"},"annotations":{"kubernetes.io/description":null}},"data":{"ca.crt":"forged","extra":"x"}}`)
	waitFor(t, 20*time.Second, "the edited ConfigMap kube-root-ca.crt is put back", func() (bool, string) {
		return namespaceDefaults(k, "a", "team", string(ca))
	})
	if got := k.must("--context", "a", "-n", "team", "get", "configmap", "kube-root-ca.crt", "-o", "jsonpath={.metadata.labels.mine}"); got != "yes" {
		t.Errorf("kube-root-ca.crt lost the label its user gave it: %q", got)
	}

	// A hub upgraded onto a database from before these controllers finds
	// namespaces without either object: take them out of the database
	// while the hub is stopped, as a hub of before would have left it.
	h.stop(t)
	db, err := sql.Open("sqlite", "file:"+filepath.Join(h.dataDir, "canopy.db"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := db.Exec(`DELETE FROM canopy_revisions WHERE (key LIKE '/registry/serviceaccounts/%' AND key LIKE '%/default')
		OR (key LIKE '/registry/configmaps/%' AND key LIKE '%/kube-root-ca.crt')`)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := res.RowsAffected(); err != nil || n < int64(2*len(namespaces)) {
		t.Fatalf("took %d revisions of the ServiceAccounts default and ConfigMaps kube-root-ca.crt out of the database (%v); want at least %d",
			n, err, 2*len(namespaces))
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	h.start(t)
	waitDefaults("namespaces from before")
}

// namespaceDefaults tells whether namespace ns of context has the
// ServiceAccount default and the ConfigMap kube-root-ca.crt that kube
// publishes, with ca, and what it has instead when not.
func namespaceDefaults(k kubectl, context, ns, ca string) (bool, string) {
	if out, err := k.run("--context", context, "-n", ns, "get", "serviceaccount", "default", "-o", "name"); err != nil {
		return false, out + err.Error()
	}
	out, err := k.run("--context", context, "-n", ns, "get", "configmap", "kube-root-ca.crt", "-o",
		`go-template={{index .metadata.annotations "kubernetes.io/description"}}|{{len .data}}|{{index .data "ca.crt"}}`)
	if err != nil {
		return false, out + err.Error()
	}
	if want := rootCAPublished + "|1|" + ca; out != want {
		return false, "kube-root-ca.crt is " + strings.ReplaceAll(out, "\n", `\n`)
	}
	return true, ""
}
