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
)

const (
	caValidity   = 10 * 365 * 24 * time.Hour
	leafValidity = 365 * 24 * time.Hour
	// renewBefore is how close to expiry a certificate is replaced at start.
	renewBefore = 30 * 24 * time.Hour
)

// pki is the hub's certificate authority and the certificates it issued,
// kept as files under <data-dir>/pki so restarts reuse them and clients
// keep trusting the hub.
type pki struct {
	dir   string
	ca    *x509.Certificate
	caKey crypto.Signer
	caPEM []byte
	regen bool
	// serviceAccountKey signs ServiceAccount tokens. It has no
	// certificate and no expiry: it is kept as long as the data dir, since
	// replacing it would invalidate every token issued.
	serviceAccountKey *ecdsa.PrivateKey
}

func (p *pki) path(name string) string { return filepath.Join(p.dir, name) }

// ensurePKI loads the CA under dir, or creates it, then makes sure the
// serving and admin certificates exist, are signed by it and are not about
// to expire, and that the serving certificate names loopback and sans,
// host names or IP addresses.
func ensurePKI(dir string, sans []string) (*pki, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	p := &pki{dir: dir}
	if err := p.ensureCA(); err != nil {
		return nil, fmt.Errorf("hub CA: %w", err)
	}
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
	if err := p.ensureServiceAccountKey(); err != nil {
		return nil, fmt.Errorf("service account key: %w", err)
	}
	return p, nil
}

// ensureServiceAccountKey loads the service-account signing key, or
// creates it the first time.
func (p *pki) ensureServiceAccountKey() error {
	keyFile := p.path("sa.key")
	key, err := keyutil.PrivateKeyFromFile(keyFile)
	if err == nil {
		ecKey, ok := key.(*ecdsa.PrivateKey)
		if !ok {
			return fmt.Errorf("%s holds a %T, not an ECDSA key", keyFile, key)
		}
		p.serviceAccountKey = ecKey
		return nil
	}
	if _, statErr := os.Stat(keyFile); !os.IsNotExist(statErr) {
		return err
	}
	ecKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	keyPEM, err := keyutil.MarshalPrivateKeyToPEM(ecKey)
	if err != nil {
		return err
	}
	p.serviceAccountKey = ecKey
	return keyutil.WriteKey(keyFile, keyPEM)
}

func (p *pki) ensureCA() error {
	certFile, keyFile := p.path("ca.crt"), p.path("ca.key")
	if c, key, err := load(certFile, keyFile); err == nil && time.Until(c.NotAfter) > renewBefore {
		p.ca, p.caKey = c, key
		p.caPEM, err = os.ReadFile(certFile)
		return err
	} else if err != nil && !os.IsNotExist(err) {
		return err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	ca, err := cert.NewSelfSignedCACert(cert.Config{CommonName: "canopy-hub-ca"}, key)
	if err != nil {
		return err
	}
	p.ca, p.caKey, p.caPEM, p.regen = ca, key, encodeCert(ca.Raw), true
	return write(certFile, keyFile, p.caPEM, key)
}

func (p *pki) ensureLeaf(name string, tmpl x509.Certificate) error {
	certFile, keyFile := p.path(name+".crt"), p.path(name+".key")
	if !p.regen {
		c, _, err := load(certFile, keyFile)
		if err == nil && time.Until(c.NotAfter) > renewBefore && c.CheckSignatureFrom(p.ca) == nil && names(c, tmpl) {
			return nil
		}
		if err != nil && !os.IsNotExist(err) {
			return err
		}
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
	ca, caKey, err := load(p.path("ca.crt"), p.path("ca.key"))
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
