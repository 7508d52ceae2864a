package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"

	"github.com/canopy-dev/canopy/internal/pgtest"
	tenancyv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/tenancy/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// TestReplicasKillUnderLoad runs three replicas of one hub on one
// PostgreSQL database behind the balancer. Three clients create, update
// and delete ConfigMaps and create LogicalClusters through the balancer,
// each write recorded with its answer, while the replica that owns the
// shard LogicalClusters in root are set up by is killed with SIGKILL and,
// a few seconds later, started again. Afterwards:
//
//   - each ConfigMap is in a state its writes' answers allow (possible):
//     acknowledged writes took effect, refused ones did not, and those
//     without an answer either did or did not, and no replica shows
//     anything else;
//   - every LogicalCluster whose create was acknowledged, or that exists
//     after a create without an answer, reaches Ready with its default
//     namespaces, and one whose create was refused does not exist;
//   - no controller work was done twice: each LogicalCluster was written
//     Ready once and never again, each default namespace created once and
//     never written again, and no replica's logical cluster controller
//     ran into another's write (a conflict or an AlreadyExists).
func TestReplicasKillUnderLoad(t *testing.T) {
	t.Parallel()
	datastore := pgtest.Shared(t).NewDatabase(t)
	r := startReplicas(t, 3, datastore)
	admin := r.kubectl()
	admin.must("create", "namespace", "load")

	// The replica that owns root's shard sets up the logical clusters
	// made in root: it is the one to kill. Another one is watched.
	victim, err := r.owner(0, logicalcluster.Root)
	if err != nil {
		t.Errorf("no replica owns the shard of root, so none has its controller work to take over; killing replica 3: %v", err)
		victim = 2
	}
	watched := (victim + 1) % len(r.hubs)
	t.Logf("replica %d will be killed; replica %d is watched", victim+1, watched+1)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	lcs := r.dynamic(watched, logicalcluster.Root).Resource(logicalClusters)
	lcVersions := recordVersions(ctx, t, lcs)
	nsVersions := recordVersions(ctx, t, r.dynamic(watched, "*").Resource(schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}))

	client, err := adminClient(filepath.Join(r.hubs[0].dataDir, "pki"))
	if err != nil {
		t.Fatal(err)
	}
	// A request's answer may wait on a commit under load; only the kill
	// should leave one without an answer.
	client.Timeout = time.Minute
	base := "https://" + r.lb.Addr() + "/clusters/root"
	load := &loadClients{client: client, base: base, stop: make(chan struct{})}
	var wg sync.WaitGroup
	for g := range 3 {
		wg.Go(func() { load.run(g) })
	}
	waitFor(t, time.Minute, "the clients made 300 writes before the kill", func() (bool, string) {
		return load.count() >= 300, fmt.Sprint(load.count())
	})
	r.kill(victim)
	killedLog := r.hubs[victim].log.String()
	t.Logf("killed replica %d after %d writes", victim+1, load.count())
	// The load goes on without the replica, past the time its shards
	// take to pass to the others, then with it back.
	time.Sleep(8 * time.Second)
	r.restart(victim)
	t.Logf("restarted replica %d after %d writes", victim+1, load.count())
	time.Sleep(6 * time.Second)
	close(load.stop)
	wg.Wait()

	writes := load.writes()
	byOutcome := map[writeOutcome]int{}
	for _, w := range writes {
		byOutcome[w.outcome()]++
	}
	t.Logf("%d writes: %d acknowledged, %d refused, %d without an answer", len(writes), byOutcome[acknowledged], byOutcome[refused], byOutcome[unknown])
	if byOutcome[acknowledged] == 0 {
		t.Fatalf("no write was acknowledged: %v", writes[:min(len(writes), 5)])
	}

	// Every replica shows the ConfigMaps in a state their writes allow,
	// and none besides.
	possible := map[string]map[string]bool{}
	for name, ws := range groupByName(writes, func(w loadWrite) bool { return w.kind != createLC }) {
		p, err := possibleStates(ws)
		if err != nil {
			t.Errorf("ConfigMap %s: %v; its writes: %v", name, err, ws)
		}
		possible[name] = p
	}
	for i := range r.hubs {
		waitFor(t, 30*time.Second, fmt.Sprintf("replica %d shows every ConfigMap in a state its writes allow", i+1), func() (bool, string) {
			states, err := configMapStates(r.dynamic(i, logicalcluster.Root))
			if err != nil {
				return false, err.Error()
			}
			var wrong []string
			for name, p := range possible {
				if !p[states[name]] {
					wrong = append(wrong, fmt.Sprintf("%s is %q, may be one of %v", name, states[name], slices.Sorted(maps.Keys(p))))
				}
			}
			for name := range states {
				if possible[name] == nil {
					wrong = append(wrong, fmt.Sprintf("%s exists, written by no one", name))
				}
			}
			slices.Sort(wrong)
			return len(wrong) == 0, strings.Join(wrong, "; ")
		})
	}

	// The LogicalClusters acknowledged, and those of unanswered creates
	// that exist, reach Ready; refused ones do not exist.
	want := map[string]bool{} // name: whether it must exist
	for _, w := range writes {
		if w.kind == createLC && w.outcome() != refused {
			want[w.name] = w.outcome() == acknowledged
		}
	}
	var ready []string
	waitFor(t, 3*time.Minute, "every LogicalCluster created is Ready", func() (bool, string) {
		list, err := lcs.List(context.Background(), metav1.ListOptions{})
		if err != nil {
			return false, err.Error()
		}
		var problems []string
		seen := map[string]bool{}
		ready = ready[:0]
		for _, lc := range list.Items {
			name := lc.GetName()
			if !strings.HasPrefix(name, "load-") {
				continue
			}
			seen[name] = true
			if _, ok := want[name]; !ok {
				problems = append(problems, name+" exists, though its create was refused or never sent")
				continue
			}
			if phase, _, _ := unstructured.NestedString(lc.Object, "status", "phase"); phase != string(tenancyv1alpha1.LogicalClusterReady) {
				problems = append(problems, fmt.Sprintf("%s is %q", name, phase))
				continue
			}
			ready = append(ready, name)
		}
		for name, must := range want {
			if must && !seen[name] {
				problems = append(problems, name+" is missing, though its create was acknowledged")
			}
		}
		slices.Sort(problems)
		return len(problems) == 0, strings.Join(problems, "; ")
	})
	t.Logf("%d LogicalClusters Ready", len(ready))

	// Let any write a second replica would make land, then count each
	// object's versions.
	time.Sleep(5 * time.Second)
	cancel()
	for _, name := range ready {
		vs := lcVersions.of("root//" + name)
		readyVersions := 0
		for _, v := range vs {
			if phase, _, _ := unstructured.NestedString(v.Object, "status", "phase"); phase == string(tenancyv1alpha1.LogicalClusterReady) {
				readyVersions++
			}
		}
		if readyVersions != 1 {
			t.Errorf("LogicalCluster %s was written Ready %d times, want once: versions %s", name, readyVersions, describeVersions(vs))
		}
		for _, ns := range []string{metav1.NamespaceDefault, metav1.NamespaceSystem, metav1.NamespacePublic} {
			if vs := nsVersions.of("root:" + name + "//" + ns); len(vs) != 1 {
				t.Errorf("namespace %s of root:%s was written %d times, want once: versions %s", ns, name, len(vs), describeVersions(vs))
			}
		}
	}
	logs := killedLog
	for i := range r.hubs {
		logs += r.hubs[i].log.String()
	}
	if twice := doneTwice(logs); len(twice) > 0 {
		t.Errorf("the logical cluster controllers of two replicas met each other's writes %d times, as in:\n%s", len(twice), strings.Join(twice[:min(len(twice), 5)], "\n"))
	}
}

var logicalClusters = tenancyv1alpha1.SchemeGroupVersion.WithResource("logicalclusters")

// dynamic is a dynamic client of the admin for the logical cluster at
// path on replica i.
func (r *replicas) dynamic(i int, path logicalcluster.Name) *dynamic.DynamicClient {
	r.t.Helper()
	cfg := r.hubs[i].admin(r.t).restConfig("root")
	cfg.Host = "https://" + r.hubs[i].addr() + "/clusters/" + path.String()
	c, err := dynamic.NewForConfig(cfg)
	if err != nil {
		r.t.Fatal(err)
	}
	return c
}

// writeKind is what a write of the load does.
type writeKind string

const (
	createCM writeKind = "create"
	updateCM writeKind = "update"
	deleteCM writeKind = "delete"
	createLC writeKind = "create LogicalCluster"
)

// loadWrite is one request of the load and its answer.
type loadWrite struct {
	kind writeKind
	name string
	// value is the write's own id, which a create or update puts in the
	// ConfigMap's data.op.
	value string
	// code is the answer's HTTP status; 0 when none came.
	code int
	err  string
}

func (w loadWrite) String() string {
	if w.code == 0 {
		return fmt.Sprintf("%s %s (%s): no answer: %s", w.kind, w.name, w.value, w.err)
	}
	return fmt.Sprintf("%s %s (%s): %d %s", w.kind, w.name, w.value, w.code, w.err)
}

// writeOutcome is what an answer says of a write.
type writeOutcome int

const (
	// acknowledged writes (2xx) took effect.
	acknowledged writeOutcome = iota
	// refused writes (4xx) did not.
	refused
	// unknown writes, without an answer or answered 5xx (a cut
	// connection, a timeout, a commit whose answer was lost), took
	// effect or did not, before the client's next request on the object
	// was answered.
	unknown
)

func (w loadWrite) outcome() writeOutcome {
	switch {
	case w.code >= 200 && w.code < 300:
		return acknowledged
	case w.code >= 400 && w.code < 500:
		return refused
	}
	return unknown
}

// loadClients are the clients of the load: each writes ConfigMaps of its
// own names, one request at a time, so each ConfigMap's writes are in the
// order they were made.
type loadClients struct {
	client *http.Client
	base   string
	stop   chan struct{}

	mu  sync.Mutex
	log []loadWrite
}

// loadNames is how many ConfigMaps each client writes, in turn, each going
// through create, update, update, delete, and round again.
const loadNames = 6

// run is client g's loop until stop: a LogicalCluster create every eighth
// write, ConfigMap writes otherwise.
func (l *loadClients) run(g int) {
	cycle := []writeKind{createCM, updateCM, updateCM, deleteCM}
	for i := 0; ; i++ {
		select {
		case <-l.stop:
			return
		default:
		}
		value := fmt.Sprintf("%d-%d", g, i)
		if i%8 == 7 {
			l.send(loadWrite{kind: createLC, name: "load-" + value, value: value})
			continue
		}
		n := i - i/8
		l.send(loadWrite{kind: cycle[(n/loadNames)%len(cycle)], name: fmt.Sprintf("cm-%d-%d", g, n%loadNames), value: value})
	}
}

func (l *loadClients) send(w loadWrite) {
	cms := l.base + "/api/v1/namespaces/load/configmaps"
	var method, url, body string
	switch w.kind {
	case createCM:
		method, url = http.MethodPost, cms
		body = fmt.Sprintf(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":%q},"data":{"op":%q}}`, w.name, w.value)
	case updateCM:
		method, url, body = http.MethodPatch, cms+"/"+w.name, fmt.Sprintf(`{"data":{"op":%q}}`, w.value)
	case deleteCM:
		method, url = http.MethodDelete, cms+"/"+w.name
	case createLC:
		method, url = http.MethodPost, l.base+"/apis/tenancy.canopy.dev/v1alpha1/logicalclusters"
		body = fmt.Sprintf(`{"apiVersion":"tenancy.canopy.dev/v1alpha1","kind":"LogicalCluster","metadata":{"name":%q}}`, w.name)
	}
	w.code, w.err = tryRequest(l.client, method, url, body)
	l.mu.Lock()
	l.log = append(l.log, w)
	l.mu.Unlock()
}

// tryRequest sends a request and returns the answer's status code, or 0 and
// the error when no answer came, and the Status message of a refusal.
func tryRequest(client *http.Client, method, url, body string) (int, string) {
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		return 0, err.Error()
	}
	req.Header.Set("Content-Type", "application/json")
	if method == http.MethodPatch {
		req.Header.Set("Content-Type", "application/merge-patch+json")
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		// The status came; the body did not, which changes nothing.
		return resp.StatusCode, err.Error()
	}
	if resp.StatusCode < 300 {
		return resp.StatusCode, ""
	}
	var status metav1.Status
	_ = json.Unmarshal(raw, &status)
	return resp.StatusCode, status.Message
}

func (l *loadClients) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.log)
}

func (l *loadClients) writes() []loadWrite {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.log)
}

// groupByName is the writes keep selects, by the name they write, each
// name's in the order they were made.
func groupByName(writes []loadWrite, keep func(loadWrite) bool) map[string][]loadWrite {
	by := map[string][]loadWrite{}
	for _, w := range writes {
		if keep(w) {
			by[w.name] = append(by[w.name], w)
		}
	}
	return by
}

// possibleStates replays the writes of one ConfigMap, made one after the
// other, and returns the states it may be in afterwards: "" for absent,
// otherwise the value of the write whose content it holds. An
// acknowledged write leaves one state; a refused one none new; one
// without an answer both the states before it and those it would make.
// An answer that no possible state explains (an acknowledged create of
// an object that must exist, a 404 for one an acknowledged write made)
// is a write lost or applied twice, and an error.
func possibleStates(writes []loadWrite) (map[string]bool, error) {
	states := map[string]bool{"": true}
	only := func(keep func(string) bool) map[string]bool {
		kept := map[string]bool{}
		for s := range states {
			if keep(s) {
				kept[s] = true
			}
		}
		return kept
	}
	absent := func(s string) bool { return s == "" }
	present := func(s string) bool { return s != "" }
	for _, w := range writes {
		var needs func(string) bool
		switch w.outcome() {
		case acknowledged:
			needs = present
			if w.kind == createCM {
				needs = absent
			}
			if len(only(needs)) == 0 {
				return nil, fmt.Errorf("%v, though the writes before it leave %v", w, slices.Sorted(maps.Keys(states)))
			}
			states = map[string]bool{w.value: true}
			if w.kind == deleteCM {
				states = map[string]bool{"": true}
			}
		case refused:
			switch {
			case w.kind == createCM && w.code == http.StatusConflict:
				needs = present
			case w.kind != createCM && w.code == http.StatusNotFound:
				needs = absent
			default:
				continue
			}
			if states = only(needs); len(states) == 0 {
				return nil, fmt.Errorf("%v, though the writes before it leave no such state", w)
			}
		case unknown:
			switch {
			case w.kind == createCM && states[""]:
				states[w.value] = true
			case w.kind == updateCM && len(only(present)) > 0:
				states[w.value] = true
			case w.kind == deleteCM && len(only(present)) > 0:
				states[""] = true
			}
		}
	}
	return states, nil
}

// configMapStates lists namespace load's ConfigMaps through c and returns
// each one's data.op.
func configMapStates(c *dynamic.DynamicClient) (map[string]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	list, err := c.Resource(schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}).Namespace("load").List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	states := map[string]string{}
	for _, cm := range list.Items {
		// The root CA published in every namespace is no load's write.
		if cm.GetName() == "kube-root-ca.crt" {
			continue
		}
		op, _, _ := unstructured.NestedString(cm.Object, "data", "op")
		states[cm.GetName()] = op
	}
	return states, nil
}

// versions are the versions of objects a watch saw, by
// cluster/namespace/name, the cluster only for a wildcard watch.
type versions struct {
	mu    sync.Mutex
	byKey map[string][]*unstructured.Unstructured
}

// recordVersions lists ri, then watches it from the list on until ctx
// ends, and records every version of every object, the listed ones
// included; it watches again from the last version seen when a watch
// ends, and fails the test if versions were lost.
func recordVersions(ctx context.Context, t *testing.T, ri dynamic.ResourceInterface) *versions {
	t.Helper()
	v := &versions{byKey: map[string][]*unstructured.Unstructured{}}
	list, err := ri.List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range list.Items {
		v.add(&list.Items[i])
	}
	rv := list.GetResourceVersion()
	go func() {
		for ctx.Err() == nil {
			w, err := ri.Watch(ctx, metav1.ListOptions{ResourceVersion: rv, AllowWatchBookmarks: true})
			if err != nil {
				if ctx.Err() == nil {
					t.Errorf("watching from %s: %v", rv, err)
				}
				return
			}
			for ev := range w.ResultChan() {
				switch ev.Type {
				case watch.Error:
					if ctx.Err() != nil {
						return
					}
					t.Errorf("the watch from %s ended with %v: versions are lost", rv, ev.Object)
					w.Stop()
					return
				case watch.Bookmark:
				case watch.Added, watch.Modified:
					v.add(ev.Object.(*unstructured.Unstructured))
				}
				if o, ok := ev.Object.(*unstructured.Unstructured); ok {
					rv = o.GetResourceVersion()
				}
			}
		}
	}()
	return v
}

func (v *versions) add(o *unstructured.Unstructured) {
	key := o.GetAnnotations()[logicalcluster.Annotation] + "/" + o.GetNamespace() + "/" + o.GetName()
	v.mu.Lock()
	defer v.mu.Unlock()
	if vs := v.byKey[key]; len(vs) > 0 && vs[len(vs)-1].GetResourceVersion() == o.GetResourceVersion() {
		return
	}
	v.byKey[key] = append(v.byKey[key], o)
}

// of is the versions of the object of key, cluster/namespace/name.
func (v *versions) of(key string) []*unstructured.Unstructured {
	v.mu.Lock()
	defer v.mu.Unlock()
	return slices.Clone(v.byKey[key])
}

// describeVersions is each version's resourceVersion and status.phase.
func describeVersions(vs []*unstructured.Unstructured) string {
	var out []string
	for _, v := range vs {
		phase, _, _ := unstructured.NestedString(v.Object, "status", "phase")
		out = append(out, v.GetResourceVersion()+":"+phase)
	}
	return "[" + strings.Join(out, " ") + "]"
}

// doneTwice is the lines of logs where a logical cluster controller
// failed on another's write: a conflict on a LogicalCluster it was
// setting up, or an object it meant to create being there already.
func doneTwice(logs string) []string {
	var lines []string
	for line := range strings.SplitSeq(logs, "\n") {
		if strings.Contains(line, "Work failed") && strings.Contains(line, `loop="logicalclusters"`) &&
			(strings.Contains(line, "has been modified") || strings.Contains(line, "already exists")) {
			lines = append(lines, line)
		}
	}
	return lines
}
