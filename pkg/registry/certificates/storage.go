package certificates

import (
	"strings"

	certificatesv1 "k8s.io/api/certificates/v1"
	certificatesv1beta1 "k8s.io/api/certificates/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/duration"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/storage/names"
	certcsr "k8s.io/client-go/util/certificate/csr"

	"github.com/canopy-dev/canopy/pkg/registry"
	"github.com/canopy-dev/canopy/pkg/registry/upstream"
	csrstrategy "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/certificates/certificates"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/certificates/clustertrustbundle"
)

// NewStorage returns the certificates.k8s.io/v1 resources.
func NewStorage(f *registry.Factory, typer runtime.ObjectTyper) (registry.Group, error) {
	v1 := certificatesv1.SchemeGroupVersion.String()
	csrs := registry.Kind[*certificatesv1.CertificateSigningRequest]{
		ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, APIVersion: v1, ClusterScoped: true,
		Upstream: upstream.For(csrstrategy.Strategy),
	}
	return f.Build(certificatesv1.SchemeGroupVersion,
		registry.Resource{
			Singular: "certificatesigningrequest", Plural: "certificatesigningrequests", ShortNames: []string{"csr"},
			New:      func() runtime.Object { return &certificatesv1.CertificateSigningRequest{} },
			NewList:  func() runtime.Object { return &certificatesv1.CertificateSigningRequestList{} },
			Fields:   csrFields,
			Strategy: csrs,
			Serve: func(main *registry.Served) map[string]rest.Storage {
				status := func(s registry.Upstream) *registry.Status {
					return registry.NewStatus(main.Store, registry.StatusOf[*certificatesv1.CertificateSigningRequest]{Kind: csrs, Upstream: s})
				}
				return map[string]rest.Storage{
					"certificatesigningrequests":          main,
					"certificatesigningrequests/status":   status(upstream.For(csrstrategy.StatusStrategy)),
					"certificatesigningrequests/approval": status(upstream.For(csrstrategy.ApprovalStrategy)),
				}
			},
			Table: csrTable,
		},
		registry.Resource{
			Singular: "clustertrustbundle", Plural: "clustertrustbundles",
			New:     func() runtime.Object { return &certificatesv1.ClusterTrustBundle{} },
			NewList: func() runtime.Object { return &certificatesv1.ClusterTrustBundleList{} },
			Fields:  bundleFields,
			Strategy: registry.Kind[*certificatesv1.ClusterTrustBundle]{
				ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, APIVersion: v1, ClusterScoped: true,
				Upstream: upstream.For(clustertrustbundle.Strategy),
			},
			Table: registry.Table{
				Columns: []metav1.TableColumnDefinition{
					registry.Column("SignerName", "string", certificatesv1.ClusterTrustBundleSpec{}.SwaggerDoc()["signerName"]),
				},
				Cells: func(o runtime.Object) []any {
					return []any{orNone(o.(*certificatesv1.ClusterTrustBundle).Spec.SignerName)}
				},
				NoAge: true,
			},
		},
	)
}

// csrTable is kubectl get's table of CertificateSigningRequests, whose
// age comes right after the name, and whose columns kube describes with
// v1beta1's documentation: k8s.io/kubernetes@v1.37.1
// pkg/printers/internalversion/printers.go printCertificateSigningRequest.
var csrTable = registry.Table{
	Whole: true,
	Columns: []metav1.TableColumnDefinition{
		{Name: "Name", Type: "string", Format: "name", Description: metav1.ObjectMeta{}.SwaggerDoc()["name"]},
		registry.Column("Age", "string", metav1.ObjectMeta{}.SwaggerDoc()["creationTimestamp"]),
		registry.Column("SignerName", "string", certificatesv1beta1.CertificateSigningRequestSpec{}.SwaggerDoc()["signerName"]),
		registry.Column("Requestor", "string", certificatesv1beta1.CertificateSigningRequestSpec{}.SwaggerDoc()["request"]),
		registry.Column("RequestedDuration", "string", certificatesv1beta1.CertificateSigningRequestSpec{}.SwaggerDoc()["expirationSeconds"]),
		registry.Column("Condition", "string", certificatesv1beta1.CertificateSigningRequestStatus{}.SwaggerDoc()["conditions"]),
	},
	Cells: func(o runtime.Object) []any {
		csr := o.(*certificatesv1.CertificateSigningRequest)
		requested := "<none>"
		if s := csr.Spec.ExpirationSeconds; s != nil {
			requested = duration.HumanDuration(certcsr.ExpirationSecondsToDuration(*s))
		}
		return []any{csr.Name, registry.Age(csr.CreationTimestamp), orNone(csr.Spec.SignerName), csr.Spec.Username, requested, csrCondition(csr)}
	},
}

// csrCondition is a request's state as kubectl prints it: Approved,
// Denied or Pending, then whether it failed and whether it was issued.
func csrCondition(csr *certificatesv1.CertificateSigningRequest) string {
	var approved, denied, failed bool
	for _, c := range csr.Status.Conditions {
		switch c.Type {
		case certificatesv1.CertificateApproved:
			approved = true
		case certificatesv1.CertificateDenied:
			denied = true
		case certificatesv1.CertificateFailed:
			failed = true
		}
	}
	state := []string{"Pending"}
	switch {
	case denied:
		state[0] = "Denied"
	case approved:
		state[0] = "Approved"
	}
	if failed {
		state = append(state, "Failed")
	}
	if len(csr.Status.Certificate) > 0 {
		state = append(state, "Issued")
	}
	return strings.Join(state, ",")
}

func orNone(s string) string {
	if s == "" {
		return "<none>"
	}
	return s
}
