package sqlstorage

import (
	"context"
	"database/sql"
	"fmt"
	"sync"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/storage"
)

// Charge is what a create pays to another object, a quota, in the
// create's own transaction: the store reads the quota's current version
// under the revision counter's lock, which serialises the writes of every
// hub process on the database, has pay change it, and writes it with the
// create, in one commit. So a quota holds exactly across processes, and a
// create costs no write of its own to the quota.
type Charge struct {
	// key is the quota's storage key.
	key string
	// store decodes and encodes the quota.
	store *Store
	// pay changes the quota to charge the create, or returns the error
	// that refuses it.
	pay func(obj runtime.Object) error
}

// Charge is a charge to the object of s at key (as the registry's key
// function names it). pay is given the stored object and changes it, or
// returns the error to refuse the create with. A charge to an object that
// does not exist when the create commits is not paid: nothing is charged.
func (s *Store) Charge(key string, pay func(obj runtime.Object) error) (Charge, error) {
	k, err := s.prepareKey(key, false)
	if err != nil {
		return Charge{}, err
	}
	return Charge{key: k, store: s, pay: pay}, nil
}

// decode is the quota as stored, at revision rev.
func (c Charge) decode(ctx context.Context, stored []byte, rev int64) (runtime.Object, error) {
	data, _, err := c.store.transformer.TransformFromStorage(ctx, stored, authenticatedData(c.key))
	if err != nil {
		return nil, storage.NewInternalError(err)
	}
	obj := c.store.newFunc()
	if err := c.store.decode(data, obj, rev); err != nil {
		return nil, storage.NewInternalError(err)
	}
	return obj, nil
}

// encode is the quota's value to store.
func (c Charge) encode(ctx context.Context, obj runtime.Object) ([]byte, error) {
	if err := c.store.versioner.PrepareObjectForStorage(obj); err != nil {
		return nil, err
	}
	data, err := runtime.Encode(c.store.codec, obj)
	if err != nil {
		return nil, err
	}
	return c.store.transformer.TransformToStorage(ctx, data, authenticatedData(c.key))
}

// Ledger hands the charges that admission makes for a create to the
// store that writes it. Admission cannot add to the request's context,
// but it sees the same context the store's Create does: a create in
// flight opens a tab under its context (Open), admission adds charges to
// it, and Create takes them.
type Ledger struct {
	tabs sync.Map // context.Context → *openTab
}

type openTab struct {
	mu      sync.Mutex
	charges []Charge
}

// Ledger is the ledger of the stores of b.
func (b *Backend) Ledger() *Ledger { return &b.ledger }

// Open opens the tab of the create of ctx, until close.
func (l *Ledger) Open(ctx context.Context) (close func()) {
	l.tabs.Store(ctx, &openTab{})
	return func() { l.tabs.Delete(ctx) }
}

// Add adds charges to the tab of the create of ctx. It is false when
// there is no tab open: the request is no create the ledger follows.
func (l *Ledger) Add(ctx context.Context, charges ...Charge) bool {
	return l.update(ctx, func(t *openTab) { t.charges = append(t.charges, charges...) })
}

// take empties the tab of the create of ctx, so that a create retried
// under the same context is not charged twice.
func (l *Ledger) take(ctx context.Context) []Charge {
	var charges []Charge
	l.update(ctx, func(t *openTab) { charges, t.charges = t.charges, nil })
	return charges
}

// update runs change on the tab of ctx, if one is open.
func (l *Ledger) update(ctx context.Context, change func(*openTab)) bool {
	v, ok := l.tabs.Load(ctx)
	if !ok {
		return false
	}
	t := v.(*openTab)
	t.mu.Lock()
	defer t.mu.Unlock()
	change(t)
	return true
}

// tab is what a transaction's creates have charged to quotas and not yet
// written: one new version of each quota, written once (settle) before
// any other write in the batch touches it, and at the end. A batch of
// creates against one quota thus writes it once, not once per create,
// and decodes and encodes it once: the write loop, which every write of
// the process waits on, pays per create only the charge itself.
type tab struct {
	quotas map[string]*tabEntry
	order  []string
}

type tabEntry struct {
	stored *kvRecord // nil: the quota does not exist
	// obj is the quota with every charge so far paid, decoded by the
	// first charge (charge), which encodes it as the tab settles.
	obj    runtime.Object
	charge Charge
	// last is the last write that charged it: the quota's new version is
	// reported with it.
	last *op
}

// pay has o's charges paid, all or none. It records in o.refused why a
// charge refused the create.
func (t *tab) pay(ctx context.Context, tx *sql.Tx, d *dialect, o *op) error {
	if t.quotas == nil {
		t.quotas = map[string]*tabEntry{}
	}
	// Each quota o charges is paid on a copy, kept only if every charge
	// of o is paid.
	paid := make(map[string]runtime.Object, len(o.charges))
	for _, c := range o.charges {
		e, err := t.entry(ctx, tx, d, c.key)
		if err != nil {
			return err
		}
		if e.stored == nil {
			continue
		}
		obj, ok := paid[c.key]
		if !ok {
			if e.obj == nil {
				if e.obj, err = c.decode(ctx, e.stored.value, e.stored.modRev); err != nil {
					o.refused = err
					return nil
				}
				e.charge = c
			}
			obj = e.obj.DeepCopyObject()
		}
		if err := c.pay(obj); err != nil {
			o.refused = err
			return nil
		}
		paid[c.key] = obj
	}
	for key, obj := range paid {
		e := t.quotas[key]
		e.obj, e.last = obj, o
	}
	return nil
}

// entry is the tab's entry for key, read from the database the first time.
func (t *tab) entry(ctx context.Context, tx *sql.Tx, d *dialect, key string) (*tabEntry, error) {
	if e, ok := t.quotas[key]; ok {
		return e, nil
	}
	cur, err := currentVersion(ctx, tx, d, key)
	if err != nil {
		return nil, err
	}
	e := &tabEntry{stored: cur}
	t.quotas[key] = e
	t.order = append(t.order, key)
	return e, nil
}

// holds tells whether the tab has an entry for key.
func (t *tab) holds(key string) bool {
	_, ok := t.quotas[key]
	return ok
}

// settle writes the quotas charged, each at the next revision after *rev,
// reports each new version with the last write that charged it, and
// empties the tab.
func (t *tab) settle(ctx context.Context, tx *sql.Tx, d *dialect, rev *int64) error {
	for _, key := range t.order {
		e := t.quotas[key]
		if e.last == nil {
			continue
		}
		value, err := e.charge.encode(ctx, e.obj)
		if err != nil {
			return fmt.Errorf("encoding quota %s: %w", key, err)
		}
		next := *rev + 1
		res, err := tx.ExecContext(ctx, d.sql(`
			UPDATE canopy_revisions SET superseded_rev = $1
			WHERE key = $2 AND superseded_rev IS NULL AND rev = $3`), next, key, e.stored.modRev)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return fmt.Errorf("quota %s changed under the revision lock (rows %d): %v", key, n, err)
		}
		if _, err := tx.ExecContext(ctx, d.sql(`
			INSERT INTO canopy_revisions (rev, key, value, create_rev, prev_rev, expires_at)
			VALUES ($1, $2, $3, $4, $5, NULL)`),
			next, key, value, e.stored.createRev, e.stored.modRev); err != nil {
			return err
		}
		*rev = next
		e.last.paid = append(e.last.paid, event{rev: next, createRev: e.stored.createRev, key: key, value: value, prevValue: e.stored.value})
	}
	t.quotas, t.order = nil, nil
	return nil
}
