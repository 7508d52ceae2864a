package pgtest

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Pair is a primary streaming its WAL to a hot standby that every commit
// waits for (synchronous replication), the way a PostgreSQL meant to
// survive the loss of its primary runs. [Pair.KillPrimary] and
// [Pair.Promote] are the failover; after it, [Pair.Primary] is the promoted
// server, which has no standby of its own.
type Pair struct {
	Primary, Standby *Server
	// hosts lists the two servers in the order DSNs name them, which the
	// failover does not change.
	hosts []*Server
}

// replicationSettings make the primary wait, at every commit, until a
// standby has flushed the commit's WAL to its disk, so that a commit the
// primary acknowledged survives the primary's loss. '*' is whichever
// standby is connected: there is only one.
var replicationSettings = []string{
	"wal_level=replica",
	"max_wal_senders=4",
	"synchronous_standby_names=*",
	"synchronous_commit=on",
}

// StartPair starts a primary and a synchronous standby cloned from it with
// pg_basebackup, and waits until the primary's commits wait for it. Both
// are stopped and removed at tb's cleanup.
func StartPair(tb testing.TB) *Pair {
	tb.Helper()
	primary := startWith(tb, (*Server).initdb, replicationSettings...)
	standby := startWith(tb, func(s *Server) error { return s.cloneFrom(primary) })
	p := &Pair{Primary: primary, Standby: standby, hosts: []*Server{primary, standby}}
	if err := p.waitSynchronous(); err != nil {
		tb.Fatalf("pgtest: %v\nprimary log tail (%s):\n%s\nstandby log tail (%s):\n%s",
			err, primary.logPath, primary.logTail(0), standby.logPath, standby.logTail(0))
	}
	return p
}

// cloneFrom fills s's data directory with a base backup of primary that
// starts as its standby: -R writes primary_conninfo and standby.signal.
func (s *Server) cloneFrom(primary *Server) error {
	out, err := s.command("pg_basebackup",
		"-D", s.dataDir, "-h", "127.0.0.1", "-p", strconv.Itoa(primary.port), "-U", superuser,
		"-R", "-X", "stream", "-c", "fast", "--no-sync").CombinedOutput()
	if err != nil {
		return fmt.Errorf("pg_basebackup from port %d: %v\n%s", primary.port, err, out)
	}
	return nil
}

// waitSynchronous waits until the primary counts the standby as its
// synchronous one, from which point no commit returns before the standby
// has it.
func (p *Pair) waitSynchronous() error {
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	var state string
	for {
		conn, err := pgx.Connect(ctx, p.Primary.DSN("postgres"))
		if err == nil {
			err = conn.QueryRow(ctx, `SELECT coalesce(string_agg(state || '/' || sync_state, ','), '')
				FROM pg_stat_replication`).Scan(&state)
			conn.Close(context.Background())
		}
		if err == nil && state == "streaming/sync" {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("the standby did not become the primary's synchronous standby within %v "+
				"(pg_stat_replication state/sync_state: %q, last error: %v)", startTimeout, state, err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// DSN returns the URL of database db naming both servers, with
// target_session_attrs=read-write so that a client connects to whichever
// of them takes writes, e.g.
// postgres://postgres@127.0.0.1:5001,127.0.0.1:5002/db?sslmode=disable&target_session_attrs=read-write.
func (p *Pair) DSN(db string) string {
	hosts := make([]string, len(p.hosts))
	for i, s := range p.hosts {
		hosts[i] = net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port))
	}
	u := url.URL{
		Scheme:   "postgres",
		User:     url.User(superuser),
		Host:     strings.Join(hosts, ","),
		Path:     "/" + db,
		RawQuery: "sslmode=disable&target_session_attrs=read-write",
	}
	return u.String()
}

// NewDatabase creates a database on the primary, which the standby
// replicates, and returns its multi-host DSN.
func (p *Pair) NewDatabase(tb testing.TB) string {
	tb.Helper()
	return p.DSN(p.Primary.createDatabase(tb))
}

// KillPrimary crashes the primary as [Server.Kill] does. Until [Pair.Promote],
// nothing takes writes: the standby is read-only.
func (p *Pair) KillPrimary(tb testing.TB) {
	tb.Helper()
	p.Primary.Kill(tb)
}

// Promote turns the standby into a primary with pg_ctl promote and waits
// until it takes writes. The old primary stays down: starting it again as
// a primary would split the history in two.
func (p *Pair) Promote(tb testing.TB) {
	tb.Helper()
	s := p.Standby
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.runningLocked() {
		tb.Fatalf("pgtest: Promote: the standby is not running")
	}
	out, err := s.command("pg_ctl", "promote", "-D", s.dataDir, "-w",
		"-t", strconv.Itoa(int(startTimeout.Seconds()))).CombinedOutput()
	if err != nil {
		tb.Fatalf("pgtest: pg_ctl promote: %v\n%s\nlog tail (%s):\n%s", err, out, s.logPath, s.logTail(0))
	}
	p.Primary, p.Standby = s, nil
}
