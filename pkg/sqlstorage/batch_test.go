package sqlstorage

import (
	"context"
	"testing"
)

// One batch mixing creates of a new key twice, a create of an existing key,
// and a delete followed by a re-create: results must be as if applied one
// by one, with dense revisions.
func TestBatchedCreates(t *testing.T) {
	eachDatastore(t, func(t *testing.T, url string) {
		b := openBackend(t, url)
		ctx := context.Background()
		seed := &op{key: "/k0", value: []byte("v0"), done: make(chan struct{})}
		exists := &op{key: "/k9", value: []byte("v9"), done: make(chan struct{})}
		b.commit(ctx, []*op{seed, exists}, nil)
		if seed.err != nil || !seed.applied || !exists.applied {
			t.Fatalf("seed: %v %v %v", seed.err, seed.applied, exists.applied)
		}
		mk := func(key, value string, expect int64) *op {
			o := &op{key: key, expect: expect, done: make(chan struct{})}
			if value != "" {
				o.value = []byte(value)
			}
			return o
		}
		batch := []*op{
			mk("/k1", "a", 0),       // applied
			mk("/k1", "b", 0),       // exists: the one just created
			mk("/k9", "x", 0),       // exists: from before
			mk("/k0", "", seed.rev), // delete: applied
			mk("/k0", "again", 0),   // re-create after delete: applied
			mk("/k2", "c", 0),       // applied
		}
		b.commit(ctx, batch, nil)
		want := []bool{true, false, false, true, true, true}
		rev := exists.rev
		for i, o := range batch {
			if o.err != nil || o.applied != want[i] {
				t.Fatalf("op %d (%s): applied=%v err=%v, want applied=%v", i, o.key, o.applied, o.err, want[i])
			}
			if o.applied {
				rev++
				if o.rev != rev {
					t.Errorf("op %d: rev %d, want %d", i, o.rev, rev)
				}
			}
		}
		if c := batch[1].current; c == nil || string(c.value) != "a" || c.modRev != batch[0].rev {
			t.Errorf("op 1: current %+v, want the version op 0 created", c)
		}
		if c := batch[2].current; c == nil || string(c.value) != "v9" {
			t.Errorf("op 2: current %+v, want v9", c)
		}
		if cur, _ := b.CurrentRevision(ctx); cur != rev {
			t.Errorf("current revision %d, want %d", cur, rev)
		}
		evs, err := b.readEvents(ctx, exists.rev, 0, 100)
		if err != nil || len(evs) != 4 {
			t.Fatalf("events: %v, %d of them", err, len(evs))
		}
		for i, e := range evs {
			if e.rev != exists.rev+int64(i)+1 {
				t.Errorf("event %d has rev %d: revisions not dense", i, e.rev)
			}
		}
	})
}
