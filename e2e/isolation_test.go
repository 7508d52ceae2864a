package e2e

import (
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
)

// seedName names the object of each kind seeded in the logical clusters
// an admin of root:a must not reach; requests for single objects ask for
// it, so that a leak would have something to show.
const seedName = "leaky"

// seedCanary is in an annotation of every seeded object: no answer to
// root:a's admin may contain it.
const seedCanary = "isolation-canary-7f3a"

// TestIsolation checks, for every resource and subresource discovered in
// root:a and every verb it supports, that root:a's admin gets 403 or 404
// and a Status without data of root:b, root and the wildcard, and that a
// ServiceAccount token of root:a with every right there gets 401 for the
// same requests. The matrix follows discovery, so every resource the hub
// serves is covered as soon as it is served.
func TestIsolation(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("kubectl"); err != nil {
		t.Fatalf("kubectl must be on PATH: %v", err)
	}
	bin := buildHub(t)
	for _, ds := range datastores {
		t.Run(ds.name, func(t *testing.T) {
			h, admin := startHub(t, bin, ds.url(t))
			testIsolation(t, h, admin)
		})
	}
}

// resource is one discovered resource or subresource.
type resource struct {
	gv  schema.GroupVersion
	api metav1.APIResource
}

func (r resource) name() string { return r.gv.String() + " " + r.api.Name }

func (r resource) isSubresource() bool { return strings.Contains(r.api.Name, "/") }

// collection is the path of r's collection in logical cluster cluster, in
// the default namespace if r is namespaced.
func (r resource) collection(server, cluster string) string {
	p := server + "/clusters/" + cluster + "/apis/" + r.gv.String()
	if r.gv.Group == "" {
		p = server + "/clusters/" + cluster + "/api/" + r.gv.Version
	}
	if r.api.Namespaced {
		p += "/namespaces/" + metav1.NamespaceDefault
	}
	main, _, _ := strings.Cut(r.api.Name, "/")
	return p + "/" + main
}

// object is the path of the seeded object of r, or of its subresource.
func (r resource) object(server, cluster string) string {
	p := r.collection(server, cluster) + "/" + seedName
	if _, sub, ok := strings.Cut(r.api.Name, "/"); ok {
		p += "/" + sub
	}
	return p
}

// body is an object of r's kind named name, with what a kind needs
// beyond a name to be valid when that is little.
func (r resource) body(name string) string {
	obj := map[string]any{
		"apiVersion": r.gv.String(), "kind": r.api.Kind,
		"metadata": map[string]any{"name": name, "annotations": map[string]string{"isolation.canopy.dev/canary": seedCanary}},
	}
	if r.gv.Group == "rbac.authorization.k8s.io" && strings.HasSuffix(r.api.Kind, "Binding") {
		obj["roleRef"] = map[string]string{"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "system:discovery"}
	}
	b, _ := json.Marshal(obj)
	return string(b)
}

// requests are the HTTP requests for verb on r in cluster; none for a
// verb that is no HTTP request, such as RBAC's bind.
func (r resource) requests(server, cluster, verb string) [][3]string {
	coll, obj := r.collection(server, cluster), r.object(server, cluster)
	switch verb {
	case "get":
		return [][3]string{{http.MethodGet, obj, ""}}
	case "list":
		return [][3]string{{http.MethodGet, coll, ""}}
	case "watch":
		return [][3]string{{http.MethodGet, coll + "?watch=true&timeoutSeconds=1", ""}, {http.MethodGet, obj + "?watch=true&timeoutSeconds=1", ""}}
	case "create":
		if r.isSubresource() {
			return [][3]string{{http.MethodPost, obj, r.body(seedName)}}
		}
		return [][3]string{{http.MethodPost, coll, r.body("alices")}}
	case "update":
		return [][3]string{{http.MethodPut, obj, r.body(seedName)}}
	case "patch":
		return [][3]string{{http.MethodPatch, obj, `{"metadata":{"labels":{"patched-by":"alice"}}}`}}
	case "delete":
		return [][3]string{{http.MethodDelete, obj, ""}}
	case "deletecollection":
		return [][3]string{{http.MethodDelete, coll, ""}}
	}
	return nil
}

func testIsolation(t *testing.T, h *hub, admin kubectl) {
	pki := filepath.Join(h.dataDir, "pki")
	server := "https://127.0.0.1:" + strconv.Itoa(h.port)
	admin.addContexts(h, pki, "admin")
	admin.createLogicalCluster("root", "a")
	admin.createLogicalCluster("root", "b")

	alice := userKubeconfig(t, pki, "alice")
	alice.addContexts(h, pki, "alice")
	admin.grantEverything("a", "alice")
	alice.eventually("--context", "a", "get", "configmaps")
	admin.must("--context", "a", "create", "serviceaccount", "bot")
	admin.must("--context", "a", "create", "clusterrolebinding", "bot-everything", "--clusterrole", "everything", "--serviceaccount", "default:bot")
	token := strings.TrimSpace(admin.must("--context", "a", "create", "token", "bot", "-n", "default"))

	resources := discoverResources(t, alice)
	if !slices.ContainsFunc(resources, func(r resource) bool { return r.api.Name == "configmaps" }) {
		t.Fatalf("discovery in root:a found no configmaps: %v", resources)
	}

	// Seed an object of each kind that is valid with little more than a
	// name, in root:b and in root, and remember their UIDs: data no answer
	// may hold.
	adminHTTP, err := adminClient(pki)
	if err != nil {
		t.Fatal(err)
	}
	var uids []string
	seeded := map[string]string{} // the URL of each seeded object: its UID
	for _, cluster := range []string{"root:b", "root"} {
		for _, r := range resources {
			if r.isSubresource() || !slices.Contains(r.api.Verbs, "create") || !slices.Contains(r.api.Verbs, "get") {
				continue
			}
			_, code, raw := send(t, adminHTTP, http.MethodPost, r.collection(server, cluster), r.body(seedName))
			var created metav1.PartialObjectMetadata
			if err := json.Unmarshal(raw, &created); err != nil || code != http.StatusCreated || created.UID == "" {
				t.Logf("%s in %s is not seeded, as it needs more than a name: %d %s", r.name(), cluster, code, raw)
				continue
			}
			uids = append(uids, string(created.UID))
			seeded[r.object(server, cluster)] = string(created.UID)
		}
	}
	if len(uids) < 2 {
		t.Fatalf("seeded only %d objects", len(uids))
	}

	// root:a's admin really is one: every list there succeeds, so the
	// refusals below are isolation, not a broken credential.
	aliceHTTP := alice.httpClient("a")
	for _, r := range resources {
		if !r.isSubresource() && slices.Contains(r.api.Verbs, "list") {
			if _, code, raw := send(t, aliceHTTP, http.MethodGet, r.collection(server, "root:a"), ""); code != http.StatusOK {
				t.Errorf("alice lists %s in root:a: %d %s", r.name(), code, raw)
			}
		}
	}

	identities := []struct {
		name   string
		client *http.Client
		codes  []int
	}{
		{"root:a's admin alice", aliceHTTP, []int{http.StatusForbidden, http.StatusNotFound}},
		{"root:a's admin ServiceAccount bot", tokenClient(t, pki, token), []int{http.StatusUnauthorized}},
		{"carol, with a certificate signed in root:a", clusterCertificate(t, h, admin, alice, "carol"), []int{http.StatusUnauthorized}},
	}
	// What a logical cluster grants every authenticated user, as
	// Kubernetes does (reviewing one's own access), is no data of it.
	public := map[string]func(resource, string) bool{"*": func(resource, string) bool { return false }}
	for _, cluster := range []string{"root:b", "root"} {
		public[cluster] = grantedToAuthenticated(t, adminHTTP, server, cluster)
	}
	requests := 0
	for _, id := range identities {
		for _, cluster := range []string{"root:b", "root", "*"} {
			for _, r := range resources {
				for _, verb := range r.api.Verbs {
					if public[cluster](r, verb) {
						continue
					}
					for _, req := range r.requests(server, cluster, verb) {
						requests++
						status, code, raw := send(t, id.client, req[0], req[1], req[2])
						what := fmt.Sprintf("%s: %s %s %s", id.name, verb, req[0], req[1])
						if !slices.Contains(id.codes, code) || status.Kind != "Status" || status.Code != int32(code) {
							t.Errorf("%s: %d %s; want a Status of %v", what, code, raw, id.codes)
						}
						body := string(raw)
						if strings.Contains(body, seedCanary) || strings.Contains(body, `"items"`) ||
							slices.ContainsFunc(uids, func(uid string) bool { return strings.Contains(body, uid) }) {
							t.Errorf("%s leaked data: %s", what, raw)
						}
					}
				}
			}
		}
	}
	t.Logf("%d requests over %d resources and subresources", requests, len(resources))

	// Nothing of root:b's or root's changed.
	for _, cluster := range []string{"root:b", "root"} {
		for _, r := range resources {
			if r.isSubresource() || !slices.Contains(r.api.Verbs, "list") {
				continue
			}
			_, _, raw := send(t, adminHTTP, http.MethodGet, r.collection(server, cluster), "")
			if strings.Contains(string(raw), `"alices"`) || strings.Contains(string(raw), "patched-by") {
				t.Errorf("%s in %s was written by root:a's admin: %s", r.name(), cluster, raw)
			}
		}
	}
	for url, uid := range seeded {
		var got metav1.PartialObjectMetadata
		if _, code, raw := send(t, adminHTTP, http.MethodGet, url, ""); json.Unmarshal(raw, &got) != nil || string(got.UID) != uid || got.Labels["patched-by"] != "" {
			t.Errorf("after root:a's admin's requests, %s is %d %s; want the seeded object %s", url, code, raw, uid)
		}
	}

	// Nor do root:b's and root's discovery and OpenAPI tell her which
	// custom resources they define, or their schemas: the hub's own APIs,
	// the same in every logical cluster, are all they show her, as a
	// logical cluster's definitions are its members' to know. root:b
	// defines widgets.
	admin.apply("b", widgetsCRD("v1", sizeSchema))
	waitFor(t, 30*time.Second, "root:b's discovery to list example.com", func() (bool, string) {
		_, _, raw := send(t, adminHTTP, http.MethodGet, server+"/clusters/root:b/apis", "")
		return strings.Contains(string(raw), `"example.com"`), string(raw)
	})
	for _, cluster := range []string{"root:b", "root"} {
		for _, path := range []string{"/apis", "/openapi/v3", "/openapi/v2"} {
			requests++
			_, code, raw := send(t, aliceHTTP, http.MethodGet, server+"/clusters/"+cluster+path, "")
			if code != http.StatusOK || !strings.Contains(string(raw), "apps") {
				t.Errorf("alice: GET %s in %s: %d; want the hub's own APIs", path, cluster, code)
			}
			if strings.Contains(string(raw), `"example.com"`) || strings.Contains(string(raw), "com.example.v1.Widget") || strings.Contains(string(raw), "widgets.example.com") {
				t.Errorf("alice: GET %s in %s leaked root:b's definitions: %s", path, cluster, raw)
			}
		}
		for _, path := range []string{"/apis/example.com", "/apis/example.com/v1", "/openapi/v3/apis/example.com/v1"} {
			requests++
			_, code, raw := send(t, aliceHTTP, http.MethodGet, server+"/clusters/"+cluster+path, "")
			if code == http.StatusOK && len(raw) > 0 || strings.Contains(string(raw), "com.example.v1.Widget") || strings.Contains(string(raw), `"widgets"`) {
				t.Errorf("alice: GET %s in %s: %d %s; want nothing", path, cluster, code, raw)
			}
		}
	}
	// A review of alice's own access in root:b tells her she has none.
	_, code, raw := send(t, aliceHTTP, http.MethodPost, server+"/clusters/root:b/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
		`{"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectAccessReview","spec":{"resourceAttributes":{"verb":"list","resource":"configmaps"}}}`)
	var review struct{ Status struct{ Allowed bool } }
	if err := json.Unmarshal(raw, &review); err != nil || code != http.StatusCreated || review.Status.Allowed {
		t.Errorf("alice's SelfSubjectAccessReview in root:b: %d %s", code, raw)
	}
	// And a refusal tells her why.
	if status, code, raw := send(t, aliceHTTP, http.MethodGet, server+"/clusters/root:b/api/v1/namespaces/default/configmaps", ""); code != http.StatusForbidden ||
		!strings.Contains(status.Message, `"alice" has no role in logical cluster root:b`) {
		t.Errorf("alice lists configmaps in root:b: %d %s; want a 403 saying she has no role there", code, raw)
	}

	// The same with kubectl, for a few representative requests.
	for _, args := range [][]string{
		{"--context", "b", "get", "configmap", seedName, "-o", "yaml"},
		{"--context", "root", "get", "secrets", "-A", "-o", "yaml"},
		{"--context", "b", "delete", "namespace", seedName},
		{"--context", "root", "get", "logicalclusters", "-o", "yaml"},
		{"--context", "all", "get", "configmaps", "-A", "-o", "yaml"},
		{"--context", "all", "get", "secrets", "-A", "--watch", "--request-timeout", "2s"},
	} {
		out, err := alice.run(args...)
		if err == nil || !strings.Contains(err.Error(), "Forbidden") || strings.Contains(out, seedCanary) || strings.Contains(err.Error(), seedCanary) {
			t.Errorf("alice: kubectl %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// grantedToAuthenticated reads, as an administrator, what the
// ClusterRoleBindings of cluster grant every authenticated user, and
// returns whether that includes verb on r.
func grantedToAuthenticated(t *testing.T, client *http.Client, server, cluster string) func(resource, string) bool {
	t.Helper()
	rbac := server + "/clusters/" + cluster + "/apis/rbac.authorization.k8s.io/v1/"
	var bindings rbacv1.ClusterRoleBindingList
	if _, code, raw := send(t, client, http.MethodGet, rbac+"clusterrolebindings", ""); code != http.StatusOK || json.Unmarshal(raw, &bindings) != nil {
		t.Fatalf("ClusterRoleBindings of %s: %d %s", cluster, code, raw)
	}
	var rules []rbacv1.PolicyRule
	for _, b := range bindings.Items {
		if !slices.ContainsFunc(b.Subjects, func(s rbacv1.Subject) bool { return s.Kind == rbacv1.GroupKind && s.Name == "system:authenticated" }) {
			continue
		}
		var role rbacv1.ClusterRole
		if _, code, raw := send(t, client, http.MethodGet, rbac+"clusterroles/"+b.RoleRef.Name, ""); code != http.StatusOK || json.Unmarshal(raw, &role) != nil {
			t.Fatalf("ClusterRole %s of %s: %d %s", b.RoleRef.Name, cluster, code, raw)
		}
		rules = append(rules, role.Rules...)
	}
	matches := func(values []string, v string) bool {
		return slices.Contains(values, v) || slices.Contains(values, "*")
	}
	return func(r resource, verb string) bool {
		return slices.ContainsFunc(rules, func(rule rbacv1.PolicyRule) bool {
			return matches(rule.Verbs, verb) && matches(rule.APIGroups, r.gv.Group) && matches(rule.Resources, r.api.Name)
		})
	}
}

// discoverResources returns every resource and subresource root:a serves,
// as its admin k discovers them, in every served group version.
func discoverResources(t *testing.T, k kubectl) []resource {
	t.Helper()
	dc, err := discovery.NewDiscoveryClientForConfig(k.restConfig("a"))
	if err != nil {
		t.Fatal(err)
	}
	_, lists, err := dc.ServerGroupsAndResources()
	if err != nil {
		t.Fatalf("discovery in root:a: %v", err)
	}
	var out []resource
	for _, l := range lists {
		gv, err := schema.ParseGroupVersion(l.GroupVersion)
		if err != nil {
			t.Fatal(err)
		}
		for _, api := range l.APIResources {
			out = append(out, resource{gv: gv, api: api})
		}
	}
	return out
}

// clusterCertificate is a client of the hub as user, with a client
// certificate that alice, admin of root:a, requested and approved there.
// user may do everything in root:b and root, so that only the
// certificate's binding to root:a keeps it out of them.
func clusterCertificate(t *testing.T, h *hub, admin, alice kubectl, user string) *http.Client {
	t.Helper()
	pki := filepath.Join(h.dataDir, "pki")
	admin.grantEverything("b", user)
	admin.grantEverything("root", user)
	key, der := newCertificateRequest(t, user, nil)
	alice.apply("a", csrManifest(user, base64Std(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: der})), "client auth"))
	alice.must("--context", "a", "certificate", "approve", user)
	client := certClient(t, pki, issuedCertificate(t, alice, "a", user), key)
	server := "https://127.0.0.1:" + strconv.Itoa(h.port)
	if a := do(t, client, server, request{method: http.MethodGet, path: "/clusters/root:a/api/v1/namespaces/default/configmaps"}); a.code != http.StatusForbidden {
		t.Fatalf("%s's certificate in root:a, where no role names %s: %d %s; want 403, a user authenticated there", user, user, a.code, a.body)
	}
	return client
}
