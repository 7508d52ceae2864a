package hub

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"k8s.io/klog/v2"

	"github.com/canopy-dev/canopy/pkg/identity"
	"github.com/canopy-dev/canopy/pkg/sqlstorage"
)

// IdentityKeyPath is the default identity key file for dataDir.
func IdentityKeyPath(dataDir string) string { return filepath.Join(dataDir, "identity.key") }

// setUpIdentity loads the hub's identity from datastore, or creates it
// there on the first start, taking the CA and ServiceAccount key in
// <dataDir>/pki of a hub from before identities lived in the database.
// It writes the identity into <dataDir>/pki, issues this replica's serving
// and admin certificates from it, and writes the admin kubeconfig.
func (c *config) setUpIdentity(ctx context.Context, datastore string) error {
	opts := identityOptions(c.dataDir, datastore, c.IdentityKeyFile)
	id, source, err := identity.Ensure(ctx, c.backend, opts)
	if err != nil {
		return err
	}
	klog.InfoS("Hub identity", "source", source, "caFingerprint", id.Fingerprint(), "keyFile", opts.KeyFile)
	if c.pki, err = ensurePKI(opts.ImportDir, id, append([]string{c.ExternalHostname}, c.TLSSANs...)); err != nil {
		return err
	}
	if err := writeAdminKubeconfig(c.kubeconfig, c.pki, c.host); err != nil {
		return fmt.Errorf("writing %s: %w", c.kubeconfig, err)
	}
	return nil
}

// DatastoreURL is the datastore a hub with data directory dataDir and
// --datastore datastore uses: SQLite in dataDir when datastore is empty.
func DatastoreURL(dataDir, datastore string) string {
	if datastore == "" {
		return "sqlite://" + filepath.Join(dataDir, "canopy.db")
	}
	return datastore
}

// InitIdentity creates the hub's identity in the datastore, and the key
// file that seals it, unless they exist, as hub init does before the
// first replica starts. It takes the CA and ServiceAccount key in
// <dataDir>/pki, of a hub from before identities lived in the database,
// if there are some. It returns the identity and where it came from.
func InitIdentity(ctx context.Context, dataDir, datastore, keyFile string) (*identity.Identity, identity.Source, error) {
	dataDir, err := filepath.Abs(dataDir)
	if err != nil {
		return nil, "", err
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, "", err
	}
	datastore = DatastoreURL(dataDir, datastore)
	// No compaction: this process is gone long before one would run.
	backend, err := sqlstorage.Open(ctx, datastore, sqlstorage.Options{CompactInterval: -1})
	if err != nil {
		return nil, "", err
	}
	defer func() {
		if err := backend.Close(); err != nil {
			klog.ErrorS(err, "Closing the datastore")
		}
	}()
	return identity.Ensure(ctx, backend, identityOptions(dataDir, datastore, keyFile))
}

// identityOptions are where the replica with data directory dataDir
// finds its identity: in datastore, sealed with the key in keyFile,
// IdentityKeyPath(dataDir) if empty; a pre-HA hub kept it in
// <dataDir>/pki, where each replica writes it now.
func identityOptions(dataDir, datastore, keyFile string) identity.Options {
	if keyFile == "" {
		keyFile = IdentityKeyPath(dataDir)
	}
	return identity.Options{KeyFile: keyFile, ImportDir: filepath.Join(dataDir, "pki"), Datastore: datastore}
}
