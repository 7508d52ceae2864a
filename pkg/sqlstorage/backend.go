package sqlstorage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
	"k8s.io/apiserver/pkg/storage"
	etcdfeature "k8s.io/apiserver/pkg/storage/feature"
	"k8s.io/klog/v2"
)

// Options tune a Backend. The zero value means the defaults.
type Options struct {
	// PollInterval bounds how late a write made by another process on the
	// same database reaches this process's watchers. Local writes are seen
	// at once. On PostgreSQL it is the least time between two polls, which
	// only announced commits start (notify.go); elsewhere, how often the
	// poller polls. Default 20ms.
	PollInterval time.Duration
	// ProgressInterval is how often idle ProgressNotify watches get a
	// bookmark. Default 5s.
	ProgressInterval time.Duration
	// CompactInterval is how often history older than one interval is
	// compacted. Default 5m; negative disables background compaction.
	CompactInterval time.Duration
	// HistoryEvents is how many recent events are kept in memory for
	// watchers to start from without reading the database. Default 10000.
	HistoryEvents int
	// MaxBatch caps how many concurrent writes share one transaction.
	// Default 256.
	MaxBatch int
	// WriteTimeout bounds one write transaction. Default 10s.
	WriteTimeout time.Duration
	// TracerProvider makes a span of each statement run for a traced
	// request. Default: a no-op provider, which records nothing.
	TracerProvider trace.TracerProvider

	// deaf keeps a PostgreSQL backend from listening for announced
	// commits, so that, like one on SQLite, it polls only every
	// PollInterval or when kicked. Tests set it to hold a process's
	// poller behind the database, as a hub cut off for a while is.
	deaf bool
}

func (o *Options) setDefaults() {
	if o.PollInterval <= 0 {
		o.PollInterval = 20 * time.Millisecond
	}
	if o.ProgressInterval <= 0 {
		o.ProgressInterval = 5 * time.Second
	}
	if o.CompactInterval == 0 {
		o.CompactInterval = 5 * time.Minute
	}
	if o.HistoryEvents <= 0 {
		o.HistoryEvents = 10000
	}
	if o.MaxBatch <= 0 {
		o.MaxBatch = 256
	}
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = 10 * time.Second
	}
	if o.TracerProvider == nil {
		o.TracerProvider = noop.NewTracerProvider()
	}
}

// Backend is one process's connection to the database. It is shared by the
// stores of every resource: it owns the single write queue, the single
// change poller and the in-memory event history that all watchers read.
type Backend struct {
	d    *dialect
	db   *sql.DB
	opts Options

	writes chan *op
	// ledger carries the charges of creates from admission to the stores.
	ledger Ledger

	tracer trace.Tracer
	// system is the db.system attribute of every span.
	system attribute.KeyValue

	mu sync.Mutex
	// history holds the events after firstRev-1 up to lastRev, with no gap.
	history    []event
	lastRev    int64
	compactRev int64
	// changed is closed and replaced whenever history grows or a progress
	// round starts, waking every watcher that waits on it.
	changed  chan struct{}
	progress uint64
	// rewinds counts the times the database lost revisions this process
	// had seen (see failover.go).
	rewinds uint64

	progressWanted atomic.Bool
	pollNow        chan struct{}
	// notified wakes the poller for a commit another process announced,
	// which it polls for no sooner than PollInterval after its last poll.
	notified chan struct{}
	// polls counts the polls made, for tests that idle is free.
	polls atomic.Uint64

	// The LISTEN connection (notify.go): listening while it is up;
	// announced, the newest revision it heard of; stopListening drops it.
	listening     atomic.Bool
	announced     atomic.Int64
	listenMu      sync.Mutex
	stopListening context.CancelFunc
	// pollErr is the last poll's failure, nil once a poll succeeds.
	pollErr atomic.Pointer[error]

	cancel context.CancelFunc
	wg     sync.WaitGroup

	// rangeRead, when set, sees every range read a list makes, as
	// (first key, revision, limit); the conformance suite checks with it
	// what the watch cache delegates to storage.
	rangeRead func(ctx context.Context, from string, rev int64, limit int64)
}

// event is one committed revision, as watchers consume it.
type event struct {
	rev, createRev int64
	key            string
	// value is nil for a deletion; prevValue is nil for a creation.
	value, prevValue []byte
}

// Open connects to the datastore named by url, creates the schema when it
// is missing and starts the background loops.
func Open(ctx context.Context, url string, opts Options) (*Backend, error) {
	d, err := parseDatastore(url)
	if err != nil {
		return nil, err
	}
	opts.setDefaults()
	// A server found fenced off also ends the LISTEN connection to it,
	// which, waiting, would learn of it only at its next safety ping.
	var self atomic.Pointer[Backend]
	db, err := d.open(func() {
		if b := self.Load(); b != nil {
			b.relisten()
		}
	})
	if err != nil {
		return nil, fmt.Errorf("opening %s datastore: %w", d.name, err)
	}
	for _, stmt := range d.schema() {
		if _, err := db.ExecContext(ctx, stmt); err != nil {
			_ = db.Close()
			if isReadOnly(err) {
				return nil, fmt.Errorf("creating the %s schema: the server is read-only, a standby: point --datastore at the primary, "+
					"or name every server in it with target_session_attrs=read-write: %w", d.name, err)
			}
			return nil, fmt.Errorf("creating the %s schema: %w", d.name, err)
		}
	}
	b := &Backend{
		d: d, db: db, opts: opts,
		writes:   make(chan *op, opts.MaxBatch),
		tracer:   opts.TracerProvider.Tracer("github.com/canopy-dev/canopy/pkg/sqlstorage"),
		system:   attribute.String("db.system", d.system),
		changed:  make(chan struct{}),
		pollNow:  make(chan struct{}, 1),
		notified: make(chan struct{}, 1),
	}
	rev, compact, err := b.counters(ctx)
	if err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("reading the revision counter: %w", err)
	}
	self.Store(b)
	b.lastRev, b.compactRev = rev, compact
	etcdfeature.DefaultFeatureSupportChecker.CheckClient(ctx, progressSupport{}, storage.RequestWatchProgress)
	loopCtx, cancel := context.WithCancel(context.Background())
	b.cancel = cancel
	for _, loop := range []func(context.Context){b.writeLoop, b.pollLoop, b.listenLoop, b.expiryLoop, b.compactLoop} {
		b.wg.Add(1)
		go func() {
			defer b.wg.Done()
			loop(loopCtx)
		}()
	}
	return b, nil
}

// progressSupport tells the watch cache that this store answers
// RequestWatchProgress, which it needs for consistent reads from cache and
// for WatchList. Its checker only knows etcd versions, so the store reports
// itself as the first etcd release whose progress requests it trusts.
type progressSupport struct{}

func (progressSupport) Endpoints() []string { return []string{"canopy-sql"} }

func (progressSupport) Status(context.Context, string) (*clientv3.StatusResponse, error) {
	return &clientv3.StatusResponse{Version: "3.6.0"}, nil
}

// Close stops the background loops and closes the database pool.
func (b *Backend) Close() error {
	b.cancel()
	b.wg.Wait()
	return b.db.Close()
}

func (b *Backend) counters(ctx context.Context) (rev, compact int64, err error) {
	rows, err := b.db.QueryContext(ctx, `SELECT name, value FROM canopy_meta`)
	if err != nil {
		return 0, 0, err
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		var v int64
		if err := rows.Scan(&name, &v); err != nil {
			return 0, 0, err
		}
		switch name {
		case "rev":
			rev = v
		case "compact_rev":
			compact = v
		}
	}
	return rev, compact, rows.Err()
}

// CurrentRevision reads the revision of the last committed write.
func (b *Backend) CurrentRevision(ctx context.Context) (int64, error) {
	rev, _, err := b.counters(ctx)
	return rev, wrapDBError(err)
}

// CompactRevision is the highest revision compacted so far, as last seen.
func (b *Backend) CompactRevision() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.compactRev
}

// wrapDBError turns a database failure into an API error that says what is
// wrong; an unreachable database is a 503 so that clients retry.
func wrapDBError(err error) error {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	if isReadOnly(err) {
		return errReadOnly(err)
	}
	if isUnavailable(err) {
		return errUnavailable(err)
	}
	return errInternal(err)
}

// readiness fails while the database cannot be polled.
func (b *Backend) readiness() error {
	if err := b.pollErr.Load(); err != nil {
		return *err
	}
	return nil
}

func (b *Backend) broadcastLocked() {
	close(b.changed)
	b.changed = make(chan struct{})
}

func (b *Backend) kickPoll() {
	select {
	case b.pollNow <- struct{}{}:
	default:
	}
}

// requestProgress asks for a bookmark on every ProgressNotify watch once the
// next poll has brought history up to date with the database.
func (b *Backend) requestProgress() {
	b.progressWanted.Store(true)
	b.kickPoll()
}

// pollLoop polls when asked (pollNow), when another process announced a
// commit, and otherwise every idlePoll: PollInterval, or only now and
// then while the LISTEN connection is up (notify.go).
func (b *Backend) pollLoop(ctx context.Context) {
	idle := time.NewTimer(b.opts.PollInterval)
	defer idle.Stop()
	progress := time.NewTicker(b.opts.ProgressInterval)
	defer progress.Stop()
	// due is set while an announced commit waits for PollInterval to pass
	// since the last poll: under load, announcements come with every
	// commit of every process, and polls no more often than they did
	// without them, each reading what all of those committed.
	var due <-chan time.Time
	var last time.Time
	for {
		safety, announced := false, false
		select {
		case <-ctx.Done():
			return
		case <-idle.C:
			safety = b.listening.Load()
		case <-b.pollNow:
		case <-b.notified:
			if wait := b.opts.PollInterval - time.Since(last); wait > 0 {
				if due == nil {
					due = time.After(wait)
				}
				continue
			}
			announced = true
		case <-due:
			announced = true
		case <-progress.C:
			b.progressWanted.Store(true)
		}
		// Whatever woke it, this poll reads what an announcement waited for.
		due = nil
		last = time.Now()
		// A database that hangs must fail readiness, not stall the poller.
		pollCtx, cancel := context.WithTimeout(ctx, b.opts.WriteTimeout)
		read, err := b.poll(pollCtx, b.pollErr.Load() != nil, announced)
		timedOut := pollCtx.Err() != nil
		cancel()
		if err != nil && ctx.Err() == nil {
			klog.V(2).InfoS("Polling the datastore for changes failed; will retry", "err", err)
			if timedOut {
				err = errUnavailable(fmt.Errorf("no answer within %v: %w", b.opts.WriteTimeout, err))
			} else {
				err = wrapDBError(err)
			}
			b.pollErr.Store(&err)
		} else {
			b.pollErr.Store(nil)
		}
		if safety && read > b.announced.Load() {
			klog.V(2).InfoS("A poll found commits the listener did not hear of; listening again", "rev", read, "announced", b.announced.Load())
			b.relisten()
		}
		idle.Reset(b.idlePoll())
	}
}

// poll appends every revision committed since the last poll to the history.
// Revisions are dense and become visible in order, so "rev > lastRev" can
// never skip a write that commits later. After a failed poll, verify checks
// first that the database still has the history this process saw: the
// failure may have been a failover.
//
// A poll for an announced commit (announced) reads the rows alone, in one
// round trip instead of two: one statement's snapshot holds every commit
// up to some revision and none after, so the rows after lastRev it sees
// are the revisions that follow, with no gap. The counters, which tell
// the compacted revision and where the present is after a gap, are read
// by the other polls, the progress rounds every ProgressInterval among
// them, and by a poll that finds a gap.
//
// read is the newest revision the poll itself read from the database,
// 0 when none: commits this process appended as it made them are not
// read again.
func (b *Backend) poll(ctx context.Context, verify, announced bool) (read int64, err error) {
	b.polls.Add(1)
	// upto bounds the read; 0 reads every visible row.
	var upto int64
	if !announced || verify {
		rev, compact, err := b.counters(ctx)
		if err != nil {
			return 0, err
		}
		if verify {
			if err := b.verifyHistory(ctx, rev); err != nil {
				return 0, err
			}
		}
		b.mu.Lock()
		if compact > b.compactRev {
			b.compactRev = compact
		}
		b.mu.Unlock()
		upto = rev
	}
	const page = 1000
	for last := b.lastSeen(); upto == 0 || last < upto; {
		evs, err := b.readEvents(ctx, last, upto, page)
		if err != nil {
			return read, err
		}
		more := len(evs) == page
		b.mu.Lock()
		// The writer may have appended this process's own commits meanwhile.
		last = b.lastRev
		evs = evs[sort.Search(len(evs), func(i int) bool { return evs[i].rev > last }):]
		switch {
		case upto > 0 && last >= upto:
		case upto == 0 && len(evs) == 0:
		case !dense(evs, last) && upto == 0:
			// Where the present is, only the counter says.
			b.mu.Unlock()
			r, err := b.poll(ctx, verify, false)
			return max(read, r), err
		case !dense(evs, last):
			// This process was cut off for longer than history is kept:
			// the revisions in between are compacted away. Restart history
			// at the present; watchers still behind will get 410 Gone.
			klog.InfoS("Watch history restarted after a gap in the datastore", "from", last, "to", upto)
			b.history = nil
			b.lastRev = upto
			b.broadcastLocked()
		default:
			b.appendLocked(evs)
			read = b.lastRev
		}
		last = b.lastRev
		b.mu.Unlock()
		if upto == 0 && !more {
			break
		}
	}
	if b.progressWanted.Swap(false) {
		b.mu.Lock()
		b.progress++
		b.broadcastLocked()
		b.mu.Unlock()
	}
	return read, nil
}

// appendLocked adds evs, which follow lastRev with no gap, to the history.
func (b *Backend) appendLocked(evs []event) {
	b.history = append(b.history, evs...)
	if n := len(b.history); n > 2*b.opts.HistoryEvents {
		b.history = append([]event(nil), b.history[n-b.opts.HistoryEvents:]...)
	}
	b.lastRev = evs[len(evs)-1].rev
	b.broadcastLocked()
}

// appendCommitted hands the writes this process just committed to its
// watchers without a round trip to the database. Only the run of them that
// follows lastRev with no gap goes in: if another process committed before
// or among them, the history would have a hole, so the poller reads the
// rest from the database. A batch is dense when one transaction commits it,
// but not when it failed and its writes were retried one by one, since
// other processes commit between those transactions.
func (b *Backend) appendCommitted(evs []event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for n < len(evs) && evs[n].rev == b.lastRev+1+int64(n) {
		n++
	}
	if n > 0 {
		b.appendLocked(evs[:n])
	}
	if n < len(evs) {
		b.kickPoll()
	}
}

// dense tells whether evs are exactly the revisions following after: they
// are unique and ordered, so that holds when the first and last fit. A
// hole means compaction removed revisions this reader never saw.
func dense(evs []event, after int64) bool {
	return len(evs) > 0 && evs[0].rev == after+1 && evs[len(evs)-1].rev == after+int64(len(evs))
}

// readEvents reads committed revisions in (after, upto], oldest first.
// upto <= 0 means no upper bound.
func (b *Backend) readEvents(ctx context.Context, after, upto int64, limit int) ([]event, error) {
	if upto <= 0 {
		upto = 1<<63 - 1
	}
	rows, err := b.db.QueryContext(ctx, b.d.sql(`
		SELECT r.rev, r.key, r.value, r.create_rev, p.value
		FROM canopy_revisions r LEFT JOIN canopy_revisions p ON p.rev = r.prev_rev
		WHERE r.rev > $1 AND r.rev <= $2 ORDER BY r.rev LIMIT $3`), after, upto, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var evs []event
	for rows.Next() {
		var e event
		if err := rows.Scan(&e.rev, &e.key, &e.value, &e.createRev, &e.prevValue); err != nil {
			return nil, err
		}
		evs = append(evs, e)
	}
	return evs, rows.Err()
}

// eventsAfter returns the in-memory events after rev, the progress round
// and a channel closed on the next change. ok is false when rev is older
// than the in-memory history, so the caller must read the database.
func (b *Backend) eventsAfter(rev int64, max int) (evs []event, progress uint64, changed <-chan struct{}, ok bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	first := b.lastRev + 1
	if len(b.history) > 0 {
		first = b.history[0].rev
	}
	if rev+1 < first {
		return nil, b.progress, b.changed, false
	}
	start := int(rev + 1 - first)
	if start < len(b.history) {
		end := min(len(b.history), start+max)
		evs = b.history[start:end:end]
	}
	return evs, b.progress, b.changed, true
}

// Compact drops the history at and below rev, keeping for every key the
// version that is current at rev. Reads and watches from older revisions
// then fail with 410 Gone, exactly as etcd's do.
func (b *Backend) Compact(ctx context.Context, rev int64) error {
	// The compacted revision is recorded, and committed, before any row goes:
	// a reader that sees a row missing is bound to see the new compact_rev.
	if _, err := b.db.ExecContext(ctx, b.d.sql(
		`UPDATE canopy_meta SET value = $1 WHERE name = 'compact_rev' AND value < $1`), rev); err != nil {
		return wrapDBError(err)
	}
	b.mu.Lock()
	if rev > b.compactRev {
		b.compactRev = rev
	}
	b.mu.Unlock()
	for {
		res, err := b.db.ExecContext(ctx, b.d.sql(`
			DELETE FROM canopy_revisions WHERE rev IN (
				SELECT rev FROM canopy_revisions
				WHERE superseded_rev IS NOT NULL AND superseded_rev <= $1 LIMIT 1000)`), rev)
		if err != nil {
			return wrapDBError(err)
		}
		if n, _ := res.RowsAffected(); n < 1000 {
			return nil
		}
	}
}

func (b *Backend) compactLoop(ctx context.Context) {
	if b.opts.CompactInterval < 0 {
		return
	}
	t := time.NewTicker(b.opts.CompactInterval)
	defer t.Stop()
	var previous int64
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		// Compacting to the revision seen one interval ago keeps at least
		// one interval of history for watchers to resume from.
		if previous > 0 {
			if err := b.Compact(ctx, previous); err != nil && ctx.Err() == nil {
				klog.ErrorS(err, "Compacting the datastore failed", "rev", previous)
			}
		}
		rev, err := b.CurrentRevision(ctx)
		if err == nil {
			previous = rev
		}
	}
}

// expiryLoop deletes objects whose TTL has passed, through the ordinary
// write path so that watchers see a DELETE event. Several hubs may race to
// expire the same object; the revision precondition lets one win.
func (b *Backend) expiryLoop(ctx context.Context) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		rows, err := b.db.QueryContext(ctx, b.d.sql(`
			SELECT key, rev FROM canopy_revisions
			WHERE superseded_rev IS NULL AND expires_at IS NOT NULL AND expires_at <= $1 LIMIT 500`),
			time.Now().UnixMilli())
		if err != nil {
			continue
		}
		var ops []*op
		for rows.Next() {
			o := &op{done: make(chan struct{})}
			if rows.Scan(&o.key, &o.expect) == nil {
				ops = append(ops, o)
			}
		}
		_ = rows.Close()
		for _, o := range ops {
			_ = b.submit(ctx, o)
		}
	}
}
