package sqlstorage

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/klog/v2"
)

// A database failover must not leave this process's history on a timeline
// the database no longer has. With synchronous replication the promoted
// standby holds every commit the old primary made visible, and the poller
// simply goes on from its last revision. Two things can break that: an
// asynchronous standby, which may lack the last commits, and a COMMIT
// cancelled while it waited for the synchronous standby, which PostgreSQL
// then makes visible on the primary alone. Revisions this process has
// already handed to watchers would then be missing from the new primary, or
// be taken again by other writes. When the poller meets the database again
// after a failure, it checks that the newest revision it holds is still
// there, unchanged; if not, it restarts its history at the database's
// present and ends every watch with 410 Gone, so that the watch cache and
// other clients list again.

// verifyHistory checks, after the poller lost the database for a while,
// that the database still has the newest revision this process holds. rev
// is the database's revision counter.
func (b *Backend) verifyHistory(ctx context.Context, rev int64) error {
	b.mu.Lock()
	last := b.lastRev
	var tip *event
	if n := len(b.history); n > 0 && b.history[n-1].rev == last {
		tip = &b.history[n-1]
	}
	b.mu.Unlock()
	if rev < last {
		b.rewind(last, rev, "the revision counter went back")
		return nil
	}
	if tip == nil {
		return nil
	}
	var key string
	var value []byte
	err := b.db.QueryRowContext(ctx, b.d.sql(`SELECT key, value FROM canopy_revisions WHERE rev = $1`), tip.rev).Scan(&key, &value)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		// Compaction never deletes the newest revision: it is nobody's
		// superseded version yet.
		b.rewind(last, rev, "the newest revision seen is missing")
	case err != nil:
		return err
	case key != tip.key || !bytes.Equal(value, tip.value):
		b.rewind(last, rev, "the newest revision seen holds another write")
	}
	return nil
}

// rewind restarts the history at revision rev and ends every watch: the
// revisions after it that this process saw, up to last, are not the
// database's any more.
func (b *Backend) rewind(last, rev int64, why string) {
	klog.InfoS("The datastore lost revisions this process had seen, likely in a failover to a standby that lacked them; ending every watch so that clients list again",
		"reason", why, "lastSeen", last, "datastoreRevision", rev)
	b.mu.Lock()
	defer b.mu.Unlock()
	b.history = nil
	b.lastRev = rev
	b.rewinds++
	b.broadcastLocked()
}

// rewindsSoFar counts the rewinds, so that a watcher can tell whether its
// revision is still on the database's timeline.
func (b *Backend) rewindsSoFar() uint64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.rewinds
}

// errRewound ends a watch whose history the database lost.
func errRewound(rev int64) error {
	return apierrors.NewResourceExpired(fmt.Sprintf(
		"The resourceVersion for the provided watch is too old: the datastore failed over to a server that lacks revisions this watch had seen (it was at %d); list again to get a fresh resourceVersion", rev))
}
