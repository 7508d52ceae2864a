package e2e

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"

	"github.com/canopy-dev/canopy/e2e/pcluster"
)

// apiServer is one side of a comparison: the collection paths of a case
// are under base, requested with client.
type apiServer struct {
	name   string
	base   string
	client *http.Client
}

// builtinAPICase is what TestBuiltinAPIsAsKube does with one kind, on
// each server alike. The object is named by the test; paths are under
// the server's base.
type builtinAPICase struct {
	kind       string
	collection string
	// object is a valid object, a format taking its name.
	object string
	// update is a merge patch the test applies to the object it read and
	// PUTs back, and patch one it sends as a PATCH.
	update, patch string
	// subresources are requests on the object's subresources, in order,
	// after the patch.
	subresources []subresourceRequest
	// invalid are objects each server must refuse, formats taking a name.
	invalid []string
	// volatile are the top-level fields of the kind's objects that kube's
	// own controllers write and the hub runs none of (a FlowSchema's
	// Dangling condition, a ReplicationController's replicas): they are
	// left out of the comparison.
	volatile []string
	// requester are the fields that name who made the object, which are
	// the servers' admins, who differ.
	requester []string
	// selectors are field selectors to list the objects by, supported or
	// not.
	selectors []string
	// alias is the collection of another group version serving the same
	// objects, where the object is read and listed by aliasSelectors too.
	alias          string
	aliasSelectors []string
}

type subresourceRequest struct {
	name, method, body string
}

// builtinAPICases are the APIs kube-apiserver v1.37 serves by default and
// the hub serves since issue 17.
func builtinAPICases(t *testing.T) []builtinAPICase {
	csr, bundle := certificateRequestPEM(t, "csr-user", nil), selfSignedCAPEM(t)
	return []builtinAPICase{{
		kind:       "ReplicationController",
		collection: "/api/v1/namespaces/default/replicationcontrollers",
		// No replicas, so that kube's controllers make no pods.
		object: `{"apiVersion":"v1","kind":"ReplicationController","metadata":{"name":%q},"spec":{"replicas":0,` +
			`"template":{"metadata":{"labels":{"app":"rc"}},"spec":{"containers":[{"name":"c","image":"busybox"}]}}}}`,
		update: `{"spec":{"minReadySeconds":5}}`,
		patch:  `{"metadata":{"labels":{"patched":"yes"}},"spec":{"template":{"spec":{"containers":[{"name":"c","image":"busybox:1"}]}}}}`,
		subresources: []subresourceRequest{
			{"status", http.MethodPatch, `{"status":{"replicas":0,"fullyLabeledReplicas":0}}`},
			{"scale", http.MethodGet, ""},
			{"scale", http.MethodPatch, `{"spec":{"replicas":0}}`},
		},
		invalid: []string{
			`{"apiVersion":"v1","kind":"ReplicationController","metadata":{"name":%q},"spec":{"selector":{"app":"other"},` +
				`"template":{"metadata":{"labels":{"app":"rc"}},"spec":{"containers":[{"name":"c","image":"busybox"}]}}}}`,
			`{"apiVersion":"v1","kind":"ReplicationController","metadata":{"name":%q},"spec":{"replicas":-1,` +
				`"template":{"metadata":{"labels":{"app":"rc"}},"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"busybox"}]}}}}`,
		},
		volatile:  []string{"status"},
		selectors: []string{"status.replicas=0", "spec.replicas=0"},
	}, {
		kind:       "FlowSchema",
		collection: "/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas",
		object: `{"apiVersion":"flowcontrol.apiserver.k8s.io/v1","kind":"FlowSchema","metadata":{"name":%q},"spec":{` +
			`"priorityLevelConfiguration":{"name":"global-default"},"rules":[{"subjects":[{"kind":"Group","group":{"name":"e2e"}}],` +
			`"resourceRules":[{"verbs":["get"],"apiGroups":["*"],"resources":["*"],"namespaces":["*"]}]}]}}`,
		update: `{"spec":{"matchingPrecedence":500}}`,
		patch:  `{"spec":{"distinguisherMethod":{"type":"ByUser"}}}`,
		subresources: []subresourceRequest{
			{"status", http.MethodPatch, `{"status":{"conditions":[{"type":"Example","status":"True","reason":"E2E","message":"m"}]}}`},
		},
		invalid: []string{
			`{"apiVersion":"flowcontrol.apiserver.k8s.io/v1","kind":"FlowSchema","metadata":{"name":%q},"spec":{"matchingPrecedence":20000,"priorityLevelConfiguration":{"name":""}}}`,
			`{"apiVersion":"flowcontrol.apiserver.k8s.io/v1","kind":"FlowSchema","metadata":{"name":%q},"spec":{"priorityLevelConfiguration":{"name":"x"},"rules":[{"subjects":[]}]}}`,
		},
		// kube-apiserver's configuration controller sets Dangling.
		volatile:  []string{"status"},
		selectors: []string{"spec.priorityLevelConfiguration.name=global-default"},
	}, {
		kind:       "PriorityLevelConfiguration",
		collection: "/apis/flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations",
		object: `{"apiVersion":"flowcontrol.apiserver.k8s.io/v1","kind":"PriorityLevelConfiguration","metadata":{"name":%q},` +
			`"spec":{"type":"Limited","limited":{"limitResponse":{"type":"Queue","queuing":{}}}}}`,
		update: `{"spec":{"limited":{"nominalConcurrencyShares":5}}}`,
		patch:  `{"spec":{"limited":{"lendablePercent":10}}}`,
		subresources: []subresourceRequest{
			{"status", http.MethodPatch, `{"status":{"conditions":[{"type":"Example","status":"True","reason":"E2E","message":"m"}]}}`},
		},
		invalid: []string{
			`{"apiVersion":"flowcontrol.apiserver.k8s.io/v1","kind":"PriorityLevelConfiguration","metadata":{"name":%q},"spec":{"type":"Limited"}}`,
			`{"apiVersion":"flowcontrol.apiserver.k8s.io/v1","kind":"PriorityLevelConfiguration","metadata":{"name":%q},"spec":{"type":"Bogus"}}`,
			`{"apiVersion":"flowcontrol.apiserver.k8s.io/v1","kind":"PriorityLevelConfiguration","metadata":{"name":%q},` +
				`"spec":{"type":"Limited","limited":{"limitResponse":{"type":"Queue","queuing":{"queues":4,"handSize":8}}}}}`,
		},
	}, {
		kind:       "CertificateSigningRequest",
		collection: "/apis/certificates.k8s.io/v1/certificatesigningrequests",
		// A signer nobody runs, so that only the test writes the status.
		object: `{"apiVersion":"certificates.k8s.io/v1","kind":"CertificateSigningRequest","metadata":{"name":%q},"spec":{` +
			`"request":"` + csr + `","signerName":"example.com/e2e","usages":["client auth"],"expirationSeconds":3600}}`,
		update: `{"spec":{"usages":["server auth"]},"metadata":{"labels":{"updated":"yes"}}}`,
		patch:  `{"metadata":{"labels":{"patched":"yes"}}}`,
		subresources: []subresourceRequest{
			{"approval", http.MethodPatch, `{"status":{"conditions":[{"type":"Approved","status":"True","reason":"E2E","message":"m"}]}}`},
			{"status", http.MethodPatch, `{"status":{"certificate":"` + bundle + `"}}`},
			{"approval", http.MethodPatch, `{"status":{"conditions":[{"type":"Denied","status":"True","reason":"E2E","message":"m"}]}}`},
			{"status", http.MethodGet, ""},
		},
		invalid: []string{
			`{"apiVersion":"certificates.k8s.io/v1","kind":"CertificateSigningRequest","metadata":{"name":%q},"spec":{"request":"bm90IGEgcmVxdWVzdA==","signerName":"example.com/e2e","usages":["client auth"]}}`,
			`{"apiVersion":"certificates.k8s.io/v1","kind":"CertificateSigningRequest","metadata":{"name":%q},"spec":{` +
				`"request":"` + csr + `","signerName":"nodomain","usages":["bogus","client auth","client auth"],"expirationSeconds":60}}`,
			`{"apiVersion":"certificates.k8s.io/v1","kind":"CertificateSigningRequest","metadata":{"name":%q},"spec":{"request":"` + csr + `","signerName":"kubernetes.io/legacy-unknown","usages":[]}}`,
		},
		requester: []string{"username", "uid", "groups", "extra"},
		selectors: []string{"spec.signerName=example.com/e2e", "spec.signerName=example.com/other", "spec.username=x"},
	}, {
		kind:       "ClusterTrustBundle",
		collection: "/apis/certificates.k8s.io/v1/clustertrustbundles",
		object:     `{"apiVersion":"certificates.k8s.io/v1","kind":"ClusterTrustBundle","metadata":{"name":%q},"spec":{"trustBundle":` + strconv.Quote(mustBase64Decode(t, bundle)) + `}}`,
		update:     `{"metadata":{"labels":{"updated":"yes"}}}`,
		patch:      `{"metadata":{"labels":{"patched":"yes"}}}`,
		invalid: []string{
			`{"apiVersion":"certificates.k8s.io/v1","kind":"ClusterTrustBundle","metadata":{"name":%q},"spec":{"trustBundle":"junk"}}`,
			`{"apiVersion":"certificates.k8s.io/v1","kind":"ClusterTrustBundle","metadata":{"name":%q},"spec":{"signerName":"example.com/e2e","trustBundle":` + strconv.Quote(mustBase64Decode(t, bundle)) + `}}`,
		},
		selectors: []string{"spec.signerName=", "spec.signerName=example.com/e2e", "spec.trustBundle=x"},
	}, {
		kind:       "StorageVersionMigration",
		collection: "/apis/storagemigration.k8s.io/v1/storageversionmigrations",
		object:     `{"apiVersion":"storagemigration.k8s.io/v1","kind":"StorageVersionMigration","metadata":{"name":%q},"spec":{"resource":{"group":"","resource":"configmaps"}}}`,
		update:     `{"metadata":{"labels":{"updated":"yes"}}}`,
		patch:      `{"spec":{"resource":{"resource":"secrets"}}}`,
		subresources: []subresourceRequest{
			// kube-controller-manager's migrator writes the status; a status
			// update there changes nothing else.
			{"status", http.MethodPatch, `{"metadata":{"labels":{"status-patched":"yes"}}}`},
		},
		invalid: []string{
			`{"apiVersion":"storagemigration.k8s.io/v1","kind":"StorageVersionMigration","metadata":{"name":%q},"spec":{"resource":{"group":"Not Valid","resource":""}}}`,
		},
		// kube-controller-manager's migrator runs the migration.
		volatile:  []string{"status"},
		selectors: []string{"spec.resource.resource=configmaps"},
	}, {
		// core/v1's Events at events.k8s.io/v1, with its stricter rules and
		// its own field labels.
		kind:       "Event",
		collection: "/apis/events.k8s.io/v1/namespaces/default/events",
		object: `{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":%q},"eventTime":"2026-01-01T00:00:00.000000Z",` +
			`"reportingController":"example.com/e2e","reportingInstance":"e2e-1","action":"Test","reason":"Tested","note":"n","type":"Normal",` +
			`"regarding":{"kind":"ConfigMap","namespace":"default","name":"cm","apiVersion":"v1"}}`,
		update: `{"metadata":{"labels":{"updated":"yes"}}}`,
		patch:  `{"series":{"count":2,"lastObservedTime":"2026-01-01T00:00:01.000000Z"}}`,
		invalid: []string{
			`{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":%q},"reason":"Tested","type":"Normal","regarding":{"kind":"ConfigMap","name":"cm"}}`,
			`{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":%q},"eventTime":"2026-01-01T00:00:00.000000Z",` +
				`"reportingController":"example.com/e2e","reportingInstance":"e2e-1","action":"Test","type":"Bogus","note":"n"}`,
		},
		selectors: []string{"regarding.name=cm", "reportingController=example.com/e2e", "involvedObject.name=cm", "type=Normal"},
		// The same Events at core/v1.
		alias:          "/api/v1/namespaces/default/events",
		aliasSelectors: []string{"involvedObject.name=cm", "regarding.name=cm", "reportingComponent=example.com/e2e"},
	}}
}

// TestBuiltinAPIsAsKube creates, reads, lists, watches, updates, patches
// and deletes an object of each API kube-apiserver v1.37 serves by default
// that the hub added for issue 17, and refuses invalid ones, in a logical
// cluster and in the physical-cluster harness's kube-apiserver, and
// compares what each answers: status codes and reasons, the fields of
// the causes, the objects stored after defaulting, the watch events, and
// the table columns of kubectl get.
func TestBuiltinAPIsAsKube(t *testing.T) {
	t.Parallel()
	if _, err := pcluster.EnsureBinaries(); err != nil {
		t.Fatal(err)
	}
	pc := pcluster.Start(t, "apis", pcluster.Options{})
	kubeClient, err := rest.HTTPClientFor(pc.Config)
	if err != nil {
		t.Fatal(err)
	}
	h, admin, _ := startHubWith(t, "a")
	servers := []apiServer{
		{name: "kube-apiserver", base: strings.TrimSuffix(pc.Config.Host, "/"), client: kubeClient},
		{name: "the hub", base: "https://127.0.0.1:" + strconv.Itoa(h.port) + "/clusters/root:a", client: admin.httpClient("a")},
	}
	compared := compareDiscovery(t, servers)
	for _, c := range builtinAPICases(t) {
		t.Run(c.kind, func(t *testing.T) {
			answers := make([][]apiAnswer, len(servers))
			for i, s := range servers {
				answers[i] = c.run(t, s)
			}
			for i := range answers[0] {
				kube, hub := answers[0][i], answers[1][i]
				compared++
				if !reflect.DeepEqual(kube, hub) {
					t.Errorf("%s:\nkube-apiserver: %s\nthe hub:        %s", kube.what, kube, hub)
				}
			}
		})
	}
	t.Logf("compared %d answers", compared)
}

// compareDiscovery compares the discovery of the resources of
// builtinAPICases and of the storage, node and events.k8s.io groups, and
// returns how many it compared. kube-apiserver serves
// PodCertificateRequests too, which the hub does not, on purpose.
func compareDiscovery(t *testing.T, servers []apiServer) int {
	t.Helper()
	compared := 0
	for path, only := range map[string][]string{
		"/api/v1":                      {"replicationcontrollers", "persistentvolumes", "persistentvolumeclaims"},
		"/apis/certificates.k8s.io/v1": nil, "/apis/flowcontrol.apiserver.k8s.io/v1": nil, "/apis/storagemigration.k8s.io/v1": nil,
		"/apis/storage.k8s.io/v1": nil, "/apis/node.k8s.io/v1": nil, "/apis/events.k8s.io/v1": nil,
	} {
		var lists [2][]string
		for i, s := range servers {
			a := do(t, s.client, s.base, request{method: http.MethodGet, path: path})
			var l metav1.APIResourceList
			if a.code != http.StatusOK || json.Unmarshal(a.body, &l) != nil {
				t.Fatalf("%s: discovery of %s: %d %s", s.name, path, a.code, a.body)
			}
			for _, r := range l.APIResources {
				main, _, _ := strings.Cut(r.Name, "/")
				if only != nil && !slices.Contains(only, main) || main == "podcertificaterequests" {
					continue
				}
				sort.Strings(r.Verbs)
				r.StorageVersionHash = ""
				b, _ := json.Marshal(r)
				lists[i] = append(lists[i], string(b))
			}
			sort.Strings(lists[i])
		}
		compared++
		if !reflect.DeepEqual(lists[0], lists[1]) {
			t.Errorf("discovery of %s:\nkube-apiserver: %s\nthe hub:        %s", path, lists[0], lists[1])
		}
	}
	return compared
}

// apiAnswer is what a server answered to one request, normalized: the
// code, the reason and the causes' fields of a Status, or the object
// without what differs between any two servers (UIDs, resourceVersions,
// times).
type apiAnswer struct {
	what   string
	code   int
	reason string
	fields []string
	object any
}

func (a apiAnswer) String() string {
	obj, _ := json.Marshal(a.object)
	return fmt.Sprintf("%d %s %v %s", a.code, a.reason, a.fields, obj)
}

// run makes c's requests of s and returns its answers, in order.
func (c builtinAPICase) run(t *testing.T, s apiServer) []apiAnswer {
	t.Helper()
	name := "e2e-" + strings.ToLower(c.kind)
	coll := s.base + c.collection
	obj := coll + "/" + name
	var out []apiAnswer
	ask := func(what, method, url, contentType, body string) map[string]any {
		t.Helper()
		r := request{method: method, path: url, body: body}
		if body != "" {
			r.contentType = contentType
		} else if contentType != "" {
			r.header = map[string]string{"Accept": contentType}
		}
		ans := do(t, s.client, "", r)
		code, raw := ans.code, ans.body
		a := c.answer(what, code, raw)
		out = append(out, a)
		m, _ := a.object.(map[string]any)
		return m
	}
	created := ask("create", http.MethodPost, coll, "application/json", fmt.Sprintf(c.object, name))
	if created == nil {
		t.Fatalf("%s refuses the valid %s of the case: %s", s.name, c.kind, out[0])
	}
	ask("create again", http.MethodPost, coll, "application/json", fmt.Sprintf(c.object, name))
	events := watchEvents(t, s, coll, name, resourceVersionOf(t, s, obj))
	got := ask("get", http.MethodGet, obj, "", "")
	if got == nil {
		t.Fatalf("%s: the %s created cannot be read: %s", s.name, c.kind, out[len(out)-1])
	}
	ask("list", http.MethodGet, coll+"?fieldSelector=metadata.name%3D"+name, "", "")
	for _, selector := range c.selectors {
		ask("list by "+selector, http.MethodGet, coll+"?fieldSelector="+url.QueryEscape(selector+",metadata.name="+name), "", "")
	}
	ask("table", http.MethodGet, coll+"?fieldSelector=metadata.name%3D"+name, "application/json;as=Table;v=v1;g=meta.k8s.io", "")
	if c.alias != "" {
		ask("get at "+c.alias, http.MethodGet, s.base+c.alias+"/"+name, "", "")
		for _, selector := range c.aliasSelectors {
			ask("list at "+c.alias+" by "+selector, http.MethodGet, s.base+c.alias+"?fieldSelector="+url.QueryEscape(selector+",metadata.name="+name), "", "")
		}
	}

	// An update without a resourceVersion, which some kinds refuse, then
	// one of what was read.
	read := do(t, s.client, "", request{method: http.MethodGet, path: obj})
	code, raw := read.code, read.body
	if code != http.StatusOK {
		t.Fatalf("%s: get %s: %d %s", s.name, obj, code, raw)
	}
	current, err := jsonpatch.MergePatch(raw, []byte(c.update))
	if err != nil {
		t.Fatal(err)
	}
	unconditional, err := jsonpatch.MergePatch(current, []byte(`{"metadata":{"resourceVersion":null}}`))
	if err != nil {
		t.Fatal(err)
	}
	ask("update without resourceVersion", http.MethodPut, obj, "application/json", string(unconditional))
	// kube's controllers may write the object between the read and the
	// update, which then conflicts: read again, as a client would.
	for attempt := 0; ; attempt++ {
		read = do(t, s.client, "", request{method: http.MethodGet, path: obj})
		if read.code != http.StatusOK {
			t.Fatalf("%s: get %s: %d %s", s.name, obj, read.code, read.body)
		}
		current, err = jsonpatch.MergePatch(read.body, []byte(c.update))
		if err != nil {
			t.Fatal(err)
		}
		if a := do(t, s.client, "", request{method: http.MethodPut, path: obj, contentType: "application/json", body: string(current)}); a.code != http.StatusConflict || attempt == 5 {
			out = append(out, c.answer("update", a.code, a.body))
			break
		}
	}
	ask("merge patch", http.MethodPatch, obj, "application/merge-patch+json", c.patch)
	for _, sub := range c.subresources {
		ask(sub.method+" "+sub.name, sub.method, obj+"/"+sub.name, "application/merge-patch+json", sub.body)
	}
	ask("delete", http.MethodDelete, obj, "", "")
	out = append(out, apiAnswer{what: "gone after delete", object: gone(t, s, obj)})
	for i, invalid := range c.invalid {
		ask(fmt.Sprintf("create invalid %d", i), http.MethodPost, coll, "application/json", fmt.Sprintf(invalid, fmt.Sprintf("%s-invalid-%d", name, i)))
	}
	out = append(out, apiAnswer{what: "watch events", object: <-events})
	return out
}

// answer normalizes what a server answered to a request of c's.
func (c builtinAPICase) answer(what string, code int, raw []byte) apiAnswer {
	a := apiAnswer{what: what, code: code}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		a.object = string(raw)
		return a
	}
	switch m["kind"] {
	case "Status":
		var s metav1.Status
		_ = json.Unmarshal(raw, &s)
		a.reason = string(s.Reason)
		if s.Details != nil {
			for _, cause := range s.Details.Causes {
				a.fields = append(a.fields, cause.Field+" "+string(cause.Type))
			}
			sort.Strings(a.fields)
		}
		return a
	case "Table":
		var columns []string
		for _, col := range m["columnDefinitions"].([]any) {
			d := col.(map[string]any)
			columns = append(columns, fmt.Sprint(d["name"], " ", d["type"], " ", d["priority"]))
		}
		a.object = columns
		return a
	}
	if items, ok := m["items"].([]any); ok {
		var names []string
		for _, item := range items {
			names = append(names, item.(map[string]any)["metadata"].(map[string]any)["name"].(string))
		}
		a.object = names
		return a
	}
	a.object = c.normalize(m)
	return a
}

// normalize drops from obj what differs between servers for reasons other
// than what they do with the object: its UID, resourceVersion and times,
// the fields c calls volatile, and who requested it.
func (c builtinAPICase) normalize(obj map[string]any) map[string]any {
	if meta, ok := obj["metadata"].(map[string]any); ok {
		for _, k := range []string{"uid", "resourceVersion", "creationTimestamp", "deletionTimestamp", "managedFields", "selfLink"} {
			delete(meta, k)
		}
		if annotations, ok := meta["annotations"].(map[string]any); ok {
			for k := range annotations {
				if strings.Contains(k, "canopy.dev") {
					delete(annotations, k)
				}
			}
			if len(annotations) == 0 {
				delete(meta, "annotations")
			}
		}
	}
	for _, k := range c.volatile {
		delete(obj, k)
	}
	if spec, ok := obj["spec"].(map[string]any); ok {
		for _, k := range c.requester {
			if _, ok := spec[k]; ok {
				spec[k] = "<requester>"
			}
		}
	}
	dropTimes(obj)
	return obj
}

// dropTimes drops every condition time in v, which each server sets to
// its own now.
func dropTimes(v any) {
	switch v := v.(type) {
	case map[string]any:
		delete(v, "lastUpdateTime")
		delete(v, "lastTransitionTime")
		for _, e := range v {
			dropTimes(e)
		}
	case []any:
		for _, e := range v {
			dropTimes(e)
		}
	}
}

// gone waits for the object at url to be gone, as it is once the
// finalizers its deletion added are done, and tells whether it is.
func gone(t *testing.T, s apiServer, url string) bool {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if a := do(t, s.client, "", request{method: http.MethodGet, path: url}); a.code == http.StatusNotFound {
			return true
		}
	}
	return false
}

func resourceVersionOf(t *testing.T, s apiServer, url string) string {
	t.Helper()
	a := do(t, s.client, "", request{method: http.MethodGet, path: url})
	code, raw := a.code, a.body
	var m metav1.PartialObjectMetadata
	if code != http.StatusOK || json.Unmarshal(raw, &m) != nil {
		t.Fatalf("%s: get %s: %d %s", s.name, url, code, raw)
	}
	return m.ResourceVersion
}

// watchEvents watches the object name of the collection coll from
// resourceVersion rv, and sends the types of its events until it is
// deleted, each run of one type as one: kube's controllers may change an
// object more often than the hub does.
func watchEvents(t *testing.T, s apiServer, coll, name, rv string) <-chan []string {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, coll+"?watch=true&timeoutSeconds=60&fieldSelector=metadata.name%3D"+name+"&resourceVersion="+rv, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := *s.client
	client.Timeout = 0
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: watch %s: %d", s.name, coll, resp.StatusCode)
	}
	events := make(chan []string, 1)
	go func() {
		defer resp.Body.Close()
		var types []string
		lines := bufio.NewScanner(resp.Body)
		lines.Buffer(nil, 1<<20)
		for lines.Scan() {
			var e metav1.WatchEvent
			if json.Unmarshal(lines.Bytes(), &e) != nil {
				continue
			}
			if len(types) == 0 || types[len(types)-1] != e.Type {
				types = append(types, e.Type)
			}
			if e.Type == "DELETED" {
				break
			}
		}
		events <- types
	}()
	return events
}

// certificateRequestPEM is a PEM-encoded PKCS#10 request for user in
// groups, base64-encoded as a CertificateSigningRequest's spec.request,
// of a new key.
func certificateRequestPEM(t *testing.T, user string, groups []string) string {
	t.Helper()
	_, der := newCertificateRequest(t, user, groups)
	return base64Std(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: der}))
}

func newCertificateRequest(t *testing.T, user string, groups []string) (*ecdsa.PrivateKey, []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{Subject: pkix.Name{CommonName: user, Organization: groups}}, key)
	if err != nil {
		t.Fatal(err)
	}
	return key, der
}

// selfSignedCAPEM is the PEM-encoded certificate of a new CA,
// base64-encoded.
func selfSignedCAPEM(t *testing.T) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "e2e-ca"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		t.Fatal(err)
	}
	return base64Std(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
}

func base64Std(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

func mustBase64Decode(t *testing.T, s string) string {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
