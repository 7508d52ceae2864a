package sqlstorage

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/apiserver/pkg/apis/example"
	"k8s.io/apiserver/pkg/storage"

	"github.com/canopy-dev/canopy/internal/pgtest"
)

// crdbClientAttempts is how often a client retries a write that failed with a
// 500. PostgreSQL needs it (see below); CockroachDB retries in-transaction.
const crdbClientAttempts = 40

// TestCockroachDBPathOnPostgres runs the CockroachDB dialect (STRING/BYTES
// schema, every write in crdb.ExecuteTx at SERIALIZABLE with the SAVEPOINT
// cockroach_restart retry protocol) against PostgreSQL, with serialization
// failures (SQLSTATE 40001) injected by a trigger and two "hub processes"
// contending for the revision counter, and checks that the outcome is exact:
// every acknowledged write is stored, and watched, exactly once, at dense
// revisions, and no write that failed was applied.
//
// Two differences from a real CockroachDB shape the test:
//
//   - PostgreSQL has no STRING or BYTES type; domains over TEXT COLLATE "C"
//     and BYTEA stand in for them, so the dialect's DDL runs unchanged.
//   - PostgreSQL cannot retry a transaction inside itself. Its SERIALIZABLE
//     snapshot is fixed by the transaction's first query, so after a genuine
//     conflict on the counter row ("could not serialize access due to
//     concurrent update") every retry after ROLLBACK TO SAVEPOINT fails the
//     same way, and crdb.ExecuteTx gives up after 50 retries. CockroachDB
//     restarts the transaction at a newer timestamp instead. So on
//     PostgreSQL genuine conflicts surface as failed batches (which commit
//     retries one op at a time, in fresh transactions) or as 500s, which the
//     clients here retry as an API client would, while the injected failures
//     are what exercises the in-transaction retry. Either way, the check is
//     the same: a failure must leave nothing behind, a success exactly one
//     revision.
func TestCockroachDBPathOnPostgres(t *testing.T) {
	const (
		workersPerHub  = 4
		keysPerWorker  = 5
		stepsPerWorker = 36
		// injectProbability is per row written. Batches hold up to
		// 2*workersPerHub rows, so an attempt still passes often enough to
		// stay well within crdb.ExecuteTx's 50 retries.
		injectProbability = 0.1
		probeRounds       = 3
	)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()

	pgURL := pgtest.Shared(t).NewDatabase(t)
	u, err := url.Parse(pgURL)
	if err != nil {
		t.Fatal(err)
	}
	dbName := strings.TrimPrefix(u.Path, "/")
	u.Scheme = "cockroachdb"
	crdbURL := u.String()

	admin, err := sql.Open("pgx", pgURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = admin.Close() })
	crdbExec(t, admin,
		`ALTER DATABASE `+pgx.Identifier{dbName}.Sanitize()+` SET default_transaction_isolation = 'serializable'`,
		// CockroachDB's STRING compares byte-wise, like TEXT COLLATE "C".
		`CREATE DOMAIN string AS TEXT COLLATE "C"`,
		`CREATE DOMAIN bytes AS BYTEA`,
	)

	hub1 := openBackend(t, crdbURL)
	if hub1.d.name != "cockroachdb" || !hub1.d.retrying {
		t.Fatalf("dialect %q (retrying %v), want the retrying cockroachdb dialect", hub1.d.name, hub1.d.retrying)
	}
	var isolation string
	if err := hub1.db.QueryRowContext(ctx, `SHOW default_transaction_isolation`).Scan(&isolation); err != nil || isolation != "serializable" {
		t.Fatalf("default_transaction_isolation = %q (%v), want serializable", isolation, err)
	}
	// The schema exists now: inject. nextval is not transactional, so the
	// sequences count failed attempts that the raise itself rolls back.
	crdbExec(t, hub1.db,
		`CREATE SEQUENCE canopy_test_injections`,
		`CREATE SEQUENCE canopy_test_probe`,
		fmt.Sprintf(`CREATE FUNCTION canopy_test_inject() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN
			IF NEW.key LIKE '%%/slow-probe/%%' THEN
				-- Hold the revision counter's row lock for a while.
				PERFORM pg_sleep(1);
			ELSIF NEW.key LIKE '%%/retry-probe/%%' THEN
				-- Every other attempt to write a probe key fails.
				IF nextval('canopy_test_probe') %% 2 = 1 THEN
					PERFORM nextval('canopy_test_injections');
					RAISE EXCEPTION 'injected serialization failure (probe %%)', NEW.key USING ERRCODE = '40001';
				END IF;
			ELSIF random() < %g THEN
				PERFORM nextval('canopy_test_injections');
				RAISE EXCEPTION 'injected serialization failure' USING ERRCODE = '40001';
			END IF;
			RETURN NEW;
		END $$`, injectProbability),
		`CREATE TRIGGER canopy_test_inject BEFORE INSERT OR UPDATE ON canopy_revisions
			FOR EACH ROW EXECUTE FUNCTION canopy_test_inject()`,
	)
	hub2 := openBackend(t, crdbURL)
	stores := []*Store{newPodStore(hub1), newPodStore(hub2)}

	startRev, err := hub1.CurrentRevision(ctx)
	if err != nil {
		t.Fatal(err)
	}
	watchers := make([]*crdbEventLog, len(stores))
	for i, s := range stores {
		watchers[i] = crdbWatchAll(ctx, t, s, startRev)
	}

	// The writers: on each hub, workers that create their own keys, delete
	// two of them midway and otherwise increment any created key's counter.
	l := &crdbAckLog{}
	var createdKeys struct {
		sync.Mutex
		keys []string
	}
	deleteAt := map[int]int{stepsPerWorker / 2: 0, 3 * stepsPerWorker / 4: 1} // step: own key
	var wg sync.WaitGroup
	for hub, s := range stores {
		for w := range workersPerHub {
			wg.Go(func() {
				rng := rand.New(rand.NewPCG(uint64(hub), uint64(w)))
				c := &crdbClient{t: t, s: s, hub: hub, log: l, attempts: crdbClientAttempts}
				own := func(i int) string { return fmt.Sprintf("/pods/hub%d-w%d/pod-%d", hub, w, i) }
				for step := range stepsPerWorker {
					// Think time, so that neither hub holds the counter
					// row all the time and their writes interleave.
					time.Sleep(time.Duration(rng.IntN(40000)) * time.Microsecond)
					ownKey, deleting := deleteAt[step]
					switch {
					case ctx.Err() != nil:
						return
					case step < keysPerWorker:
						if c.create(ctx, own(step)) {
							createdKeys.Lock()
							createdKeys.keys = append(createdKeys.keys, own(step))
							createdKeys.Unlock()
						}
					case deleting:
						c.delete(ctx, own(ownKey))
					default:
						createdKeys.Lock()
						key := createdKeys.keys[rng.IntN(len(createdKeys.keys))]
						createdKeys.Unlock()
						c.increment(ctx, key)
					}
				}
			})
		}
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}

	// A genuine conflict, made certain: a write on hub2 waits for the
	// counter row that a write on hub1 holds, so its snapshot is older
	// than hub1's commit.
	crdbGenuineConflict(ctx, t, admin, stores, l)

	// Batches that are certainly retried: a create, an update and a delete,
	// then a write of a probe key, whose first attempt always fails. Only a
	// rerun of the whole batch gets past it, and the create would find its
	// own first attempt's row if the rollback had not removed it.
	for round := range probeRounds {
		crdbRetriedBatch(ctx, t, stores[0], l, round)
	}

	injections := crdbSequenceValue(ctx, t, admin, "canopy_test_injections")
	crdbExec(t, admin, `DROP TRIGGER canopy_test_inject ON canopy_revisions`)
	// With the injector gone, writes go through at the first attempt.
	for _, s := range stores {
		c := &crdbClient{t: t, s: s, log: l, attempts: 1}
		c.increment(ctx, l.liveKey(t))
	}
	if after := crdbSequenceValue(ctx, t, admin, "canopy_test_injections"); after != injections {
		t.Errorf("%d failures injected after the trigger was dropped", after-injections)
	}

	final, err := hub1.CurrentRevision(ctx)
	if err != nil {
		t.Fatal(err)
	}
	acks := l.sorted()
	stats := l.stats()
	t.Logf("%d acknowledged writes, revisions %d..%d; %d serialization failures injected; "+
		"client-visible failures after crdb.ExecuteTx gave up: %d genuine (concurrent update), %d injected; "+
		"%d switches between the hubs in revision order",
		len(acks), startRev+1, final, injections, stats.genuine, stats.injected, crdbSwitches(acks))
	if injections == 0 {
		t.Error("no serialization failure was injected: the retry path was not exercised")
	}
	if crdbSwitches(acks) == 0 {
		t.Error("the two hubs' writes never interleaved")
	}

	crdbCheckAcks(t, acks, startRev, final)
	crdbCheckRows(ctx, t, admin, acks, startRev, final)
	crdbCheckFinalState(ctx, t, stores[1], acks)
	for i, w := range watchers {
		crdbCheckWatch(t, fmt.Sprintf("hub%d's watch", i), w, acks, final)
	}
}

func crdbExec(t *testing.T, db *sql.DB, stmts ...string) {
	t.Helper()
	for _, stmt := range stmts {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
}

// crdbSequenceValue reads how many values nextval has handed out.
func crdbSequenceValue(ctx context.Context, t *testing.T, db *sql.DB, seq string) int64 {
	t.Helper()
	var n int64
	if err := db.QueryRowContext(ctx, `SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM `+seq).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

type crdbWriteKind string

const (
	crdbCreated    crdbWriteKind = "create"
	crdbUpdated    crdbWriteKind = "update"
	crdbDeleted    crdbWriteKind = "delete"
	crdbCountLabel               = "count"
)

// crdbAck is one acknowledged write: the revision it was given, and the
// counter the object held after it (for a deletion, the deleted object's).
type crdbAck struct {
	rev   int64
	key   string
	kind  crdbWriteKind
	count int
	hub   int
}

type crdbAckLog struct {
	mu   sync.Mutex
	acks []crdbAck
	// Failures that crdb.ExecuteTx gave up on, by cause, which the
	// clients then retried.
	genuine, injected int
}

func (l *crdbAckLog) add(a crdbAck) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.acks = append(l.acks, a)
}

func (l *crdbAckLog) sorted() []crdbAck {
	l.mu.Lock()
	defer l.mu.Unlock()
	acks := slices.Clone(l.acks)
	slices.SortFunc(acks, func(a, b crdbAck) int { return int(a.rev - b.rev) })
	return acks
}

func (l *crdbAckLog) stats() struct{ genuine, injected int } {
	l.mu.Lock()
	defer l.mu.Unlock()
	return struct{ genuine, injected int }{l.genuine, l.injected}
}

// liveKey is a key whose last acknowledged write is not a deletion.
func (l *crdbAckLog) liveKey(t *testing.T) string {
	last := map[string]crdbWriteKind{}
	for _, a := range l.sorted() {
		last[a.key] = a.kind
	}
	for key, kind := range last {
		if kind != crdbDeleted {
			return key
		}
	}
	t.Fatal("no live key")
	return ""
}

// crdbClient issues writes as an API client would: a 500 is retried, anything
// else is an outcome.
type crdbClient struct {
	t        *testing.T
	s        *Store
	hub      int
	log      *crdbAckLog
	attempts int
}

// retriable tells a failure that left nothing behind (the transaction was
// rolled back) and may be retried, and counts it.
func (c *crdbClient) retriable(err error) bool {
	if !apierrors.IsInternalError(err) {
		return false
	}
	msg := err.Error()
	c.log.mu.Lock()
	switch {
	case strings.Contains(msg, "injected serialization failure"):
		c.log.injected++
	case strings.Contains(msg, "could not serialize access"):
		c.log.genuine++
	default:
		c.log.mu.Unlock()
		return false
	}
	c.log.mu.Unlock()
	time.Sleep(time.Duration(rand.IntN(3000)) * time.Microsecond)
	return true
}

func (c *crdbClient) record(key string, kind crdbWriteKind, pod *example.Pod) {
	c.t.Helper()
	rev, err := strconv.ParseInt(pod.ResourceVersion, 10, 64)
	if err != nil {
		c.t.Errorf("%s %s: resourceVersion %q: %v", kind, key, pod.ResourceVersion, err)
		return
	}
	n, err := strconv.Atoi(pod.Labels[crdbCountLabel])
	if err != nil {
		c.t.Errorf("%s %s: counter %q: %v", kind, key, pod.Labels[crdbCountLabel], err)
		return
	}
	c.log.add(crdbAck{rev: rev, key: key, kind: kind, count: n, hub: c.hub})
}

func crdbNewPod(key string) *example.Pod {
	parts := strings.Split(key, "/")
	return &example.Pod{ObjectMeta: metav1.ObjectMeta{
		Namespace: parts[2], Name: parts[3], Labels: map[string]string{crdbCountLabel: "0"},
	}}
}

// create creates key; every attempt after a failure must still find the key
// absent, or the failed attempt was applied.
func (c *crdbClient) create(ctx context.Context, key string) bool {
	c.t.Helper()
	for range c.attempts {
		out := &example.Pod{}
		err := c.s.Create(ctx, key, crdbNewPod(key), out, 0)
		switch {
		case err == nil:
			c.record(key, crdbCreated, out)
			return true
		case storage.IsExist(err):
			c.t.Errorf("create %s: %v: a failed or retried attempt was applied", key, err)
			return false
		case !c.retriable(err):
			c.t.Errorf("create %s: %v", key, err)
			return false
		}
	}
	c.t.Errorf("create %s: still failing after %d attempts", key, c.attempts)
	return false
}

func (c *crdbClient) increment(ctx context.Context, key string) {
	c.t.Helper()
	for range c.attempts {
		out := &example.Pod{}
		err := c.s.GuaranteedUpdate(ctx, key, out, false, nil,
			func(input runtime.Object, _ storage.ResponseMeta) (runtime.Object, *uint64, error) {
				pod := input.(*example.Pod).DeepCopy()
				n, err := strconv.Atoi(pod.Labels[crdbCountLabel])
				if err != nil {
					return nil, nil, err
				}
				pod.Labels[crdbCountLabel] = strconv.Itoa(n + 1)
				return pod, nil, nil
			}, nil)
		switch {
		case err == nil:
			c.record(key, crdbUpdated, out)
			return
		case storage.IsNotFound(err):
			return // deleted meanwhile
		case !c.retriable(err):
			c.t.Errorf("increment %s: %v", key, err)
			return
		}
	}
	c.t.Errorf("increment %s: still failing after %d attempts", key, c.attempts)
}

// delete deletes key, which only this client deletes: a retry that finds
// it gone means the failed attempt was applied.
func (c *crdbClient) delete(ctx context.Context, key string) {
	c.t.Helper()
	for range c.attempts {
		out := &example.Pod{}
		err := c.s.Delete(ctx, key, out, nil, storage.ValidateAllObjectFunc, nil, storage.DeleteOptions{})
		switch {
		case err == nil:
			c.record(key, crdbDeleted, out)
			return
		case storage.IsNotFound(err):
			c.t.Errorf("delete %s: %v: a failed or retried attempt was applied", key, err)
			return
		case !c.retriable(err):
			c.t.Errorf("delete %s: %v", key, err)
			return
		}
	}
	c.t.Errorf("delete %s: still failing after %d attempts", key, c.attempts)
}

// crdbRetriedBatch commits one batch, through the writer's own commit, whose last
// write fails on its first attempt, and checks that the rerun applied each
// write exactly once in one transaction.
func crdbRetriedBatch(ctx context.Context, t *testing.T, s *Store, l *crdbAckLog, round int) {
	t.Helper()
	c := &crdbClient{t: t, s: s, log: l, attempts: 50}
	dir := fmt.Sprintf("/pods/probe-%d/", round)
	toUpdate, toDelete := dir+"b-update", dir+"c-delete"
	if !c.create(ctx, toUpdate) || !c.create(ctx, toDelete) {
		t.FailNow()
	}
	current := func(key string) int64 {
		rec, err := s.b.current(ctx, key)
		if err != nil || rec == nil {
			t.Fatalf("reading %s: %v (found %v)", key, err, rec != nil)
		}
		return rec.modRev
	}
	stored := func(key string, count int) []byte {
		pod := crdbNewPod(key)
		pod.Labels[crdbCountLabel] = strconv.Itoa(count)
		data, err := runtime.Encode(s.codec, pod)
		if err != nil {
			t.Fatal(err)
		}
		if data, err = s.transformer.TransformToStorage(ctx, data, authenticatedData(key)); err != nil {
			t.Fatal(err)
		}
		return data
	}
	probeKey := fmt.Sprintf("/pods/retry-probe/round-%d", round)
	batch := []*op{
		{key: dir + "a-create", value: stored(dir+"a-create", 0)},
		{key: toUpdate, value: stored(toUpdate, 1), expect: current(toUpdate)},
		{key: toDelete, expect: current(toDelete)},
		{key: probeKey, value: stored(probeKey, 0)},
	}
	kinds := []crdbWriteKind{crdbCreated, crdbUpdated, crdbDeleted, crdbCreated}
	counts := []int{0, 1, 0, 0}
	probesBefore := crdbSequenceValue(ctx, t, s.b.db, "canopy_test_probe")
	s.b.commit(ctx, batch, nil)
	if probes := crdbSequenceValue(ctx, t, s.b.db, "canopy_test_probe") - probesBefore; probes != 2 {
		t.Errorf("probe round %d: the probe key was written %d times, want 2 (one injected failure, one success)", round, probes)
	}
	for i, o := range batch {
		if o.err != nil || !o.applied {
			// A create that is not applied is what Create reports as
			// "already exists": the batch's first attempt leaked into its rerun.
			t.Fatalf("probe round %d: %s %s: applied %v, err %v", round, kinds[i], o.key, o.applied, o.err)
		}
		if i > 0 && o.rev != batch[i-1].rev+1 {
			t.Errorf("probe round %d: revisions %d then %d, want consecutive", round, batch[i-1].rev, o.rev)
		}
		l.add(crdbAck{rev: o.rev, key: o.key, kind: kinds[i], count: counts[i]})
	}
	// Rows written in one attempt of one transaction share their xmin.
	var attempts int
	if err := s.b.db.QueryRowContext(ctx, `SELECT count(DISTINCT xmin::text) FROM canopy_revisions WHERE rev BETWEEN $1 AND $2`,
		batch[0].rev, batch[len(batch)-1].rev).Scan(&attempts); err != nil {
		t.Fatal(err)
	}
	if attempts != 1 {
		t.Errorf("probe round %d: the batch was committed by %d transactions, want 1", round, attempts)
	}
}

// crdbGenuineConflict makes hub2 write while hub1's transaction holds the
// revision counter, and checks that hub2's client got a genuine
// serialization failure that left nothing behind, then succeeded.
func crdbGenuineConflict(ctx context.Context, t *testing.T, admin *sql.DB, stores []*Store, l *crdbAckLog) {
	t.Helper()
	waitFor := func(what, query string) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			var n int
			if err := admin.QueryRowContext(ctx, query).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n > 0 {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s", what)
			}
			time.Sleep(2 * time.Millisecond)
		}
	}
	const activity = `SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND `
	before := l.stats().genuine
	var wg sync.WaitGroup
	var ok1, ok2 bool
	wg.Go(func() {
		c := &crdbClient{t: t, s: stores[0], hub: 0, log: l, attempts: crdbClientAttempts}
		ok1 = c.create(ctx, "/pods/slow-probe/holder")
	})
	waitFor("hub1 to hold the counter row", activity+`wait_event = 'PgSleep'`)
	wg.Go(func() {
		c := &crdbClient{t: t, s: stores[1], hub: 1, log: l, attempts: crdbClientAttempts}
		ok2 = c.create(ctx, "/pods/contender/waiter")
	})
	waitFor("hub2 to wait for the counter row", activity+`wait_event_type = 'Lock'`)
	wg.Wait()
	if !ok1 || !ok2 {
		t.FailNow()
	}
	if l.stats().genuine == before {
		t.Error("the write that waited for the counter row got no serialization failure")
	}
}

// crdbSwitches counts the changes of hub along the revisions.
func crdbSwitches(acks []crdbAck) int {
	n := 0
	for i := 1; i < len(acks); i++ {
		if acks[i].hub != acks[i-1].hub {
			n++
		}
	}
	return n
}

// crdbCheckAcks: the acknowledged revisions are exactly every revision after
// startRev, each once, and each key's counter went up by one per
// acknowledged increment.
func crdbCheckAcks(t *testing.T, acks []crdbAck, startRev, final int64) {
	t.Helper()
	if want := final - startRev; int64(len(acks)) != want {
		t.Errorf("%d acknowledged writes, but the revision went from %d to %d", len(acks), startRev, final)
	}
	for i, a := range acks {
		if want := startRev + 1 + int64(i); a.rev != want {
			t.Fatalf("acknowledged revisions are not dense: #%d is %d (%s %s), want %d", i, a.rev, a.kind, a.key, want)
		}
	}
	count := map[string]int{}
	exists := map[string]bool{}
	for _, a := range acks {
		switch a.kind {
		case crdbCreated:
			if exists[a.key] {
				t.Errorf("rev %d: %s created twice", a.rev, a.key)
			}
			exists[a.key], count[a.key] = true, 0
		case crdbUpdated:
			count[a.key]++
		case crdbDeleted:
			exists[a.key] = false
		}
		if !exists[a.key] && a.kind != crdbDeleted {
			t.Errorf("rev %d: %s %s of a key that does not exist", a.rev, a.kind, a.key)
		}
		if a.count != count[a.key] {
			t.Errorf("rev %d: %s %s left counter %d, want %d acknowledged increments", a.rev, a.kind, a.key, a.count, count[a.key])
		}
	}
}

// crdbCheckRows: canopy_revisions holds exactly one row per revision, each the
// acknowledged write, chained to the key's previous version.
func crdbCheckRows(ctx context.Context, t *testing.T, db *sql.DB, acks []crdbAck, startRev, final int64) {
	t.Helper()
	var counter int64
	if err := db.QueryRowContext(ctx, `SELECT value FROM canopy_meta WHERE name = 'rev'`).Scan(&counter); err != nil || counter != final {
		t.Errorf("counter row %d (%v), want %d", counter, err, final)
	}
	rows, err := db.QueryContext(ctx, `SELECT rev, key, create_rev, prev_rev, superseded_rev, value IS NULL FROM canopy_revisions ORDER BY rev`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	type row struct {
		rev, createRev, prevRev int64
		superseded              sql.NullInt64
		key                     string
		tombstone               bool
	}
	last := map[string]row{}
	want := startRev + 1
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.rev, &r.key, &r.createRev, &r.prevRev, &r.superseded, &r.tombstone); err != nil {
			t.Fatal(err)
		}
		if r.rev != want {
			t.Fatalf("canopy_revisions: rev %d where %d was due: revisions must be dense, with no duplicates", r.rev, want)
		}
		a := acks[r.rev-startRev-1]
		if r.key != a.key || r.tombstone != (a.kind == crdbDeleted) {
			t.Errorf("rev %d: row for %s (tombstone %v), but the acknowledged write is %s %s", r.rev, r.key, r.tombstone, a.kind, a.key)
		}
		prev, had := last[r.key]
		switch {
		case a.kind == crdbCreated:
			if r.prevRev != 0 || r.createRev != r.rev {
				t.Errorf("rev %d: creation of %s has prev_rev %d create_rev %d", r.rev, r.key, r.prevRev, r.createRev)
			}
		case !had || r.prevRev != prev.rev || r.createRev != prev.createRev:
			t.Errorf("rev %d: %s of %s has prev_rev %d create_rev %d, want %d and %d", r.rev, a.kind, r.key, r.prevRev, r.createRev, prev.rev, prev.createRev)
		}
		if had && !prev.tombstone && prev.superseded.Int64 != r.rev {
			t.Errorf("rev %d of %s is superseded by %v, want %d", prev.rev, r.key, prev.superseded, r.rev)
		}
		if r.tombstone && r.superseded.Int64 != r.rev {
			t.Errorf("tombstone %d of %s is superseded by %v, want itself", r.rev, r.key, r.superseded)
		}
		last[r.key] = r
		want++
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if want != final+1 {
		t.Errorf("canopy_revisions ends at %d, want %d", want-1, final)
	}
	for key, r := range last {
		if !r.tombstone && r.superseded.Valid {
			t.Errorf("%s: its last version %d is superseded by %d, which does not exist", key, r.rev, r.superseded.Int64)
		}
	}
}

// crdbCheckFinalState: a list shows each key as its last acknowledged write
// left it, and nothing else.
func crdbCheckFinalState(ctx context.Context, t *testing.T, s *Store, acks []crdbAck) {
	t.Helper()
	want := map[string]crdbAck{}
	for _, a := range acks {
		if a.kind == crdbDeleted {
			delete(want, a.key)
		} else {
			want[a.key] = a
		}
	}
	list := &example.PodList{}
	if err := s.GetList(ctx, "/pods/", storage.ListOptions{Recursive: true, Predicate: storage.Everything}, list); err != nil {
		t.Fatal(err)
	}
	for _, pod := range list.Items {
		key := "/pods/" + pod.Namespace + "/" + pod.Name
		a, ok := want[key]
		delete(want, key)
		switch {
		case !ok:
			t.Errorf("%s exists, but no acknowledged write left it so", key)
		case pod.ResourceVersion != strconv.FormatInt(a.rev, 10) || pod.Labels[crdbCountLabel] != strconv.Itoa(a.count):
			t.Errorf("%s is at revision %s with counter %s, want %d and %d", key, pod.ResourceVersion, pod.Labels[crdbCountLabel], a.rev, a.count)
		}
	}
	for key := range want {
		t.Errorf("%s is missing", key)
	}
}

// crdbEventLog collects a watch's events.
type crdbEventLog struct {
	mu     sync.Mutex
	events []watch.Event
	last   int64
	seen   chan struct{} // signalled on every event
}

func crdbWatchAll(ctx context.Context, t *testing.T, s *Store, fromRev int64) *crdbEventLog {
	t.Helper()
	w, err := s.Watch(ctx, "/pods/", storage.ListOptions{
		ResourceVersion: strconv.FormatInt(fromRev, 10), Recursive: true, Predicate: storage.Everything,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	l := &crdbEventLog{seen: make(chan struct{}, 1)}
	go func() {
		for ev := range w.ResultChan() {
			l.mu.Lock()
			l.events = append(l.events, ev)
			if pod, ok := ev.Object.(*example.Pod); ok {
				if rev, err := strconv.ParseInt(pod.ResourceVersion, 10, 64); err == nil {
					l.last = rev
				}
			}
			l.mu.Unlock()
			select {
			case l.seen <- struct{}{}:
			default:
			}
		}
	}()
	return l
}

// crdbCheckWatch: the watch delivered every acknowledged write once, in
// revision order, as the event its kind makes.
func crdbCheckWatch(t *testing.T, name string, l *crdbEventLog, acks []crdbAck, final int64) {
	t.Helper()
	deadline := time.After(15 * time.Second)
	for {
		l.mu.Lock()
		last, n := l.last, len(l.events)
		l.mu.Unlock()
		if last >= final {
			break
		}
		select {
		case <-l.seen:
		case <-deadline:
			t.Errorf("%s: after %d events it is at revision %d, want %d", name, n, last, final)
			return
		}
	}
	l.mu.Lock()
	events := slices.Clone(l.events)
	l.mu.Unlock()
	eventType := map[crdbWriteKind]watch.EventType{crdbCreated: watch.Added, crdbUpdated: watch.Modified, crdbDeleted: watch.Deleted}
	if len(events) != len(acks) {
		t.Errorf("%s: %d events for %d acknowledged writes", name, len(events), len(acks))
	}
	for i := range min(len(events), len(acks)) {
		ev, a := events[i], acks[i]
		pod, ok := ev.Object.(*example.Pod)
		if !ok {
			t.Fatalf("%s: event #%d is %s %#v", name, i, ev.Type, ev.Object)
		}
		got := fmt.Sprintf("%s /pods/%s/%s rev %s count %s", ev.Type, pod.Namespace, pod.Name, pod.ResourceVersion, pod.Labels[crdbCountLabel])
		if want := fmt.Sprintf("%s %s rev %d count %d", eventType[a.kind], a.key, a.rev, a.count); got != want {
			t.Fatalf("%s: event #%d is %s, want %s", name, i, got, want)
		}
	}
}
