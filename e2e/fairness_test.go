package e2e

import (
	"fmt"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/client-go/rest"

	"github.com/canopy-dev/canopy/pkg/fairness"
	"github.com/canopy-dev/canopy/pkg/registry/tenancy"
)

// A flood of requests to logical clusters that do not exist, to one name
// and to ever new ones, by a member (system:masters, who is told the
// cluster does not exist) and by a user with no role (who is answered as
// in a logical cluster where they have none), costs the database at most
// the refusals a replica confirms (tenancy.ConfirmationBurst, then
// tenancy.ConfirmationRate a second), counted by the store's statement
// metric: without the bound, each request would read the database once.
func TestMissingClusterFlood(t *testing.T) {
	t.Parallel()
	h, _, pki := startHubWith(t)
	server := "https://127.0.0.1:" + strconv.Itoa(h.port)
	admin, err := adminClient(pki)
	if err != nil {
		t.Fatal(err)
	}
	admin.Transport.(*http.Transport).MaxIdleConnsPerHost = floodClients
	alice := userKubeconfig(t, pki, "alice")
	alice.addContextAs(h, pki, "alice", "missing", "root:missing")
	aliceHTTP := alice.httpClient("missing")

	// Each kind of request once, to see the answers are what they were
	// before the bound: 404 naming the missing cluster for a member, 403
	// as in an empty logical cluster for alice.
	if a := do(t, admin, server, request{method: http.MethodGet, path: "/clusters/root:missing/api/v1/namespaces/default/configmaps"}); a.code != http.StatusNotFound ||
		!strings.Contains(string(a.body), `logical cluster \"root:missing\" does not exist`) {
		t.Fatalf("admin in root:missing: %d %s, want 404 saying it does not exist", a.code, a.body)
	}
	if a := do(t, aliceHTTP, server, request{method: http.MethodGet, path: "/clusters/root:missing/api/v1/namespaces/default/configmaps"}); a.code != http.StatusForbidden ||
		strings.Contains(string(a.body), "does not exist") {
		t.Fatalf("alice in root:missing: %d %s, want 403 as for a user with no role", a.code, a.body)
	}

	before := logicalClusterReads(t, admin, server)
	start := time.Now()
	var next, wrong atomic.Int64
	var firstWrong atomic.Value
	var wg sync.WaitGroup
	for c := range floodClients {
		client := admin
		want := http.StatusNotFound
		if c%4 == 3 {
			client, want = aliceHTTP, http.StatusForbidden
		}
		wg.Go(func() {
			for {
				i := next.Add(1)
				if i > floodRequests {
					return
				}
				// Half the requests go to one name, half to names never
				// asked before.
				name := "missing"
				if i%2 == 0 {
					name = fmt.Sprintf("missing-%d", i)
				}
				resp, err := client.Get(server + "/clusters/root:" + name + "/api/v1/namespaces/default/configmaps")
				if err != nil {
					wrong.Add(1)
					firstWrong.CompareAndSwap(nil, err.Error())
					continue
				}
				resp.Body.Close()
				if resp.StatusCode != want {
					wrong.Add(1)
					firstWrong.CompareAndSwap(nil, fmt.Sprintf("root:%s: %s, want %d", name, resp.Status, want))
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	reads := logicalClusterReads(t, admin, server) - before
	if n := wrong.Load(); n > 0 {
		t.Fatalf("%d of %d requests were not answered as before the flood, first: %v", n, floodRequests, firstWrong.Load())
	}
	bound := tenancy.ConfirmationBurst + int(math.Ceil(elapsed.Seconds()*tenancy.ConfirmationRate))
	t.Logf("%d requests to missing logical clusters in %v (%.0f/s) from %d clients: %d LogicalCluster reads of the database, bound %d",
		floodRequests, elapsed.Round(time.Millisecond), floodRequests/elapsed.Seconds(), floodClients, reads, bound)
	if reads > bound {
		t.Fatalf("%d requests to missing logical clusters read LogicalClusters from the database %d times in %v, more than the bound %d",
			floodRequests, reads, elapsed, bound)
	}
}

const (
	floodRequests = 10000
	floodClients  = 64
)

// logicalClusterReads is how many get statements the hub's stores ran on
// LogicalClusters for requests, from its /metrics.
func logicalClusterReads(t *testing.T, client *http.Client, server string) int {
	t.Helper()
	n, ok := storeStatements(t, client, server, "get", "logicalclusters.tenancy.canopy.dev")
	if !ok {
		t.Fatal("/metrics has no series of LogicalCluster reads")
	}
	return n
}

// Each request is classified by the hub's own FlowSchemas, whatever
// FlowSchemas its logical cluster holds: system:masters is exempt, any other user's request falls in the workload level, whose
// flows are logical clusters. The response headers name the FlowSchema
// and priority level by UID.
func TestFlowControlClassification(t *testing.T) {
	t.Parallel()
	h, admin, pki := startHubWith(t, "team")
	server := "https://127.0.0.1:" + strconv.Itoa(h.port)
	adminHTTP, err := adminClient(pki)
	if err != nil {
		t.Fatal(err)
	}
	admin.addContextAs(h, pki, "admin", "team", "root:team")
	// A tenant's FlowSchema exempting everyone is data only.
	admin.apply("team", `{"apiVersion":"flowcontrol.apiserver.k8s.io/v1","kind":"FlowSchema","metadata":{"name":"everyone-exempt"},"spec":{`+
		`"matchingPrecedence":2,"priorityLevelConfiguration":{"name":"exempt"},"rules":[{"subjects":[{"kind":"Group","group":{"name":"system:authenticated"}}],`+
		`"resourceRules":[{"verbs":["*"],"apiGroups":["*"],"resources":["*"],"namespaces":["*"],"clusterScope":true}]}]}}`)
	if out, err := admin.run("--context", "team", "create", "rolebinding", "alice-view", "--clusterrole=view", "--user=alice", "-n", "default"); err != nil {
		t.Fatalf("granting alice view: %v\n%s", err, out)
	}
	alice := userKubeconfig(t, pki, "alice")
	alice.addContextAs(h, pki, "alice", "team", "root:team")

	for _, c := range []struct {
		who        string
		client     *http.Client
		path       string
		flowSchema string
	}{
		{"system:masters", adminHTTP, "/clusters/root:team/api/v1/namespaces/default/configmaps", "exempt"},
		{"alice", alice.httpClient("team"), "/clusters/root:team/api/v1/namespaces/default/configmaps", fairness.LevelWorkload},
	} {
		a := do(t, c.client, server, request{method: http.MethodGet, path: c.path})
		if a.code != http.StatusOK {
			t.Fatalf("%s GET %s: %d %s", c.who, c.path, a.code, a.body)
		}
		if got, want := a.header.Get("X-Kubernetes-PF-FlowSchema-UID"), string(fairness.UID(c.flowSchema)); got != want {
			t.Errorf("%s GET %s: FlowSchema UID %q, want %q (%s)", c.who, c.path, got, want, c.flowSchema)
		}
	}
}

// The platform admin's limits on volume: a tenant admin may make
// --max-logical-clusters-per-parent children and no more (403), and may not
// store a built-in object larger than --max-object-bytes (413), each
// refusal naming its flag; system:masters is not limited.
func TestHubLimits(t *testing.T) {
	t.Parallel()
	h := &hub{bin: buildHub(t), dataDir: t.TempDir(), port: freePort(t), flags: []string{"--max-logical-clusters-per-parent=2", "--max-object-bytes=20000"}}
	h.start(t)
	admin := h.admin(t)
	pki := filepath.Join(h.dataDir, "pki")
	admin.addContexts(h, pki, "admin")
	admin.createLogicalClusterFor("root", "a", "alice")
	alice := userKubeconfig(t, pki, "alice")
	alice.addContexts(h, pki, "alice")

	alice.createLogicalCluster("a", "one")
	alice.createLogicalCluster("a", "two")
	third := writeManifest(t, "apiVersion: tenancy.canopy.dev/v1alpha1\nkind: LogicalCluster\nmetadata:\n  name: three\n")
	if out, err := alice.run("--context", "a", "create", "-f", third); err == nil ||
		!strings.Contains(err.Error(), "Forbidden") || !strings.Contains(err.Error(), "--max-logical-clusters-per-parent") {
		t.Fatalf("a third LogicalCluster in root:a: %v\n%s\nwant 403 naming --max-logical-clusters-per-parent", err, out)
	}
	admin.createLogicalCluster("a", "three")

	big := writeManifest(t, fmt.Sprintf(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"big"},"data":{"k":%q}}`, strings.Repeat("x", 30000)))
	if out, err := alice.run("--context", "a", "create", "-f", big); err == nil ||
		!strings.Contains(err.Error(), "RequestEntityTooLarge") || !strings.Contains(err.Error(), "--max-object-bytes") {
		t.Fatalf("alice creating a 30 kB ConfigMap: %v\n%s\nwant 413 naming --max-object-bytes", err, out)
	}
	if out, err := admin.run("--context", "a", "create", "-f", big); err != nil {
		t.Fatalf("system:masters creating a 30 kB ConfigMap: %v\n%s", err, out)
	}
}

// writeManifest writes manifest to a file of the test's and returns its
// path.
func writeManifest(t *testing.T, manifest string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "manifest.yaml")
	if err := os.WriteFile(file, []byte(manifest), 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

// A logical cluster flooding the hub holds at most its share of a
// replica's seats for tenants (--max-seats-per-cluster-percent, 50% of
// the workload level's 3 of 4 seats here: one): its other requests wait in
// a line of their own, and those arriving while 100 wait are refused with
// 429, a Retry-After and a message naming the flag. Another logical
// cluster's requests all go through meanwhile, and the flooder's go
// through again once its flood is over. A flood sent in that other
// logical cluster's name, by a user who is no member and by an anonymous
// client, is refused by authorization alone and holds up none of its
// member's requests.
func TestFairnessShare(t *testing.T) {
	t.Parallel()
	h := &hub{bin: buildHub(t), dataDir: t.TempDir(), port: freePort(t), flags: []string{"--max-requests-inflight=4"}}
	h.start(t)
	admin := h.admin(t)
	pki := filepath.Join(h.dataDir, "pki")
	admin.addContexts(h, pki, "admin")
	admin.createLogicalClusterFor("root", "a", "alice")
	admin.createLogicalClusterFor("root", "b", "bob")
	alice, bob := userKubeconfig(t, pki, "alice"), userKubeconfig(t, pki, "bob")
	alice.addContexts(h, pki, "alice")
	bob.addContexts(h, pki, "bob")
	server := "https://127.0.0.1:" + strconv.Itoa(h.port)
	list := func(cluster string) request {
		return request{method: http.MethodGet, path: "/clusters/root:" + cluster + "/api/v1/namespaces/default/configmaps"}
	}
	fillConfigMaps(t, server, pki, "root:a", 300)

	// Each flood's requests go over one HTTP/2 connection, so that they
	// all arrive at once, while root:b's member lists in root:b, whose
	// lists must all go through.
	const flood = 300
	floodWhileQuiet := func(client *http.Client, cluster string) []answer {
		codes := make([]answer, flood)
		var wg sync.WaitGroup
		for i := range flood {
			wg.Go(func() {
				var err error
				if codes[i], err = tryDo(client, server, list(cluster)); err != nil {
					t.Errorf("a list of the flood of %s: %v", cluster, err)
				}
			})
		}
		quiet := bob.httpClient("b")
		for i := range 20 {
			if a := do(t, quiet, server, list("b")); a.code != http.StatusOK {
				t.Errorf("root:b's list %d during a flood of %s: %d %s", i, cluster, a.code, a.body)
			}
		}
		wg.Wait()
		return codes
	}
	flooder := alice.httpClient("a")
	flooder.Timeout = 2 * time.Minute
	codes := floodWhileQuiet(flooder, "a")
	served, refused := 0, 0
	for _, a := range codes {
		switch a.code {
		case http.StatusOK:
			served++
		case http.StatusTooManyRequests:
			refused++
			if a.status.Reason != "TooManyRequests" || !strings.Contains(a.status.Message, "root:a") ||
				!strings.Contains(a.status.Message, "--max-seats-per-cluster-percent=50") || a.header.Get("Retry-After") != strconv.Itoa(fairness.RetryAfterSeconds) {
				t.Errorf("a refusal of the flood: %s, Retry-After %q; want a TooManyRequests Status naming root:a and the flag, Retry-After %d",
					a.body, a.header.Get("Retry-After"), fairness.RetryAfterSeconds)
			}
		default:
			t.Errorf("a list of the flood: %d %s; want 200 or 429", a.code, a.body)
		}
	}
	t.Logf("the flood of %d lists: %d served, %d refused", flood, served, refused)
	if refused == 0 || served <= 1 {
		t.Errorf("the flood of %d lists at once: %d served, %d refused; want some to wait and be served, and those past the line of %d refused",
			flood, served, refused, fairness.MaxWaitingPerCluster)
	}
	if a := do(t, flooder, server, list("a")); a.code != http.StatusOK {
		t.Errorf("root:a's list after its flood: %d %s", a.code, a.body)
	}

	// Flow control comes before authorization. A flood in the name of a
	// logical cluster its senders may not use must neither queue in that
	// cluster's flow nor hold its share: root:b's member goes through, and
	// each request of the flood is refused by authentication or
	// authorization, or, past the flow's queue of its own, by flow
	// control, never by root:b's share.
	anonymous, err := rest.HTTPClientFor(&rest.Config{Host: server, TLSClientConfig: rest.TLSClientConfig{CAFile: filepath.Join(pki, "ca.crt")}})
	if err != nil {
		t.Fatal(err)
	}
	anonymous.Timeout = 2 * time.Minute
	for _, attacker := range []struct {
		name    string
		client  *http.Client
		refusal int
	}{
		{"alice, a member of root:a alone", flooder, http.StatusForbidden},
		{"an anonymous client", anonymous, http.StatusUnauthorized},
	} {
		for i, a := range floodWhileQuiet(attacker.client, "b") {
			ownQueue := a.code == http.StatusTooManyRequests && !strings.Contains(string(a.body), "root:b")
			if a.code != attacker.refusal && !ownQueue {
				t.Errorf("%s's list %d of root:b: %d %s; want %d, or 429 for its own flow", attacker.name, i, a.code, a.body, attacker.refusal)
				break
			}
		}
	}
}

// fillConfigMaps creates n ConfigMaps of 8 kB in the default namespace
// of cluster as system:masters, so that a list of them takes a while.
func fillConfigMaps(t *testing.T, server, pki, cluster string, n int) {
	t.Helper()
	client, err := adminClient(pki)
	if err != nil {
		t.Fatal(err)
	}
	work := make(chan int)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for i := range work {
				body := fmt.Sprintf(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm-%d"},"data":{"k":%q}}`, i, strings.Repeat("x", 8<<10))
				a, err := tryDo(client, server, request{method: http.MethodPost, path: "/clusters/" + cluster + "/api/v1/namespaces/default/configmaps", body: body})
				if err != nil || a.code != http.StatusCreated {
					t.Errorf("creating ConfigMap cm-%d in %s: %v %d %s", i, cluster, err, a.code, a.body)
				}
			}
		})
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
}
