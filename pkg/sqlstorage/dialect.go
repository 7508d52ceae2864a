package sqlstorage

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cockroachdb/cockroach-go/v2/crdb"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"

	// SQLite's database/sql driver; pgx's is opened through stdlib.
	_ "modernc.org/sqlite"
)

// dialect holds every difference between the SQL databases the store runs on.
// Everything else in this package is written once, in the SQL the three share.
type dialect struct {
	name string
	// system is the database's OpenTelemetry db.system name.
	system string
	// driver and dsn are what database/sql.Open takes.
	driver, dsn string
	// keyType must order keys byte-wise, so that a key prefix is one index range.
	keyType, blobType string
	// lockCounter locks the revision counter row for the rest of the
	// transaction; SQLite needs nothing because BEGIN IMMEDIATE already holds
	// the single database write lock.
	lockCounter string
	// retrying wraps each write transaction in CockroachDB's client-side
	// retry protocol (SAVEPOINT cockroach_restart), which SERIALIZABLE
	// transactions need to survive SQLSTATE 40001.
	retrying bool
	// maxConns bounds the connection pool.
	maxConns int
	// announce, appended to the statement that moves the revision
	// counter, makes the commit announce its last revision to every
	// process listening (notify.go); empty where the database has no
	// LISTEN, and its processes poll instead.
	announce string
}

// parseDatastore turns a datastore URL into a dialect:
//
//	sqlite://PATH            embedded SQLite file (PATH may be relative)
//	postgres://… or postgresql://…
//	cockroachdb://…          CockroachDB over the PostgreSQL wire protocol
func parseDatastore(raw string) (*dialect, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("datastore URL %q is not a URL: %w", raw, err)
	}
	switch u.Scheme {
	case "sqlite":
		path := strings.TrimPrefix(raw, "sqlite://")
		if i := strings.IndexByte(path, '?'); i >= 0 {
			path = path[:i]
		}
		if path == "" {
			return nil, fmt.Errorf("datastore URL %q names no file: use sqlite://PATH", raw)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, fmt.Errorf("creating the directory of %s: %w", path, err)
		}
		// WAL lets reads go on during a write; synchronous=FULL makes every
		// acknowledged commit durable across a crash; IMMEDIATE takes the
		// write lock at BEGIN so that two writers never deadlock upgrading it.
		q := url.Values{}
		q.Add("_pragma", "journal_mode(WAL)")
		q.Add("_pragma", "synchronous(FULL)")
		q.Add("_pragma", "busy_timeout(10000)")
		q.Add("_pragma", "foreign_keys(OFF)")
		q.Set("_txlock", "immediate")
		return &dialect{
			name: "sqlite", system: "sqlite", driver: "sqlite", dsn: "file:" + path + "?" + q.Encode(),
			keyType: "TEXT", blobType: "BLOB", maxConns: 8,
		}, nil
	case "postgres", "postgresql":
		return &dialect{
			name: "postgres", system: "postgresql", driver: "pgx", dsn: writableDSN(u, raw),
			keyType: `TEXT COLLATE "C"`, blobType: "BYTEA",
			lockCounter: " FOR UPDATE", maxConns: 32,
			announce: ` RETURNING pg_notify('` + notifyChannel + `', value::text)`,
		}, nil
	case "cockroachdb", "cockroach":
		u.Scheme = "postgres"
		return &dialect{
			name: "cockroachdb", system: "cockroachdb", driver: "pgx", dsn: u.String(),
			// CockroachDB's STRING already compares byte-wise.
			keyType: "STRING", blobType: "BYTES",
			lockCounter: " FOR UPDATE", retrying: true, maxConns: 32,
		}, nil
	default:
		return nil, fmt.Errorf("datastore URL %q has an unknown scheme %q: use sqlite://PATH, postgres://… or cockroachdb://…", raw, u.Scheme)
	}
}

// writableDSN makes a URL that names several hosts, a primary and its
// standbys, connect only to the one that takes writes: without
// target_session_attrs pgx takes the first host that answers, which may be
// a read-only standby. It also bounds each host's connection attempt:
// pgx tries the hosts in turn, and a primary gone without a trace (its
// packets dropped, not refused) would otherwise use up a request's whole
// deadline before the next host is tried. Settings the URL has are left
// alone.
func writableDSN(u *url.URL, raw string) string {
	q := u.Query()
	if !strings.Contains(u.Host, ",") || (q.Has("target_session_attrs") && q.Has("connect_timeout")) {
		return raw
	}
	if !q.Has("target_session_attrs") {
		q.Set("target_session_attrs", "read-write")
	}
	if !q.Has("connect_timeout") {
		q.Set("connect_timeout", "3")
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// open makes the connection pool. PostgreSQL and CockroachDB connections
// are configured through pgx, so that connections to a server found
// read-only leave the pool (see isReadOnly and dropReadOnly), and
// fenced is called, to drop what else is connected to that server.
func (d *dialect) open(fenced func()) (*sql.DB, error) {
	var db *sql.DB
	if d.driver != "pgx" {
		var err error
		if db, err = sql.Open(d.driver, d.dsn); err != nil {
			return nil, err
		}
	} else {
		cfg, err := pgx.ParseConfig(d.dsn)
		if err != nil {
			return nil, err
		}
		keepOnError := cfg.OnPgError
		cfg.OnPgError = func(conn *pgconn.PgConn, pgErr *pgconn.PgError) bool {
			if pgErr.Code != readOnlyTransaction {
				return keepOnError(conn, pgErr)
			}
			// The server stopped taking writes: it was fenced off in a
			// failover. The idle connections are most likely to it too, and
			// would serve reads staler than the promoted standby's, so they
			// are closed with this one; connections in use at the moment
			// are left to dropReadOnly.
			db.SetMaxIdleConns(0)
			db.SetMaxIdleConns(d.maxConns)
			fenced()
			return false
		}
		db = stdlib.OpenDB(*cfg, stdlib.OptionResetSession(func(ctx context.Context, conn *pgx.Conn) error {
			err := dropReadOnly(ctx, conn)
			if err != nil {
				fenced()
			}
			return err
		}))
	}
	db.SetMaxOpenConns(d.maxConns)
	db.SetMaxIdleConns(d.maxConns)
	db.SetConnMaxIdleTime(5 * time.Minute)
	return db, nil
}

// dropReadOnly discards a pooled connection, before it is used again, whose
// server has said that it takes no writes: a primary fenced off during a
// failover, which would also serve reads staler than the promoted
// standby's. PostgreSQL 14 and later send both parameters whenever they
// change, along with the next answer on the connection; pgx keeps the
// latest, so checking costs no round trip.
func dropReadOnly(_ context.Context, conn *pgx.Conn) error {
	if readOnlyServer(conn.PgConn()) {
		return driver.ErrBadConn
	}
	return nil
}

// readOnlyServer tells whether the server of conn said, with its last
// answer, that it takes no writes.
func readOnlyServer(pg *pgconn.PgConn) bool {
	return pg.ParameterStatus("default_transaction_read_only") == "on" || pg.ParameterStatus("in_hot_standby") == "on"
}

// sql adapts a statement written with $N placeholders to the dialect.
// SQLite reads $N as a named parameter, ?N is its positional form.
func (d *dialect) sql(q string) string {
	if d.name == "sqlite" {
		return strings.ReplaceAll(q, "$", "?")
	}
	return q
}

func (d *dialect) schema() []string {
	return []string{
		`CREATE TABLE IF NOT EXISTS canopy_meta (name ` + d.keyType + ` PRIMARY KEY, value BIGINT NOT NULL)`,
		// Revision 1 is the empty store, as in etcd: a current revision is never 0.
		`INSERT INTO canopy_meta (name, value) VALUES ('rev', 1), ('compact_rev', 0) ON CONFLICT (name) DO NOTHING`,
		`CREATE TABLE IF NOT EXISTS canopy_revisions (
			rev BIGINT PRIMARY KEY,
			key ` + d.keyType + ` NOT NULL,
			value ` + d.blobType + `,
			create_rev BIGINT NOT NULL,
			prev_rev BIGINT NOT NULL,
			superseded_rev BIGINT,
			expires_at BIGINT
		)`,
		`CREATE UNIQUE INDEX IF NOT EXISTS canopy_revisions_current ON canopy_revisions (key) WHERE superseded_rev IS NULL`,
		`CREATE INDEX IF NOT EXISTS canopy_revisions_history ON canopy_revisions (key, rev)`,
		`CREATE INDEX IF NOT EXISTS canopy_revisions_superseded ON canopy_revisions (superseded_rev) WHERE superseded_rev IS NOT NULL`,
		`CREATE INDEX IF NOT EXISTS canopy_revisions_expiry ON canopy_revisions (expires_at) WHERE expires_at IS NOT NULL AND superseded_rev IS NULL`,
	}
}

// inTx runs fn in one write transaction. Under CockroachDB fn may run more
// than once, so it must compute everything it returns afresh on each run.
func (d *dialect) inTx(ctx context.Context, db *sql.DB, fn func(*sql.Tx) error) error {
	if d.retrying {
		return crdb.ExecuteTx(ctx, db, &sql.TxOptions{Isolation: sql.LevelSerializable}, fn)
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

// isAmbiguous tells a commit whose outcome is unknown: CockroachDB's
// RELEASE SAVEPOINT is the commit, and when it fails the writes may or may
// not have been applied.
func isAmbiguous(err error) bool {
	var amb *crdb.AmbiguousCommitError
	if errors.As(err, &amb) {
		return true
	}
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "40003" // statement_completion_unknown
}

// readOnlyTransaction is SQLSTATE 25006, what a standby, or a primary made
// read-only to fence it off, answers a write with.
const readOnlyTransaction = "25006"

// isReadOnly tells a write refused because the server does not take
// writes. The connection is then to the wrong server: a pooled connection
// to a primary fenced off during a failover, or one made without
// target_session_attrs=read-write. open has pgx close it, so that the pool
// connects again and finds the server that takes writes.
func isReadOnly(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == readOnlyTransaction
}

// isUnavailable tells a database that cannot be reached from one that
// answered with an error, so that callers get a 503 for the former.
func isUnavailable(err error) bool {
	// A failed connection is checked first: it can carry a server's error
	// too, such as a standby that has not replayed the database's creation
	// answering "database does not exist" while the primary is fenced off,
	// and no host taking the connection is the database being unreachable.
	var connErr *pgconn.ConnectError
	if errors.As(err, &connErr) || errors.Is(err, sql.ErrConnDone) {
		return true
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		// Class 08 is connection exceptions, 57P0x is the server shutting
		// down; a read-only server is one that cannot take writes for now.
		return strings.HasPrefix(pgErr.Code, "08") || strings.HasPrefix(pgErr.Code, "57P") || pgErr.Code == readOnlyTransaction
	}
	msg := err.Error()
	return strings.Contains(msg, "connection refused") || strings.Contains(msg, "broken pipe") ||
		strings.Contains(msg, "connection reset") || strings.Contains(msg, "unexpected EOF") ||
		strings.Contains(msg, "failed to connect") || strings.Contains(msg, "conn closed")
}
