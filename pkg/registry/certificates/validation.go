package certificates

import (
	"crypto/x509"
	"encoding/pem"
	"errors"

	certificatesv1 "k8s.io/api/certificates/v1"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// csrUpdate says what an update of a request may change besides what
// any may: the Approved and Denied conditions through the approval
// subresource, the certificate through the status subresource.
type csrUpdate struct {
	approval, certificate bool
}

// validateCSR checks c, created when old is nil and updated from old
// otherwise, as how allows.
func validateCSR(c, old *csr, how csrUpdate) field.ErrorList {
	spec := field.NewPath("spec")
	var errs field.ErrorList
	if err := checkRequest(c.Spec.Request); err != nil {
		errs = append(errs, field.Invalid(spec.Child("request"), c.Spec.Request, err.Error()))
	}
	if len(c.Spec.Usages) == 0 {
		errs = append(errs, field.Required(spec.Child("usages"), ""))
	}
	if c.Spec.SignerName == "" {
		errs = append(errs, field.Required(spec.Child("signerName"), ""))
	}
	return errs
}

func checkRequest(request []byte) error {
	r, err := ParseRequest(request)
	if err != nil {
		return err
	}
	return r.CheckSignature()
}

// ParseRequest parses the PEM-encoded PKCS#10 request of a
// CertificateSigningRequest.
func ParseRequest(pemBytes []byte) (*x509.CertificateRequest, error) {
	block, _ := pem.Decode(pemBytes)
	if block == nil || block.Type != "CERTIFICATE REQUEST" {
		return nil, errors.New("PEM block type must be CERTIFICATE REQUEST")
	}
	return x509.ParseCertificateRequest(block.Bytes)
}

func validateBundle(b *certificatesv1.ClusterTrustBundle) field.ErrorList {
	return nil
}

func validateBundleUpdate(b, old *certificatesv1.ClusterTrustBundle) field.ErrorList {
	return apivalidation.ValidateImmutableField(b.Spec.SignerName, old.Spec.SignerName, field.NewPath("spec", "signerName"))
}
