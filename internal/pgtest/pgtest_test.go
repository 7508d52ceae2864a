package pgtest_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/canopy-dev/canopy/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func TestStopRestartKeepsData(t *testing.T) {
	t.Parallel()
	s := pgtest.Start(t)
	dsn := s.NewDatabase(t)

	var one int
	queryRow(t, dsn, "SELECT 1", &one)
	if one != 1 {
		t.Fatalf("SELECT 1 = %d", one)
	}
	execSQL(t, dsn, "CREATE TABLE kv (k text PRIMARY KEY, v text)")
	execSQL(t, dsn, "INSERT INTO kv VALUES ('a', 'before stop')")

	s.Stop(t)
	if conn, err := pgx.Connect(context.Background(), dsn); err == nil {
		conn.Close(context.Background())
		t.Fatal("connected to a stopped server")
	}
	s.Restart(t)

	var v string
	queryRow(t, dsn, "SELECT v FROM kv WHERE k = 'a'", &v)
	if v != "before stop" {
		t.Fatalf("after restart v = %q", v)
	}
}

func TestKillRestartKeepsCommittedData(t *testing.T) {
	t.Parallel()
	s := pgtest.Start(t)
	dsn := s.NewDatabase(t)
	execSQL(t, dsn, "CREATE TABLE kv (k text PRIMARY KEY, v text)")
	execSQL(t, dsn, "INSERT INTO kv VALUES ('a', 'committed')")

	s.Kill(t)
	s.Restart(t)

	var v string
	queryRow(t, dsn, "SELECT v FROM kv WHERE k = 'a'", &v)
	if v != "committed" {
		t.Fatalf("after crash v = %q", v)
	}
}

func TestShared(t *testing.T) {
	t.Parallel()
	s := pgtest.Shared(t)
	if again := pgtest.Shared(t); again != s {
		t.Fatal("Shared returned a different server on the second call")
	}
	a, b := s.NewDatabase(t), s.NewDatabase(t)
	if a == b {
		t.Fatalf("NewDatabase returned %s twice", a)
	}
	for _, dsn := range []string{a, b} {
		if !strings.HasPrefix(dsn, "postgres://postgres@127.0.0.1:") || !strings.HasSuffix(dsn, "?sslmode=disable") {
			t.Errorf("unexpected DSN %s", dsn)
		}
		var one int
		queryRow(t, dsn, "SELECT 1", &one)
	}
}

func execSQL(t *testing.T, dsn, sql string) {
	t.Helper()
	conn := connect(t, dsn)
	defer conn.Close(context.Background())
	if _, err := conn.Exec(t.Context(), sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

func queryRow(t *testing.T, dsn, sql string, dest ...any) {
	t.Helper()
	conn := connect(t, dsn)
	defer conn.Close(context.Background())
	if err := conn.QueryRow(t.Context(), sql).Scan(dest...); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

func connect(t *testing.T, dsn string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), dsn)
	if err != nil {
		t.Fatalf("connect %s: %v", dsn, err)
	}
	return conn
}

func TestPairFailover(t *testing.T) {
	t.Parallel()
	p := pgtest.StartPair(t)
	dsn := p.NewDatabase(t)
	execSQL(t, dsn, "CREATE TABLE kv (k text PRIMARY KEY, v text)")
	execSQL(t, dsn, "INSERT INTO kv VALUES ('a', 'acknowledged by both')")

	// The standby has flushed what the primary acknowledged, and replays
	// it soon after; it refuses writes.
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	standby := p.Standby.DSN(strings.TrimPrefix(u.Path, "/"))
	var v string
	for deadline := time.Now().Add(30 * time.Second); v != "acknowledged by both"; {
		if time.Now().After(deadline) {
			t.Fatalf("the standby has not replayed the row within 30s (v = %q)", v)
		}
		time.Sleep(20 * time.Millisecond)
		// Until the CREATE DATABASE is replayed, even connecting fails.
		if conn, err := pgx.Connect(t.Context(), standby); err == nil {
			_ = conn.QueryRow(t.Context(), "SELECT v FROM kv WHERE k = 'a'").Scan(&v)
			conn.Close(context.Background())
		}
	}
	conn := connect(t, standby)
	_, err = conn.Exec(t.Context(), "INSERT INTO kv VALUES ('b', 'on a standby')")
	conn.Close(context.Background())
	if err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Fatalf("writing to the standby: got %v, want a read-only transaction error", err)
	}

	p.KillPrimary(t)
	p.Promote(t)
	// The same multi-host DSN now reaches the promoted standby.
	execSQL(t, dsn, "INSERT INTO kv VALUES ('b', 'after failover')")
	queryRow(t, dsn, "SELECT v FROM kv WHERE k = 'a'", &v)
	if v != "acknowledged by both" {
		t.Fatalf("after failover v = %q", v)
	}
}
