package hub

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"

	"k8s.io/klog/v2"

	"github.com/canopy-dev/canopy/pkg/identity"
	"github.com/canopy-dev/canopy/pkg/sqlstorage"
)

// IdentityKeyPath is the default identity key file for dataDir.
func IdentityKeyPath(dataDir string) string { return filepath.Join(dataDir, "identity.key") }

// setUpIdentity loads the hub's identity from the datastore, or creates
// it there on the first start, taking the CA and ServiceAccount key in
// <dataDir>/pki of a hub from before identities lived in the database.
// It writes the identity into <dataDir>/pki, issues this replica's serving
// and admin certificates from it, and writes the admin kubeconfig.
func setUpIdentity(ctx context.Context, backend *sqlstorage.Backend, o Options, dataDir, datastore string) (*pki, error) {
	opts := identityOptions(dataDir, datastore, o.IdentityKeyFile)
	id, source, err := identity.Ensure(ctx, backend, opts)
	if err != nil {
		return nil, err
	}
	klog.InfoS("Hub identity", "source", source, "caFingerprint", id.Fingerprint(), "keyFile", opts.KeyFile)
	p, err := ensurePKI(opts.ImportDir, id, append([]string{o.ExternalHostname}, o.TLSSANs...))
	if err != nil {
		return nil, err
	}
	kubeconfig := KubeconfigPath(dataDir)
	if err := writeAdminKubeconfig(kubeconfig, p, net.JoinHostPort(o.ExternalHostname, strconv.Itoa(o.SecurePort))); err != nil {
		return nil, fmt.Errorf("writing %s: %w", kubeconfig, err)
	}
	return p, nil
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
