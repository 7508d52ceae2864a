package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// oldSecrets is how many Secrets the deleted logical cluster holds: enough
// that removing them takes seconds, the window a re-created name had to
// serve them in.
const oldSecrets = 6000

// TestSecurityClusterID deletes a logical cluster holding 6,000 Secrets,
// a ClusterRoleBinding making u1 cluster-admin and a custom resource held
// by a finalizer, tries at once to remove its LogicalCluster's finalizer
// by every way of writing it, and re-creates its name until that
// succeeds, meanwhile killing a hub mid-purge (on PostgreSQL, one of two
// replicas). For 30 s from the first re-create it asks, as u1 and as the
// admin and of each hub, for the old Secrets, the old binding and u1's
// rights: nothing of the old logical cluster may ever be served, and the
// new one starts empty, custom resources included. With replicas, u1's
// watch there ends with it. Then a definition's cleanup finalizer cannot
// be removed by hand either, and writes u1 started in a deleted logical
// cluster and finished in the one re-created under its name are refused.
func TestSecurityClusterID(t *testing.T) {
	t.Parallel()
	onEachDatastore(t, testSecurityClusterID)
}

func testSecurityClusterID(t *testing.T, h *hub, admin kubectl) {
	pki := filepath.Join(h.dataDir, "pki")
	hubs := []*hub{h}
	if h.datastore != "" {
		hubs = append(hubs, startReplica(t, h))
	}
	admin.addContext(h, pki, "root", "root")
	admin.createLogicalCluster("root", "a")
	admin.addContext(h, pki, "a", "root:a")
	admin.createLogicalCluster("a", "big3")
	u1 := userKubeconfig(t, pki, "u1")
	for i, r := range hubs {
		admin.addContext(r, pki, fmt.Sprintf("big3-%d", i), "root:a:big3")
		u1.addContextAs(r, pki, "u1", fmt.Sprintf("big3-%d", i), "root:a:big3")
	}
	// A custom resource held by a finalizer that the hub's collector
	// removes: the purge must wait for it before the definition goes, or
	// it would stay behind, unseen.
	admin.apply("big3-0", widgetsCRD("v1", sizeSchema))
	// kubectl wait gives up at once on a definition whose status has no
	// conditions yet, which a busy hub may serve first.
	admin.eventually("--context", "big3-0", "wait", "--for=condition=Established", "crd/widgets.example.com", "--timeout=10s")
	admin.apply("big3-0", heldWidget("old-widget", "orphan"))
	var requests atomic.Int64
	c := clusterIDClients{admin: admin.httpClient("big3-0"), u1: u1.httpClient("big3-0"), requests: &requests}

	started := time.Now()
	c.fill(t, hubURL(h, "root:a:big3")+"/api/v1/namespaces/default/secrets", oldSecrets)
	t.Logf("created %d Secrets in %s", oldSecrets, time.Since(started).Round(time.Millisecond))
	admin.must("--context", "big3-0", "create", "clusterrolebinding", "u1-admin", "--clusterrole", "cluster-admin", "--user", "u1")
	for i := range hubs {
		u1.eventually("--context", fmt.Sprintf("big3-%d", i), "auth", "can-i", "create", "clusterrolebindings")
	}
	oldUID := admin.must("--context", "big3-0", "get", "namespace", "kube-system", "-o", "jsonpath={.metadata.uid}")

	// u1's watch goes to a hub that stays up, so only with replicas.
	stopWatch := func() (bool, []string) { return true, nil }
	if len(hubs) > 1 {
		stopWatch = c.startWatch(t, hubs[1])
	}
	deleted := time.Now()
	admin.must("--context", "a", "delete", "logicalcluster", "big3", "--wait=false")
	c.refuseFinalizerRemoval(t, admin, hubURL(h, "root:a"))

	p := &clusterIDProbe{clusterIDClients: c, t: t, hubs: hubs, kubectl: u1, oldUID: oldUID}
	free := p.run(func() { restartMidPurge(t, admin, hubs) })
	t.Logf("the name was free again %s after the delete; %d requests in all", free.Sub(deleted).Round(time.Millisecond), requests.Load())

	admin.must("--context", "a", "wait", "--for=jsonpath={.status.phase}=Ready", "logicalcluster/big3", "--timeout=30s")
	admin.must("--context", fmt.Sprintf("big3-%d", len(hubs)-1), "create", "secret", "generic", "new-secret", "--from-literal=token=new")
	time.Sleep(time.Second)
	if ended, foreign := stopWatch(); !ended || len(foreign) > 0 {
		t.Errorf("u1's watch of Secrets, let into the old logical cluster: ended with it %v; sent Secrets of the new one %v", ended, foreign)
	}
	p.checkEmpty()
	admin.apply("big3-0", widgetsCRD("v1", sizeSchema))
	// kubectl wait gives up at once on a definition whose status has no
	// conditions yet, which a busy hub may serve first.
	admin.eventually("--context", "big3-0", "wait", "--for=condition=Established", "crd/widgets.example.com", "--timeout=10s")
	if widgets := admin.must("--context", "big3-0", "get", "widgets", "-A", "-o", "name"); widgets != "" {
		t.Errorf("the re-created logical cluster, defining widgets again, serves the old one's: %s", widgets)
	}
	c.refuseDefinitionCleanup(t, admin, hubURL(h, "root:a:big3"))
	if uid := admin.must("--context", "big3-0", "get", "namespace", "kube-system", "-o", "jsonpath={.metadata.uid}"); uid == oldUID {
		t.Errorf("the new logical cluster's kube-system has the old one's UID %s", uid)
	}
	c.refuseSlowWrites(t, admin, u1, pki, hubs)
}

// refuseSlowWrites makes u1 cluster-admin of a new logical cluster
// root:a:slow, sends the last of hubs the headers of the slowWrites there
// as u1, deletes slow and re-creates its name, and only then sends their
// bodies: each must be refused, and none stored.
//
// They get a small logical cluster of their own because a create may take
// at most 34 s from its headers, in the hub as in kube-apiserver, and on a
// busy machine the purge of big3, with a hub killed, takes longer: they
// would end in 504 Timeout, and the refusal they are here to check would
// go untested.
func (c clusterIDClients) refuseSlowWrites(t *testing.T, admin, u1 kubectl, pki string, hubs []*hub) {
	t.Helper()
	h := hubs[len(hubs)-1]
	admin.createLogicalCluster("a", "slow")
	admin.addContext(h, pki, "slow", "root:a:slow")
	u1.addContextAs(h, pki, "u1", "slow", "root:a:slow")
	admin.must("--context", "slow", "create", "clusterrolebinding", "u1-admin", "--clusterrole", "cluster-admin", "--user", "u1")
	u1.eventually("--context", "slow", "auth", "can-i", "create", "clusterrolebindings")
	var slow []func() (int, []byte)
	for _, w := range slowWrites {
		slow = append(slow, c.startSlow(hubURL(h, "root:a:slow")+w.path, w.body))
	}
	deleted := time.Now()
	admin.must("--context", "a", "delete", "logicalcluster", "slow", "--wait=false")
	free := c.recreate(t, hubs, "slow", func(string) {})
	t.Logf("slow was made again %s after its delete", free.Sub(deleted).Round(time.Millisecond))
	finishSlow(t, slow)
	admin.must("--context", "a", "wait", "--for=jsonpath={.status.phase}=Ready", "logicalcluster/slow", "--timeout=30s")
	for _, object := range []string{"clusterrolebinding/u1-slow", "secret/planted"} {
		if out := admin.must("--context", "slow", "-n", "default", "get", object, "--ignore-not-found", "-o", "name"); out != "" {
			t.Errorf("a slow write u1 started in the deleted logical cluster slow is stored in the new one: %s", out)
		}
	}
}

func hubURL(h *hub, cluster string) string {
	return fmt.Sprintf("https://127.0.0.1:%d/clusters/%s", h.port, cluster)
}

// restartMidPurge kills the first hub while the purge runs and starts it
// again: with one hub, the purge must resume after the restart; with
// replicas, another carries on meanwhile.
func restartMidPurge(t *testing.T, admin kubectl, hubs []*hub) {
	h := hubs[0]
	phase, err := admin.run("--context", "a", "get", "logicalcluster", "big3", "-o", "jsonpath={.status.phase} {.status.message}")
	t.Logf("killing the first hub mid-purge (%d hubs); the deleted LogicalCluster is %q (%v)", len(hubs), phase, err)
	_ = h.cmd.Process.Kill()
	_ = h.cmd.Wait()
	h.cmd = nil
	h.start(t)
	deleting, err := admin.run("--context", "a", "get", "logicalcluster", "big3", "-o", "jsonpath={.metadata.deletionTimestamp}")
	t.Logf("once the killed hub was up again, the old LogicalCluster was still being purged: %v (%v)", deleting != "", err)
}

// clusterIDClients are the admin's and u1's HTTP clients, counting their
// requests.
type clusterIDClients struct {
	admin, u1 *http.Client
	requests  *atomic.Int64
}

// do sends a request and returns its code, its body and the Status it is,
// when it is one; code 0 is a request that got no answer, as from a hub
// being restarted.
func (c clusterIDClients) do(client *http.Client, method, url, contentType, body string) (int, []byte, metav1.Status) {
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		return 0, []byte(err.Error()), metav1.Status{}
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	return c.send(client, req)
}

func (c clusterIDClients) send(client *http.Client, req *http.Request) (int, []byte, metav1.Status) {
	c.requests.Add(1)
	resp, err := client.Do(req)
	if err != nil {
		return 0, []byte(err.Error()), metav1.Status{}
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var status metav1.Status
	if json.Unmarshal(raw, &status) != nil || status.Kind != "Status" {
		status = metav1.Status{}
	}
	return resp.StatusCode, raw, status
}

// slowWrites are writes u1 starts in the old logical cluster, where it
// is cluster-admin, and sends the bodies of only once the name makes a
// new one: each would carry u1's old rights into it.
var slowWrites = []struct{ name, path, body string }{
	{"a ClusterRoleBinding making u1 cluster-admin", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings",
		`{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRoleBinding","metadata":{"name":"u1-slow"},` +
			`"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"cluster-admin"},` +
			`"subjects":[{"apiGroup":"rbac.authorization.k8s.io","kind":"User","name":"u1"}]}`},
	{"a Secret planted in default", "/api/v1/namespaces/default/secrets",
		`{"apiVersion":"v1","kind":"Secret","metadata":{"name":"planted"},"stringData":{"token":"old"}}`},
}

// startSlow sends, as u1, a POST of body to url: its headers now, which
// are authorized in the logical cluster of that name now, and its body
// only when the function it returns is called, which returns the
// answer's code and body.
func (c clusterIDClients) startSlow(url, body string) func() (int, []byte) {
	client := *c.u1
	client.Timeout = 0
	r, w := io.Pipe()
	var code int
	var raw []byte
	answered := make(chan struct{})
	go func() {
		defer close(answered)
		req, err := http.NewRequest(http.MethodPost, url, r)
		if err != nil {
			raw = []byte(err.Error())
			return
		}
		req.Header.Set("Content-Type", "application/json")
		code, raw, _ = c.send(&client, req)
	}()
	return func() (int, []byte) {
		_, _ = w.Write([]byte(body))
		_ = w.Close()
		<-answered
		return code, raw
	}
}

// finishSlow sends the bodies of the slow writes and checks that each is
// refused.
func finishSlow(t *testing.T, slow []func() (int, []byte)) {
	t.Helper()
	for i, finish := range slow {
		code, raw := finish()
		w := slowWrites[i]
		t.Logf("%s, authorized in the old logical cluster and sent in full once the new one was made: %d %.300s", w.name, code, raw)
		switch {
		case code == http.StatusCreated:
			t.Errorf("%s, authorized in the old logical cluster, was stored in the new one: %s", w.name, raw)
		case code != http.StatusForbidden:
			t.Errorf("%s, sent slowly across the deletion: %d %s; want 403", w.name, code, raw)
		case w.name == "a Secret planted in default" && !strings.Contains(string(raw), "was deleted, and made again, while this request was being received"):
			t.Errorf("%s, sent slowly across the deletion: %d %s; want it to say the logical cluster was made again meanwhile", w.name, code, raw)
		}
	}
}

// startWatch watches, as u1 on h, the Secrets of big3, and returns a
// function that stops the watch and tells whether it had ended by itself
// and which Secrets it sent that the old logical cluster did not hold.
func (c clusterIDClients) startWatch(t *testing.T, h *hub) func() (bool, []string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, hubURL(h, "root:a:big3")+"/api/v1/namespaces/default/secrets?watch=true", nil)
	if err != nil {
		t.Fatal(err)
	}
	client := *c.u1
	client.Timeout = 0
	c.requests.Add(1)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("u1 watching Secrets in big3: %s", resp.Status)
	}
	var foreign []string
	var ended atomic.Bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer resp.Body.Close()
		decoder := json.NewDecoder(resp.Body)
		for {
			var event struct {
				Object metav1.PartialObjectMetadata `json:"object"`
			}
			if err := decoder.Decode(&event); err != nil {
				ended.Store(ctx.Err() == nil)
				return
			}
			if !strings.HasPrefix(event.Object.Name, "old-") {
				foreign = append(foreign, event.Object.Name)
			}
		}
	}()
	return func() (bool, []string) {
		cancel()
		<-done
		return ended.Load(), foreign
	}
}

// fill creates n Secrets old-<i> at collection from 16 clients at once.
func (c clusterIDClients) fill(t *testing.T, collection string, n int) {
	t.Helper()
	var next atomic.Int64
	var failed atomic.Value
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			for i := next.Add(1) - 1; i < int64(n) && failed.Load() == nil; i = next.Add(1) - 1 {
				body := fmt.Sprintf(`{"apiVersion":"v1","kind":"Secret","metadata":{"name":"old-%d"},"stringData":{"token":"old-%d"}}`, i, i)
				if code, raw, _ := c.do(c.admin, http.MethodPost, collection, "application/json", body); code != http.StatusCreated {
					failed.Store(fmt.Sprintf("creating Secret old-%d: %d %s", i, code, raw))
				}
			}
		})
	}
	wg.Wait()
	if msg := failed.Load(); msg != nil {
		t.Fatal(msg)
	}
}

// refuseFinalizerRemoval removes the deleted LogicalCluster big3's
// finalizer in root:a, at base, by each way of writing it, as the admin,
// who may do anything, all at once so as to be done well within the
// purge: each must be refused with a message saying the logical cluster
// still holds objects, and the finalizer must stay.
func (c clusterIDClients) refuseFinalizerRemoval(t *testing.T, admin kubectl, base string) {
	t.Helper()
	object := base + "/apis/tenancy.canopy.dev/v1alpha1/logicalclusters/big3"
	c.ownFinalizer(t, object)
	attempts := []struct{ name, method, url, contentType, body string }{
		{"JSON patch", http.MethodPatch, object, "application/json-patch+json", `[{"op":"remove","path":"/metadata/finalizers"}]`},
		{"JSON patch of the item", http.MethodPatch, object, "application/json-patch+json", `[{"op":"remove","path":"/metadata/finalizers/0"}]`},
		{"merge patch", http.MethodPatch, object, "application/merge-patch+json", `{"metadata":{"finalizers":null}}`},
		{"strategic merge patch", http.MethodPatch, object, "application/strategic-merge-patch+json",
			`{"metadata":{"$deleteFromPrimitiveList/finalizers":["canopy.dev/logicalcluster"]}}`},
		{"merge patch of status", http.MethodPatch, object + "/status", "application/merge-patch+json", `{"metadata":{"finalizers":[]}}`},
		{"update", http.MethodPut, object, "application/json", withoutFinalizers(t, c, object, false)},
		{"update of status", http.MethodPut, object + "/status", "application/json", withoutFinalizers(t, c, object, false)},
		{"server-side apply", http.MethodPatch, object + "?force=true&fieldManager=attacker", "application/apply-patch+yaml",
			`{"apiVersion":"tenancy.canopy.dev/v1alpha1","kind":"LogicalCluster","metadata":{"name":"big3","finalizers":[]}}`},
	}
	type answer struct {
		code   int
		raw    []byte
		status metav1.Status
	}
	answers := make([]answer, len(attempts))
	var out string
	var err error
	var wg sync.WaitGroup
	for i, a := range attempts {
		wg.Go(func() {
			code, raw, status := c.do(c.admin, a.method, a.url, a.contentType, a.body)
			answers[i] = answer{code, raw, status}
		})
	}
	wg.Go(func() {
		out, err = admin.run("--context", "a", "patch", "logicalcluster", "big3", "--type=json", "-p", `[{"op":"remove","path":"/metadata/finalizers"}]`)
		c.requests.Add(2)
	})
	wg.Wait()
	for i, a := range attempts {
		got := answers[i]
		t.Logf("%s: %d %s %q", a.name, got.code, got.status.Reason, got.status.Message)
		if got.code != http.StatusUnprocessableEntity || !strings.Contains(got.status.Message, "logical cluster root:a:big3 still holds objects (") {
			t.Errorf("%s removing the finalizer of a deleted logical cluster holding objects: %d %s; want 422 saying it still holds objects", a.name, got.code, got.raw)
		}
	}
	t.Logf("kubectl patch --type=json: %s %v", out, err)
	if err == nil || !strings.Contains(err.Error(), "still holds objects") {
		t.Errorf("kubectl patch removing the finalizer: %s %v; want it refused, saying the logical cluster still holds objects", out, err)
	}
	c.wantFinalizer(t, object)
}

// ownFinalizer makes the attacker the only owner of the finalizer of the
// LogicalCluster at object, which keeps it. A server-side apply drops only
// what its own field manager owns, and the hub adds the finalizer on
// create, owned by whoever created the object; once the attacker owns it
// alone, an apply of no finalizers removes it.
func (c clusterIDClients) ownFinalizer(t *testing.T, object string) {
	t.Helper()
	const own = `{"metadata":{"managedFields":[{"manager":"attacker","operation":"Apply","apiVersion":"tenancy.canopy.dev/v1alpha1",` +
		`"fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:finalizers":{"v:\"canopy.dev/logicalcluster\"":{}}}}}]}}`
	if code, raw, _ := c.do(c.admin, http.MethodPatch, object, "application/merge-patch+json", own); code != http.StatusOK {
		t.Fatalf("making the attacker the finalizer's only owner: %d %s", code, raw)
	}
}

// heldWidget is a Widget in default held by finalizer.
func heldWidget(name, finalizer string) string {
	return `apiVersion: example.com/v1
kind: Widget
metadata:
  name: ` + name + `
  namespace: default
  finalizers: [` + finalizer + `]
spec:
  size: 1
`
}

// refuseDefinitionCleanup deletes the definition of widgets in the
// logical cluster at base while a Widget holds it, and removes its
// cleanup finalizer by each way of writing it: each must be refused, and
// the definition goes once the Widget's own finalizer is removed.
func (c clusterIDClients) refuseDefinitionCleanup(t *testing.T, admin kubectl, base string) {
	t.Helper()
	admin.apply("big3-0", heldWidget("held", "e2e.canopy.dev/hold"))
	admin.must("--context", "big3-0", "delete", "crd", "widgets.example.com", "--wait=false")
	object := base + "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com"
	fixed := func(body string) func() string { return func() string { return body } }
	attempts := []struct {
		name, method, url, contentType string
		body                           func() string
	}{
		{"JSON patch", http.MethodPatch, object, "application/json-patch+json", fixed(`[{"op":"remove","path":"/metadata/finalizers"}]`)},
		{"merge patch", http.MethodPatch, object, "application/merge-patch+json", fixed(`{"metadata":{"finalizers":null}}`)},
		{"merge patch of status", http.MethodPatch, object + "/status", "application/merge-patch+json", fixed(`{"metadata":{"finalizers":[]}}`)},
		{"update", http.MethodPut, object, "application/json", func() string { return withoutFinalizers(t, c, object, true) }},
	}
	for _, a := range attempts {
		// The hub writes the definition's status meanwhile: an update of
		// the version read before it conflicts, and is read and tried
		// again.
		code, raw, status := c.do(c.admin, a.method, a.url, a.contentType, a.body())
		for try := 0; code == http.StatusConflict && try < 5; try++ {
			code, raw, status = c.do(c.admin, a.method, a.url, a.contentType, a.body())
		}
		t.Logf("definition cleanup, %s: %d %s %q", a.name, code, status.Reason, status.Message)
		if code != http.StatusForbidden || !strings.Contains(status.Message, "the hub removes finalizer customresourcecleanup.apiextensions.k8s.io once the objects of widgets.example.com are deleted") {
			t.Errorf("%s removing the cleanup finalizer of a definition whose objects remain: %d %s; want 403 saying the hub removes it", a.name, code, raw)
		}
	}
	admin.must("--context", "big3-0", "patch", "widget", "held", "-n", "default", "--type=json", "-p", `[{"op":"remove","path":"/metadata/finalizers"}]`)
	admin.gone("big3-0", "crd", "widgets.example.com")
}

// withoutFinalizers is the object at object without finalizers, the body
// of an update removing them: unconditional, without resourceVersion,
// unless versioned, for kinds that take no unconditional updates.
func withoutFinalizers(t *testing.T, c clusterIDClients, object string, versioned bool) string {
	t.Helper()
	obj := c.get(t, object)
	delete(obj["metadata"].(map[string]any), "finalizers")
	if !versioned {
		delete(obj["metadata"].(map[string]any), "resourceVersion")
	}
	body, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	return string(body)
}

func (c clusterIDClients) get(t *testing.T, url string) map[string]any {
	t.Helper()
	code, raw, _ := c.do(c.admin, http.MethodGet, url, "", "")
	if code != http.StatusOK {
		t.Fatalf("GET %s: %d %s", url, code, raw)
	}
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil {
		t.Fatal(err)
	}
	return obj
}

// wantFinalizer checks that the LogicalCluster at object is still there
// with the hub's finalizer.
func (c clusterIDClients) wantFinalizer(t *testing.T, object string) {
	t.Helper()
	code, raw, _ := c.do(c.admin, http.MethodGet, object, "", "")
	var lc struct {
		metav1.ObjectMeta `json:"metadata"`
	}
	_ = json.Unmarshal(raw, &lc)
	if code != http.StatusOK || !slices.Contains(lc.Finalizers, "canopy.dev/logicalcluster") {
		t.Errorf("after the attempts to remove it, the deleted LogicalCluster is %d %.300s", code, raw)
	}
}

// clusterIDProbe asks each hub, as u1 and as the admin, about logical
// cluster root:a:big3 while its name is re-created, and counts the
// answers.
type clusterIDProbe struct {
	clusterIDClients
	t    *testing.T
	hubs []*hub
	// kubectl is u1's, with a context big3-<i> for each hub.
	kubectl kubectl
	oldUID  string

	mu       sync.Mutex
	outcomes map[string]int
}

// probeFor is how long the probes run from the first re-create, and
// probeAfterFree at least how long once the re-create succeeded.
const probeFor, probeAfterFree = 30 * time.Second, 5 * time.Second

// paced waits d, and returns false once stop is closed: the probes leave
// the hubs the time to purge.
func paced(stop chan struct{}, d time.Duration) bool {
	select {
	case <-stop:
		return false
	case <-time.After(d):
		return true
	}
}

// run re-creates big3 in root:a until it succeeds while probing every hub,
// from the first attempt for probeFor and at least until the re-create
// succeeded; mid runs once both have begun. It returns when the re-create
// succeeded.
func (p *clusterIDProbe) run(mid func()) time.Time {
	p.outcomes = map[string]int{}
	deadline := time.Now().Add(probeFor)
	created := make(chan time.Time, 1)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() { created <- p.recreate(p.t, p.hubs, "big3", p.count) })
	for i, h := range p.hubs {
		wg.Go(func() { p.probe(h, stop) })
		wg.Go(func() { p.canI(fmt.Sprintf("big3-%d", i), stop) })
	}
	mid()
	free := <-created
	time.Sleep(max(time.Until(deadline), probeAfterFree-time.Since(free)))
	close(stop)
	wg.Wait()
	p.t.Logf("answers while re-creating and for %s after: %v", probeFor, p.outcomes)
	return free
}

func (p *clusterIDProbe) count(outcome string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.outcomes[outcome]++
}

// recreate creates LogicalCluster name in root:a, of each of hubs in
// turn, until it succeeds, counts each answer, and checks that a refusal
// says why.
func (c clusterIDClients) recreate(t *testing.T, hubs []*hub, name string, count func(string)) time.Time {
	body := `{"apiVersion":"tenancy.canopy.dev/v1alpha1","kind":"LogicalCluster","metadata":{"name":"` + name + `"}}`
	giveUp := time.Now().Add(5 * time.Minute)
	for i := 0; time.Now().Before(giveUp); i++ {
		h := hubs[i%len(hubs)]
		code, raw, status := c.do(c.admin, http.MethodPost, hubURL(h, "root:a")+"/apis/tenancy.canopy.dev/v1alpha1/logicalclusters", "application/json", body)
		count(fmt.Sprintf("re-create:%d", code))
		switch {
		case code == http.StatusCreated:
			return time.Now()
		case code == http.StatusConflict && i == 0:
			t.Logf("re-create: %d %s %q", code, status.Reason, status.Message)
			if !strings.Contains(status.Message, "the previous logical cluster root:a:"+name+" is still being deleted") {
				t.Errorf("re-creating a name being deleted: %d %s; want it to say the previous logical cluster is still being deleted", code, raw)
			}
		case code != http.StatusConflict && code != 0:
			t.Errorf("re-creating a name being deleted: %d %s; want 409 until it is free", code, raw)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Errorf("the name root:a:%s was not free 5 minutes after its logical cluster was deleted", name)
	return time.Now()
}

// probe asks h, until stop, for what the old logical cluster held and
// for rights u1 had there: none may be given.
func (p *clusterIDProbe) probe(h *hub, stop chan struct{}) {
	cluster := hubURL(h, "root:a:big3")
	secrets := cluster + "/api/v1/namespaces/default/secrets?limit=100"
	binding := cluster + "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings"
	const grant = `{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRoleBinding","metadata":{"name":"u1-again"},` +
		`"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"cluster-admin"},` +
		`"subjects":[{"apiGroup":"rbac.authorization.k8s.io","kind":"User","name":"u1"}]}`
	for paced(stop, 20*time.Millisecond) {
		p.noOldSecrets("admin lists secrets", p.admin, secrets)
		p.noOldSecrets("admin lists secrets from the watch cache", p.admin, secrets+"&resourceVersion=0")
		p.refused("admin gets the old binding", p.admin, http.MethodGet, binding+"/u1-admin", "", http.StatusOK)
		p.refused("u1 lists secrets", p.u1, http.MethodGet, secrets, "", http.StatusOK)
		p.refused("u1 binds itself", p.u1, http.MethodPost, binding, grant, http.StatusCreated)
		code, raw, _ := p.do(p.admin, http.MethodGet, cluster+"/api/v1/namespaces/kube-system", "", "")
		p.count(fmt.Sprintf("admin gets kube-system:%d", code))
		if code == http.StatusOK && strings.Contains(string(raw), p.oldUID) {
			p.t.Errorf("the re-created logical cluster served the old kube-system: %s", raw)
		}
	}
}

// noOldSecrets lists Secrets at url and checks that none is of the old
// logical cluster.
func (p *clusterIDProbe) noOldSecrets(what string, client *http.Client, url string) {
	code, raw, _ := p.do(client, http.MethodGet, url, "", "")
	p.count(fmt.Sprintf("%s:%d", what, code))
	if code != http.StatusOK {
		return
	}
	var list struct {
		Items []metav1.PartialObjectMetadata `json:"items"`
	}
	if err := json.Unmarshal(raw, &list); err != nil {
		p.t.Errorf("%s: %v", what, err)
	}
	for _, s := range list.Items {
		if strings.HasPrefix(s.Name, "old-") {
			p.t.Errorf("%s: the re-created logical cluster served Secret %s of the old one (%d items)", what, s.Name, len(list.Items))
			return
		}
	}
}

// refused sends a request that must not be answered with code leaked.
func (p *clusterIDProbe) refused(what string, client *http.Client, method, url, body string, leaked int) {
	code, raw, _ := p.do(client, method, url, "application/json", body)
	p.count(fmt.Sprintf("%s:%d", what, code))
	if code == leaked {
		p.t.Errorf("%s: %d %s", what, code, raw)
	}
}

// canI asks kubectl auth can-i, as u1 in context, until stop, whether u1
// may bind roles: it may not in the new logical cluster.
func (p *clusterIDProbe) canI(context string, stop chan struct{}) {
	for paced(stop, 200*time.Millisecond) {
		out, err := p.kubectl.run("--context", context, "auth", "can-i", "create", "clusterrolebindings")
		p.requests.Add(1)
		p.count(fmt.Sprintf("u1 kubectl auth can-i:%s", strings.TrimSpace(out)))
		if strings.TrimSpace(out) == "yes" {
			p.t.Errorf("kubectl auth can-i create clusterrolebindings as u1 in %s: %s %v", context, out, err)
		}
	}
}

// checkEmpty checks that the re-created logical cluster, ready, holds
// nothing of the old one and gives u1 nothing, on every hub.
func (p *clusterIDProbe) checkEmpty() {
	for i, h := range p.hubs {
		cluster := hubURL(h, "root:a:big3")
		code, raw, _ := p.do(p.admin, http.MethodGet, cluster+"/api/v1/secrets", "", "")
		if code != http.StatusOK || strings.Contains(string(raw), `"old-`) {
			p.t.Errorf("the Secrets of the re-created logical cluster: %d %.300s", code, raw)
		}
		for _, c := range []struct {
			what   string
			client *http.Client
			url    string
			want   int
		}{
			{"the old binding", p.admin, cluster + "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/u1-admin", http.StatusNotFound},
			{"the Secrets as u1", p.u1, cluster + "/api/v1/secrets", http.StatusForbidden},
		} {
			if code, raw, _ := p.do(c.client, http.MethodGet, c.url, "", ""); code != c.want {
				p.t.Errorf("%s in the re-created logical cluster: %d %s; want %d", c.what, code, raw, c.want)
			}
		}
		if out, _ := p.kubectl.run("--context", fmt.Sprintf("big3-%d", i), "auth", "can-i", "create", "clusterrolebindings"); !strings.HasPrefix(out, "no") {
			p.t.Errorf("kubectl auth can-i create clusterrolebindings as u1 in the re-created logical cluster: %q; want no", out)
		}
	}
}
