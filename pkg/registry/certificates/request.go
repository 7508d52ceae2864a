package certificates

import (
	"crypto/x509"
	"encoding/pem"
	"errors"
)

// ParseRequest parses the PEM-encoded PKCS#10 request of a
// CertificateSigningRequest, for its admission and its signer.
func ParseRequest(pemBytes []byte) (*x509.CertificateRequest, error) {
	block, _ := pem.Decode(pemBytes)
	if block == nil || block.Type != "CERTIFICATE REQUEST" {
		return nil, errors.New("PEM block type must be CERTIFICATE REQUEST")
	}
	return x509.ParseCertificateRequest(block.Bytes)
}
