package identity

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/canopy-dev/canopy/internal/pgtest"
	"github.com/canopy-dev/canopy/pkg/sqlstorage"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// eachDatastore runs test on a fresh SQLite and a fresh PostgreSQL
// database, giving it the datastore URL.
func eachDatastore(t *testing.T, test func(t *testing.T, url string)) {
	for name, url := range map[string]func(t *testing.T) string{
		"sqlite":   func(t *testing.T) string { return "sqlite://" + filepath.Join(t.TempDir(), "canopy.db") },
		"postgres": func(t *testing.T) string { return pgtest.Shared(t).NewDatabase(t) },
	} {
		t.Run(name, func(t *testing.T) { test(t, url(t)) })
	}
}

// open opens the database at url as one more hub process would.
func openBackend(t *testing.T, url string) *sqlstorage.Backend {
	t.Helper()
	b, err := sqlstorage.Open(context.Background(), url, sqlstorage.Options{CompactInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b
}

// TestCreateRace has replicas in two processes' worth of connections
// create an identity at once: exactly one insert wins, and every replica
// gets the winner's identity.
func TestCreateRace(t *testing.T) {
	eachDatastore(t, func(t *testing.T, url string) {
		k, err := NewKey()
		if err != nil {
			t.Fatal(err)
		}
		stores := []*Store{NewStore(openBackend(t, url)), NewStore(openBackend(t, url))}
		const replicas = 6
		got := make([]*Identity, replicas)
		won := make([]bool, replicas)
		errs := make([]error, replicas)
		var wg sync.WaitGroup
		for i := range replicas {
			wg.Go(func() {
				id, err := New()
				if err != nil {
					errs[i] = err
					return
				}
				got[i], won[i], errs[i] = stores[i%2].Create(context.Background(), id, k)
			})
		}
		wg.Wait()
		winners := 0
		for i := range replicas {
			if errs[i] != nil {
				t.Fatalf("replica %d: %v", i, errs[i])
			}
			if won[i] {
				winners++
			}
			if got[i].Fingerprint() != got[0].Fingerprint() || !got[i].ServiceAccountKey.Equal(got[0].ServiceAccountKey) {
				t.Errorf("replica %d has identity %s, replica 0 %s", i, got[i].Fingerprint(), got[0].Fingerprint())
			}
		}
		if winners != 1 {
			t.Errorf("%d replicas created an identity, want exactly 1", winners)
		}
	})
}

// TestEnsureRace starts replicas at once on an empty database with one
// key file path and no key file yet, as on a shared volume: they agree on
// one key and one identity, and exactly one of them created it.
func TestEnsureRace(t *testing.T) {
	eachDatastore(t, func(t *testing.T, url string) {
		o := Options{KeyFile: filepath.Join(t.TempDir(), "identity.key"), Datastore: url}
		backends := []*sqlstorage.Backend{openBackend(t, url), openBackend(t, url)}
		const replicas = 6
		got := make([]*Identity, replicas)
		sources := make([]Source, replicas)
		errs := make([]error, replicas)
		var wg sync.WaitGroup
		for i := range replicas {
			wg.Go(func() { got[i], sources[i], errs[i] = Ensure(context.Background(), backends[i%2], o) })
		}
		wg.Wait()
		created := 0
		for i := range replicas {
			if errs[i] != nil {
				t.Fatalf("replica %d: %v", i, errs[i])
			}
			if sources[i] == Created {
				created++
			}
			if got[i].Fingerprint() != got[0].Fingerprint() {
				t.Errorf("replica %d has identity %s, replica 0 %s", i, got[i].Fingerprint(), got[0].Fingerprint())
			}
		}
		if created != 1 {
			t.Errorf("sources %v: want exactly one created", sources)
		}
	})
}

// TestWrongKey has a replica with another key, or none, refuse the
// database's identity, saying which identity the database holds and what
// to do, without making a key file.
func TestWrongKey(t *testing.T) {
	eachDatastore(t, func(t *testing.T, url string) {
		dir := t.TempDir()
		b := openBackend(t, url)
		first := Options{KeyFile: filepath.Join(dir, "first.key"), Datastore: url}
		id, source, err := Ensure(context.Background(), b, first)
		if err != nil || source != Created {
			t.Fatalf("first Ensure: %v, %s", err, source)
		}
		if again, source, err := Ensure(context.Background(), openBackend(t, url), first); err != nil || source != Loaded || again.Fingerprint() != id.Fingerprint() {
			t.Fatalf("Ensure with the same key: %v, %s", err, source)
		}

		other, err := NewKey()
		if err != nil {
			t.Fatal(err)
		}
		otherFile := filepath.Join(dir, "other.key")
		if err := WriteKeyFile(otherFile, other); err != nil {
			t.Fatal(err)
		}
		_, _, err = Ensure(context.Background(), b, Options{KeyFile: otherFile, Datastore: url})
		want := "belongs to another hub identity (CA fingerprint " + id.Fingerprint() + "), which identity key file " + otherFile +
			" cannot open; give this replica that identity's key with --identity-key-file, or point it at its own database"
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), Redact(url)) {
			t.Errorf("Ensure with another key: %v; want it to name the database and say %q", err, want)
		}

		missing := filepath.Join(dir, "missing.key")
		_, _, err = Ensure(context.Background(), b, Options{KeyFile: missing, Datastore: url})
		if err == nil || !strings.Contains(err.Error(), "holds hub identity "+id.Fingerprint()+", and identity key file "+missing+" does not exist") {
			t.Errorf("Ensure without a key file: %v", err)
		}
		if _, err := os.Stat(missing); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Ensure made key file %s for a database whose identity it cannot open: %v", missing, err)
		}
	})
}

// TestImport has a database with no identity take the CA and
// ServiceAccount key a hub from before kept in its pki directory, and
// keep it when another replica brings another directory.
func TestImport(t *testing.T) {
	eachDatastore(t, func(t *testing.T, url string) {
		old, err := New()
		if err != nil {
			t.Fatal(err)
		}
		pki := filepath.Join(t.TempDir(), "pki")
		if err := old.WriteDir(pki); err != nil {
			t.Fatal(err)
		}
		keyFile := filepath.Join(t.TempDir(), "identity.key")
		got, source, err := Ensure(context.Background(), openBackend(t, url), Options{KeyFile: keyFile, ImportDir: pki, Datastore: url})
		if err != nil || source != Imported {
			t.Fatalf("Ensure over an old pki directory: %v, %s", err, source)
		}
		if got.Fingerprint() != old.Fingerprint() || !got.ServiceAccountKey.Equal(old.ServiceAccountKey) {
			t.Errorf("imported identity %s, want the old hub's %s with its ServiceAccount key", got.Fingerprint(), old.Fingerprint())
		}

		other, err := New()
		if err != nil {
			t.Fatal(err)
		}
		otherPKI := t.TempDir()
		if err := other.WriteDir(otherPKI); err != nil {
			t.Fatal(err)
		}
		got, source, err = Ensure(context.Background(), openBackend(t, url), Options{KeyFile: keyFile, ImportDir: otherPKI, Datastore: url})
		if err != nil || source != Loaded || got.Fingerprint() != old.Fingerprint() {
			t.Errorf("a second replica with another pki directory got %v, %s, %v; want the imported %s", got, source, err, old.Fingerprint())
		}
	})
}

// TestSealed checks that the database holds no private key in the clear,
// and that a sealed key moved to another field does not open.
func TestSealed(t *testing.T) {
	url := "sqlite://" + filepath.Join(t.TempDir(), "canopy.db")
	s := NewStore(openBackend(t, url))
	k, err := NewKey()
	if err != nil {
		t.Fatal(err)
	}
	id, err := New()
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Create(context.Background(), id, k); err != nil {
		t.Fatal(err)
	}
	r, err := s.record(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, field := range []string{CAKeyFile, ServiceAccountKeyFile} {
		if bytes.Contains(r.Data[field], []byte("PRIVATE KEY")) {
			t.Errorf("the record holds %s in the clear", field)
		}
	}
	if fp, err := s.Fingerprint(context.Background()); err != nil || fp != id.Fingerprint() || r.Annotations[fingerprintAnnotation] != fp {
		t.Errorf("Fingerprint without the key: %q, %v; annotation %q; want %s", fp, err, r.Annotations[fingerprintAnnotation], id.Fingerprint())
	}
	r.Data[CAKeyFile], r.Data[ServiceAccountKeyFile] = r.Data[ServiceAccountKeyFile], r.Data[CAKeyFile]
	var wrong *WrongKeyError
	if _, err := open(r, k); !errors.As(err, &wrong) {
		t.Errorf("sealed keys swapped between fields opened: %v", err)
	}
}

func TestKeyFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "sub", "identity.key")
	k, err := NewKey()
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteKeyFile(file, k); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(file); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("key file mode %v, %v; want 0600", info.Mode(), err)
	}
	if got, err := ReadKeyFile(file); err != nil || got != k {
		t.Errorf("ReadKeyFile: %v", err)
	}
	if err := WriteKeyFile(file, Key{}); !errors.Is(err, fs.ErrExist) {
		t.Errorf("WriteKeyFile over an existing file: %v, want it refused", err)
	}
	if err := os.WriteFile(file, []byte("short\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadKeyFile(file); err == nil || !strings.Contains(err.Error(), "must hold 32 random bytes in base64") {
		t.Errorf("ReadKeyFile of a bad file: %v", err)
	}
}

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://hub:secret@db:5432/canopy?sslmode=disable": "postgres://hub:xxxxx@db:5432/canopy?sslmode=disable",
		"postgres://hub@db/canopy?password=secret":             "postgres://hub@db/canopy?password=xxxxx",
		"sqlite:///var/lib/canopy/canopy.db":                   "sqlite:///var/lib/canopy/canopy.db",
	} {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}
