package proc

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"testing"
	"time"
)

// Binary is the prebuilt binary named in environment variable env, or
// the command of package pkg built when it is unset.
func Binary(tb testing.TB, env, pkg string) string {
	tb.Helper()
	if bin := os.Getenv(env); bin != "" {
		return bin
	}
	return Build(tb, pkg)
}

// InterruptContext is done on an interrupt or SIGTERM: a benchmark fails
// where it waits, so that its cleanups stop every process it started.
func InterruptContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// Sleep waits d, failing tb on an interrupt.
func Sleep(ctx context.Context, tb testing.TB, d time.Duration) {
	select {
	case <-ctx.Done():
		tb.Fatalf("interrupted: %v", ctx.Err())
	case <-time.After(d):
	}
}

// Logger is a benchmark's progress log, on standard error: each line
// with the time and the benchmark's name.
func Logger(name string) func(format string, args ...any) {
	return func(format string, args ...any) {
		fmt.Fprintf(os.Stderr, "%s %s: %s\n", time.Now().Format("15:04:05"), name, fmt.Sprintf(format, args...))
	}
}
