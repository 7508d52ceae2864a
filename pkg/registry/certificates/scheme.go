package certificates

import (
	certificatesv1 "k8s.io/api/certificates/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/canopy-dev/canopy/pkg/registry"
)

var internalVersion = schema.GroupVersion{Group: certificatesv1.GroupName, Version: runtime.APIVersionInternal}

// AddToScheme registers certificates.k8s.io/v1 and the served kinds as
// its internal version too, and the fields lists and watches select by.
func AddToScheme(s *runtime.Scheme) error {
	if err := certificatesv1.AddToScheme(s); err != nil {
		return err
	}
	s.AddKnownTypes(internalVersion,
		&certificatesv1.CertificateSigningRequest{}, &certificatesv1.CertificateSigningRequestList{},
		&certificatesv1.ClusterTrustBundle{}, &certificatesv1.ClusterTrustBundleList{},
	)
	v1 := certificatesv1.SchemeGroupVersion
	if err := registry.AddFieldLabelConversion(s, v1.WithKind("CertificateSigningRequest"), csrFields); err != nil {
		return err
	}
	if err := registry.AddFieldLabelConversion(s, v1.WithKind("ClusterTrustBundle"), bundleFields); err != nil {
		return err
	}
	return s.SetVersionPriority(v1)
}

// The fields lists and watches select by, as kube-apiserver's:
// k8s.io/kubernetes@v1.37.1 pkg/registry/certificates/certificates/strategy.go
// and clustertrustbundle/strategy.go (the values),
// pkg/apis/certificates/v1/conversion.go (the labels).
var (
	csrFields = registry.Fields[*certificatesv1.CertificateSigningRequest]{
		ClusterScoped: true,
		Values: map[string]func(*certificatesv1.CertificateSigningRequest) string{
			"spec.signerName": func(c *certificatesv1.CertificateSigningRequest) string { return c.Spec.SignerName },
		},
	}
	bundleFields = registry.Fields[*certificatesv1.ClusterTrustBundle]{
		ClusterScoped: true,
		Values: map[string]func(*certificatesv1.ClusterTrustBundle) string{
			"spec.signerName": func(b *certificatesv1.ClusterTrustBundle) string { return b.Spec.SignerName },
		},
	}
)
