package knob

import (
	"os"
	"strconv"
	"testing"
	"time"
)

// Int is the count in environment variable name, def when it is unset; a
// value that is not a count fails tb.
func Int(tb testing.TB, name string, def int) int {
	tb.Helper()
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		tb.Fatalf("%s=%q is not a count", name, v)
	}
	return n
}

// Float is the non-negative number in environment variable name, def when
// it is unset.
func Float(tb testing.TB, name string, def float64) float64 {
	tb.Helper()
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f < 0 {
		tb.Fatalf("%s=%q is not a non-negative number", name, v)
	}
	return f
}

// Duration is the duration in environment variable name, as 30s or 2m,
// def when it is unset.
func Duration(tb testing.TB, name string, def time.Duration) time.Duration {
	tb.Helper()
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		tb.Fatalf("%s=%q is not a duration such as 30s", name, v)
	}
	return d
}

// Out is the directory in CANOPY_BENCH_OUT, made if missing, where a run
// leaves its logs and profiles; a temporary one when it is unset.
func Out(tb testing.TB) string {
	tb.Helper()
	out := os.Getenv("CANOPY_BENCH_OUT")
	if out == "" {
		return tb.TempDir()
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		tb.Fatal(err)
	}
	return out
}
