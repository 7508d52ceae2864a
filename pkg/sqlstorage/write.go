package sqlstorage

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"go.opentelemetry.io/otel/trace"
)

// op is one conditional write: it applies only if the key's current version
// has mod revision expect (0: the key must not exist). A nil value deletes.
type op struct {
	key       string
	value     []byte
	expect    int64
	expiresAt int64 // unix milliseconds; 0 for no TTL
	// span is the write's span in its request's trace; invalid when the
	// request is not traced.
	span trace.SpanContext
	// charges are what a create pays to quotas in its transaction.
	charges []Charge

	// Results, valid once done is closed.
	applied   bool
	rev       int64     // the revision the write committed at
	createRev int64     // the revision that created the key
	prevValue []byte    // the version the write replaced, nil for a creation
	current   *kvRecord // the current version, when the precondition failed
	// refused is why a charge refused the create, which then took no revision.
	refused error
	// paid are the quota versions written for the charges of this write
	// and of earlier ones in its transaction.
	paid []event
	err  error
	done chan struct{}
}

// kvRecord is one stored version of a key.
type kvRecord struct {
	value     []byte
	modRev    int64
	createRev int64
}

// submit queues o for the writer and waits for its outcome.
func (b *Backend) submit(ctx context.Context, o *op) error {
	// A request whose time is up is not begun: its client has had its
	// 504 Timeout, and a select would queue it half the time anyway, as
	// both of its cases are ready. Once queued, its outcome is the
	// commit's, whatever the client was told.
	if err := ctx.Err(); err != nil {
		return err
	}
	select {
	case b.writes <- o:
	case <-ctx.Done():
		return ctx.Err()
	}
	<-o.done
	return o.err
}

// writeLoop is the process's single writer. Every write takes the row lock on
// the revision counter, so writes are serialized across all hub processes
// anyway; batching the writes that queue up meanwhile into one transaction
// turns that serialization into group commit instead of a bottleneck.
//
// A batch takes the writes queued when it starts, and again those queued
// while it waited for the counter's lock (join). With several processes,
// each one's transaction mostly waits for the others' to commit: writes
// that arrive meanwhile join the waiting transaction instead of the next
// one, so a process's group commits stay as large as a lone process's,
// instead of shrinking with every process added.
func (b *Backend) writeLoop(ctx context.Context) {
	batch := make([]*op, 0, b.opts.MaxBatch)
	for {
		batch = batch[:0]
		select {
		case <-ctx.Done():
			return
		case o := <-b.writes:
			batch = append(batch, o)
		}
		// Those queued now go too, so that a transaction that fails before
		// it holds the lock fails them all at once.
		batch = b.join(batch)
		began := time.Now()
		batch = b.commit(ctx, batch, b.join)
		endCommit(b.startCommit(batch, trace.WithTimestamp(began)), batch)
		b.appendCommitted(committedEvents(batch))
		for _, o := range batch {
			close(o.done)
		}
	}
}

// committedEvents are the versions batch wrote, in revision order.
func committedEvents(batch []*op) []event {
	var committed []event
	charged := false
	for _, o := range batch {
		if o.err != nil {
			continue
		}
		if o.applied {
			committed = append(committed, event{rev: o.rev, createRev: o.createRev, key: o.key, value: o.value, prevValue: o.prevValue})
		}
		committed = append(committed, o.paid...)
		charged = charged || len(o.paid) > 0
	}
	if charged {
		// A quota's version is reported with the last create charging it,
		// and written after it, when a later write touched the quota or the
		// batch ended.
		slices.SortFunc(committed, func(a, b event) int { return cmp.Compare(a.rev, b.rev) })
	}
	return committed
}

// join adds to batch the writes queued, up to MaxBatch in all, without
// waiting for any.
func (b *Backend) join(batch []*op) []*op {
	for len(batch) < b.opts.MaxBatch {
		select {
		case o := <-b.writes:
			batch = append(batch, o)
		default:
			return batch
		}
	}
	return batch
}

// commit applies batch in one transaction and sets each write's outcome.
// join, unless nil, adds writes to the batch once the transaction holds
// the counter's lock; commit returns the batch with them.
func (b *Backend) commit(ctx context.Context, batch []*op, join func([]*op) []*op) []*op {
	txCtx, cancel := context.WithTimeout(ctx, b.opts.WriteTimeout)
	defer cancel()
	// applied tells that apply ran to the end: a failure after it is the
	// COMMIT's, and the batch may then have been applied.
	var applied bool
	err := b.d.inTx(txCtx, b.db, func(tx *sql.Tx) error {
		var err error
		batch, err = b.apply(txCtx, tx, batch, join)
		// CockroachDB may run the transaction again: with the same writes.
		join = nil
		applied = err == nil
		return err
	})
	if err == nil {
		return batch
	}
	ambiguous := isAmbiguous(err) || (applied && !b.d.retrying)
	timedOut := txCtx.Err() != nil && ctx.Err() == nil
	if len(batch) > 1 && !ambiguous && !timedOut && !isUnavailable(err) {
		// One bad write must not fail the others that happened to share its
		// transaction: retry each alone to find the culprit. Only when the
		// batch surely was not applied, and the database answers.
		for _, o := range batch {
			b.commit(ctx, []*op{o}, nil)
		}
		return batch
	}
	switch {
	case ambiguous:
		err = errOutcomeUnknown(err)
	case timedOut:
		err = errUnavailable(fmt.Errorf("no answer within %v: %w", b.opts.WriteTimeout, err))
	default:
		err = wrapDBError(err)
	}
	for _, o := range batch {
		o.err = err
	}
	return batch
}

// apply runs the batch's writes in order inside tx, giving each applied
// write the next revision, and returns the batch: once it holds the
// counter's lock, join, unless nil, adds to it. It resets every result
// first, since CockroachDB may run it again after a serialization failure.
//
// A batch's creates take no round trip each: while the transaction holds
// the counter lock no other write can commit, so one query tells which of
// their keys exist, and one multi-row INSERT writes each run of creates (an
// update or deletion in between flushes the run first).
func (b *Backend) apply(ctx context.Context, tx *sql.Tx, batch []*op, join func([]*op) []*op) ([]*op, error) {
	var rev int64
	if err := tx.QueryRowContext(ctx, `SELECT value FROM canopy_meta WHERE name = 'rev'`+b.d.lockCounter).Scan(&rev); err != nil {
		return batch, err
	}
	if join != nil {
		batch = join(batch)
	}
	start := rev
	// current is nil when the batch has fewer than two creates: a single
	// create is cheaper as one INSERT ... ON CONFLICT DO NOTHING.
	current, err := currentVersions(ctx, tx, b.d, batch)
	if err != nil {
		return batch, err
	}
	var pending []any // rev, key, value, expires_at of each create not yet inserted
	flush := func() error {
		if len(pending) == 0 {
			return nil
		}
		var q strings.Builder
		q.WriteString(`INSERT INTO canopy_revisions (rev, key, value, create_rev, prev_rev, expires_at) VALUES `)
		for i := 0; i < len(pending); i += 4 {
			if i > 0 {
				q.WriteString(", ")
			}
			fmt.Fprintf(&q, "($%d, $%d, $%d, $%d, 0, $%d)", i+1, i+2, i+3, i+1, i+4)
		}
		_, err := tx.ExecContext(ctx, b.d.sql(q.String()), pending...)
		pending = pending[:0]
		return err
	}
	var charged tab
	for _, o := range batch {
		o.applied, o.rev, o.createRev, o.prevValue, o.current, o.refused, o.paid = false, 0, 0, nil, nil, nil, nil
		switch {
		case len(o.charges) > 0:
			if err := chargeCreate(ctx, tx, b.d, o, current, &charged); err != nil {
				return batch, err
			}
			if o.refused != nil || o.current != nil {
				continue
			}
		case o.expect != 0 && charged.holds(o.key):
			// The quota's charges are written before the write that
			// expects its version, which they change.
			if err := charged.settle(ctx, tx, b.d, &rev); err != nil {
				return batch, err
			}
		}
		next := rev + 1
		var expires any
		if o.expiresAt != 0 {
			expires = o.expiresAt
		}
		switch {
		case o.expect == 0 && o.value == nil:
			return batch, errors.New("a deletion needs the revision it deletes")
		case o.expect == 0 && current != nil:
			if cur := current[o.key]; cur != nil {
				o.current = cur
				continue
			}
			pending = append(pending, next, o.key, o.value, expires)
			current[o.key] = &kvRecord{value: o.value, modRev: next, createRev: next}
			rev, o.rev, o.createRev, o.applied = next, next, next, true
			continue
		case o.expect == 0:
			res, err := tx.ExecContext(ctx, b.d.sql(`
				INSERT INTO canopy_revisions (rev, key, value, create_rev, prev_rev, expires_at)
				VALUES ($1, $2, $3, $1, 0, $4)
				ON CONFLICT (key) WHERE superseded_rev IS NULL DO NOTHING`), next, o.key, o.value, expires)
			if err != nil {
				return batch, err
			}
			n, err := res.RowsAffected()
			if err != nil {
				return batch, err
			}
			if o.applied = n == 1; o.applied {
				o.createRev = next
			}
		default:
			if err := flush(); err != nil {
				return batch, err
			}
			// RETURNING gives the replaced version, which the row keeps.
			var createRev int64
			err := tx.QueryRowContext(ctx, b.d.sql(`
				UPDATE canopy_revisions SET superseded_rev = $1
				WHERE key = $2 AND superseded_rev IS NULL AND rev = $3
				RETURNING create_rev, value`), next, o.key, o.expect).Scan(&createRev, &o.prevValue)
			switch {
			case errors.Is(err, sql.ErrNoRows):
			case err != nil:
				return batch, err
			default:
				// A tombstone supersedes itself, so it is never current. Its
				// value is an untyped nil: a nil []byte is an empty BLOB to SQLite.
				var value, superseded any = o.value, nil
				if o.value == nil {
					value, superseded, expires = nil, next, nil
				}
				if _, err := tx.ExecContext(ctx, b.d.sql(`
					INSERT INTO canopy_revisions (rev, key, value, create_rev, prev_rev, superseded_rev, expires_at)
					VALUES ($1, $2, $3, $4, $5, $6, $7)`),
					next, o.key, value, createRev, o.expect, superseded, expires); err != nil {
					return batch, err
				}
				o.applied, o.createRev = true, createRev
			}
		}
		if o.applied {
			rev = next
			o.rev = next
			if current != nil {
				current[o.key] = nil
				if o.value != nil {
					current[o.key] = &kvRecord{value: o.value, modRev: next, createRev: o.createRev}
				}
			}
			continue
		}
		cur, err := currentVersion(ctx, tx, b.d, o.key)
		if err != nil {
			return batch, err
		}
		o.current = cur
		if current != nil {
			current[o.key] = cur
		}
	}
	if err := flush(); err != nil {
		return batch, err
	}
	if err := charged.settle(ctx, tx, b.d, &rev); err != nil {
		return batch, err
	}
	if rev == start {
		return batch, nil
	}
	// The announcement goes out when the transaction commits, and only
	// then: a process it wakes finds the rows visible.
	_, err = tx.ExecContext(ctx, b.d.sql(`UPDATE canopy_meta SET value = $1 WHERE name = 'rev'`+b.d.announce), rev)
	return batch, err
}

// currentVersions reads, in one query, the current version of every key the
// batch creates; keys without one are absent from the map. With fewer than
// two creates it reads nothing and returns nil.
func currentVersions(ctx context.Context, tx *sql.Tx, d *dialect, batch []*op) (map[string]*kvRecord, error) {
	var keys []any
	var in strings.Builder
	for _, o := range batch {
		if o.expect != 0 {
			continue
		}
		if len(keys) > 0 {
			in.WriteString(", ")
		}
		keys = append(keys, o.key)
		fmt.Fprintf(&in, "$%d", len(keys))
	}
	if len(keys) < 2 {
		return nil, nil
	}
	rows, err := tx.QueryContext(ctx, d.sql(`
		SELECT key, value, rev, create_rev FROM canopy_revisions
		WHERE superseded_rev IS NULL AND key IN (`+in.String()+`)`), keys...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	current := make(map[string]*kvRecord, len(batch))
	for rows.Next() {
		var key string
		var r kvRecord
		if err := rows.Scan(&key, &r.value, &r.modRev, &r.createRev); err != nil {
			return nil, err
		}
		current[key] = &r
	}
	return current, rows.Err()
}

// chargeCreate has the charges of create o paid, unless its key exists
// (o.current) or a charge refuses it (o.refused).
func chargeCreate(ctx context.Context, tx *sql.Tx, d *dialect, o *op, current map[string]*kvRecord, charged *tab) error {
	if current != nil {
		o.current = current[o.key]
	} else {
		cur, err := currentVersion(ctx, tx, d, o.key)
		if err != nil {
			return err
		}
		o.current = cur
	}
	if o.current != nil {
		return nil
	}
	return charged.pay(ctx, tx, d, o)
}

type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// currentVersion reads the current version of key, or nil if it has none.
func currentVersion(ctx context.Context, q queryer, d *dialect, key string) (*kvRecord, error) {
	var r kvRecord
	err := q.QueryRowContext(ctx, d.sql(`
		SELECT value, rev, create_rev FROM canopy_revisions
		WHERE key = $1 AND superseded_rev IS NULL`), key).Scan(&r.value, &r.modRev, &r.createRev)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &r, nil
}
