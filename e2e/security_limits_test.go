package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"

	"github.com/canopy-dev/canopy/e2e/pcluster"
)

// The hub's defaults of --custom-resource-max-depth and
// --custom-resource-max-bytes.
const (
	maxDepth = 100
	maxBytes = 3 << 19
)

// blobsCRD defines blobs.example.com, whose objects may hold anything.
const blobsCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: blobs.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: blobs, singular: blob, kind: Blob, listKind: BlobList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-preserve-unknown-fields: true
`

// nested is JSON of levels maps, each holding the next under "a", the
// last holding leaf.
func nested(levels int, leaf string) string {
	return strings.Repeat(`{"a":`, levels) + leaf + strings.Repeat("}", levels)
}

// blob is a Blob named name whose spec is spec. The object is 1 deep, its
// spec 2.
func blob(name, spec string) string {
	return `{"apiVersion":"example.com/v1","kind":"Blob","metadata":{"name":"` + name + `"},"spec":` + spec + `}`
}

// largestBlob is a Blob as deep as may be, holding a list of short strings
// as long as the size limit allows, less what the hub adds to its
// metadata: costly to indent, each string on a line of its own at the
// deepest level. (A list of single digits costs more still to decode, as
// it would to kube-apiserver: about 30 MB a GET, however it is encoded.)
func largestBlob(name string) string {
	const margin, item = 8 << 10, `"0123456789abcd"`
	levels := maxDepth - 2 // the list is at maxDepth
	head := `{"apiVersion":"example.com/v1","kind":"Blob","metadata":{"name":"` + name + `"},"spec":` + strings.Repeat(`{"a":`, levels) + "[" + item
	tail := "]" + strings.Repeat("}", levels) + "}"
	items := (maxBytes - margin - len(head) - len(tail)) / (len(item) + 1)
	return head + strings.Repeat(","+item, items) + tail
}

// request is one HTTP request of a matrix.
type request struct {
	method, path, contentType, body string
	// header is more request headers, such as Accept or User-Agent.
	header map[string]string
}

// answer is what a server said to a request.
type answer struct {
	code   int
	status metav1.Status
	body   []byte
	header http.Header
}

func do(t *testing.T, client *http.Client, server string, r request) answer {
	t.Helper()
	a, err := tryDo(client, server, r)
	if err != nil {
		t.Fatalf("%s %s: %v", r.method, r.path, err)
	}
	return a
}

// tryDo is do for a goroutine other than the test's, which may not end
// the test: it returns the error instead.
func tryDo(client *http.Client, server string, r request) (answer, error) {
	req, err := http.NewRequest(r.method, server+r.path, strings.NewReader(r.body))
	if err != nil {
		return answer{}, err
	}
	if r.contentType == "" && r.body != "" {
		r.contentType = "application/json"
	}
	if r.contentType != "" {
		req.Header.Set("Content-Type", r.contentType)
	}
	for k, v := range r.header {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return answer{}, err
	}
	a := answer{code: resp.StatusCode, body: body, header: resp.Header}
	_ = json.Unmarshal(body, &a.status)
	return a, nil
}

// rawServer is an API server to send raw requests to: a physical
// cluster's kube-apiserver, the oracle, or a logical cluster of the hub.
type rawServer struct {
	name   string
	client *http.Client
	url    string
}

// kubeAndHub starts physical cluster physical and a hub with logical
// cluster root:<cluster>, and returns the first's kube-apiserver and the
// second's logical cluster, as their admins reach them.
func kubeAndHub(t *testing.T, physical, cluster string) [2]rawServer {
	t.Helper()
	pc := pcluster.Start(t, physical, pcluster.Options{})
	kube, err := rest.HTTPClientFor(pc.Config)
	if err != nil {
		t.Fatal(err)
	}
	h, _, pki := startHubWith(t, cluster)
	hubClient, err := adminClient(pki)
	if err != nil {
		t.Fatal(err)
	}
	return [2]rawServer{
		{"kube-apiserver", kube, strings.TrimSuffix(pc.Config.Host, "/")},
		{"hub", hubClient, "https://127.0.0.1:" + strconv.Itoa(h.port) + "/clusters/root:" + cluster},
	}
}

// memoryKiB is a field of /proc/<pid>/status in KiB: VmRSS, the resident
// memory, or VmHWM, its peak.
func memoryKiB(t *testing.T, pid int, field string) int64 {
	t.Helper()
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if v, ok := strings.CutPrefix(s.Text(), field+":"); ok {
			kib, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kib
		}
	}
	t.Fatalf("no %s in /proc/%d/status", field, pid)
	return 0
}

// TestCustomResourceLimits: a tenant cannot store a custom resource deeper
// or larger than the hub's limits, by any kind of write; the deepest and
// largest one it may store costs the hub little to serve, however it is
// asked for; and a restarted hub is ready only once it can serve it.
func TestCustomResourceLimits(t *testing.T) {
	t.Parallel()
	onEachDatastore(t, testCustomResourceLimits)
}

func testCustomResourceLimits(t *testing.T, h *hub, admin kubectl) {
	pki := filepath.Join(h.dataDir, "pki")
	server := "https://127.0.0.1:" + strconv.Itoa(h.port) + "/clusters/root"
	client, err := adminClient(pki)
	if err != nil {
		t.Fatal(err)
	}
	client.Timeout = time.Minute
	admin.must("apply", "-f", writeFile(t, blobsCRD))
	blobs := "/apis/example.com/v1/namespaces/default/blobs"
	waitFor(t, 30*time.Second, "blobs to be served", func() (bool, string) {
		a := do(t, client, server, request{method: http.MethodGet, path: blobs})
		return a.code == http.StatusOK, string(a.body)
	})
	small := do(t, client, server, request{method: http.MethodPost, path: blobs, body: blob("small", `{"a":1}`)})
	if small.code != http.StatusCreated {
		t.Fatalf("creating a small blob: %d %s", small.code, small.body)
	}
	// An update of a custom resource names the version it updates.
	var smallMeta metav1.PartialObjectMetadata
	if err := json.Unmarshal(small.body, &smallMeta); err != nil {
		t.Fatal(err)
	}
	update := func(spec string) string {
		return `{"apiVersion":"example.com/v1","kind":"Blob","metadata":{"name":"small","resourceVersion":"` + smallMeta.ResourceVersion + `"},"spec":` + spec + `}`
	}

	tooDeep := nested(maxDepth-1, "{}") // a map at depth maxDepth+1
	tooLarge := `"` + strings.Repeat("x", maxBytes) + `"`
	const depthFlag, bytesFlag = "--custom-resource-max-depth", "--custom-resource-max-bytes"
	apply := func(spec string) request {
		return request{method: http.MethodPatch, path: blobs + "/applied?fieldManager=test", contentType: "application/apply-patch+yaml", body: blob("applied", spec)}
	}
	refused := []struct {
		name   string
		req    request
		code   int
		reason metav1.StatusReason
		flag   string
	}{
		{"create one level too deep", request{method: http.MethodPost, path: blobs, body: blob("deep", tooDeep)}, 422, metav1.StatusReasonInvalid, depthFlag},
		{"create 9,000 deep", request{method: http.MethodPost, path: blobs, body: blob("deeper", nested(9000, "1"))}, 422, metav1.StatusReasonInvalid, depthFlag},
		{"create too large", request{method: http.MethodPost, path: blobs, body: blob("large", tooLarge)}, 413, metav1.StatusReasonRequestEntityTooLarge, bytesFlag},
		{"update too deep", request{method: http.MethodPut, path: blobs + "/small", body: update(tooDeep)}, 422, metav1.StatusReasonInvalid, depthFlag},
		{"update too large", request{method: http.MethodPut, path: blobs + "/small", body: update(tooLarge)}, 413, metav1.StatusReasonRequestEntityTooLarge, bytesFlag},
		{"merge patch too deep", request{method: http.MethodPatch, path: blobs + "/small", contentType: "application/merge-patch+json", body: `{"spec":` + tooDeep + `}`}, 422, metav1.StatusReasonInvalid, depthFlag},
		{"JSON patch too deep", request{method: http.MethodPatch, path: blobs + "/small", contentType: "application/json-patch+json",
			body: `[{"op":"add","path":"/spec/b","value":` + nested(maxDepth-2, "{}") + `}]`}, 422, metav1.StatusReasonInvalid, depthFlag},
		{"JSON patch too large", request{method: http.MethodPatch, path: blobs + "/small", contentType: "application/json-patch+json",
			body: `[{"op":"add","path":"/spec/b","value":` + tooLarge + `}]`}, 413, metav1.StatusReasonRequestEntityTooLarge, bytesFlag},
		{"apply too deep", apply(tooDeep), 422, metav1.StatusReasonInvalid, depthFlag},
		{"apply too large", apply(tooLarge), 413, metav1.StatusReasonRequestEntityTooLarge, bytesFlag},
	}
	for _, c := range refused {
		a := do(t, client, server, c.req)
		if a.code != c.code || a.status.Reason != c.reason || !strings.Contains(a.status.Message, c.flag) {
			t.Errorf("%s: %d %s %.300s; want %d %s naming %s", c.name, a.code, a.status.Reason, a.status.Message, c.code, c.reason, c.flag)
		}
	}
	for _, name := range []string{"deep", "deeper", "large", "applied"} {
		if a := do(t, client, server, request{method: http.MethodGet, path: blobs + "/" + name}); a.code != http.StatusNotFound {
			t.Errorf("refused blob %s: GET answers %d", name, a.code)
		}
	}

	// At the limits, every kind of write succeeds.
	accepted := []struct {
		name string
		req  request
		code int
	}{
		{"create as deep as may be", request{method: http.MethodPost, path: blobs, body: blob("deepest", nested(maxDepth-2, "{}"))}, 201},
		{"create the largest", request{method: http.MethodPost, path: blobs, body: largestBlob("largest")}, 201},
		{"update as deep as may be", request{method: http.MethodPut, path: blobs + "/small", body: update(nested(maxDepth-2, "{}"))}, 200},
		{"apply as deep as may be", apply(nested(maxDepth-2, "{}")), 201},
	}
	for _, c := range accepted {
		if a := do(t, client, server, c.req); a.code != c.code {
			t.Errorf("%s: %d %.300s; want %d", c.name, a.code, a.body, c.code)
		}
	}
	t.Logf("%d refused writes, %d accepted, %d reads of what was refused", len(refused), len(accepted), 4)

	serveLargest(t, h, client, server+blobs+"/largest")

	// Restarted, the hub says it is ready only once it can serve blobs:
	// their watch cache answers 429 until it has filled.
	h.stop(t)
	h.start(t)
	if a := do(t, client, "https://127.0.0.1:"+strconv.Itoa(h.port), request{method: http.MethodGet, path: "/readyz?verbose"}); !strings.Contains(string(a.body), "[+]canopy-watch-caches ok") {
		t.Errorf("/readyz does not check the watch caches: %s", a.body)
	}
	for _, path := range []string{blobs, "/api/v1/namespaces/default/configmaps"} {
		if a := do(t, client, server, request{method: http.MethodGet, path: path}); a.code != http.StatusOK {
			t.Errorf("GET %s right after /readyz said ready: %d %.300s", path, a.code, a.body)
		}
	}
}

// serveLargest GETs the object at url twenty at a time in each way a
// client may ask for it, and checks that the hub's memory grows by less
// than 500 MB.
func serveLargest(t *testing.T, h *hub, client *http.Client, url string) {
	t.Helper()
	compact := do(t, client, "", request{method: http.MethodGet, path: url})
	if compact.code != http.StatusOK {
		t.Fatalf("GET the largest blob: %d %.300s", compact.code, compact.body)
	}
	t.Logf("the largest blob is %d bytes", len(compact.body))
	pid := h.cmd.Process.Pid
	before := memoryKiB(t, pid, "VmRSS")
	ways := []struct {
		name string
		req  request
	}{
		{"compact", request{method: http.MethodGet, path: url}},
		{"pretty=true", request{method: http.MethodGet, path: url + "?pretty=true"}},
		{"curl", request{method: http.MethodGet, path: url, header: map[string]string{"User-Agent": "curl/8.5.0"}}},
		{"YAML", request{method: http.MethodGet, path: url, header: map[string]string{"Accept": "application/yaml"}}},
	}
	requests := 0
	for _, way := range ways {
		var wg sync.WaitGroup
		answers := make([]answer, 20)
		for i := range answers {
			wg.Go(func() { answers[i] = do(t, client, "", way.req) })
		}
		wg.Wait()
		requests += len(answers)
		for _, a := range answers {
			if a.code != http.StatusOK || len(a.body) > 4*len(compact.body) {
				t.Errorf("GET the largest blob %s: %d, %d bytes; want 200 and at most 4 times %d", way.name, a.code, len(a.body), len(compact.body))
				break
			}
		}
	}
	peak := memoryKiB(t, pid, "VmHWM")
	t.Logf("%d GETs of the largest blob: the hub's RSS was %d MiB before, peaked at %d MiB", requests, before>>10, peak>>10)
	if growth := peak - before; growth > 500<<10 {
		t.Errorf("serving the largest blob grew the hub by %d MiB; want less than 500", growth>>10)
	}
}

// TestKubeDifferential sends requests that kube-apiserver answers with a
// client error, or with a 500 where the client is at fault, to a physical
// cluster and to a logical cluster, and checks that the hub answers as
// kube-apiserver does, or with a 4xx where it answers 5xx.
func TestKubeDifferential(t *testing.T) {
	t.Parallel()
	servers := kubeAndHub(t, "pc1", "team")
	configMaps := "/api/v1/namespaces/default/configmaps"
	for _, s := range servers {
		for _, r := range []request{
			{method: http.MethodPost, path: configMaps, body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"seed"},"data":{"a":"1"}}`},
			{method: http.MethodPost, path: "/api/v1/namespaces/default/serviceaccounts", body: `{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"bot"}}`},
		} {
			if a := do(t, s.client, s.url, r); a.code != http.StatusCreated {
				t.Fatalf("%s: POST %s: %d %s", s.name, r.path, a.code, a.body)
			}
		}
	}

	cases := []struct {
		name string
		req  request
	}{
		{"watch from a resourceVersion that is no number", request{method: http.MethodGet, path: configMaps + "?watch=true&resourceVersion=garbage&timeoutSeconds=1"}},
		{"get at a resourceVersion that is no number", request{method: http.MethodGet, path: configMaps + "/seed?resourceVersion=garbage"}},
		{"list at a resourceVersion that is no number", request{method: http.MethodGet, path: configMaps + "?resourceVersion=garbage"}},
		{"create with a resourceVersion", request{method: http.MethodPost, path: configMaps,
			body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"versioned","resourceVersion":"5"}}`}},
		{"update with a resourceVersion that is no number", request{method: http.MethodPut, path: configMaps + "/seed",
			body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"seed","resourceVersion":"garbage"}}`}},
		{"update with a stale resourceVersion", request{method: http.MethodPut, path: configMaps + "/seed",
			body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"seed","resourceVersion":"1"}}`}},
		{"strategic merge patch with a $setElementOrder that is no list", request{method: http.MethodPatch, path: configMaps + "/seed",
			contentType: "application/strategic-merge-patch+json", body: `{"$setElementOrder/metadata":5}`}},
		{"strategic merge patch with a $setElementOrder of maps", request{method: http.MethodPatch, path: configMaps + "/seed",
			contentType: "application/strategic-merge-patch+json", body: `{"data":{"$setElementOrder/x":[{"a":1}]}}`}},
		{"OpenAPI of a missing group", request{method: http.MethodGet, path: "/openapi/v3/apis/missing.example.com/v1"}},
		{"OpenAPI of a missing version", request{method: http.MethodGet, path: "/openapi/v3/apis/apps/v9"}},
		{"a token for less than ten minutes", request{method: http.MethodPost, path: "/api/v1/namespaces/default/serviceaccounts/bot/token",
			body: `{"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest","spec":{"expirationSeconds":60}}`}},
	}
	requests := 0
	for _, c := range cases {
		kubeAnswer, hubAnswer := do(t, servers[0].client, servers[0].url, c.req), do(t, servers[1].client, servers[1].url, c.req)
		requests += 2
		switch {
		case kubeAnswer.code >= 500 && (hubAnswer.code < 400 || hubAnswer.code >= 500):
			t.Errorf("%s: kube-apiserver answers %d, the hub %d %s; want a 4xx", c.name, kubeAnswer.code, hubAnswer.code, hubAnswer.body)
		case kubeAnswer.code < 500 && (hubAnswer.code != kubeAnswer.code || hubAnswer.status.Reason != kubeAnswer.status.Reason):
			t.Errorf("%s: kube-apiserver answers %d %s %s, the hub %d %s %s", c.name, kubeAnswer.code, kubeAnswer.status.Reason, kubeAnswer.body,
				hubAnswer.code, hubAnswer.status.Reason, hubAnswer.body)
		case kubeAnswer.code < 500 && hubAnswer.status.Message != kubeAnswer.status.Message:
			t.Errorf("%s: kube-apiserver says %q, the hub %q", c.name, kubeAnswer.status.Message, hubAnswer.status.Message)
		}
		t.Logf("%s: kube-apiserver %d %s, the hub %d %s %.200s", c.name, kubeAnswer.code, kubeAnswer.status.Reason, hubAnswer.code, hubAnswer.status.Reason, hubAnswer.status.Message)
	}

	// A token for ten years is shortened to the hub's
	// --service-account-max-token-expiration, 48h by default, with a
	// warning, as kube-apiserver does with that flag set.
	tenYears := request{method: http.MethodPost, path: "/api/v1/namespaces/default/serviceaccounts/bot/token",
		body: `{"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest","spec":{"expirationSeconds":315360000}}`}
	for _, s := range servers {
		a := do(t, s.client, s.url, tenYears)
		requests++
		var review struct {
			Spec   struct{ ExpirationSeconds int64 }
			Status struct{ ExpirationTimestamp time.Time }
		}
		if err := json.Unmarshal(a.body, &review); err != nil || a.code != http.StatusCreated {
			t.Fatalf("%s: a token for ten years: %d %s", s.name, a.code, a.body)
		}
		t.Logf("%s: a token for ten years is valid for %s (%s)", s.name, time.Until(review.Status.ExpirationTimestamp).Round(time.Hour), a.header.Get("Warning"))
		if s.name == "hub" && (review.Spec.ExpirationSeconds != 48*3600 || time.Until(review.Status.ExpirationTimestamp) > 48*time.Hour ||
			!strings.Contains(a.header.Get("Warning"), "requested expiration of 315360000 seconds shortened to 172800 seconds")) {
			t.Errorf("the hub: a token for ten years: %s, warning %q; want 48h and a warning", a.body, a.header.Get("Warning"))
		}
	}
	t.Logf("%d requests", requests)
}

// TestLogicalClusterExistence: a user with no role in a logical cluster is
// answered the same whether it exists or not, over every kind of request;
// system:masters is told it does not exist.
func TestLogicalClusterExistence(t *testing.T) {
	t.Parallel()
	h, admin, pki := startHubWith(t, "team")
	server := "https://127.0.0.1:" + strconv.Itoa(h.port)
	// root:team defines widgets, which only its members may learn.
	admin.addContextAs(h, pki, "admin", "team", "root:team")
	admin.apply("team", widgetsCRD("v1", sizeSchema))
	alice := userKubeconfig(t, pki, "alice")
	for _, name := range []string{"team", "missing"} {
		alice.addContextAs(h, pki, "alice", name, "root:"+name)
	}
	aliceHTTP := alice.httpClient("team")
	adminHTTP, err := adminClient(pki)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, 30*time.Second, "root:team's discovery to list example.com", func() (bool, string) {
		a := do(t, adminHTTP, server+"/clusters/root:team", request{method: http.MethodGet, path: "/apis"})
		return strings.Contains(string(a.body), `"example.com"`), string(a.body)
	})

	aggregated := map[string]string{"Accept": "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"}
	configMap := `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"}}`
	requests := []request{
		{method: http.MethodGet, path: "/version"},
		{method: http.MethodGet, path: "/api"},
		{method: http.MethodGet, path: "/api/v1"},
		{method: http.MethodGet, path: "/apis"},
		{method: http.MethodGet, path: "/apis", header: aggregated},
		{method: http.MethodGet, path: "/api", header: aggregated},
		{method: http.MethodGet, path: "/apis/apps/v1"},
		{method: http.MethodGet, path: "/apis/example.com"},
		{method: http.MethodGet, path: "/apis/example.com/v1"},
		{method: http.MethodGet, path: "/openapi/v2"},
		{method: http.MethodGet, path: "/openapi/v3"},
		{method: http.MethodGet, path: "/openapi/v3/apis/apps/v1"},
		{method: http.MethodGet, path: "/openapi/v3/apis/example.com/v1"},
		{method: http.MethodGet, path: "/healthz"},
		{method: http.MethodGet, path: "/api/v1/namespaces"},
		{method: http.MethodGet, path: "/api/v1/namespaces/default"},
		{method: http.MethodGet, path: "/api/v1/namespaces/default/configmaps"},
		{method: http.MethodGet, path: "/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=1"},
		{method: http.MethodGet, path: "/api/v1/namespaces/default/configmaps/x"},
		{method: http.MethodPost, path: "/api/v1/namespaces/default/configmaps", body: configMap},
		{method: http.MethodPut, path: "/api/v1/namespaces/default/configmaps/x", body: configMap},
		{method: http.MethodPatch, path: "/api/v1/namespaces/default/configmaps/x", contentType: "application/merge-patch+json", body: `{"data":{"a":"1"}}`},
		{method: http.MethodDelete, path: "/api/v1/namespaces/default"},
		{method: http.MethodGet, path: "/apis/example.com/v1/namespaces/default/widgets"},
		{method: http.MethodGet, path: "/apis/tenancy.canopy.dev/v1alpha1/logicalclusters"},
		{method: http.MethodGet, path: "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings"},
		{method: http.MethodPost, path: "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
			body: `{"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectAccessReview","spec":{"resourceAttributes":{"verb":"list","resource":"configmaps"}}}`},
		{method: http.MethodPost, path: "/apis/authentication.k8s.io/v1/selfsubjectreviews",
			body: `{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}`},
		{method: http.MethodPost, path: "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews",
			body: `{"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectRulesReview","spec":{"namespace":"default"}}`},
		{method: http.MethodPost, path: "/apis/authorization.k8s.io/v1/subjectaccessreviews",
			body: `{"apiVersion":"authorization.k8s.io/v1","kind":"SubjectAccessReview","spec":{"user":"alice","resourceAttributes":{"verb":"list","resource":"configmaps"}}}`},
		{method: http.MethodPost, path: "/apis/authentication.k8s.io/v1/tokenreviews",
			body: `{"apiVersion":"authentication.k8s.io/v1","kind":"TokenReview","spec":{"token":"x"}}`},
		{method: http.MethodGet, path: "/.well-known/openid-configuration"},
		{method: http.MethodGet, path: "/openid/v1/jwks"},
	}
	// An answer names its logical cluster where it would anyway, in a
	// refusal saying alice has no role there.
	same := func(a answer, cluster string) string {
		return fmt.Sprintf("%d %s", a.code, strings.ReplaceAll(string(a.body), cluster, "<cluster>"))
	}
	sent := 0
	for _, r := range requests {
		existing := do(t, aliceHTTP, server+"/clusters/root:team", r)
		missing := do(t, aliceHTTP, server+"/clusters/root:missing", r)
		sent += 2
		if e, m := same(existing, "root:team"), same(missing, "root:missing"); e != m {
			t.Errorf("alice: %s %s: in root:team %.400s\nin root:missing %.400s", r.method, r.path, e, m)
		}
		if !strings.Contains(r.path, "widgets") && strings.Contains(string(existing.body), "widgets") {
			t.Errorf("alice: %s %s in root:team tells of its widgets: %.400s", r.method, r.path, existing.body)
		}
	}
	t.Logf("%d requests as a non-member", sent)

	// kubectl tells alice why she is refused, in both.
	for _, context := range []string{"team", "missing"} {
		out, err := alice.run("--context", context, "get", "configmaps")
		if err == nil || !strings.Contains(err.Error(), `"alice" has no role in logical cluster root:`+context) {
			t.Errorf("alice: kubectl --context %s get configmaps: %v\n%s", context, err, out)
		}
	}
	// system:masters is told the logical cluster does not exist.
	if a := do(t, adminHTTP, server+"/clusters/root:missing", request{method: http.MethodGet, path: "/version"}); a.code != http.StatusNotFound ||
		!strings.Contains(a.status.Message, `logical cluster "root:missing" does not exist`) {
		t.Errorf("admin: GET /version in root:missing: %d %s; want a 404 saying it does not exist", a.code, a.body)
	}
}
