package sqlstorage

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apiserver/pkg/apis/example"

	"github.com/canopy-dev/canopy/internal/pgtest"
)

// listeningBackend opens a backend on url that polls only when a commit
// is announced, or for safety, and waits until it listens.
func listeningBackend(t *testing.T, url string) *Backend {
	t.Helper()
	opts := testOptions
	// No progress rounds: they poll too.
	opts.ProgressInterval = time.Hour
	b, err := Open(context.Background(), url, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	waitFor(t, "the backend to listen for commits", b.listening.Load)
	return b
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// listenerStarts is when each session listening on the database began.
func listenerStarts(t *testing.T, b *Backend) []time.Time {
	t.Helper()
	rows, err := b.db.Query(`SELECT backend_start FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`, listenerApplicationName)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var starts []time.Time
	for rows.Next() {
		var s time.Time
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		starts = append(starts, s)
	}
	return starts
}

// TestIdleBackendDoesNotPoll: on PostgreSQL a process with nothing to
// read asks the database nothing, where it polled every PollInterval,
// and a write through another process still reaches its watchers, woken
// by the commit's announcement.
func TestIdleBackendDoesNotPoll(t *testing.T) {
	ctx := context.Background()
	url := pgtest.Shared(t).NewDatabase(t)
	b := listeningBackend(t, url)
	other := newPodStore(openBackend(t, url))
	w := ordWatchFrom(t, newPodStore(b), b.lastSeen())

	// The poll the listener's start asked for may still be on its way.
	time.Sleep(50 * time.Millisecond)
	before := b.polls.Load()
	// Thirty poll intervals: polling, the backend would make about thirty.
	time.Sleep(30 * testOptions.PollInterval)
	if polls := b.polls.Load() - before; polls > 1 {
		t.Errorf("an idle backend polled %d times in %v, with PollInterval %v; want none but a safety poll",
			polls, 30*testOptions.PollInterval, testOptions.PollInterval)
	}

	pod := &example.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns"}}
	if err := other.Create(ctx, "/pods/ns/p", pod, &example.Pod{}, 0); err != nil {
		t.Fatal(err)
	}
	select {
	case ev := <-w.ResultChan():
		if got := ev.Object.(*example.Pod).Name; got != "p" {
			t.Fatalf("watch saw %s %s, want the ADDED of p", ev.Type, got)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the write through the other process did not reach the watch within 20s")
	}
}

// TestListenerLostOrDeaf: when the LISTEN session ends, writes through
// another process still arrive, by polling, and the backend listens
// again; when it misses commits that were not announced, as a hub of an
// older release writes them, a safety poll reads them and the backend
// connects its listener anew.
func TestListenerLostOrDeaf(t *testing.T) {
	ctx := context.Background()
	url := pgtest.Shared(t).NewDatabase(t)
	b := listeningBackend(t, url)
	other := newPodStore(openBackend(t, url))

	killed := time.Now()
	if _, err := b.db.Exec(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`,
		listenerApplicationName); err != nil {
		t.Fatal(err)
	}
	pod := &example.Pod{ObjectMeta: metav1.ObjectMeta{Name: "after-kill", Namespace: "ns"}}
	if err := other.Create(ctx, "/pods/ns/after-kill", pod, &example.Pod{}, 0); err != nil {
		t.Fatal(err)
	}
	rev := ordCurrentRV(t, other)
	waitFor(t, "the write after the listener's end to reach the backend", func() bool { return b.lastSeen() >= rev })
	waitForListener(t, b, killed, "the backend to listen again")

	// A commit made the old way: the counter moved, nothing announced.
	since := time.Now()
	tx, err := b.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var last int64
	if err := tx.QueryRow(`SELECT value FROM canopy_meta WHERE name = 'rev' FOR UPDATE`).Scan(&last); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(`INSERT INTO canopy_revisions (rev, key, value, create_rev, prev_rev) VALUES ($1, '/pods/ns/unannounced', $2, $1, 0)`,
		last+1, []byte(testValuePrefix+`{"metadata":{"name":"unannounced","namespace":"ns"}}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(`UPDATE canopy_meta SET value = $1 WHERE name = 'rev'`, last+1); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "a safety poll to read the unannounced commit", func() bool { return b.lastSeen() >= last+1 })
	waitForListener(t, b, since, "the backend to connect its listener anew")
}

// waitForListener waits until b listens on a session that began after
// since.
func waitForListener(t *testing.T, b *Backend, since time.Time, what string) {
	t.Helper()
	waitFor(t, what, func() bool {
		for _, s := range listenerStarts(t, b) {
			if s.After(since) && b.listening.Load() {
				return true
			}
		}
		return false
	})
}
