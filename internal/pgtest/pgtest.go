package pgtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// superuser is the role initdb creates; every DSN connects as it, with trust
// authentication, so no password is involved.
const superuser = "postgres"

const (
	startTimeout    = 30 * time.Second
	shutdownTimeout = 60 * time.Second
)

// Server is a throwaway PostgreSQL server in a temp dir on a free loopback port.
type Server struct {
	bin     string              // holds initdb, pg_ctl and postgres
	cred    *syscall.Credential // who the server runs as; nil means the current user
	root    string              // temp dir containing everything below
	dataDir string
	sockDir string
	logPath string
	port    int
	// settings are extra -c NAME=VALUE flags for the postmaster.
	settings []string

	dbSeq atomic.Int64

	mu     sync.Mutex
	proc   *os.Process   // the postmaster; nil while the server is down
	exited chan struct{} // closed once proc has exited and been reaped
}

// Start starts a server and registers tb.Cleanup to stop it and remove its
// directory.
func Start(tb testing.TB) *Server {
	tb.Helper()
	return startWith(tb, (*Server).initdb)
}

// startWith creates a server whose data directory populate fills, starts it,
// and registers tb.Cleanup to stop it and remove its directory.
func startWith(tb testing.TB, populate func(*Server) error, settings ...string) *Server {
	tb.Helper()
	s, err := create(populate, settings...)
	if err != nil {
		tb.Fatalf("pgtest: %v", err)
	}
	tb.Cleanup(func() {
		if err := s.destroy(); err != nil {
			tb.Errorf("pgtest: %v", err)
		}
	})
	return s
}

// DSN returns the URL of database db on s, e.g.
// postgres://postgres@127.0.0.1:54321/db?sslmode=disable.
func (s *Server) DSN(db string) string {
	u := url.URL{
		Scheme:   "postgres",
		User:     url.User(superuser),
		Host:     net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port)),
		Path:     "/" + db,
		RawQuery: "sslmode=disable",
	}
	return u.String()
}

// NewDatabase creates a database with a name unique on s and returns its DSN.
// The database is dropped at tb's cleanup if the server is still up then.
func (s *Server) NewDatabase(tb testing.TB) string {
	tb.Helper()
	return s.DSN(s.createDatabase(tb))
}

// createDatabase creates a database with a name unique on s, to be dropped at
// tb's cleanup, and returns its name.
func (s *Server) createDatabase(tb testing.TB) string {
	tb.Helper()
	name := s.databaseName(tb.Name())
	ident := pgx.Identifier{name}.Sanitize()
	if err := s.adminExec("CREATE DATABASE " + ident); err != nil {
		tb.Fatalf("pgtest: creating database %s: %v", name, err)
	}
	tb.Cleanup(func() {
		// A test that stopped or crashed its server has no way to drop
		// anything; the whole data directory goes away with the server.
		if !s.running() {
			return
		}
		// FORCE because connection pools a test forgot to close must not
		// turn into a cleanup failure.
		if err := s.adminExec("DROP DATABASE IF EXISTS " + ident + " WITH (FORCE)"); err != nil {
			tb.Errorf("pgtest: dropping database %s: %v", name, err)
		}
	})
	return name
}

// Stop shuts the server down with pg_ctl stop -m fast, as an operator would.
func (s *Server) Stop(tb testing.TB) {
	tb.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.runningLocked() {
		tb.Fatalf("pgtest: Stop: server is not running")
	}
	out, err := s.command("pg_ctl", "stop", "-D", s.dataDir, "-m", "fast", "-w",
		"-t", strconv.Itoa(int(shutdownTimeout.Seconds()))).CombinedOutput()
	if err != nil {
		tb.Fatalf("pgtest: pg_ctl stop: %v\n%s\nlog tail (%s):\n%s", err, out, s.logPath, s.logTail(0))
	}
	// pg_ctl returns once the pid file is gone, a moment before the
	// postmaster has exited.
	if !waitClosed(s.exited, shutdownTimeout) {
		tb.Fatalf("pgtest: postmaster %d still running after pg_ctl stop", s.proc.Pid)
	}
	s.proc = nil
}

// Kill simulates a crash: it SIGKILLs the postmaster together with all of its
// child processes, leaving the data directory exactly as they left it.
func (s *Server) Kill(tb testing.TB) {
	tb.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.runningLocked() {
		tb.Fatalf("pgtest: Kill: server is not running")
	}
	if err := s.crashLocked(); err != nil {
		tb.Fatalf("pgtest: Kill: %v", err)
	}
}

// Restart starts a stopped or killed server again on the same port and data
// directory, and waits until it accepts connections (after crash recovery, if
// it was killed).
func (s *Server) Restart(tb testing.TB) {
	tb.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.runningLocked() {
		tb.Fatalf("pgtest: Restart: server is already running")
	}
	if err := s.launchLocked(); err != nil {
		tb.Fatalf("pgtest: Restart: %v", err)
	}
}

// errPortTaken means the port chosen for a new server was not free after all.
var errPortTaken = errors.New("port taken by another process")

// start creates and starts a server on a fresh, empty cluster.
func start() (*Server, error) { return create((*Server).initdb) }

// create makes a server's directories, lets populate fill its data
// directory, and starts it on a free port with the extra settings.
func create(populate func(*Server) error, settings ...string) (_ *Server, err error) {
	bin, err := findBinDir()
	if err != nil {
		return nil, err
	}
	cred, err := serverCredential()
	if err != nil {
		return nil, err
	}
	root, err := os.MkdirTemp("", "pgtest-")
	if err != nil {
		return nil, err
	}
	// The server reports its data directory in this form, and checkIdentity
	// compares against it; a relative TMPDIR would also break cmd.Dir.
	if root, err = filepath.Abs(root); err != nil {
		return nil, err
	}
	s := &Server{
		bin:      bin,
		cred:     cred,
		root:     root,
		dataDir:  filepath.Join(root, "data"),
		sockDir:  filepath.Join(root, "sock"),
		logPath:  filepath.Join(root, "postgres.log"),
		settings: settings,
	}
	defer func() {
		if err != nil {
			err = errors.Join(err, s.destroy())
		}
	}()

	for _, dir := range []string{s.dataDir, s.sockDir} {
		if err := os.Mkdir(dir, 0o700); err != nil {
			return nil, err
		}
	}
	if cred != nil {
		if err := chownAll(root, int(cred.Uid), int(cred.Gid)); err != nil {
			return nil, err
		}
	}
	if err := populate(s); err != nil {
		return nil, err
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	// The port is only known to be free until freePort closes its listener,
	// so with many servers starting in parallel a collision is possible.
	for attempt := 1; ; attempt++ {
		if s.port, err = freePort(); err != nil {
			return nil, err
		}
		err = s.launchLocked()
		if err == nil {
			return s, nil
		}
		if attempt == 3 || !errors.Is(err, errPortTaken) {
			return nil, err
		}
	}
}

// initdb creates a fresh cluster in the data directory.
func (s *Server) initdb() error {
	// No --locale: the store must cope with whatever collation the
	// environment gives initdb. --no-sync only skips flushing the fresh
	// cluster to disk, which matters for power loss, not for a killed
	// server; the server itself runs with fsync on.
	initdb := []string{"-D", s.dataDir, "-A", "trust", "-U", superuser, "-E", "UTF8", "--no-sync"}
	out, err := s.command("initdb", initdb...).CombinedOutput()
	if err != nil && bytes.Contains(out, []byte("invalid locale settings")) {
		// LANG or LC_* names a locale this machine lacks (ssh forwards them
		// from the client by default); initdb gives up rather than guess.
		out, err = s.command("initdb", append(initdb, "--no-locale")...).CombinedOutput()
	}
	if err != nil {
		return fmt.Errorf("initdb: %v\n%s", err, out)
	}
	return nil
}

// launchLocked runs the postmaster directly rather than through pg_ctl start
// so that it is our child: we reap it ourselves, and a killed postmaster never
// lingers as a zombie whose pid in postmaster.pid would block the restart.
func (s *Server) launchLocked() error {
	logFile, err := os.OpenFile(s.logPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer logFile.Close()
	logStart, err := logFile.Seek(0, io.SeekEnd)
	if err != nil {
		return err
	}

	cmd := s.command("postgres",
		"-D", s.dataDir,
		"-p", strconv.Itoa(s.port),
		"-h", "127.0.0.1",
		"-k", s.sockDir,
		// Crash tests are only meaningful if commits really reach the disk.
		"-c", "fsync=on",
		"-c", "max_connections=200",
		"-c", "shared_buffers=128MB",
	)
	for _, setting := range s.settings {
		cmd.Args = append(cmd.Args, "-c", setting)
	}
	cmd.Stdout = logFile
	cmd.Stderr = logFile
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		close(exited)
	}()
	s.proc, s.exited = cmd.Process, exited

	readyErr := s.waitReady(exited)
	if readyErr == nil {
		return nil
	}
	if err := s.crashLocked(); err != nil {
		readyErr = errors.Join(readyErr, err)
	}
	tail := s.logTail(logStart)
	if errors.Is(readyErr, errPortTaken) || strings.Contains(tail, "could not bind") {
		return fmt.Errorf("port %d: %w\nlog tail (%s):\n%s", s.port, errPortTaken, s.logPath, tail)
	}
	return fmt.Errorf("postgres on port %d did not start: %v\nlog tail (%s):\n%s", s.port, readyErr, s.logPath, tail)
}

// waitReady waits until the postmaster accepts connections, or exits.
func (s *Server) waitReady(exited <-chan struct{}) error {
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	// Abandon a connection attempt as soon as the postmaster dies: whatever
	// answers on the port then is not ours and may never reply.
	go func() {
		select {
		case <-exited:
			cancel()
		case <-ctx.Done():
		}
	}()
	for {
		err := s.checkIdentity(ctx)
		if err == nil || errors.Is(err, errPortTaken) {
			return err
		}
		select {
		case <-time.After(50 * time.Millisecond):
			continue
		case <-ctx.Done():
		}
		select {
		case <-exited:
			return fmt.Errorf("postgres exited during startup (last connection error: %v)", err)
		default:
			return fmt.Errorf("no successful connection within %v: %v", startTimeout, err)
		}
	}
}

// checkIdentity connects and makes sure the server answering is ours: if
// another test's server grabbed the port first, a bare connection attempt
// would happily succeed against it.
func (s *Server) checkIdentity(ctx context.Context) error {
	attemptCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	conn, err := pgx.Connect(attemptCtx, s.DSN("postgres"))
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	var dataDir string
	if err := conn.QueryRow(attemptCtx, "SHOW data_directory").Scan(&dataDir); err != nil {
		return err
	}
	if dataDir != s.dataDir {
		return fmt.Errorf("server on port %d serves %s: %w", s.port, dataDir, errPortTaken)
	}
	return nil
}

// crashLocked SIGKILLs the postmaster and its children. Killing only the
// postmaster would leave backends running until they noticed, still attached
// to shared memory, and the next postmaster would refuse to start. Process
// groups do not help: PostgreSQL puts every child in a session of its own.
func (s *Server) crashLocked() error {
	pid := s.proc.Pid
	// Stopped, the postmaster cannot fork children we would miss, nor reap
	// any, so none of their pids can be reused before the SIGKILL lands.
	// Signalling through s.proc rather than by pid cannot hit an unrelated
	// process that inherited the pid of a postmaster already gone.
	var children []int
	if s.proc.Signal(syscall.SIGSTOP) == nil {
		children = childPIDs(pid)
	}
	for _, child := range children {
		_ = syscall.Kill(child, syscall.SIGKILL)
	}
	_ = s.proc.Kill()
	if !waitClosed(s.exited, 10*time.Second) {
		return fmt.Errorf("postmaster %d survived SIGKILL", pid)
	}
	s.proc = nil
	deadline := time.Now().Add(10 * time.Second)
	for _, child := range children {
		for alive(child) {
			if time.Now().After(deadline) {
				return fmt.Errorf("postgres process %d survived SIGKILL", child)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	return nil
}

// destroy stops the server if it is up and removes its directory.
func (s *Server) destroy() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs []error
	if s.runningLocked() {
		// Immediate shutdown: the data is about to be deleted, so a
		// shutdown checkpoint would be wasted work.
		_ = s.proc.Signal(syscall.SIGQUIT)
		if waitClosed(s.exited, shutdownTimeout) {
			s.proc = nil
		} else if err := s.crashLocked(); err != nil {
			errs = append(errs, err)
		}
	}
	if err := os.RemoveAll(s.root); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

func (s *Server) running() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.runningLocked()
}

func (s *Server) runningLocked() bool {
	if s.proc == nil {
		return false
	}
	select {
	case <-s.exited:
		return false
	default:
		return true
	}
}

// adminExec runs one statement in the maintenance database.
func (s *Server) adminExec(sql string) error {
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	conn, err := pgx.Connect(ctx, s.DSN("postgres"))
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	_, err = conn.Exec(ctx, sql)
	return err
}

// databaseName derives a name from the test's so that leftovers in a server
// log point back at the test; the sequence number makes it unique.
func (s *Server) databaseName(testName string) string {
	const maxIdentifier = 63 // NAMEDATALEN - 1
	suffix := "_" + strconv.FormatInt(s.dbSeq.Add(1), 10)
	var b strings.Builder
	b.WriteString("t_")
	for _, r := range strings.ToLower(testName) {
		if b.Len()+len(suffix) >= maxIdentifier {
			break
		}
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String() + suffix
}

func (s *Server) command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(filepath.Join(s.bin, name), args...)
	// The server user may not be allowed into the test's working directory.
	cmd.Dir = s.root
	if s.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred}
	}
	return cmd
}

// logTail returns the end of what the server logged after offset from.
func (s *Server) logTail(from int64) string {
	const maxTail = 4 << 10
	f, err := os.Open(s.logPath)
	if err != nil {
		return fmt.Sprintf("(cannot read log: %v)", err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size()-from > maxTail {
		from = fi.Size() - maxTail
	}
	if _, err := f.Seek(from, io.SeekStart); err != nil {
		return fmt.Sprintf("(cannot read log: %v)", err)
	}
	b, err := io.ReadAll(f)
	if err != nil {
		return fmt.Sprintf("(cannot read log: %v)", err)
	}
	return string(b)
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func waitClosed(ch <-chan struct{}, timeout time.Duration) bool {
	select {
	case <-ch:
		return true
	case <-time.After(timeout):
		return false
	}
}
