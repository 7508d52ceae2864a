package certificates

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"strings"
	"testing"

	certificatesv1 "k8s.io/api/certificates/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"
)

// grants allows the verbs on signers it names, by verb and then name.
type grants map[string][]string

func (g grants) Authorize(_ context.Context, a authorizer.Attributes) (authorizer.Decision, string, error) {
	if a.GetResource() != "signers" || a.GetAPIGroup() != certificatesv1.GroupName {
		return authorizer.DecisionNoOpinion, "", nil
	}
	for _, name := range g[a.GetVerb()] {
		if name == a.GetName() {
			return authorizer.DecisionAllow, "", nil
		}
	}
	return authorizer.DecisionNoOpinion, "", nil
}

func TestValidate(t *testing.T) {
	csrs := certificatesv1.SchemeGroupVersion.WithResource("certificatesigningrequests")
	bundles := certificatesv1.SchemeGroupVersion.WithResource("clustertrustbundles")
	kind := certificatesv1.SchemeGroupVersion.WithKind("CertificateSigningRequest")
	client := func(subject pkix.Name) *certificatesv1.CertificateSigningRequest {
		r := &certificatesv1.CertificateSigningRequest{ObjectMeta: metav1.ObjectMeta{Name: "r"}}
		r.Spec.SignerName = certificatesv1.KubeAPIServerClientSignerName
		r.Spec.Request = requestPEM(t, subject)
		return r
	}
	signed := client(pkix.Name{CommonName: "carol"})
	signed.Status.Certificate = []byte("cert")
	bundle := &certificatesv1.ClusterTrustBundle{ObjectMeta: metav1.ObjectMeta{Name: "example.com:x:b"}, Spec: certificatesv1.ClusterTrustBundleSpec{SignerName: "example.com/x"}}
	relabelled := bundle.DeepCopy()
	relabelled.Finalizers = []string{"example.com/keep"}
	u := &user.DefaultInfo{Name: "alice"}
	for _, tc := range []struct {
		name        string
		op          admission.Operation
		resource    string
		subresource string
		obj, old    runtime.Object
		grants      grants
		want        string
	}{
		{"approve without grant", admission.Update, "csr", "approval", client(pkix.Name{CommonName: "carol"}), client(pkix.Name{CommonName: "carol"}), nil,
			`user not permitted to approve requests with signerName "kubernetes.io/kube-apiserver-client"`},
		{"approve the signer", admission.Update, "csr", "approval", client(pkix.Name{CommonName: "carol"}), client(pkix.Name{CommonName: "carol"}),
			grants{"approve": {certificatesv1.KubeAPIServerClientSignerName}}, ""},
		{"approve the domain", admission.Update, "csr", "approval", client(pkix.Name{CommonName: "carol"}), client(pkix.Name{CommonName: "carol"}),
			grants{"approve": {"kubernetes.io/*"}}, ""},
		{"sign without grant", admission.Update, "csr", "status", signed, client(pkix.Name{CommonName: "carol"}), nil, "user not permitted to sign"},
		{"status unchanged", admission.Update, "csr", "status", signed, signed, nil, ""},
		{"masters", admission.Create, "csr", "", client(pkix.Name{CommonName: "m", Organization: []string{"system:masters"}}), nil, nil, "with system:masters group is not allowed"},
		{"reserved", admission.Create, "csr", "", client(pkix.Name{CommonName: "system:canopy:controller:x"}), nil, nil, "reserved to the hub"},
		{"a tenant's user", admission.Create, "csr", "", client(pkix.Name{CommonName: "carol", Organization: []string{"team"}}), nil, nil, ""},
		{"attest without grant", admission.Create, "bundle", "", bundle, nil, nil, `user not permitted to attest for signerName "example.com/x"`},
		{"attest", admission.Create, "bundle", "", bundle, nil, grants{"attest": {"example.com/x"}}, ""},
		{"finalizers only", admission.Update, "bundle", "", relabelled, bundle, nil, ""},
	} {
		resource := csrs
		if tc.resource == "bundle" {
			resource = bundles
		}
		attrs := admission.NewAttributesRecord(tc.obj, tc.old, kind, "", "r", resource, tc.subresource, tc.op, nil, false, u)
		err := New(authorizer.AuthorizerFunc(tc.grants.Authorize)).Validate(context.Background(), attrs, nil)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: %v; want %q", tc.name, err, tc.want)
		}
	}
}

func requestPEM(t *testing.T, subject pkix.Name) []byte {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{Subject: subject}, key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: der})
}
