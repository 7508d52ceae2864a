package pgtest

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"testing"
)

var (
	mainActive atomic.Bool

	shared struct {
		once sync.Once
		srv  *Server
		err  error
	}
)

// Shared returns the test binary's shared server, starting it on first use.
// Tests get isolation from [Server.NewDatabase]; they must not Stop, Kill or
// Restart it. The calling package's TestMain must be [Main], which is what
// stops the server when the tests are done.
func Shared(tb testing.TB) *Server {
	tb.Helper()
	// Without Main nothing would stop the server, and every test run would
	// leak a postmaster and its directory.
	if !mainActive.Load() {
		tb.Fatalf("pgtest: Shared needs the package's TestMain to call pgtest.Main(m)")
	}
	shared.once.Do(func() { shared.srv, shared.err = start() })
	if shared.err != nil {
		tb.Fatalf("pgtest: shared server: %v", shared.err)
	}
	return shared.srv
}

// Main runs the tests, stops the shared server if one was started, and exits.
// Call it last in TestMain; cleanups run once the tests are done, since
// Main exits without returning:
//
//	func TestMain(m *testing.M) { pgtest.Main(m) }
func Main(m *testing.M, cleanups ...func()) {
	mainActive.Store(true)
	code := m.Run()
	for _, c := range cleanups {
		c()
	}
	// Going through once both waits for a start still in progress and keeps
	// a straggling goroutine from starting a server nobody would stop.
	shared.once.Do(func() { shared.err = errors.New("the tests have already finished") })
	if shared.srv != nil {
		if err := shared.srv.destroy(); err != nil {
			fmt.Fprintf(os.Stderr, "pgtest: stopping shared server: %v\n", err)
			if code == 0 {
				code = 1
			}
		}
	}
	os.Exit(code)
}
