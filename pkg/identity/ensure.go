package identity

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"strings"

	"github.com/canopy-dev/canopy/pkg/sqlstorage"
)

// Options say where a replica finds its identity.
type Options struct {
	// KeyFile holds the identity key. It is made when it does not exist
	// and the database holds no identity yet: a new identity is sealed
	// under it. With an identity in the database it must exist.
	KeyFile string
	// ImportDir, when set, is a pki directory that may hold the CA and
	// ServiceAccount key of a hub from before identities lived in the
	// database; a database with no identity takes those instead of new
	// ones.
	ImportDir string
	// Datastore is the datastore URL, named in errors with its password
	// left out.
	Datastore string
}

// Source says where Ensure's identity came from.
type Source string

const (
	// Loaded: the database held it.
	Loaded Source = "loaded"
	// Created: Ensure made it and stored it in the database.
	Created Source = "created"
	// Imported: Ensure stored the one in Options.ImportDir.
	Imported Source = "imported"
)

// Ensure returns the identity in the database b is open on, creating it
// there if there is none. Every error says what to do.
func Ensure(ctx context.Context, b *sqlstorage.Backend, o Options) (*Identity, Source, error) {
	s := NewStore(b)
	fp, err := s.Fingerprint(ctx)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return nil, "", err
	}
	if err == nil {
		k, err := ReadKeyFile(o.KeyFile)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, "", fmt.Errorf("the database at %s holds hub identity %s, and identity key file %s does not exist; "+
				"give this replica that identity's key with --identity-key-file, or point it at its own database", Redact(o.Datastore), fp, o.KeyFile)
		}
		if err != nil {
			return nil, "", err
		}
		id, err := s.Get(ctx, k)
		return id, Loaded, o.explain(err)
	}

	k, err := readOrWriteKeyFile(o.KeyFile)
	if err != nil {
		return nil, "", err
	}
	id, source, err := o.candidate()
	if err != nil {
		return nil, "", err
	}
	stored, won, err := s.Create(ctx, id, k)
	if err != nil {
		return nil, "", o.explain(err)
	}
	if !won {
		source = Loaded
	}
	return stored, source, nil
}

// candidate is the identity to store in a database that has none: the
// one in ImportDir if there is one there, else a new one.
func (o Options) candidate() (*Identity, Source, error) {
	if o.ImportDir != "" {
		id, err := ReadDir(o.ImportDir)
		if err == nil {
			return id, Imported, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, "", fmt.Errorf("importing the hub's CA and ServiceAccount key from %s: %w", o.ImportDir, err)
		}
	}
	id, err := New()
	return id, Created, err
}

// readOrWriteKeyFile reads the key in file, or makes one there.
func readOrWriteKeyFile(file string) (Key, error) {
	k, err := ReadKeyFile(file)
	if !errors.Is(err, fs.ErrNotExist) {
		return k, err
	}
	if k, err = NewKey(); err != nil {
		return k, err
	}
	if err := WriteKeyFile(file, k); errors.Is(err, fs.ErrExist) {
		// Another process sharing the path wrote it first.
		return ReadKeyFile(file)
	} else if err != nil {
		return k, fmt.Errorf("writing identity key file %s: %w", file, err)
	}
	return k, nil
}

// explain turns a WrongKeyError into the message a person starting a
// replica needs.
func (o Options) explain(err error) error {
	var wrong *WrongKeyError
	if errors.As(err, &wrong) {
		return fmt.Errorf("the database at %s belongs to another hub identity (CA fingerprint %s), which identity key file %s cannot open; "+
			"give this replica that identity's key with --identity-key-file, or point it at its own database", Redact(o.Datastore), wrong.Fingerprint, o.KeyFile)
	}
	return err
}

// Redact is datastore URL u without its password, for messages and logs.
func Redact(u string) string {
	parsed, err := url.Parse(u)
	if err != nil {
		scheme, _, _ := strings.Cut(u, "://")
		return scheme + "://…"
	}
	q := parsed.Query()
	for name := range q {
		if strings.EqualFold(name, "password") {
			q.Set(name, "xxxxx")
		}
	}
	parsed.RawQuery = q.Encode()
	return parsed.Redacted()
}
