package identity

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"k8s.io/client-go/util/cert"
	"k8s.io/client-go/util/keyutil"
)

// The files of an identity in a pki directory, as a hub from before
// replicas shared a database kept them, and as every replica writes them.
const (
	CACertFile            = "ca.crt"
	CAKeyFile             = "ca.key"
	ServiceAccountKeyFile = "sa.key"
)

// Identity is what every replica of one hub shares.
type Identity struct {
	// CA signs every certificate the hub serves or issues.
	CA    *x509.Certificate
	CAKey crypto.Signer
	// ServiceAccountKey signs ServiceAccount tokens. It has no
	// certificate and no expiry, since replacing it would invalidate
	// every token issued.
	ServiceAccountKey *ecdsa.PrivateKey
}

// New makes an identity: a CA valid for ten years and a ServiceAccount
// signing key, both ECDSA P-256.
func New() (*Identity, error) {
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	ca, err := cert.NewSelfSignedCACert(cert.Config{CommonName: "canopy-hub-ca"}, caKey)
	if err != nil {
		return nil, err
	}
	saKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	return &Identity{CA: ca, CAKey: caKey, ServiceAccountKey: saKey}, nil
}

// CAPEM is the CA certificate in PEM, as clients are given it.
func (id *Identity) CAPEM() []byte {
	return pem.EncodeToMemory(&pem.Block{Type: cert.CertificateBlockType, Bytes: id.CA.Raw})
}

// Fingerprint names the identity: its CA's Fingerprint.
func (id *Identity) Fingerprint() string { return Fingerprint(id.CA) }

// Fingerprint is the SHA-256 of certificate c, as "sha256:<hex>".
func Fingerprint(c *x509.Certificate) string {
	sum := sha256.Sum256(c.Raw)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// ReadDir reads the identity a hub kept in pki directory dir. An error
// that is fs.ErrNotExist means dir holds no CA. A directory with a CA
// but no ServiceAccount key gets a new one, as the hub made one on
// first use.
func ReadDir(dir string) (*Identity, error) {
	certs, err := cert.CertsFromFile(filepath.Join(dir, CACertFile))
	if err != nil {
		if _, statErr := os.Stat(filepath.Join(dir, CACertFile)); errors.Is(statErr, fs.ErrNotExist) {
			return nil, statErr
		}
		return nil, err
	}
	caKey, err := readKey[crypto.Signer](filepath.Join(dir, CAKeyFile))
	if err != nil {
		return nil, err
	}
	id := &Identity{CA: certs[0], CAKey: caKey}
	if err := id.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	id.ServiceAccountKey, err = readKey[*ecdsa.PrivateKey](filepath.Join(dir, ServiceAccountKeyFile))
	if errors.Is(err, fs.ErrNotExist) {
		id.ServiceAccountKey, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	}
	if err != nil {
		return nil, err
	}
	return id, nil
}

// readKey reads the PEM private key in file, which must be a K.
func readKey[K any](file string) (K, error) {
	var zero K
	key, err := keyutil.PrivateKeyFromFile(file)
	if err != nil {
		if _, statErr := os.Stat(file); errors.Is(statErr, fs.ErrNotExist) {
			return zero, statErr
		}
		return zero, err
	}
	k, ok := key.(K)
	if !ok {
		return zero, fmt.Errorf("%s holds a %T, not a %T", file, key, zero)
	}
	return k, nil
}

// check tells whether CAKey is the key of CA.
func (id *Identity) check() error {
	public, ok := id.CAKey.Public().(interface{ Equal(crypto.PublicKey) bool })
	if !ok || !public.Equal(id.CA.PublicKey) {
		return errors.New("the CA key is not the key of the CA certificate")
	}
	return nil
}

// WriteDir writes the identity into pki directory dir, the CA certificate
// readable by all and the keys by the owner only, where the commands that
// sign certificates on a hub's machine find them.
func (id *Identity) WriteDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	for file, key := range map[string]crypto.PrivateKey{CAKeyFile: id.CAKey, ServiceAccountKeyFile: id.ServiceAccountKey} {
		keyPEM, err := keyutil.MarshalPrivateKeyToPEM(key)
		if err != nil {
			return err
		}
		if err := keyutil.WriteKey(filepath.Join(dir, file), keyPEM); err != nil {
			return err
		}
	}
	return cert.WriteCert(filepath.Join(dir, CACertFile), id.CAPEM())
}
