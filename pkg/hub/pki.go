package hub

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"

	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/util/cert"
	"k8s.io/client-go/util/keyutil"

	"github.com/canopy-dev/canopy/pkg/identity"
)

const (
	leafValidity = 365 * 24 * time.Hour
	// renewBefore is how close to expiry a certificate is replaced at start.
	renewBefore = 30 * 24 * time.Hour
)

// pki is the hub's certificate authority and the certificates this
// replica issued, kept as files under <data-dir>/pki so restarts reuse
// them and the CLI commands that sign certificates find the CA.
type pki struct {
	dir   string
	ca    *x509.Certificate
	caKey crypto.Signer
	caPEM []byte
	// serviceAccountKey signs ServiceAccount tokens.
	serviceAccountKey *ecdsa.PrivateKey
}

func (p *pki) path(name string) string { return filepath.Join(p.dir, name) }

// ensurePKI writes the hub's identity, which every replica shares, into
// dir, then makes sure this replica's serving and admin certificates
// exist, are signed by its CA and are not about to expire, and that the
// serving certificate names loopback and sans, host names or IP
// addresses.
func ensurePKI(dir string, id *identity.Identity, sans []string) (*pki, error) {
	if err := id.WriteDir(dir); err != nil {
		return nil, fmt.Errorf("writing the hub identity into %s: %w", dir, err)
	}
	p := &pki{dir: dir, ca: id.CA, caKey: id.CAKey, caPEM: id.CAPEM(), serviceAccountKey: id.ServiceAccountKey}
	serving := x509.Certificate{
		Subject:     pkix.Name{CommonName: "canopy-hub"},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
		DNSNames:    []string{"localhost"},
	}
	for _, san := range sans {
		if ip := net.ParseIP(san); ip != nil {
			serving.IPAddresses = append(serving.IPAddresses, ip)
		} else {
			serving.DNSNames = append(serving.DNSNames, san)
		}
	}
	if err := p.ensureLeaf("serving", serving); err != nil {
		return nil, fmt.Errorf("serving certificate: %w", err)
	}
	if err := p.ensureLeaf("admin", x509.Certificate{
		Subject:     pkix.Name{CommonName: "admin", Organization: []string{user.SystemPrivilegedGroup}},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}); err != nil {
		return nil, fmt.Errorf("admin certificate: %w", err)
	}
	return p, nil
}

func (p *pki) ensureLeaf(name string, tmpl x509.Certificate) error {
	certFile, keyFile := p.path(name+".crt"), p.path(name+".key")
	// A certificate of another CA, as one from before this replica joined
	// a hub whose identity was already in the database, is replaced.
	c, _, err := load(certFile, keyFile)
	if err == nil && time.Until(c.NotAfter) > renewBefore && c.CheckSignatureFrom(p.ca) == nil && names(c, tmpl) {
		return nil
	}
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	certPEM, key, err := p.issue(&tmpl)
	if err != nil {
		return err
	}
	return write(certFile, keyFile, certPEM, key)
}

// issue signs a certificate of tmpl, valid for leafValidity from now, for
// a new key, filling in tmpl's serial number and validity.
func (p *pki) issue(tmpl *x509.Certificate) ([]byte, *ecdsa.PrivateKey, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return nil, nil, err
	}
	now := time.Now()
	tmpl.SerialNumber = serial
	// Certificates hold whole seconds.
	tmpl.NotBefore = now.Add(-time.Minute).Truncate(time.Second)
	tmpl.NotAfter = now.Add(leafValidity)
	tmpl.KeyUsage = x509.KeyUsageDigitalSignature
	der, err := x509.CreateCertificate(rand.Reader, tmpl, p.ca, key.Public(), p.caKey)
	if err != nil {
		return nil, nil, err
	}
	return encodeCert(der), key, nil
}

// ClientKubeconfig is a kubeconfig for user, a member of groups, at
// server: a client certificate for a year that the CA in <dataDir>/pki
// signs, embedded with its key and the CA certificate, so that the file
// works wherever it is copied; and the certificate's issue time, its
// NotBefore. The CA must exist: the hub made it on its first start.
func ClientKubeconfig(dataDir, server, user string, groups []string) ([]byte, time.Time, error) {
	p := &pki{dir: filepath.Join(dataDir, "pki")}
	ca, caKey, err := load(p.path(identity.CACertFile), p.path(identity.CAKeyFile))
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("the hub's CA in %s: %w; start the hub once with --data-dir %s to create it", p.dir, err, dataDir)
	}
	p.ca, p.caKey = ca, caKey
	tmpl := x509.Certificate{
		Subject:     pkix.Name{CommonName: user, Organization: groups},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	certPEM, key, err := p.issue(&tmpl)
	if err != nil {
		return nil, time.Time{}, err
	}
	keyPEM, err := keyutil.MarshalPrivateKeyToPEM(key)
	if err != nil {
		return nil, time.Time{}, err
	}
	out, err := clientcmd.Write(kubeconfig(server, encodeCert(ca.Raw), user, certPEM, keyPEM, "hub"))
	return out, tmpl.NotBefore, err
}

// names tells whether c names every host and address tmpl does, so that a
// hub started with another name gets a certificate valid for it.
func names(c *x509.Certificate, tmpl x509.Certificate) bool {
	for _, ip := range tmpl.IPAddresses {
		if c.VerifyHostname(ip.String()) != nil {
			return false
		}
	}
	for _, dns := range tmpl.DNSNames {
		if c.VerifyHostname(dns) != nil {
			return false
		}
	}
	return true
}

func encodeCert(der []byte) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: cert.CertificateBlockType, Bytes: der})
}

func load(certFile, keyFile string) (*x509.Certificate, crypto.Signer, error) {
	certs, err := cert.CertsFromFile(certFile)
	if err != nil {
		if _, statErr := os.Stat(certFile); os.IsNotExist(statErr) {
			return nil, nil, statErr
		}
		return nil, nil, err
	}
	key, err := keyutil.PrivateKeyFromFile(keyFile)
	if err != nil {
		if _, statErr := os.Stat(keyFile); os.IsNotExist(statErr) {
			return nil, nil, statErr
		}
		return nil, nil, err
	}
	signer, ok := key.(crypto.Signer)
	if !ok {
		return nil, nil, fmt.Errorf("%s holds no signing key", keyFile)
	}
	return certs[0], signer, nil
}

func write(certFile, keyFile string, certPEM []byte, key crypto.PrivateKey) error {
	keyPEM, err := keyutil.MarshalPrivateKeyToPEM(key)
	if err != nil {
		return err
	}
	if err := keyutil.WriteKey(keyFile, keyPEM); err != nil {
		return err
	}
	return cert.WriteCert(certFile, certPEM)
}
