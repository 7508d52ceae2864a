package sqlstorage

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/apiserver/pkg/apis/example"
	"k8s.io/apiserver/pkg/storage"

	"github.com/canopy-dev/canopy/internal/pgtest"
)

// These tests check the ordering guarantees that watchers depend on:
// revisions are global, dense and assigned in commit order, and every
// watcher sees every acknowledged write exactly once, in revision order,
// whichever process made it and wherever the watch resumes from.

// ordDeliveryTimeout bounds every wait for a watcher to catch up.
const ordDeliveryTimeout = 20 * time.Second

// ordOpLabel names the label that identifies the write that produced an object
// version, so that an event can be matched to the exact write behind it.
const ordOpLabel = "op"

// ordWrite is one write the store acknowledged.
type ordWrite struct {
	rv  int64
	typ watch.EventType
	key string // namespace/name
	// label is the ordOpLabel of the object the write's event must carry: the
	// new version for ADDED and MODIFIED, the deleted version for DELETED
	// (for a deletion it is what Delete returned; the log replay checks it).
	label string
	at    time.Time // when the write call returned
	via   int       // which backend took the write
}

// ordWriteLog collects acknowledged writes from concurrent writers.
type ordWriteLog struct {
	mu     sync.Mutex
	writes []ordWrite
}

func (l *ordWriteLog) add(w ordWrite) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.writes = append(l.writes, w)
}

// sorted returns the writes in revision order.
func (l *ordWriteLog) sorted() []ordWrite {
	l.mu.Lock()
	defer l.mu.Unlock()
	ws := slices.Clone(l.writes)
	slices.SortFunc(ws, func(a, b ordWrite) int { return int(a.rv - b.rv) })
	return ws
}

func ordPodKey(ns, name string) string { return "/pods/" + ns + "/" + name }

// ordRV reads the resourceVersion of a pod.
func ordRV(obj runtime.Object) (int64, error) {
	pod, ok := obj.(*example.Pod)
	if !ok {
		return 0, fmt.Errorf("got a %T, want an *example.Pod", obj)
	}
	rv, err := strconv.ParseInt(pod.ResourceVersion, 10, 64)
	if err != nil || rv <= 0 {
		return 0, fmt.Errorf("object %s/%s has resourceVersion %q, want a positive integer", pod.Namespace, pod.Name, pod.ResourceVersion)
	}
	return rv, nil
}

func ordParseRV(t testing.TB, obj runtime.Object) int64 {
	t.Helper()
	rv, err := ordRV(obj)
	if err != nil {
		t.Fatal(err)
	}
	return rv
}

// ordRandomWrite makes a create (40%), an update (35%) or a delete (25%).
func ordRandomWrite(ctx context.Context, t testing.TB, s *Store, rng *rand.Rand, ns, name, id string) (ordWrite, bool) {
	switch n := rng.IntN(100); {
	case n < 40:
		return ordWriteOnce(ctx, t, s, watch.Added, ns, name, id)
	case n < 75:
		return ordWriteOnce(ctx, t, s, watch.Modified, ns, name, id)
	default:
		return ordWriteOnce(ctx, t, s, watch.Deleted, ns, name, id)
	}
}

// ordWriteOnce makes one create (typ ADDED), update (MODIFIED) or delete
// (DELETED) of ns/name, labelled id, and returns the write when the store
// acknowledged it. A create of an existing key, or an update or delete of
// a missing one, is a legitimate refusal; any other failure fails the test.
// It may run on any goroutine.
func ordWriteOnce(ctx context.Context, t testing.TB, s *Store, typ watch.EventType, ns, name, id string) (ordWrite, bool) {
	key := ordPodKey(ns, name)
	w := ordWrite{typ: typ, key: ns + "/" + name, label: id}
	out := &example.Pod{}
	var err error
	switch typ {
	case watch.Added:
		obj := &example.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: map[string]string{ordOpLabel: id}}}
		err = s.Create(ctx, key, obj, out, 0)
		if storage.IsExist(err) {
			return w, false
		}
	case watch.Modified:
		err = s.GuaranteedUpdate(ctx, key, out, false, nil, func(input runtime.Object, _ storage.ResponseMeta) (runtime.Object, *uint64, error) {
			pod := input.(*example.Pod).DeepCopy()
			// Always a change: a no-op update would write nothing.
			pod.Labels = map[string]string{ordOpLabel: id}
			return pod, nil, nil
		}, nil)
		if storage.IsNotFound(err) {
			return w, false
		}
	case watch.Deleted:
		err = s.Delete(ctx, key, out, nil, storage.ValidateAllObjectFunc, nil, storage.DeleteOptions{})
		if storage.IsNotFound(err) {
			return w, false
		}
		w.label = out.Labels[ordOpLabel]
	default:
		t.Errorf("unknown write type %s", typ)
		return w, false
	}
	w.at = time.Now()
	if err != nil {
		t.Errorf("%s of %s failed: %v", w.typ, key, err)
		return w, false
	}
	if out.Namespace != ns || out.Name != name {
		t.Errorf("%s of %s returned object %s/%s", w.typ, key, out.Namespace, out.Name)
	}
	if w.typ != watch.Deleted && out.Labels[ordOpLabel] != id {
		t.Errorf("%s of %s returned label %q, want %q", w.typ, key, out.Labels[ordOpLabel], id)
	}
	if w.rv, err = ordRV(out); err != nil {
		t.Errorf("%s of %s: %v", w.typ, key, err)
		return w, false
	}
	return w, true
}

// ordRunWriters runs writers goroutines that together make total random
// writes over keys keys spread across 4 namespaces; writer i writes
// through stores[i%len(stores)]. It returns once all are done.
func ordRunWriters(t *testing.T, stores []*Store, writers, total, keys int, log *ordWriteLog) {
	t.Helper()
	seed := uint64(time.Now().UnixNano())
	t.Logf("writer seed %d", seed)
	const limit = 60 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	var next atomic.Int64
	var wg sync.WaitGroup
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			via := i % len(stores)
			rng := rand.New(rand.NewPCG(seed, uint64(i)))
			for {
				n := next.Add(1)
				if n > int64(total) || ctx.Err() != nil {
					return
				}
				k := rng.IntN(keys)
				ns, name := fmt.Sprintf("ns-%d", k%4), fmt.Sprintf("pod-%02d", k)
				if w, ok := ordRandomWrite(ctx, t, stores[via], rng, ns, name, fmt.Sprintf("w%d-%d", i, n)); ok {
					w.via = via
					log.add(w)
				}
			}
		}()
	}
	wg.Wait()
	if ctx.Err() != nil {
		t.Fatalf("the writers did not finish %d writes within %v", total, limit)
	}
}

// ordKeyState is what the write log implies about one key.
type ordKeyState struct {
	label string
	rv    int64
}

// ordCheckWriteLog checks that the acknowledged writes, in revision order,
// are exactly the revisions (startRV, endRV] with no gap or duplicate, and
// that they form a valid history: no create of an existing key, no update
// or delete of a missing one, every delete returning the version it
// deleted. It returns the state the log ends in.
func ordCheckWriteLog(t *testing.T, writes []ordWrite, startRV, endRV int64) map[string]ordKeyState {
	t.Helper()
	if want := endRV - startRV; int64(len(writes)) != want {
		t.Errorf("%d writes were acknowledged, but the revision went from %d to %d (%d revisions): want one revision per write",
			len(writes), startRV, endRV, want)
	}
	state := map[string]ordKeyState{}
	for i, w := range writes {
		if want := startRV + 1 + int64(i); w.rv != want {
			t.Fatalf("acknowledged write #%d (%s %s) has revision %d, want %d: revisions in (%d, %d] must be dense and unique",
				i, w.typ, w.key, w.rv, want, startRV, endRV)
		}
		cur, exists := state[w.key]
		switch w.typ {
		case watch.Added:
			if exists {
				t.Fatalf("create of %s acknowledged at revision %d while it existed since revision %d", w.key, w.rv, cur.rv)
			}
			state[w.key] = ordKeyState{w.label, w.rv}
		case watch.Modified:
			if !exists {
				t.Fatalf("update of %s acknowledged at revision %d while it did not exist", w.key, w.rv)
			}
			state[w.key] = ordKeyState{w.label, w.rv}
		case watch.Deleted:
			if !exists {
				t.Fatalf("delete of %s acknowledged at revision %d while it did not exist", w.key, w.rv)
			}
			if w.label != cur.label {
				t.Fatalf("delete of %s at revision %d returned the version labelled %q, want the one written at revision %d, labelled %q",
					w.key, w.rv, w.label, cur.rv, cur.label)
			}
			delete(state, w.key)
		}
	}
	if len(writes) > 0 && writes[len(writes)-1].rv != endRV {
		t.Fatalf("the last acknowledged write has revision %d, want the current revision %d", writes[len(writes)-1].rv, endRV)
	}
	return state
}

// ordCheckFinalList checks that a list of everything matches the state the
// write log implies, at revision endRV.
func ordCheckFinalList(t *testing.T, s *Store, state map[string]ordKeyState, endRV int64) {
	t.Helper()
	list := &example.PodList{}
	if err := s.GetList(context.Background(), "/pods/", storage.ListOptions{Recursive: true, Predicate: storage.Everything}, list); err != nil {
		t.Fatalf("listing /pods/: %v", err)
	}
	if list.ResourceVersion != strconv.FormatInt(endRV, 10) {
		t.Errorf("list has resourceVersion %q, want %d", list.ResourceVersion, endRV)
	}
	got := map[string]ordKeyState{}
	for i := range list.Items {
		pod := &list.Items[i]
		got[pod.Namespace+"/"+pod.Name] = ordKeyState{pod.Labels[ordOpLabel], ordParseRV(t, pod)}
	}
	for key, want := range state {
		if g, ok := got[key]; !ok {
			t.Errorf("list lacks %s, which the write log leaves at revision %d", key, want.rv)
		} else if g != want {
			t.Errorf("list has %s at revision %d labelled %q, want revision %d labelled %q", key, g.rv, g.label, want.rv, want.label)
		}
	}
	for key, g := range got {
		if _, ok := state[key]; !ok {
			t.Errorf("list has %s at revision %d, which the write log leaves deleted or never created", key, g.rv)
		}
	}
}

// ordEvent is one event as a watcher received it.
type ordEvent struct {
	rv    int64
	typ   watch.EventType
	key   string
	label string
	at    time.Time
}

// ordEventLog collects the events of one watch until a given revision.
type ordEventLog struct {
	name   string
	w      watch.Interface
	stopAt chan int64
	done   chan struct{}
	// timedOut is set when the waiter gave up and stopped the watch.
	timedOut atomic.Bool
	// Valid once done is closed.
	events []ordEvent
	err    error
}

// ordCollect starts reading w. Call ordWaitAll to get what it read.
func ordCollect(name string, w watch.Interface) *ordEventLog {
	return ordCollectAfter(name, w, nil)
}

// ordCollectAfter is ordCollect for a lazy reader: it reads nothing before
// gate is closed, so that the watch falls behind.
func ordCollectAfter(name string, w watch.Interface, gate <-chan struct{}) *ordEventLog {
	l := &ordEventLog{name: name, w: w, stopAt: make(chan int64, 1), done: make(chan struct{})}
	go func() {
		defer close(l.done)
		defer w.Stop()
		if gate != nil {
			<-gate
		}
		stopAt, stopCh := int64(math.MaxInt64), l.stopAt
		var last int64
		for last < stopAt {
			select {
			case rev := <-stopCh:
				stopAt, stopCh = rev, nil
			case ev, ok := <-w.ResultChan():
				if !ok {
					if !l.timedOut.Load() {
						l.err = fmt.Errorf("the result channel closed after %d events, the last at revision %d", len(l.events), last)
					}
					return
				}
				if ev.Type == watch.Error {
					l.err = fmt.Errorf("error event after %d events: %v", len(l.events), apierrors.FromObject(ev.Object))
					return
				}
				pod, ok := ev.Object.(*example.Pod)
				if !ok {
					l.err = fmt.Errorf("%s event carries a %T, want an *example.Pod", ev.Type, ev.Object)
					return
				}
				rv, err := strconv.ParseInt(pod.ResourceVersion, 10, 64)
				if err != nil {
					l.err = fmt.Errorf("%s event for %s/%s has resourceVersion %q", ev.Type, pod.Namespace, pod.Name, pod.ResourceVersion)
					return
				}
				e := ordEvent{rv, ev.Type, pod.Namespace + "/" + pod.Name, pod.Labels[ordOpLabel], time.Now()}
				if rv <= last {
					// Stop at once: a watch that repeats itself may never end.
					l.err = fmt.Errorf("event #%d, %s %s, has revision %d after revision %d: want strictly increasing revisions",
						len(l.events), e.typ, e.key, rv, last)
					return
				}
				l.events = append(l.events, e)
				last = rv
			}
		}
	}()
	return l
}

// ordWaitAll waits, within one ordDeliveryTimeout for all, until every
// watch has delivered its events up to and including revision until, and
// returns what each delivered. A watch that breaks or falls short fails
// the test; what it did deliver is still returned, so that comparing it
// with what was expected shows where it went wrong.
func ordWaitAll(t *testing.T, logs []*ordEventLog, until int64) [][]ordEvent {
	t.Helper()
	for _, l := range logs {
		l.stopAt <- until
	}
	timer := time.NewTimer(ordDeliveryTimeout)
	defer timer.Stop()
	got := make([][]ordEvent, len(logs))
	for i, l := range logs {
		select {
		case <-l.done:
		case <-timer.C:
			for _, l := range logs[i:] {
				l.timedOut.Store(true)
				l.w.Stop() // closes the result channel, which ends the reader
			}
			<-l.done
		}
		got[i] = l.events
		switch {
		case l.err != nil:
			t.Errorf("watcher %s: %v", l.name, l.err)
		case len(l.events) == 0 || l.events[len(l.events)-1].rv < until:
			last := int64(0)
			if n := len(l.events); n > 0 {
				last = l.events[n-1].rv
			}
			t.Errorf("watcher %s: got %d events up to revision %d within %v, want every event up to revision %d",
				l.name, len(l.events), last, ordDeliveryTimeout, until)
		}
	}
	return got
}

// ordCheckEvents checks that got is exactly want: the same writes, each once,
// in strictly increasing revision order, with the right type and object.
func ordCheckEvents(t *testing.T, name string, got []ordEvent, want []ordWrite) {
	t.Helper()
	errs := 0
	report := func(format string, args ...any) {
		t.Helper()
		if errs++; errs <= 10 {
			t.Errorf("watcher %s: "+format, append([]any{name}, args...)...)
		}
	}
	for i := 1; i < len(got); i++ {
		if got[i].rv <= got[i-1].rv {
			report("event #%d has revision %d after revision %d: want strictly increasing revisions", i, got[i].rv, got[i-1].rv)
		}
	}
	// Match the two by revision, so that one missing event reads as one.
	for i, j := 0, 0; i < len(got) || j < len(want); {
		switch {
		case j >= len(want) || (i < len(got) && got[i].rv < want[j].rv):
			report("unexpected event #%d: %s %s at revision %d labelled %q, not among the expected writes",
				i, got[i].typ, got[i].key, got[i].rv, got[i].label)
			i++
		case i >= len(got) || want[j].rv < got[i].rv:
			report("missing the event of revision %d: %s %s labelled %q (%d events received, %d expected)",
				want[j].rv, want[j].typ, want[j].key, want[j].label, len(got), len(want))
			j++
		default:
			if g, w := got[i], want[j]; g.typ != w.typ || g.key != w.key || g.label != w.label {
				report("event #%d is %s %s at revision %d labelled %q, want %s %s labelled %q",
					i, g.typ, g.key, g.rv, g.label, w.typ, w.key, w.label)
			}
			i++
			j++
		}
	}
	if errs > 10 {
		t.Errorf("watcher %s: %d more problems not shown", name, errs-10)
	}
}

func ordCurrentRV(t *testing.T, s *Store) int64 {
	t.Helper()
	rv, err := s.GetCurrentResourceVersion(context.Background())
	if err != nil {
		t.Fatalf("reading the current resourceVersion: %v", err)
	}
	return int64(rv)
}

func ordWatchFrom(t *testing.T, s *Store, rv int64) watch.Interface {
	t.Helper()
	w, err := s.Watch(context.Background(), "/pods/", storage.ListOptions{
		ResourceVersion: strconv.FormatInt(rv, 10), Recursive: true, Predicate: storage.Everything,
	})
	if err != nil {
		t.Fatalf("watching /pods/ from revision %d: %v", rv, err)
	}
	t.Cleanup(w.Stop)
	return w
}

func TestOrderingUnderConcurrency(t *testing.T) {
	const watchers, writers, keys = 4, 16, 40
	eachDatastore(t, func(t *testing.T, url string) {
		total := 3000
		if strings.HasPrefix(url, "sqlite:") {
			total = 1500
		}
		s := newPodStore(openBackend(t, url))
		startRV := ordCurrentRV(t, s)
		// The last watcher reads nothing until the writers are done, so
		// that its watch falls behind and has to catch up.
		gate := make(chan struct{})
		openGate := sync.OnceFunc(func() { close(gate) })
		t.Cleanup(openGate)
		logs := make([]*ordEventLog, watchers)
		for i := range logs[:watchers-1] {
			logs[i] = ordCollect(fmt.Sprintf("#%d", i), ordWatchFrom(t, s, startRV))
		}
		logs[watchers-1] = ordCollectAfter(fmt.Sprintf("#%d (lazy)", watchers-1), ordWatchFrom(t, s, startRV), gate)

		began := time.Now()
		var log ordWriteLog
		ordRunWriters(t, []*Store{s}, writers, total, keys, &log)
		wrote := time.Since(began)
		openGate()
		endRV := ordCurrentRV(t, s)
		writes := log.sorted()
		state := ordCheckWriteLog(t, writes, startRV, endRV)
		counts := map[watch.EventType]int{}
		for _, w := range writes {
			counts[w.typ]++
		}
		t.Logf("%d operations: %d acknowledged writes (%d creates, %d updates, %d deletes), revisions (%d, %d], in %v",
			total, len(writes), counts[watch.Added], counts[watch.Modified], counts[watch.Deleted], startRV, endRV, wrote)
		if counts[watch.Added] == 0 || counts[watch.Modified] == 0 || counts[watch.Deleted] == 0 {
			t.Fatalf("want a mix of creates, updates and deletes, got %v", counts)
		}

		for i, got := range ordWaitAll(t, logs, endRV) {
			ordCheckEvents(t, logs[i].name, got, writes)
		}
		t.Logf("every watcher caught up %v after the last write", time.Since(began)-wrote)
		ordCheckFinalList(t, s, state, endRV)
	})
}

func TestTwoProcessesOnePostgres(t *testing.T) {
	const writers, total, keys = 8, 2000, 40
	url := pgtest.Shared(t).NewDatabase(t)
	// Two backends on one database are two hub processes: each has its own
	// pool, writer, poller and history.
	stores := []*Store{newPodStore(openBackend(t, url)), newPodStore(openBackend(t, url))}
	startRV := ordCurrentRV(t, stores[0])
	if rv := ordCurrentRV(t, stores[1]); rv != startRV {
		t.Fatalf("the two backends see revisions %d and %d, want the same", startRV, rv)
	}
	logs := []*ordEventLog{
		ordCollect("on backend 0", ordWatchFrom(t, stores[0], startRV)),
		ordCollect("on backend 1", ordWatchFrom(t, stores[1], startRV)),
	}

	began := time.Now()
	var log ordWriteLog
	ordRunWriters(t, stores, writers, total, keys, &log)
	t.Logf("%d operations through two backends in %v", total, time.Since(began))
	endRV := ordCurrentRV(t, stores[0])
	writes := log.sorted()
	state := ordCheckWriteLog(t, writes, startRV, endRV)
	perBackend := [2]int{}
	for _, w := range writes {
		perBackend[w.via]++
	}
	if perBackend[0] == 0 || perBackend[1] == 0 {
		t.Fatalf("acknowledged writes per backend: %v; want writes through both", perBackend)
	}
	t.Logf("%d acknowledged writes, %d through backend 0 and %d through backend 1, revisions (%d, %d]",
		len(writes), perBackend[0], perBackend[1], startRV, endRV)

	byRV := map[int64]ordWrite{}
	for _, w := range writes {
		byRV[w.rv] = w
	}
	for i, got := range ordWaitAll(t, logs, endRV) {
		l := logs[i]
		ordCheckEvents(t, l.name, got, writes)
		// Delivery delay, acknowledgement to receipt, for the writes of each
		// backend. Informational: timing targets belong in benchmarks.
		var local, remote []time.Duration
		for _, e := range got {
			w, ok := byRV[e.rv]
			if !ok {
				continue
			}
			// The watcher may receive an event before the writer's call has
			// returned; that counts as no delay.
			d := max(0, e.at.Sub(w.at))
			if w.via == i {
				local = append(local, d)
			} else {
				remote = append(remote, d)
			}
		}
		t.Logf("watcher %s: delay from acknowledgement to receipt: writes through the other backend %s; through its own %s",
			l.name, ordPercentiles(remote), ordPercentiles(local))
	}
	for _, s := range stores {
		ordCheckFinalList(t, s, state, endRV)
	}
}

func ordPercentiles(ds []time.Duration) string {
	if len(ds) == 0 {
		return "n=0"
	}
	slices.Sort(ds)
	at := func(q float64) time.Duration { return ds[int(q*float64(len(ds)-1))].Round(10 * time.Microsecond) }
	return fmt.Sprintf("n=%d p50=%v p99=%v max=%v", len(ds), at(0.5), at(0.99), ds[len(ds)-1].Round(10*time.Microsecond))
}

// ordWaitPolled waits until b's poller has brought its history up to rev.
func ordWaitPolled(t *testing.T, b *Backend, rev int64) {
	t.Helper()
	timer := time.NewTimer(ordDeliveryTimeout)
	defer timer.Stop()
	for {
		_, _, changed, _ := b.eventsAfter(rev, 0)
		if b.lastSeen() >= rev {
			return
		}
		select {
		case <-changed:
		case <-timer.C:
			t.Fatalf("the poller reached revision %d within %v, want %d", b.lastSeen(), ordDeliveryTimeout, rev)
		}
	}
}

// ordExpectExpired checks that w ends with a 410 Gone error event and nothing else.
func ordExpectExpired(t *testing.T, w watch.Interface, what string) {
	t.Helper()
	timer := time.NewTimer(ordDeliveryTimeout)
	defer timer.Stop()
	select {
	case ev, ok := <-w.ResultChan():
		if !ok {
			t.Fatalf("watch %s: the result channel closed without an event, want an ERROR event with code 410", what)
		}
		if ev.Type != watch.Error {
			t.Fatalf("watch %s: got a %s event (%v), want an ERROR event with code 410", what, ev.Type, ev.Object)
		}
		status, ok := ev.Object.(*metav1.Status)
		if !ok {
			t.Fatalf("watch %s: the ERROR event carries a %T, want a *metav1.Status", what, ev.Object)
		}
		if status.Code != http.StatusGone || status.Reason != metav1.StatusReasonExpired || !apierrors.IsResourceExpired(apierrors.FromObject(status)) {
			t.Fatalf("watch %s: the ERROR event has code %d reason %q (%s), want code 410 reason %q",
				what, status.Code, status.Reason, status.Message, metav1.StatusReasonExpired)
		}
	case <-timer.C:
		t.Fatalf("watch %s: no event within %v, want an ERROR event with code 410", what, ordDeliveryTimeout)
	}
	select {
	case ev, ok := <-w.ResultChan():
		if ok {
			t.Fatalf("watch %s: got a %s event after the ERROR event, want the result channel closed", what, ev.Type)
		}
	case <-timer.C:
		t.Fatalf("watch %s: the result channel stayed open after the ERROR event", what)
	}
}

// ordAfter returns the writes with a revision above rev.
func ordAfter(writes []ordWrite, rev int64) []ordWrite {
	i, _ := slices.BinarySearchFunc(writes, rev+1, func(w ordWrite, rv int64) int { return int(w.rv - rv) })
	return writes[i:]
}

func TestWatchResumesFromAnyRevision(t *testing.T) {
	// Enough operations that a watch from the start needs more than one
	// batch read from the database before it reaches the in-memory history.
	const writers, total, keys = 8, 3000, 20
	eachDatastore(t, func(t *testing.T, url string) {
		opts := testOptions
		opts.HistoryEvents = 50
		b, err := Open(context.Background(), url, opts)
		if err != nil {
			t.Fatalf("opening %s: %v", url, err)
		}
		t.Cleanup(func() { _ = b.Close() })
		s := newPodStore(b)

		startRV := ordCurrentRV(t, s)
		var log ordWriteLog
		ordRunWriters(t, []*Store{s}, writers, total, keys, &log)
		endRV := ordCurrentRV(t, s)
		writes := log.sorted()
		ordCheckWriteLog(t, writes, startRV, endRV)
		if endRV-startRV <= readBatch {
			t.Fatalf("only %d writes were acknowledged; want more than %d, so that resuming from the start takes several reads from the database",
				endRV-startRV, readBatch)
		}
		ordWaitPolled(t, b, endRV)

		resumeFrom := []int64{startRV, startRV + 1, startRV + 37, (startRV + endRV) / 2, endRV - 120, endRV - 30, endRV - 1, endRV}
		var fromDB, fromMemory int
		logs := make([]*ordEventLog, len(resumeFrom))
		for i, rv := range resumeFrom {
			_, _, _, inMemory := b.eventsAfter(rv, 0)
			if inMemory {
				fromMemory++
			} else {
				fromDB++
			}
			logs[i] = ordCollect(fmt.Sprintf("from revision %d (in memory: %v)", rv, inMemory), ordWatchFrom(t, s, rv))
		}
		t.Logf("%d acknowledged writes, revisions (%d, %d]; %d resume points older than the in-memory history, %d within it",
			endRV-startRV, startRV, endRV, fromDB, fromMemory)
		if fromDB == 0 || fromMemory == 0 {
			t.Fatalf("%d resume points are older than the in-memory history and %d within it; want some of each", fromDB, fromMemory)
		}

		// One more write ends every watch's expected stream, so that even the
		// watch from the current revision has something to wait for.
		sentinel, ok := ordWriteOnce(context.Background(), t, s, watch.Added, "sentinel", "pod", "sentinel")
		if !ok || sentinel.typ != watch.Added || sentinel.rv != endRV+1 {
			t.Fatalf("the sentinel write was %s at revision %d (acknowledged: %v), want a create at revision %d",
				sentinel.typ, sentinel.rv, ok, endRV+1)
		}
		writes = append(writes, sentinel)
		for i, got := range ordWaitAll(t, logs, sentinel.rv) {
			ordCheckEvents(t, logs[i].name, got, ordAfter(writes, resumeFrom[i]))
		}

		// A second process, opened before the compaction, that never polls:
		// it cannot know of the compaction from memory, so its watches read
		// the database and must detect the compaction there.
		otherOpts := testOptions
		otherOpts.PollInterval, otherOpts.ProgressInterval = time.Hour, time.Hour
		otherBackend, err := Open(context.Background(), url, otherOpts)
		if err != nil {
			t.Fatalf("opening a second backend on %s: %v", url, err)
		}
		t.Cleanup(func() { _ = otherBackend.Close() })
		other := newPodStore(otherBackend)

		// First a compaction to a revision older than this process's
		// in-memory history, then one to a revision within it, whose events
		// this process still holds but must not serve from below it.
		for _, compaction := range []struct {
			rv       int64
			inMemory bool
		}{{(startRV + endRV) / 2, false}, {endRV - 10, true}} {
			compactRV := compaction.rv
			if err := b.Compact(context.Background(), compactRV); err != nil {
				t.Fatalf("compacting to revision %d: %v", compactRV, err)
			}
			if got := s.CompactRevision(); got != compactRV {
				t.Fatalf("CompactRevision is %d after compacting to %d", got, compactRV)
			}
			_, _, _, inMemory := b.eventsAfter(compactRV-1, 0)
			if inMemory != compaction.inMemory {
				t.Fatalf("revision %d is in the in-memory history: %v, want %v", compactRV-1, inMemory, compaction.inMemory)
			}
			for _, st := range []struct {
				name string
				s    *Store
			}{{fmt.Sprintf("this process (in memory: %v)", inMemory), s}, {"the other process", other}} {
				for _, rv := range []int64{startRV, compactRV - 1} {
					ordExpectExpired(t, ordWatchFrom(t, st.s, rv), fmt.Sprintf("on %s from revision %d, below the compacted %d", st.name, rv, compactRV))
				}
				for _, rv := range []int64{compactRV, compactRV + 1} {
					l := ordCollect(fmt.Sprintf("on %s from revision %d, at or after the compacted %d", st.name, rv, compactRV), ordWatchFrom(t, st.s, rv))
					ordCheckEvents(t, l.name, ordWaitAll(t, []*ordEventLog{l}, sentinel.rv)[0], ordAfter(writes, rv))
				}
			}
		}
	})
}

// TestOwnCommitsAroundAnotherProcess: the writes of one batch that failed
// and was retried one write at a time commit in separate transactions, so
// another process's write can fall between them. Handing them to this
// process's watchers as they are would leave that write out of the history
// for good; only the run that follows the history goes in, and the poller
// fills in the rest.
func TestOwnCommitsAroundAnotherProcess(t *testing.T) {
	ctx := context.Background()
	url := "sqlite://" + filepath.Join(t.TempDir(), "canopy.db")
	opts := testOptions
	// Only a kick polls, so nothing but the code under test fills history.
	opts.PollInterval, opts.ProgressInterval = time.Hour, time.Hour
	b, err := Open(ctx, url, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	other := newPodStore(openBackend(t, url))

	start := b.lastSeen()
	for i := range 3 {
		pod := &example.Pod{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("pod-%d", i), Namespace: "ns"}}
		if err := other.Create(ctx, "/pods/ns/"+pod.Name, pod, &example.Pod{}, 0); err != nil {
			t.Fatal(err)
		}
	}
	evs, err := b.readEvents(ctx, start, 0, 10)
	if err != nil || len(evs) != 3 {
		t.Fatalf("read %d events after revision %d (%v), want 3", len(evs), start, err)
	}
	// This process's writes at start+1 and start+3, the other's at start+2.
	b.appendCommitted([]event{evs[0], evs[2]})

	deadline := time.Now().Add(10 * time.Second)
	for b.lastSeen() < start+3 {
		if time.Now().After(deadline) {
			t.Fatalf("history is at revision %d, want %d", b.lastSeen(), start+3)
		}
		time.Sleep(10 * time.Millisecond)
	}
	got, _, _, ok := b.eventsAfter(start, 10)
	var revs []int64
	for _, e := range got {
		revs = append(revs, e.rev)
	}
	if want := []int64{start + 1, start + 2, start + 3}; !ok || !slices.Equal(revs, want) {
		t.Errorf("history after revision %d holds %v (in memory: %v), want %v", start, revs, ok, want)
	}
}
