package sqlstorage

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/apiserver/pkg/storage"
	utilflowcontrol "k8s.io/apiserver/pkg/util/flowcontrol"
)

// readBatch is how many events a watcher takes at a time.
const readBatch = 1000

// watcher streams one watch. It reads the backend's shared history itself,
// at its own pace: a slow watcher holds back no one, and one that falls
// behind the in-memory history reads the database until it catches up.
type watcher struct {
	s              *Store
	key            string
	recursive      bool
	pred           storage.SelectionPredicate
	progressNotify bool
	ctx            context.Context
	cancel         context.CancelFunc
	result         chan watch.Event
}

func (w *watcher) Stop()                          { w.cancel() }
func (w *watcher) ResultChan() <-chan watch.Event { return w.result }

func (s *Store) watch(ctx context.Context, key string, rev int64, opts storage.ListOptions) (watch.Interface, error) {
	if opts.Recursive && !strings.HasSuffix(key, "/") {
		return nil, fmt.Errorf(`recursive key needs to end with "/"`)
	}
	if opts.ProgressNotify && s.newFunc == nil {
		return nil, apierrors.NewInternalError(fmt.Errorf("progressNotify for watch is unsupported by the storage because no newFunc was provided"))
	}
	sendInitial := opts.SendInitialEvents != nil && *opts.SendInitialEvents
	initialEvents := sendInitial || (opts.SendInitialEvents == nil && rev == 0)
	if rev == 0 && !initialEvents {
		// Only events from now on: "now" must be pinned before returning.
		current, err := s.b.CurrentRevision(ctx)
		if err != nil {
			return nil, err
		}
		rev = current
	}
	w := &watcher{
		s: s, key: key, recursive: opts.Recursive, pred: opts.Predicate,
		progressNotify: opts.ProgressNotify,
		result:         make(chan watch.Event, 100),
	}
	if w.pred.Empty() {
		w.pred = storage.Everything
	}
	w.ctx, w.cancel = context.WithCancel(ctx)
	go w.run(rev, initialEvents, sendInitial && opts.Predicate.AllowWatchBookmarks)
	utilflowcontrol.WatchInitialized(ctx)
	return w, nil
}

func (w *watcher) run(rev int64, initialEvents, endBookmark bool) {
	defer close(w.result)
	defer w.cancel()
	if initialEvents {
		if rev > 0 {
			current, err := w.s.b.CurrentRevision(w.ctx)
			if err != nil {
				w.sendError(err)
				return
			}
			if rev > current {
				w.sendError(storage.NewTooLargeResourceVersionError(uint64(rev), uint64(current), 1))
				return
			}
		}
		var err error
		if rev, err = w.sendCurrentState(); err != nil {
			w.sendError(err)
			return
		}
		if endBookmark {
			bookmark, err := w.bookmark(rev)
			if err == nil {
				err = storage.AnnotateInitialEventsEndBookmark(bookmark.Object)
			}
			if err != nil || !w.send(bookmark) {
				w.sendError(err)
				return
			}
		}
	} else if compacted := w.s.b.CompactRevision(); rev < compacted {
		w.sendError(errCompacted(rev, compacted))
		return
	}
	w.follow(rev)
}

// sendCurrentState sends an ADDED event for every object under the key and
// returns the revision that state is at.
func (w *watcher) sendCurrentState() (int64, error) {
	r := exactKey(w.key)
	if w.recursive {
		r = prefixRange(w.key, "")
	}
	var rev int64
	for {
		l, err := w.s.b.readRange(w.ctx, r, rev, maxPage+1)
		if err != nil {
			return 0, err
		}
		if rev == 0 {
			rev = l.rev
		} else if rev < l.compacted {
			return 0, errListCompacted(false, "", w.key)
		}
		kvs := l.kvs
		more := len(kvs) > maxPage
		if more {
			kvs = kvs[:maxPage]
		}
		for _, kv := range kvs {
			e := event{rev: kv.modRev, createRev: kv.modRev, key: kv.key, value: kv.value}
			ev, err := w.transform(e)
			if err != nil {
				return 0, err
			}
			if ev != nil && !w.send(*ev) {
				return 0, w.ctx.Err()
			}
		}
		if !more {
			return rev, nil
		}
		r = prefixRange(w.key, kvs[len(kvs)-1].key+"\x00")
	}
}

// follow sends the events after rev until the watch ends.
func (w *watcher) follow(rev int64) {
	b := w.s.b
	_, lastProgress, _, _ := b.eventsAfter(rev, 0)
	rewinds := b.rewindsSoFar()
	for {
		evs, progress, changed, ok := b.eventsAfter(rev, readBatch)
		if b.rewindsSoFar() != rewinds {
			w.sendError(errRewound(rev))
			return
		}
		if !ok {
			var err error
			if evs, err = b.readHistory(w.ctx, rev); err != nil {
				w.sendError(err)
				return
			}
		}
		for _, e := range evs {
			rev = e.rev
			if !w.matches(e.key) {
				continue
			}
			ev, err := w.transform(e)
			if err != nil {
				w.sendError(err)
				return
			}
			if ev != nil && !w.send(*ev) {
				return
			}
		}
		if len(evs) > 0 || !ok {
			continue
		}
		// Caught up with everything this process has seen.
		if progress != lastProgress {
			lastProgress = progress
			if w.progressNotify && rev <= b.lastSeen() {
				bookmark, err := w.bookmark(rev)
				if err != nil {
					w.sendError(err)
					return
				}
				if !w.send(bookmark) {
					return
				}
			}
		}
		select {
		case <-changed:
		case <-w.ctx.Done():
			return
		}
	}
}

func (b *Backend) lastSeen() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.lastRev
}

// readHistory reads, from the database, the events after rev that have
// left the in-memory history. Compaction commits compact_rev before it
// deletes anything, so checking it after the read catches any read that
// raced with a deletion.
func (b *Backend) readHistory(ctx context.Context, rev int64) ([]event, error) {
	evs, err := b.readEvents(ctx, rev, 0, readBatch)
	if err != nil {
		return nil, wrapDBError(err)
	}
	_, compacted, err := b.counters(ctx)
	if err != nil {
		return nil, wrapDBError(err)
	}
	if rev < compacted || (len(evs) > 0 && !dense(evs, rev)) {
		return nil, errCompacted(rev, compacted)
	}
	return evs, nil
}

func (w *watcher) matches(key string) bool {
	if w.recursive {
		return strings.HasPrefix(key, w.key)
	}
	return key == w.key
}

func (w *watcher) bookmark(rev int64) (watch.Event, error) {
	obj := w.s.newFunc()
	if err := w.s.versioner.UpdateObject(obj, uint64(rev)); err != nil {
		return watch.Event{}, fmt.Errorf("failed to propagate object resource version: %w", err)
	}
	return watch.Event{Type: watch.Bookmark, Object: obj}, nil
}

func (w *watcher) decode(value []byte, key string, rev int64) (runtime.Object, error) {
	data, _, err := w.s.transformer.TransformFromStorage(w.ctx, value, authenticatedData(key))
	if err != nil {
		return nil, err
	}
	obj, err := runtime.Decode(w.s.codec, data)
	if err != nil {
		return nil, err
	}
	if w.s.share != nil {
		w.s.share(obj)
	}
	if err := w.s.versioner.UpdateObject(obj, uint64(rev)); err != nil {
		return nil, err
	}
	return obj, nil
}

func (w *watcher) filter(obj runtime.Object) bool {
	matched, err := w.pred.Matches(obj)
	return err == nil && matched
}

// transform turns a stored change into the watch event this watcher's
// predicate makes of it, or nil when it shows none. An update that moves an
// object into or out of the selection is an ADDED or DELETED event.
func (w *watcher) transform(e event) (*watch.Event, error) {
	acceptAll := w.pred.Empty()
	var cur, prev runtime.Object
	var err error
	if e.value != nil {
		if cur, err = w.decode(e.value, e.key, e.rev); err != nil {
			return nil, err
		}
	}
	// The previous version is needed for a deletion, or to tell whether an
	// update left the selection. It carries the revision of this change.
	if e.prevValue != nil && (e.value == nil || !acceptAll) {
		if prev, err = w.decode(e.prevValue, e.key, e.rev); err != nil {
			if e.value == nil {
				return nil, &corruptObjectDeletedError{err: err}
			}
			return nil, err
		}
	}
	switch {
	case e.value == nil:
		if prev == nil || !w.filter(prev) {
			return nil, nil
		}
		return &watch.Event{Type: watch.Deleted, Object: prev}, nil
	case e.createRev == e.rev || e.prevValue == nil:
		if !w.filter(cur) {
			return nil, nil
		}
		return &watch.Event{Type: watch.Added, Object: cur}, nil
	case acceptAll:
		return &watch.Event{Type: watch.Modified, Object: cur}, nil
	}
	curIn, prevIn := w.filter(cur), w.filter(prev)
	switch {
	case curIn && prevIn:
		return &watch.Event{Type: watch.Modified, Object: cur}, nil
	case curIn:
		return &watch.Event{Type: watch.Added, Object: cur}, nil
	case prevIn:
		return &watch.Event{Type: watch.Deleted, Object: prev}, nil
	}
	return nil, nil
}

// corruptObjectDeletedError reports the deletion of an object whose stored
// data cannot be read any more, which unsafe deletion allows.
type corruptObjectDeletedError struct{ err error }

func (e *corruptObjectDeletedError) Error() string {
	return fmt.Sprintf("saw a DELETED event, but object data is corrupt - %v", e.err)
}
func (e *corruptObjectDeletedError) Unwrap() error { return e.err }

func (w *watcher) send(ev watch.Event) bool {
	select {
	case w.result <- ev:
		return true
	case <-w.ctx.Done():
		return false
	}
}

// sendError ends the watch with an error event, unless the watch was
// stopped, in which case nobody is listening.
func (w *watcher) sendError(err error) {
	if err == nil || w.ctx.Err() != nil {
		return
	}
	var status apierrors.APIStatus
	var corrupt *corruptObjectDeletedError
	switch {
	case errors.As(err, &status):
	case errors.As(err, &corrupt):
		status = &apierrors.StatusError{ErrStatus: metav1.Status{
			Status: metav1.StatusFailure, Code: http.StatusInternalServerError,
			Reason: metav1.StatusReasonStoreReadError, Message: corrupt.Error(),
		}}
	default:
		status = apierrors.NewInternalError(err)
	}
	st := status.Status()
	w.send(watch.Event{Type: watch.Error, Object: &st})
}
