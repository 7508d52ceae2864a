package sqlstorage

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apiserver/pkg/apis/example"
	"k8s.io/apiserver/pkg/storage"

	"github.com/canopy-dev/canopy/internal/pgtest"
)

// TestFailover runs two backends, two hubs' worth, on a multi-host URL
// naming a primary and its synchronous standby, kills the primary in the
// middle of their writes and promotes the standby. Both backends must go
// on by themselves, every acknowledged write must be on the promoted
// standby, every failed write must have been reported as 503 (not applied)
// or 504 (outcome unknown), and the watches must resume or end with 410.
func TestFailover(t *testing.T) {
	t.Parallel()
	pair := pgtest.StartPair(t)
	url := pair.NewDatabase(t)
	stores := []*Store{newPodStore(openBackend(t, url)), newPodStore(openBackend(t, url))}
	ctx := context.Background()

	rv0, err := stores[0].GetCurrentResourceVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	watchCtx, stopWatches := context.WithCancel(ctx)
	defer stopWatches()
	var watched []*durWatchCollector
	for _, s := range stores {
		watched = append(watched, durCollect(durWatchPods(watchCtx, t, s, int64(rv0))))
	}

	log := durNewAckLog()
	stopWriters := durStartWriters(4, log, stores...)
	defer stopWriters()
	log.waitFor(t, 200, 60*time.Second)

	killed := time.Now()
	pair.KillPrimary(t)
	atKill := log.count()
	// Writes fail meanwhile; a failover manager takes about this long to
	// decide.
	time.Sleep(500 * time.Millisecond)
	promoteStart := time.Now()
	pair.Promote(t)
	promoted := time.Now()
	t.Logf("primary killed after %d acks; standby promoted %v later, in %v", atKill,
		promoteStart.Sub(killed).Round(time.Millisecond), promoted.Sub(promoteStart).Round(time.Millisecond))

	for i, s := range stores {
		recovered := failWaitWritable(t, s, fmt.Sprintf("hub%d", i), promoted)
		t.Logf("hub%d: first write after the promotion succeeded %v after it (%v after the kill)", i,
			recovered.Sub(promoted).Round(time.Millisecond), recovered.Sub(killed).Round(time.Millisecond))
	}
	log.waitFor(t, log.count()+200, 60*time.Second)
	stopWriters()
	log.logErrors(t, "writers across the failover")
	failCheckErrors(t, stores[0], log.failed)

	for i, s := range stores {
		var ready error
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			if ready = s.ReadinessCheck(); ready == nil || time.Now().After(deadline) {
				break
			}
		}
		if ready != nil {
			t.Errorf("hub%d: ReadinessCheck still fails 10s after writes succeed again: %v", i, ready)
		}
	}

	counter, rows := durReadHistory(t, stores[0].b)
	durCheckNoHoles(t, counter, rows)
	acks := log.snapshot()
	durCheckAcked(t, stores[1], acks, rows)
	t.Logf("%d acknowledged writes; counter at %d", len(acks), counter)
	for i, s := range stores {
		evs := durFinishWatch(t, s, fmt.Sprintf("hub%d's watch across the failover", i), watched[i], int64(rv0), counter)
		durCheckEvents(t, evs, durRowsAfter(rows, int64(rv0)))
	}
}

// failWaitWritable waits until s takes a write, and returns when it did.
func failWaitWritable(t *testing.T, s *Store, name string, since time.Time) time.Time {
	t.Helper()
	for attempt := 1; ; attempt++ {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_, err := durCreatePod(ctx, s, fmt.Sprintf("%s-probe-%d", name, attempt))
		cancel()
		if err == nil {
			return time.Now()
		}
		if time.Since(since) > 30*time.Second {
			t.Fatalf("%s: writes still fail 30s after the promotion: %v", name, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// failCheckErrors asserts that every failed write was a 503, and then not
// applied, or a 504, whose outcome is unknown: a client must never be told
// that a write failed for sure when it was applied.
func failCheckErrors(t *testing.T, s *Store, failed []durFailedWrite) {
	t.Helper()
	for _, f := range failed {
		var status apierrors.APIStatus
		if !errors.As(f.err, &status) {
			t.Errorf("write %d of %s failed with %T %q, not an API status", f.n, f.key, f.err, f.err)
			continue
		}
		if code := status.Status().Code; code != http.StatusServiceUnavailable && code != http.StatusGatewayTimeout {
			t.Errorf("write %d of %s failed with %d %q, want 503 or 504", f.n, f.key, code, f.err)
		}
	}
	for _, f := range durCheckFailedWrites(t, s, failed) {
		if !apierrors.IsTimeout(f.err) {
			t.Errorf("write %d of %s failed with %q, yet it was applied: only a 504 (outcome unknown) may be", f.n, f.key, f.err)
		}
	}
}

// TestStalledStandby stops the synchronous standby, so that commits wait
// for it past the write deadline. pgx then gives up on the connection
// without cancelling the COMMIT, which goes on waiting on the server and
// lands once the standby is back: the write must be reported as
// outcome-unknown (504), not as failed, and never as a success. (Were the
// wait cancelled instead, PostgreSQL would keep the commit on the primary
// alone and answer it with a success and a WARNING; pgx's default deadline
// handling sends no cancel request, so the store never asks for that.)
func TestStalledStandby(t *testing.T) {
	t.Parallel()
	pair := pgtest.StartPair(t)
	url := pair.NewDatabase(t)
	opts := testOptions
	opts.WriteTimeout = time.Second
	b, err := Open(context.Background(), url, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	s := newPodStore(b)
	ctx := context.Background()
	if _, err := durCreatePod(ctx, s, "before"); err != nil {
		t.Fatal(err)
	}

	pair.Standby.Stop(t)
	_, err = durCreatePod(ctx, s, "stalled")
	if err == nil {
		t.Fatal("a create whose commit never reached the synchronous standby was acknowledged")
	}
	if !apierrors.IsTimeout(err) {
		t.Fatalf("a create whose commit never reached the synchronous standby failed with %T %q, want 504 (outcome unknown)", err, err)
	}
	t.Logf("the stalled create failed with: %v", err)

	pair.Standby.Restart(t)
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if _, err := durCreatePod(ctx, s, "after"); err != nil {
		t.Fatalf("a create once the standby is back: %v", err)
	}
	err = s.Get(ctx, durPodKey("stalled"), storage.GetOptions{}, &example.Pod{})
	t.Logf("once the standby is back, reading the stalled create gives: %v (nil: it was applied)", err)
}

// TestFailoverLostRevisions fails over to a standby that lacks the last
// writes: commits of this database do not wait for the standby
// (synchronous_commit = local), and the standby is down while the last ones
// are made. The backend saw, and its watch delivered, revisions the promoted
// standby does not have and will give to other writes: the watch must end
// with 410 rather than skip or misnumber events, and the backend must go on
// writing on the new timeline.
func TestFailoverLostRevisions(t *testing.T) {
	t.Parallel()
	pair := pgtest.StartPair(t)
	url := pair.NewDatabase(t)
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	var db string
	if err := admin.QueryRow(ctx, "SELECT current_database()").Scan(&db); err != nil {
		t.Fatal(err)
	}
	_, err = admin.Exec(ctx, "ALTER DATABASE "+pgx.Identifier{db}.Sanitize()+" SET synchronous_commit = local")
	admin.Close(ctx)
	if err != nil {
		t.Fatal(err)
	}

	s := newPodStore(openBackend(t, url))
	rv0, err := s.GetCurrentResourceVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	watchCtx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	watched := durCollect(durWatchPods(watchCtx, t, s, int64(rv0)))

	var kept int64
	for i := range 3 {
		if kept, err = durCreatePod(ctx, s, fmt.Sprintf("kept-%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	failWaitReplayed(t, pair.Standby.DSN(db), kept)
	pair.Standby.Stop(t)
	var lost int64
	for i := range 3 {
		if lost, err = durCreatePod(ctx, s, fmt.Sprintf("lost-%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if evs, errEv, closed := watched.waitUntil(lost, 30*time.Second); errEv != nil || closed || durEventRV(evs[len(evs)-1]) != lost {
		t.Fatalf("the watch did not deliver revision %d before the failover (error %v, closed %v)", lost, errEv, closed)
	}

	pair.KillPrimary(t)
	pair.Standby.Restart(t)
	pair.Promote(t)
	promoted := time.Now()
	failWaitWritable(t, s, "after", promoted)

	evs, errEv, closed := watched.waitUntil(lost+1, 30*time.Second)
	switch {
	case errEv == nil:
		t.Fatalf("the watch across a failover that lost revisions %d to %d did not end with an error (closed %v, %d events, the last at %d)",
			kept+1, lost, closed, len(evs), durEventRV(evs[len(evs)-1]))
	case !apierrors.IsResourceExpired(apierrors.FromObject(errEv.Object)):
		t.Fatalf("the watch across a failover that lost revisions ended with %v, want 410", apierrors.FromObject(errEv.Object))
	default:
		t.Logf("the watch across the failover ended with: %v", apierrors.FromObject(errEv.Object))
	}
	if last := durEventRV(evs[len(evs)-1]); last != lost {
		t.Errorf("before its 410 the watch delivered revision %d, beyond the %d it had seen before the failover", last, lost)
	}

	counter, rows := durReadHistory(t, s.b)
	durCheckNoHoles(t, counter, rows)
	if counter > lost {
		t.Logf("NOTE: the promoted standby is at revision %d, past the lost ones; the check of the newest revision caught the rewrite", counter)
	}
	from := int64(rv0)
	w := durWatchPods(ctx, t, s, from)
	fresh, errEv, closed := durWatchEvents(w, counter, 30*time.Second)
	w.Stop()
	if errEv != nil || closed {
		t.Fatalf("watching again from %d after the failover ended after %d events: %v (closed: %v)", from, len(fresh), errEv, closed)
	}
	durCheckEvents(t, fresh, durRowsAfter(rows, from))
}

// failWaitReplayed waits until the standby at dsn has replayed revision rev.
// Until it has replayed the database's creation, it refuses connections.
func failWaitReplayed(t *testing.T, dsn string, rev int64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var replayed int64
	var err error
	for replayed < rev {
		var conn *pgx.Conn
		if conn, err = pgx.Connect(ctx, dsn); err == nil {
			err = conn.QueryRow(ctx, `SELECT value FROM canopy_meta WHERE name = 'rev'`).Scan(&replayed)
			conn.Close(context.Background())
		}
		if ctx.Err() != nil {
			t.Fatalf("the standby has not replayed revision %d within 30s (it is at %d; %v)", rev, replayed, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestFencedPrimary makes the primary read-only while the backend has
// connections to it, as a failover manager fencing it off would, and then
// promotes the standby. The pool must drop the old connections and find the
// promoted standby, and no read may come from the old primary after that:
// whether a write meets the fence first, and fails with 503 changing
// nothing, or only reads run until the promotion.
func TestFencedPrimary(t *testing.T) {
	t.Parallel()
	for _, write := range []bool{true, false} {
		name := map[bool]string{true: "a-write-meets-the-fence", false: "reads-only"}[write]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			testFencedPrimary(t, write)
		})
	}
}

func testFencedPrimary(t *testing.T, write bool) {
	pair := pgtest.StartPair(t)
	url := pair.NewDatabase(t)
	s := newPodStore(openBackend(t, url))
	ctx := context.Background()
	for i := range 10 {
		if _, err := durCreatePod(ctx, s, fmt.Sprintf("before-%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	// Reads at once open connections that stay idle in the pool, connected
	// to the old primary.
	failReadConcurrently(t, s, "before-0", "")
	old := pair.Primary
	var db string
	if err := s.b.db.QueryRowContext(ctx, "SELECT current_database()").Scan(&db); err != nil {
		t.Fatal(err)
	}
	failExec(t, old.DSN(db), "ALTER SYSTEM SET default_transaction_read_only = on", "SELECT pg_reload_conf()")
	// As a failover manager would; it also keeps the database's cleanup
	// from waiting, on a primary that is read-only.
	defer old.Stop(t)
	checkLeft := func(when string) {
		t.Helper()
		var left int
		failQuery(t, old.DSN("postgres"), `SELECT count(*) FROM pg_stat_activity WHERE datname = $1`, &left, db)
		if left != 0 {
			t.Errorf("%s, the backend still has %d connections to the old primary", when, left)
		}
	}

	if write {
		var err error
		for i, deadline := 0, time.Now().Add(10*time.Second); err == nil; i++ {
			if time.Now().After(deadline) {
				t.Fatal("writes still succeed 10s after the primary was made read-only")
			}
			_, err = durCreatePod(ctx, s, fmt.Sprintf("fenced-%d", i))
		}
		if !apierrors.IsServiceUnavailable(err) {
			t.Fatalf("a write to the read-only primary failed with %T %q, want 503", err, err)
		}
		t.Logf("a write to the read-only primary failed with: %v", err)
	} else {
		// The idle connections learn of the fence when pgx pings them
		// before reusing them, which it does once they were idle a second;
		// the poller's learns with its next answer.
		time.Sleep(1500 * time.Millisecond)
	}

	pair.Promote(t)
	if !write {
		failReadConcurrently(t, s, "before-0", "")
		checkLeft("after reads alone")
	}
	failWaitWritable(t, s, "promoted", time.Now())
	// Every read must see the write just made, which only the promoted
	// standby has; an idle connection to the old primary would not.
	rv, err := durCreatePod(ctx, s, "after-promotion")
	if err != nil {
		t.Fatal(err)
	}
	failReadConcurrently(t, s, "after-promotion", fmt.Sprint(rv))
	checkLeft("after writes and reads")
}

// failReadConcurrently reads key in parallel, so that the pool opens
// several connections, and fails if a read does not find it at revision
// rv (any revision when rv is empty).
func failReadConcurrently(t *testing.T, s *Store, name, rv string) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				pod := &example.Pod{}
				if err := s.Get(context.Background(), durPodKey(name), storage.GetOptions{}, pod); err != nil {
					errs <- err
					return
				}
				if rv != "" && pod.ResourceVersion != rv {
					errs <- fmt.Errorf("%s read at revision %s, want %s", name, pod.ResourceVersion, rv)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("reading %s: %v", name, err)
	}
}

func failExec(t *testing.T, dsn string, stmts ...string) {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	for _, stmt := range stmts {
		if _, err := conn.Exec(context.Background(), stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
}

func failQuery(t *testing.T, dsn, query string, dest any, args ...any) {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if err := conn.QueryRow(context.Background(), query, args...).Scan(dest); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

func TestWritableDSN(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"postgres://u@a:5432/db?sslmode=disable", "postgres://u@a:5432/db?sslmode=disable"},
		{"postgres://u@a:5432,b:5432/db?sslmode=disable", "postgres://u@a:5432,b:5432/db?connect_timeout=3&sslmode=disable&target_session_attrs=read-write"},
		{"postgres://u@a,b/db?target_session_attrs=primary", "postgres://u@a,b/db?connect_timeout=3&target_session_attrs=primary"},
		{"postgres://u@a,b/db?connect_timeout=10&target_session_attrs=read-write", "postgres://u@a,b/db?connect_timeout=10&target_session_attrs=read-write"},
	} {
		d, err := parseDatastore(tc.in)
		if err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		if d.dsn != tc.want {
			t.Errorf("%s gives %s, want %s", tc.in, d.dsn, tc.want)
		}
	}
}

// TestNoHostTakesTheConnection checks that a connection no host of a
// multi-host URL takes is a 503, also when one host answered with an error
// of its own, as a standby that has not replayed the database's creation
// does while the primary is fenced off.
func TestNoHostTakesTheConnection(t *testing.T) {
	t.Parallel()
	server := pgtest.Start(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := l.Addr().String()
	l.Close()
	u, err := url.Parse(server.DSN("no_such_database"))
	if err != nil {
		t.Fatal(err)
	}
	u.Host = closed + "," + u.Host
	_, err = pgx.Connect(context.Background(), u.String())
	if err == nil {
		t.Fatal("connecting to a database that does not exist succeeded")
	}
	if got := wrapDBError(err); !apierrors.IsServiceUnavailable(got) {
		t.Fatalf("no host taking the connection (%v) gave %q, want 503", err, got)
	}
}
