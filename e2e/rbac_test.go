package e2e

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/util/cert"
	"k8s.io/client-go/util/keyutil"
)

// TestRBAC grants a user everything in one logical cluster and checks,
// with the real kubectl, that it is allowed there and nowhere else, and
// that a user who may write roles cannot grant more than it has.
func TestRBAC(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("kubectl"); err != nil {
		t.Fatalf("kubectl must be on PATH: %v", err)
	}
	h, admin := startHub(t, buildHub(t), "")
	pki := filepath.Join(h.dataDir, "pki")
	alice := userKubeconfig(t, pki, "alice")
	bob := userKubeconfig(t, pki, "bob")
	admin.addContexts(h, pki, "admin")
	alice.addContexts(h, pki, "alice")
	bob.addContexts(h, pki, "bob")

	admin.createLogicalCluster("root", "a")
	admin.createLogicalCluster("root", "b")
	// Data alice must never see.
	for _, context := range []string{"root", "b"} {
		admin.must("--context", context, "create", "configmap", "private", "--from-literal", "secret=data")
		admin.must("--context", context, "create", "secret", "generic", "private", "--from-literal", "secret=data")
	}

	// Alice gets everything in root:a, through a ClusterRoleBinding there.
	admin.grantEverything("a", "alice")
	if table := admin.must("--context", "a", "get", "clusterrolebinding", "alice-everything", "-o", "wide"); !strings.Contains(strings.Join(strings.Fields(table), " "), "ROLE AGE USERS GROUPS SERVICEACCOUNTS alice-everything ClusterRole/everything") {
		t.Errorf("kubectl get clusterrolebinding -o wide printed:\n%s", table)
	}
	if header := strings.Fields(strings.Split(admin.must("--context", "a", "get", "clusterroles"), "\n")[0]); strings.Join(header, " ") != "NAME CREATED AT" {
		t.Errorf("kubectl get clusterroles has columns %q", header)
	}
	// The authorizer reads the watch cache, which may lag the create.
	alice.eventually("--context", "a", "auth", "can-i", "create", "configmaps")

	alice.must("--context", "a", "create", "configmap", "mine", "--from-literal", "k=v")
	if got := alice.must("--context", "a", "get", "configmap", "mine", "-o", "jsonpath={.data.k}"); got != "v" {
		t.Errorf("alice got root:a's configmap with k=%q", got)
	}
	// Besides hers, the CA every namespace gets, as in kube.
	if got := strings.Join(alice.names("a", "configmaps"), " "); got != "kube-root-ca.crt mine" {
		t.Errorf("alice lists configmaps %q in root:a", got)
	}

	// Nothing of that is granted in root:b or root: every request is
	// forbidden, and prints no data.
	for _, context := range []string{"b", "root"} {
		for _, resource := range []string{"configmaps", "secrets"} {
			for _, args := range [][]string{
				{"get", resource, "private", "-o", "yaml"},
				{"get", resource, "-o", "yaml"},
				{"delete", resource, "private"},
				{"create", "-f", writeFile(t, "apiVersion: v1\nkind: "+map[string]string{"configmaps": "ConfigMap", "secrets": "Secret"}[resource]+"\nmetadata:\n  name: alices\n")},
			} {
				out, err := alice.run(append([]string{"--context", context}, args...)...)
				if err == nil || !strings.Contains(err.Error(), "Forbidden") || !strings.Contains(err.Error(), `User "alice" cannot`) {
					t.Errorf("alice in %s: kubectl %s: %v", context, strings.Join(args, " "), err)
				}
				// A refused list still prints an empty List.
				if strings.Contains(out, "private") || strings.Contains(out, "secret=data") || strings.Contains(err.Error(), "secret=data") {
					t.Errorf("alice in %s: kubectl %s printed data:\n%s", context, strings.Join(args, " "), out)
				}
			}
		}
		if got := admin.must("--context", context, "get", "configmap", "private", "-o", "jsonpath={.data.secret}"); got != "data" {
			t.Errorf("after alice's delete, %s's configmap holds %q", context, got)
		}
	}

	// kubectl auth can-i asks the logical cluster it is pointed at.
	for _, tc := range []struct {
		context, verb, resource, want string
	}{
		{"a", "create", "configmaps", "yes"},
		{"a", "delete", "secrets", "yes"},
		{"a", "create", "clusterrolebindings", "yes"},
		// Where she has no role at all, the answer says so.
		{"b", "get", "configmaps", `no - rbac: "alice" has no role in logical cluster root:b:`},
		{"b", "create", "secrets", `no - rbac: "alice" has no role in logical cluster root:b:`},
		{"root", "list", "configmaps", `no - rbac: "alice" has no role in logical cluster root:`},
		{"root", "create", "logicalclusters", `no - rbac: "alice" has no role in logical cluster root:`},
	} {
		// can-i exits 1 for "no", so only its output tells.
		out, _ := alice.run("--context", tc.context, "auth", "can-i", tc.verb, tc.resource)
		if got := strings.TrimSpace(out); !strings.HasPrefix(got, tc.want) {
			t.Errorf("alice: can-i %s %s in %s: %q, want %q", tc.verb, tc.resource, tc.context, got, tc.want)
		}
	}

	// Bob may write Roles and RoleBindings in root:a's default namespace
	// and read configmaps there, no more: he can make and bind a role
	// with what he has, but not one with more, nor bind alice's role.
	// ("*" verbs on roles would include escalate and bind, which lift
	// exactly this check.)
	admin.apply("a", `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: role-writer
  namespace: default
rules:
- apiGroups: ["rbac.authorization.k8s.io"]
  resources: ["roles", "rolebindings"]
  verbs: ["create", "get", "list", "update", "delete"]
- apiGroups: [""]
  resources: ["configmaps"]
  verbs: ["get", "list"]
`)
	admin.must("--context", "a", "create", "rolebinding", "bob-role-writer", "--role", "role-writer", "--user", "bob")
	bob.eventually("--context", "a", "auth", "can-i", "create", "roles")
	bob.must("--context", "a", "create", "role", "cm-reader", "--verb", "get", "--resource", "configmaps")
	bob.must("--context", "a", "create", "rolebinding", "carol-cm-reader", "--role", "cm-reader", "--user", "carol")
	for _, args := range [][]string{
		{"create", "role", "secret-reader", "--verb", "get", "--resource", "secrets"},
		{"create", "rolebinding", "bob-everything", "--clusterrole", "everything", "--user", "bob"},
	} {
		if _, err := bob.run(append([]string{"--context", "a"}, args...)...); err == nil || !strings.Contains(err.Error(), "attempting to grant RBAC permissions not currently held") {
			t.Errorf("bob: kubectl %s: %v", strings.Join(args, " "), err)
		}
	}
	// A role that does not exist yet cannot be bound, or it could be
	// filled with anything later.
	if _, err := bob.run("--context", "a", "create", "rolebinding", "bob-later", "--role", "later", "--user", "bob"); err == nil || !strings.Contains(err.Error(), `roles.rbac.authorization.k8s.io "later" not found`) {
		t.Errorf("bob bound a missing role: %v", err)
	}
	if out, _ := bob.run("--context", "a", "auth", "can-i", "get", "secrets"); strings.TrimSpace(out) != "no" {
		t.Errorf("bob can get secrets in root:a: %q", out)
	}
	// An invalid binding is refused with a reason.
	if _, err := admin.run("--context", "a", "create", "clusterrolebinding", "bad", "--role", "x", "--user", "bob"); err == nil {
		t.Errorf("a ClusterRoleBinding of a Role was accepted")
	}
}

// userKubeconfig issues a client certificate for user in groups signed by
// the hub's CA, as an administrator would, and returns kubectl with a
// kubeconfig holding it.
func userKubeconfig(t *testing.T, pki, user string, groups ...string) kubectl {
	t.Helper()
	cas, err := cert.CertsFromFile(filepath.Join(pki, "ca.crt"))
	if err != nil {
		t.Fatal(err)
	}
	caKey, err := keyutil.PrivateKeyFromFile(filepath.Join(pki, "ca.key"))
	if err != nil {
		t.Fatal(err)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.CreateCertificate(rand.Reader, &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()),
		Subject:      pkix.Name{CommonName: user, Organization: groups},
		NotBefore:    time.Now().Add(-time.Minute),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}, cas[0], key.Public(), caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyPEM, err := keyutil.MarshalPrivateKeyToPEM(key)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, user+".crt"), filepath.Join(dir, user+".key")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: cert.CertificateBlockType, Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, keyPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	k := kubectl{t: t, kubeconfig: filepath.Join(dir, "kubeconfig"), home: t.TempDir()}
	k.must("config", "set-credentials", user, "--client-certificate", certFile, "--client-key", keyFile, "--embed-certs")
	return k
}

// addContexts adds contexts root, a, b and child for root, root:a, root:b
// and root:a:child, and all for the wildcard, as the kubeconfig's user
// named user.
func (k kubectl) addContexts(h *hub, pki, user string) {
	k.t.Helper()
	for context, path := range map[string]string{"root": "root", "a": "root:a", "b": "root:b", "child": "root:a:child", "all": "*"} {
		k.addContextAs(h, pki, user, context, path)
	}
}

// addContextAs adds context for the logical cluster at path, as the
// kubeconfig's user named user.
func (k kubectl) addContextAs(h *hub, pki, user, context, path string) {
	k.t.Helper()
	k.must("config", "set-cluster", context, "--server", "https://127.0.0.1:"+strconv.Itoa(h.port)+"/clusters/"+path,
		"--certificate-authority", filepath.Join(pki, "ca.crt"), "--embed-certs")
	k.must("config", "set-context", context, "--cluster", context, "--user", user)
}

// grantEverything makes user admin of the logical cluster of context:
// a ClusterRole "everything" there, granting all, bound to user by the
// ClusterRoleBinding "<user>-everything".
func (k kubectl) grantEverything(context, user string) {
	k.t.Helper()
	k.apply(context, `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: everything
rules:
- apiGroups: ["*"]
  resources: ["*"]
  verbs: ["*"]
- nonResourceURLs: ["*"]
  verbs: ["*"]
`)
	k.must("--context", context, "create", "clusterrolebinding", user+"-everything", "--clusterrole", "everything", "--user", user)
}

// apply creates or updates the objects of manifest in the logical cluster
// of context.
//
// It may take two minutes rather than run's 20 s: kubectl sends a request
// or two per object, and a manifest of hundreds, on a busy machine, takes
// longer than 20 s without anything being wrong.
func (k kubectl) apply(context, manifest string) {
	k.t.Helper()
	if _, err := k.runWithin(2*time.Minute, "--context", context, "apply", "-f", writeFile(k.t, manifest)); err != nil {
		k.t.Fatal(err)
	}
}

// eventually runs kubectl until it succeeds, for up to 10s.
func (k kubectl) eventually(args ...string) {
	k.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, err := k.run(args...)
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			k.t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func writeFile(t *testing.T, content string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "manifest.yaml")
	if err := os.WriteFile(f, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}

// restConfig is the client configuration of a context of k's kubeconfig,
// for client-go and for plain HTTP through rest.HTTPClientFor.
func (k kubectl) restConfig(context string) *rest.Config {
	k.t.Helper()
	cfg, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(
		&clientcmd.ClientConfigLoadingRules{ExplicitPath: k.kubeconfig},
		&clientcmd.ConfigOverrides{CurrentContext: context}).ClientConfig()
	if err != nil {
		k.t.Fatal(err)
	}
	return cfg
}

// httpClient talks HTTPS to the hub as the user of a context of k's
// kubeconfig.
func (k kubectl) httpClient(context string) *http.Client {
	k.t.Helper()
	c, err := rest.HTTPClientFor(k.restConfig(context))
	if err != nil {
		k.t.Fatal(err)
	}
	c.Timeout = 10 * time.Second
	return c
}
