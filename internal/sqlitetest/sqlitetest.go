// Package sqlitetest opens throwaway SQLite datastores for unit tests
// that need real storage under their stores.
package sqlitetest

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/canopy-dev/canopy/pkg/sqlstorage"
)

// Open opens a datastore in a directory of t's, closed when t ends.
func Open(t testing.TB) *sqlstorage.Backend {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	backend, err := sqlstorage.Open(ctx, "sqlite://"+filepath.Join(t.TempDir(), "canopy.db"), sqlstorage.Options{})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = backend.Close()
		cancel()
	})
	return backend
}
