package hub

import (
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"slices"
	"testing"
	"time"

	"k8s.io/apiserver/pkg/authentication/user"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// TestCertUser checks that a client certificate's user is
// kube-apiserver's, with its issue time and serial number added.
func TestCertUser(t *testing.T) {
	issued := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	cert := &x509.Certificate{
		Subject:      pkix.Name{CommonName: "syncer:k", Organization: []string{"canopy:syncers"}},
		NotBefore:    issued,
		SerialNumber: big.NewInt(0xbeef),
		Raw:          []byte("der"),
	}
	resp, ok, err := certUser.User([]*x509.Certificate{cert})
	if !ok || err != nil {
		t.Fatalf("%v %v", ok, err)
	}
	u := resp.User
	if u.GetName() != "syncer:k" || !slices.Equal(u.GetGroups(), []string{"canopy:syncers"}) {
		t.Errorf("user %s in %v", u.GetName(), u.GetGroups())
	}
	extra := u.GetExtra()
	if got := extra[workloadv1alpha1.CredentialIssuedExtra]; !slices.Equal(got, []string{"2026-11-25T12:00:00Z"}) {
		t.Errorf("issued %v", got)
	}
	if got := extra[workloadv1alpha1.CredentialSerialExtra]; !slices.Equal(got, []string{"beef"}) {
		t.Errorf("serial %v", got)
	}
	if len(extra[user.CredentialIDKey]) != 1 {
		t.Errorf("kube-apiserver's credential ID is gone: %v", extra)
	}
	if _, ok, _ := certUser.User([]*x509.Certificate{{SerialNumber: big.NewInt(1)}}); ok {
		t.Error("a certificate without a CommonName names a user")
	}
}
