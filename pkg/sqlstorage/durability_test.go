package sqlstorage

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
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

// Durability under failure: a writer killed mid-stream, a database server
// killed mid-stream, and a database that goes away and comes back.

// durCrashWriterEnv carries the datastore URL to the writer process that
// TestCrashSafety starts by re-executing the test binary.
const durCrashWriterEnv = "CANOPY_CRASH_WRITER_URL"

// durNamespace is the namespace of every pod these tests write.
const durNamespace = "durability"

// durAck is a write the store acknowledged: key is at revision rv.
type durAck struct {
	key string
	rv  int64
	at  time.Time
}

// durAckLog collects what concurrent writers saw: acknowledged writes, and the
// failures by message.
type durAckLog struct {
	mu     sync.Mutex
	acks   []durAck
	errs   map[string]int
	nErrs  int
	notAPI int // failures that were not an API status error
	not503 int // API status failures other than 503
	failed []durFailedWrite
}

// durFailedWrite is a write that returned an error: the creation of key
// (n == 0), or its update number n.
type durFailedWrite struct {
	key string
	n   int
	err error
}

func durNewAckLog() *durAckLog { return &durAckLog{errs: map[string]int{}} }

func (l *durAckLog) ack(key string, rv int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.acks = append(l.acks, durAck{key: key, rv: rv, at: time.Now()})
}

func (l *durAckLog) fail(key string, n int, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.nErrs++
	l.failed = append(l.failed, durFailedWrite{key: key, n: n, err: err})
	var status apierrors.APIStatus
	if !errors.As(err, &status) {
		l.notAPI++
	} else if status.Status().Code != http.StatusServiceUnavailable {
		l.not503++
	}
	l.errs[fmt.Sprintf("%T: %v", err, err)]++
}

func (l *durAckLog) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.acks)
}

func (l *durAckLog) snapshot() []durAck {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.acks)
}

// waitFor waits until n writes have been acknowledged.
func (l *durAckLog) waitFor(t *testing.T, n int, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for l.count() < n {
		if time.Now().After(deadline) {
			t.Fatalf("only %d of %d writes acknowledged after %v", l.count(), n, timeout)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// between counts the writes acknowledged in [from, to).
func (l *durAckLog) between(from, to time.Time) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, a := range l.acks {
		if !a.at.Before(from) && a.at.Before(to) {
			n++
		}
	}
	return n
}

func (l *durAckLog) logErrors(t *testing.T, what string) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	t.Logf("%s: %d failed writes (%d not an API status, %d API status other than 503), %d distinct messages:",
		what, l.nErrs, l.notAPI, l.not503, len(l.errs))
	msgs := make([]string, 0, len(l.errs))
	for m := range l.errs {
		msgs = append(msgs, m)
	}
	sort.Strings(msgs)
	for _, m := range msgs {
		t.Logf("  %4dx %s", l.errs[m], m)
	}
}

func durPodKey(name string) string { return "/pods/" + durNamespace + "/" + name }

func durCreatePod(ctx context.Context, s *Store, name string) (int64, error) {
	out := &example.Pod{}
	pod := &example.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: durNamespace}}
	if err := s.Create(ctx, durPodKey(name), pod, out, 0); err != nil {
		return 0, err
	}
	return strconv.ParseInt(out.ResourceVersion, 10, 64)
}

// durUpdatePod sets a node name the pod never had, so the update is never a no-op.
func durUpdatePod(ctx context.Context, s *Store, key string, n int) (int64, error) {
	out := &example.Pod{}
	err := s.GuaranteedUpdate(ctx, key, out, false, nil,
		func(in runtime.Object, _ storage.ResponseMeta) (runtime.Object, *uint64, error) {
			pod := in.(*example.Pod)
			pod.Spec.NodeName = fmt.Sprintf("node-%d", n)
			return pod, nil, nil
		}, nil)
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(out.ResourceVersion, 10, 64)
}

// durStreamWrites is one writer: until ctx ends it creates a pod, updates it
// twice, and goes on to the next pod, reporting each acknowledged write to
// ack and each failure to fail (n is 0 for the creation, else the number
// of the update). A failed write is not retried: its pod is abandoned, so
// that whether it was applied can be told afterwards.
func durStreamWrites(ctx context.Context, s *Store, writer string, ack func(key string, rv int64), fail func(key string, n int, err error)) {
	pause := func() {
		select {
		case <-ctx.Done():
		case <-time.After(10 * time.Millisecond):
		}
	}
	for i := 0; ctx.Err() == nil; i++ {
		name := fmt.Sprintf("%s-%d", writer, i)
		rv, err := durCreatePod(ctx, s, name)
		if err != nil {
			if ctx.Err() == nil {
				fail(durPodKey(name), 0, err)
				pause()
			}
			continue
		}
		ack(durPodKey(name), rv)
		for n := 1; n <= 2 && ctx.Err() == nil; n++ {
			rv, err := durUpdatePod(ctx, s, durPodKey(name), n)
			if err != nil {
				if ctx.Err() == nil {
					fail(durPodKey(name), n, err)
					pause()
				}
				break
			}
			ack(durPodKey(name), rv)
		}
	}
}

// durStartWriters runs n writers on each of stores until the returned stop
// function is called. Writers on the second store and later have names
// of their own.
func durStartWriters(n int, log *durAckLog, stores ...*Store) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for i, s := range stores {
		for j := range n {
			name := fmt.Sprintf("w%d", j)
			if i > 0 {
				name = fmt.Sprintf("s%d-w%d", i, j)
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				durStreamWrites(ctx, s, name, log.ack, log.fail)
			}()
		}
	}
	return func() {
		cancel()
		wg.Wait()
	}
}

// TestCrashWriterProcess is the writer process of TestCrashSafety, which
// SIGKILLs it mid-stream. It prints "ACK <key> <rv>" once each write is
// acknowledged.
func TestCrashWriterProcess(t *testing.T) {
	url := os.Getenv(durCrashWriterEnv)
	if url == "" {
		t.Skip("only runs as the writer process that TestCrashSafety kills")
	}
	s := newPodStore(openBackend(t, url))
	// Bounded in case the parent dies without killing us.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var mu sync.Mutex
	ack := func(key string, rv int64) {
		mu.Lock()
		defer mu.Unlock()
		// os.Stdout is unbuffered: the line is in the pipe, in one write,
		// when Fprintf returns.
		if _, err := fmt.Fprintf(os.Stdout, "ACK %s %d\n", key, rv); err != nil {
			os.Exit(3)
		}
	}
	fail := func(key string, n int, err error) { fmt.Fprintf(os.Stderr, "write %d of %s failed: %v\n", n, key, err) }
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			durStreamWrites(ctx, s, fmt.Sprintf("w%d", i), ack, fail)
		}()
	}
	wg.Wait()
	t.Errorf("the writer process was not killed within its time limit")
}

// durRunKilledWriter runs TestCrashWriterProcess against url, SIGKILLs it
// once it has acknowledged at least minAcks writes, and returns every write
// it acknowledged, including those whose line was still in the pipe.
func durRunKilledWriter(t *testing.T, url string, minAcks int) []durAck {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashWriterProcess$", "-test.count=1", "-test.timeout=5m")
	cmd.Env = append(os.Environ(), durCrashWriterEnv+"="+url)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waited := false
	t.Cleanup(func() {
		if !waited {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	lines := make(chan durAck, 1024)
	var other []string
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			if len(f) == 3 && f[0] == "ACK" {
				if rv, err := strconv.ParseInt(f[2], 10, 64); err == nil {
					lines <- durAck{key: f[1], rv: rv, at: time.Now()}
					continue
				}
			}
			other = append(other, sc.Text())
		}
	}()

	var acks []durAck
	started := time.Now()
	timeout := time.After(60 * time.Second)
	for len(acks) < minAcks {
		select {
		case a, ok := <-lines:
			if !ok {
				_ = cmd.Wait()
				waited = true
				t.Fatalf("the writer process ended after %d acks, before being killed: %v\nstdout: %q\nstderr:\n%s",
					len(acks), cmd.ProcessState, other, stderr.String())
			}
			acks = append(acks, a)
		case <-timeout:
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			waited = true
			t.Fatalf("the writer process acknowledged only %d writes in 60s\nstderr:\n%s", len(acks), stderr.String())
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatalf("killing the writer process: %v", err)
	}
	atKill := len(acks)
	// Every line in the pipe is an acknowledged write too.
	drain := time.After(10 * time.Second)
drain:
	for {
		select {
		case a, ok := <-lines:
			if !ok {
				break drain
			}
			acks = append(acks, a)
		case <-drain:
			t.Fatalf("the writer process's stdout did not close within 10s of SIGKILL")
		}
	}
	err = cmd.Wait()
	waited = true
	ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("the writer process did not die of SIGKILL: %v (%v)\nstderr:\n%s", cmd.ProcessState, err, stderr.String())
	}
	t.Logf("writer process: %d acks in %v, killed with SIGKILL; %d more acks were in the pipe",
		atKill, time.Since(started).Round(time.Millisecond), len(acks)-atKill)
	if s := stderr.String(); s != "" {
		t.Logf("writer process stderr:\n%s", s)
	}
	return acks
}

// durRevRow is one row of canopy_revisions.
type durRevRow struct {
	rev, createRev int64
	key            string
	deleted        bool
}

// durReadHistory reads the revision counter and the whole history.
func durReadHistory(t *testing.T, b *Backend) (counter int64, rows []durRevRow) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := b.db.QueryRowContext(ctx, `SELECT value FROM canopy_meta WHERE name = 'rev'`).Scan(&counter); err != nil {
		t.Fatalf("reading the revision counter: %v", err)
	}
	r, err := b.db.QueryContext(ctx, `SELECT rev, key, create_rev, CASE WHEN value IS NULL THEN 1 ELSE 0 END
		FROM canopy_revisions ORDER BY rev`)
	if err != nil {
		t.Fatalf("reading the history: %v", err)
	}
	defer r.Close()
	for r.Next() {
		var row durRevRow
		var deleted int
		if err := r.Scan(&row.rev, &row.key, &row.createRev, &deleted); err != nil {
			t.Fatal(err)
		}
		row.deleted = deleted == 1
		rows = append(rows, row)
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return counter, rows
}

// durCheckNoHoles asserts that the history holds exactly revisions 2..counter.
func durCheckNoHoles(t *testing.T, counter int64, rows []durRevRow) {
	t.Helper()
	for i, r := range rows {
		if want := int64(i) + 2; r.rev != want {
			t.Errorf("history has a hole: revision %d is followed by %d (%d rows, counter %d)", want-1, r.rev, len(rows), counter)
			return
		}
	}
	if last := int64(len(rows)) + 1; last != counter {
		t.Errorf("history ends at revision %d but the counter is %d", last, counter)
	}
}

// durCheckAcked asserts that every acknowledged write is in the history at its
// revision, and that its key is readable at that revision or a later one.
func durCheckAcked(t *testing.T, s *Store, acks []durAck, rows []durRevRow) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	byRev := make(map[int64]string, len(rows))
	for _, r := range rows {
		byRev[r.rev] = r.key
	}
	ackedRev := map[int64]string{}
	latest := map[string]int64{}
	bad := 0
	report := func(format string, args ...any) {
		t.Helper()
		if bad++; bad <= 10 {
			t.Errorf(format, args...)
		}
	}
	for _, a := range acks {
		if other, dup := ackedRev[a.rv]; dup {
			report("revision %d was acknowledged twice: for %s and for %s", a.rv, other, a.key)
		}
		ackedRev[a.rv] = a.key
		if key, ok := byRev[a.rv]; !ok {
			report("acknowledged write %s at revision %d is missing from the history", a.key, a.rv)
		} else if key != a.key {
			report("acknowledged write %s at revision %d: the history has %s there", a.key, a.rv, key)
		}
		latest[a.key] = max(latest[a.key], a.rv)
	}
	for key, rv := range latest {
		pod := &example.Pod{}
		if err := s.Get(ctx, key, storage.GetOptions{}, pod); err != nil {
			report("acknowledged key %s (at revision %d) cannot be read: %v", key, rv, err)
			continue
		}
		if got, _ := strconv.ParseInt(pod.ResourceVersion, 10, 64); got < rv {
			report("acknowledged key %s was written at revision %d but reads at %d", key, rv, got)
		}
	}
	if bad > 10 {
		t.Errorf("... and %d more failures", bad-10)
	}
}

// durCheckFailedWrites logs, and returns, the failed writes that were
// applied after all: those cut off during their commit, whose outcome the
// client cannot know. Each failed write's pod was abandoned, so a creation
// was applied if the pod exists, and update n if the pod has node n.
func durCheckFailedWrites(t *testing.T, s *Store, failed []durFailedWrite) (applied []durFailedWrite) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for _, f := range failed {
		pod := &example.Pod{}
		err := s.Get(ctx, f.key, storage.GetOptions{}, pod)
		if storage.IsNotFound(err) {
			continue
		}
		if err != nil {
			t.Errorf("reading %s: %v", f.key, err)
			continue
		}
		if f.n > 0 && pod.Spec.NodeName != fmt.Sprintf("node-%d", f.n) {
			continue
		}
		applied = append(applied, f)
		what := "creation"
		if f.n > 0 {
			what = fmt.Sprintf("update %d", f.n)
		}
		t.Logf("NOTE: the %s of %s failed with %q, yet it was applied (at revision %s)", what, f.key, f.err, pod.ResourceVersion)
	}
	t.Logf("%d of %d failed writes were applied after all", len(applied), len(failed))
	return applied
}

// durWatchEvents collects the events of w until one is at revision until or
// later, the watch ends, it sends an error, or timeout passes.
func durWatchEvents(w watch.Interface, until int64, timeout time.Duration) (evs []watch.Event, errEv *watch.Event, closed bool) {
	deadline := time.After(timeout)
	for {
		select {
		case ev, ok := <-w.ResultChan():
			if !ok {
				return evs, nil, true
			}
			if ev.Type == watch.Error {
				return evs, &ev, false
			}
			evs = append(evs, ev)
			if durEventRV(ev) >= until {
				return evs, nil, false
			}
		case <-deadline:
			return evs, nil, false
		}
	}
}

func durEventRV(ev watch.Event) int64 {
	pod, ok := ev.Object.(*example.Pod)
	if !ok {
		return -1
	}
	rv, _ := strconv.ParseInt(pod.ResourceVersion, 10, 64)
	return rv
}

// durCheckEvents asserts that evs are exactly the changes in want, in order.
func durCheckEvents(t *testing.T, evs []watch.Event, want []durRevRow) {
	t.Helper()
	for i, r := range want {
		if i >= len(evs) {
			t.Errorf("watch delivered %d events, want %d: the first missing is revision %d (%s)", len(evs), len(want), r.rev, r.key)
			return
		}
		ev := evs[i]
		pod, ok := ev.Object.(*example.Pod)
		if !ok {
			t.Errorf("event %d: %s of a %T, want one of revision %d", i, ev.Type, ev.Object, r.rev)
			return
		}
		wantType := watch.Modified
		switch {
		case r.deleted:
			wantType = watch.Deleted
		case r.createRev == r.rev:
			wantType = watch.Added
		}
		if got := durEventRV(ev); got != r.rev || ev.Type != wantType || durPodKey(pod.Name) != r.key {
			t.Errorf("event %d is %s %s at revision %d, want %s %s at revision %d", i, ev.Type, durPodKey(pod.Name), got, wantType, r.key, r.rev)
			return
		}
	}
	if len(evs) > len(want) {
		t.Errorf("watch delivered %d events, want %d; the first extra is %s at revision %d", len(evs), len(want), evs[len(want)].Type, durEventRV(evs[len(want)]))
	}
}

func durRowsAfter(rows []durRevRow, rev int64) []durRevRow {
	i := sort.Search(len(rows), func(i int) bool { return rows[i].rev > rev })
	return rows[i:]
}

func durWatchPods(ctx context.Context, t *testing.T, s *Store, rv int64) watch.Interface {
	t.Helper()
	w, err := s.Watch(ctx, "/pods/", storage.ListOptions{
		ResourceVersion: strconv.FormatInt(rv, 10), Recursive: true, Predicate: storage.Everything,
	})
	if err != nil {
		t.Fatalf("watching from %d: %v", rv, err)
	}
	return w
}

// durCheckReopened checks a store opened on a datastore after its writers
// crashed: every acknowledged write is there, the history has no hole, the
// store takes writes, and watches from old revisions replay the history.
func durCheckReopened(t *testing.T, b *Backend, acks []durAck) {
	t.Helper()
	s := newPodStore(b)
	counter, rows := durReadHistory(t, b)
	t.Logf("after the crash: counter at %d, %d revisions in history, %d acknowledged writes", counter, len(rows), len(acks))
	durCheckNoHoles(t, counter, rows)
	durCheckAcked(t, s, acks, rows)

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rv, err := durCreatePod(ctx, s, fmt.Sprintf("after-crash-%d", time.Now().UnixNano()))
	if err != nil {
		t.Fatalf("the reopened store does not take writes: %v", err)
	}
	if rv != counter+1 {
		t.Errorf("the first write after reopening is at revision %d, want %d", rv, counter+1)
	}
	counter, rows = durReadHistory(t, b)
	durCheckNoHoles(t, counter, rows)

	sorted := slices.Clone(acks)
	slices.SortFunc(sorted, func(a, b durAck) int { return int(a.rv - b.rv) })
	froms := []int64{1}
	if len(sorted) > 0 {
		froms = append(froms, sorted[len(sorted)/2].rv)
	}
	for _, from := range froms {
		w := durWatchPods(ctx, t, s, from)
		evs, errEv, closed := durWatchEvents(w, counter, 30*time.Second)
		w.Stop()
		if errEv != nil {
			t.Errorf("watch from %d ended with an error after %d events: %v", from, len(evs), apierrors.FromObject(errEv.Object))
		} else if closed {
			t.Errorf("watch from %d closed after %d events", from, len(evs))
		}
		durCheckEvents(t, evs, durRowsAfter(rows, from))
	}
}

// TestCrashSafety kills writers, and the database server, mid-stream: no
// acknowledged write may be lost and no revision may be missing.
func TestCrashSafety(t *testing.T) {
	for _, ds := range datastores {
		t.Run("writer-process-killed/"+ds.name, func(t *testing.T) {
			url := ds.url(t)
			// The schema exists before the child starts, so that it is
			// writing, not creating tables, when it dies.
			b, err := Open(context.Background(), url, testOptions)
			if err != nil {
				t.Fatal(err)
			}
			_ = b.Close()
			acks := durRunKilledWriter(t, url, 400)
			durCheckReopened(t, openBackend(t, url), acks)
		})
	}

	t.Run("postgres-server-killed", func(t *testing.T) {
		srv := pgtest.Start(t)
		url := srv.NewDatabase(t)
		b := openBackend(t, url)
		s := newPodStore(b)
		log := durNewAckLog()
		stop := durStartWriters(8, log, s)
		defer stop()

		log.waitFor(t, 300, 60*time.Second)
		atKill := log.count()
		killStart := time.Now()
		srv.Kill(t)
		killed := time.Now()
		t.Logf("server killed (SIGKILL of postmaster and backends) after %d acks, in %v", atKill, killed.Sub(killStart).Round(time.Millisecond))
		time.Sleep(500 * time.Millisecond)
		restartStart := time.Now()
		srv.Restart(t)
		restarted := time.Now()
		atRestart := log.count()
		t.Logf("server restarted after crash recovery in %v; %d acks during the kill, %d while down, %d during the restart",
			restarted.Sub(restartStart).Round(time.Millisecond), log.between(killStart, killed),
			log.between(killed, restartStart), log.between(restartStart, restarted))
		log.waitFor(t, atRestart+300, 30*time.Second)
		stop()
		acks := log.snapshot()
		for _, a := range acks {
			if a.at.After(restartStart) {
				t.Logf("first acknowledged write %v after the restart began (it took %v); %d acks in all",
					a.at.Sub(restartStart).Round(time.Millisecond), restarted.Sub(restartStart).Round(time.Millisecond), len(acks))
				break
			}
		}
		log.logErrors(t, "in-process writers")
		durCheckFailedWrites(t, s, log.failed)

		t.Run("same-backend", func(t *testing.T) { durCheckReopened(t, b, acks) })
		_ = b.Close()
		t.Run("reopened", func(t *testing.T) { durCheckReopened(t, openBackend(t, url), acks) })
	})
}

// durRequestResult is how one request went while the database was down.
type durRequestResult struct {
	err  error
	took time.Duration
}

// durTimedRequest runs req and waits for it up to failFast. A request still
// running then is reported as hung; it gets a minute before its context
// ends it, so that the test cannot hang.
func durTimedRequest(t *testing.T, name string, failFast time.Duration, req func(ctx context.Context) error) (durRequestResult, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	done := make(chan durRequestResult, 1)
	start := time.Now()
	go func() {
		defer cancel()
		err := req(ctx)
		done <- durRequestResult{err: err, took: time.Since(start)}
	}()
	select {
	case r := <-done:
		return r, true
	case <-time.After(failFast):
		t.Errorf("%s with the database down did not return within %v", name, failFast)
		return durRequestResult{}, false
	}
}

// durCheckUnavailable asserts that err is the clear error a client should get
// while the database is down.
func durCheckUnavailable(t *testing.T, name string, r durRequestResult) {
	t.Helper()
	t.Logf("%s with the database down failed in %v: %T: %v", name, r.took.Round(time.Microsecond), r.err, r.err)
	if r.err == nil {
		t.Errorf("%s with the database down succeeded", name)
		return
	}
	var status apierrors.APIStatus
	if !errors.As(r.err, &status) {
		t.Errorf("%s with the database down: %T %q is not an API status error", name, r.err, r.err)
		return
	}
	st := status.Status()
	if st.Code == http.StatusServiceUnavailable && st.Reason == metav1.StatusReasonServiceUnavailable {
		return
	}
	if !strings.Contains(st.Message, "datastore") {
		t.Errorf("%s with the database down: status %d %s %q is neither a 503 nor about the datastore", name, st.Code, st.Reason, st.Message)
		return
	}
	t.Logf("NOTE: %s with the database down gave status %d %s, not 503 ServiceUnavailable", name, st.Code, st.Reason)
}

// durWatchCollector keeps every event a watch delivers.
type durWatchCollector struct {
	mu     sync.Mutex
	evs    []watch.Event
	errEv  *watch.Event
	closed bool
}

func durCollect(w watch.Interface) *durWatchCollector {
	c := &durWatchCollector{}
	go func() {
		for ev := range w.ResultChan() {
			c.mu.Lock()
			if ev.Type == watch.Error {
				c.errEv = &ev
			} else {
				c.evs = append(c.evs, ev)
			}
			c.mu.Unlock()
		}
		c.mu.Lock()
		c.closed = true
		c.mu.Unlock()
	}()
	return c
}

// waitUntil waits until the watch has delivered revision rev, or ended.
func (c *durWatchCollector) waitUntil(rev int64, timeout time.Duration) (evs []watch.Event, errEv *watch.Event, closed bool) {
	deadline := time.Now().Add(timeout)
	for {
		c.mu.Lock()
		evs, errEv, closed = slices.Clone(c.evs), c.errEv, c.closed
		c.mu.Unlock()
		if closed || errEv != nil || (len(evs) > 0 && durEventRV(evs[len(evs)-1]) >= rev) || time.Now().After(deadline) {
			return evs, errEv, closed
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestDatabaseLoss stops the PostgreSQL server under a running store and
// brings it back: requests fail fast and clearly meanwhile, and the same
// store recovers on its own, losing nothing it acknowledged.
func TestDatabaseLoss(t *testing.T) {
	srv := pgtest.Start(t)
	url := srv.NewDatabase(t)
	b := openBackend(t, url)
	s := newPodStore(b)
	ctx := context.Background()

	rv0, err := s.GetCurrentResourceVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	watchCtx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	watched := durCollect(durWatchPods(watchCtx, t, s, int64(rv0)))

	log := durNewAckLog()
	stopWriters := durStartWriters(4, log, s)
	defer stopWriters()
	log.waitFor(t, 150, 30*time.Second)

	stopStart := time.Now()
	srv.Stop(t)
	down := time.Now()
	atStop := log.count()
	t.Logf("server stopped (pg_ctl stop -m fast) in %v after %d acks", down.Sub(stopStart).Round(time.Millisecond), atStop)

	const failFast = 5 * time.Second
	existing := log.snapshot()[0].key
	for _, req := range []struct {
		name string
		do   func(ctx context.Context) error
	}{
		{"Create", func(ctx context.Context) error {
			_, err := durCreatePod(ctx, s, "while-down")
			return err
		}},
		{"Get", func(ctx context.Context) error {
			return s.Get(ctx, existing, storage.GetOptions{}, &example.Pod{})
		}},
		{"GetList", func(ctx context.Context) error {
			return s.GetList(ctx, "/pods/", storage.ListOptions{Recursive: true, Predicate: storage.Everything}, &example.PodList{})
		}},
		{"GetList(limit=5)", func(ctx context.Context) error {
			return s.GetList(ctx, "/pods/", storage.ListOptions{Recursive: true, Predicate: storage.SelectionPredicate{Limit: 5}}, &example.PodList{})
		}},
		{"GuaranteedUpdate", func(ctx context.Context) error {
			_, err := durUpdatePod(ctx, s, existing, 99)
			return err
		}},
		{"GetCurrentResourceVersion", func(ctx context.Context) error {
			_, err := s.GetCurrentResourceVersion(ctx)
			return err
		}},
	} {
		if r, ok := durTimedRequest(t, req.name, failFast, req.do); ok {
			durCheckUnavailable(t, req.name, r)
		}
	}
	// A new watch needs the database to send the initial state.
	if w, err := s.Watch(ctx, "/pods/", storage.ListOptions{Recursive: true, Predicate: storage.Everything}); err != nil {
		t.Logf("Watch with the database down failed: %T: %v", err, err)
	} else {
		select {
		case ev := <-w.ResultChan():
			if ev.Type == watch.Error {
				t.Logf("Watch with the database down ended with: %v", apierrors.FromObject(ev.Object))
			} else {
				t.Errorf("Watch with the database down sent a %s event", ev.Type)
			}
		case <-time.After(failFast):
			t.Errorf("Watch with the database down sent nothing within %v", failFast)
		}
		w.Stop()
	}

	var readiness error
	for deadline := time.Now().Add(failFast); readiness == nil && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
		readiness = s.ReadinessCheck()
	}
	if readiness == nil {
		t.Errorf("ReadinessCheck still succeeds %v after the database went down", failFast)
	} else {
		t.Logf("ReadinessCheck with the database down: %T: %v", readiness, readiness)
	}

	// Keep the database away long enough for the writers and the poller to
	// fail over and over.
	time.Sleep(time.Until(down.Add(time.Second)))
	restartStart := time.Now()
	srv.Restart(t)
	up := time.Now()
	t.Logf("database down for %v; restart took %v; %d acks during the stop, %d while down, %d during the restart",
		up.Sub(down).Round(time.Millisecond), up.Sub(restartStart).Round(time.Millisecond),
		log.between(stopStart, down), log.between(down, restartStart), log.between(restartStart, up))

	// The same store, not reopened, must take writes again.
	var recovered time.Duration
	for attempt := 1; ; attempt++ {
		actx, cancel := context.WithTimeout(ctx, 10*time.Second)
		_, err := durCreatePod(actx, s, fmt.Sprintf("after-restart-%d", attempt))
		cancel()
		if err == nil {
			recovered = time.Since(up)
			t.Logf("first Create after the restart succeeded after %v (attempt %d)", recovered.Round(time.Millisecond), attempt)
			break
		}
		if time.Since(up) > 30*time.Second {
			t.Fatalf("writes still fail 30s after the database came back: %v", err)
		}
		t.Logf("Create %v after the restart failed: %v", time.Since(up).Round(time.Millisecond), err)
		time.Sleep(100 * time.Millisecond)
	}
	log.waitFor(t, log.count()+150, 30*time.Second)
	stopWriters()
	log.logErrors(t, "writers across the outage")
	durCheckFailedWrites(t, s, log.failed)

	var ready error
	for deadline := time.Now().Add(failFast); ; {
		if ready = s.ReadinessCheck(); ready == nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if ready != nil {
		t.Errorf("ReadinessCheck still fails %v after writes succeed again: %v", failFast, ready)
	}

	counter, rows := durReadHistory(t, b)
	durCheckNoHoles(t, counter, rows)
	acks := log.snapshot()
	durCheckAcked(t, s, acks, rows)
	t.Logf("%d acknowledged writes; counter at %d", len(acks), counter)

	evs := durFinishWatch(t, s, "the watch across the outage", watched, int64(rv0), counter)
	durCheckEvents(t, evs, durRowsAfter(rows, int64(rv0)))
}

// durFinishWatch waits until the watch collected by watched, started at
// revision from, has delivered revision counter. A watch that ended with
// 410 is started again from its last event, as a reflector would. It
// returns every event, for durCheckEvents.
func durFinishWatch(t *testing.T, s *Store, what string, watched *durWatchCollector, from, counter int64) []watch.Event {
	t.Helper()
	evs, errEv, closed := watched.waitUntil(counter, 30*time.Second)
	switch {
	case errEv != nil:
		status := apierrors.FromObject(errEv.Object)
		if !apierrors.IsResourceExpired(status) && !apierrors.IsGone(status) {
			t.Fatalf("%s ended with an error other than 410 after %d events: %v", what, len(evs), status)
		}
		if len(evs) > 0 {
			from = durEventRV(evs[len(evs)-1])
		}
		t.Logf("%s ended with 410 after %d events (%v); watching again from %d", what, len(evs), status, from)
		w := durWatchPods(context.Background(), t, s, from)
		more, errEv, closed := durWatchEvents(w, counter, 30*time.Second)
		w.Stop()
		if errEv != nil || closed {
			t.Fatalf("watching again from %d ended after %d events: %v (closed: %v)", from, len(more), errEv, closed)
		}
		evs = append(evs, more...)
	case closed:
		t.Fatalf("%s closed without an error after %d events", what, len(evs))
	default:
		t.Logf("%s resumed by itself: %d events", what, len(evs))
	}
	return evs
}
