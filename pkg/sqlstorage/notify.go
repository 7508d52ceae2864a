package sqlstorage

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"k8s.io/klog/v2"
)

// notifyChannel is the PostgreSQL channel on which every write
// transaction announces, as it commits, the last revision it took.
const notifyChannel = "canopy_revisions"

// Polling while listening: with a LISTEN connection up, the poller asks
// the database only when a commit was announced, and otherwise once per
// safetyPollInterval, to find out whether the listener still hears every
// commit. It may not: a primary fenced off in a failover keeps its
// sessions, the listener's among them, while the writes go to the
// promoted standby; a hub of an older release writes without
// announcing. A safety poll that finds revisions nobody announced
// reconnects the listener, and while it is down the poller polls every
// Options.PollInterval, as on a database without LISTEN.
const (
	safetyPollInterval = time.Second
	relistenDelay      = time.Second
	// listenerApplicationName tells the listener's session from the
	// pool's to whoever reads pg_stat_activity.
	listenerApplicationName = "canopy-listener"
)

// listenLoop keeps a LISTEN connection open, on a database that has
// LISTEN, for as long as ctx lasts. Each process pays nothing while no
// one writes, and learns of another's commit as soon as it lands rather
// than at its next poll.
func (b *Backend) listenLoop(ctx context.Context) {
	if b.d.announce == "" || b.opts.deaf {
		return
	}
	cfg, err := pgx.ParseConfig(b.d.dsn)
	if err != nil {
		klog.ErrorS(err, "Cannot listen for commits; polling instead")
		return
	}
	// The listener's session names itself in pg_stat_activity, whose
	// query column shows its LISTEN only until its first ping.
	cfg.RuntimeParams["application_name"] = listenerName(cfg.RuntimeParams["application_name"])
	for ctx.Err() == nil {
		err := b.listen(ctx, cfg)
		b.listening.Store(false)
		// Back to polling every PollInterval at once.
		b.kickPoll()
		if ctx.Err() != nil {
			return
		}
		klog.V(2).InfoS("Listening for commits stopped; polling meanwhile", "err", err)
		select {
		case <-ctx.Done():
		case <-time.After(relistenDelay):
		}
	}
}

// listenerName is the application name of the listener's session: the
// one the DSN gives the hub's sessions, if any, marked as the listener's.
func listenerName(dsnName string) string {
	if dsnName == "" {
		return listenerApplicationName
	}
	return dsnName + " " + listenerApplicationName
}

// listen listens on one connection until it fails, ctx ends or a safety
// poll finds that it missed a commit (relisten).
func (b *Backend) listen(ctx context.Context, cfg *pgx.ConnConfig) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	b.listenMu.Lock()
	b.stopListening = cancel
	b.listenMu.Unlock()
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return err
	}
	defer func() { _ = conn.Close(context.Background()) }()
	if _, err := conn.Exec(ctx, "LISTEN "+notifyChannel); err != nil {
		return err
	}
	b.listening.Store(true)
	// A commit announced before LISTEN took effect was not heard: this
	// poll reads it, and sets the poller to safety polls.
	b.kickPoll()
	for {
		wait, cancel := context.WithTimeout(ctx, safetyPollInterval)
		n, err := conn.WaitForNotification(wait)
		timedOut := wait.Err() != nil && ctx.Err() == nil
		cancel()
		if timedOut {
			// A server reports a change of its settings only with an
			// answer: asking it something each quiet second tells when it
			// was fenced off in a failover, and its writes, and so its
			// announcements, moved to another.
			if err := conn.Ping(ctx); err != nil {
				return err
			}
			if readOnlyServer(conn.PgConn()) {
				return errors.New("the server listened to takes no writes any more")
			}
			continue
		}
		if err != nil {
			return err
		}
		rev, err := strconv.ParseInt(n.Payload, 10, 64)
		if err != nil {
			continue
		}
		b.heard(rev)
	}
}

// relisten drops the listener's connection, so that it connects again,
// to whichever server now takes writes.
func (b *Backend) relisten() {
	b.listenMu.Lock()
	defer b.listenMu.Unlock()
	if b.stopListening != nil {
		b.stopListening()
	}
}

// heard records an announced revision and wakes the poller if this
// process has not seen it yet: its own commits, which it appends itself,
// wake nothing.
func (b *Backend) heard(rev int64) {
	for {
		a := b.announced.Load()
		if rev <= a || b.announced.CompareAndSwap(a, rev) {
			break
		}
	}
	if rev > b.lastSeen() {
		select {
		case b.notified <- struct{}{}:
		default:
		}
	}
}

// idlePoll is how long the poller waits for a reason to poll before it
// polls anyway.
func (b *Backend) idlePoll() time.Duration {
	if b.listening.Load() {
		return safetyPollInterval
	}
	return b.opts.PollInterval
}
