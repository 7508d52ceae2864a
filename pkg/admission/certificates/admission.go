package certificates

import (
	"context"
	"fmt"
	"reflect"
	"strings"

	certificatesv1 "k8s.io/api/certificates/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"

	"github.com/canopy-dev/canopy/pkg/authorization/reserved"
	certificatesregistry "github.com/canopy-dev/canopy/pkg/registry/certificates"
)

var (
	csrs    = certificatesv1.Resource("certificatesigningrequests")
	bundles = certificatesv1.Resource("clustertrustbundles")
)

// Plugin is the admission of certificates.k8s.io.
type Plugin struct {
	*admission.Handler
	authz authorizer.Authorizer
}

var _ admission.ValidationInterface = &Plugin{}

// New returns the plugin, which asks authz whether a user may approve,
// sign or attest for a signer.
func New(authz authorizer.Authorizer) *Plugin {
	return &Plugin{Handler: admission.NewHandler(admission.Create, admission.Update), authz: authz}
}

func (p *Plugin) Validate(ctx context.Context, a admission.Attributes, _ admission.ObjectInterfaces) error {
	switch gr := a.GetResource().GroupResource(); {
	case gr == bundles && a.GetSubresource() == "":
		return p.validateBundle(ctx, a)
	case gr != csrs:
		return nil
	case a.GetOperation() == admission.Create && a.GetSubresource() == "":
		return validateSubject(a)
	case a.GetOperation() != admission.Update:
		return nil
	case a.GetSubresource() == "approval":
		// The old object's signer, in case the update tries to change
		// it, which validation refuses.
		old, ok := a.GetOldObject().(*certificatesv1.CertificateSigningRequest)
		if !ok {
			return admission.NewForbidden(a, fmt.Errorf("expected type CertificateSigningRequest, got: %T", a.GetOldObject()))
		}
		if !p.allowed(ctx, a.GetUserInfo(), "approve", old.Spec.SignerName) {
			return admission.NewForbidden(a, fmt.Errorf("user not permitted to approve requests with signerName %q", old.Spec.SignerName))
		}
	case a.GetSubresource() == "status":
		old, ok := a.GetOldObject().(*certificatesv1.CertificateSigningRequest)
		obj, ok2 := a.GetObject().(*certificatesv1.CertificateSigningRequest)
		if !ok || !ok2 {
			return admission.NewForbidden(a, fmt.Errorf("expected type CertificateSigningRequest, got: %T", a.GetObject()))
		}
		if reflect.DeepEqual(old.Status.Certificate, obj.Status.Certificate) && equality.Semantic.DeepEqual(old.Status.Conditions, obj.Status.Conditions) {
			return nil
		}
		if !p.allowed(ctx, a.GetUserInfo(), "sign", old.Spec.SignerName) {
			return admission.NewForbidden(a, fmt.Errorf("user not permitted to sign requests with signerName %q", old.Spec.SignerName))
		}
	}
	return nil
}

// validateSubject refuses a request for a client certificate of the hub
// that names an identity reserved to it.
func validateSubject(a admission.Attributes) error {
	c, ok := a.GetObject().(*certificatesv1.CertificateSigningRequest)
	if !ok {
		return admission.NewForbidden(a, fmt.Errorf("expected type CertificateSigningRequest, got: %T", a.GetObject()))
	}
	if c.Spec.SignerName != certificatesv1.KubeAPIServerClientSignerName {
		return nil
	}
	request, err := certificatesregistry.ParseRequest(c.Spec.Request)
	if err != nil {
		return admission.NewForbidden(a, fmt.Errorf("failed to parse CSR: %v", err))
	}
	for _, g := range request.Subject.Organization {
		if g == user.SystemPrivilegedGroup {
			return admission.NewForbidden(a, fmt.Errorf("use of %s signer with system:masters group is not allowed", certificatesv1.KubeAPIServerClientSignerName))
		}
	}
	if why := reserved.Identity(request.Subject.CommonName, request.Subject.Organization); why != "" {
		return admission.NewForbidden(a, fmt.Errorf("use of %s signer for this subject is not allowed: %s", certificatesv1.KubeAPIServerClientSignerName, why))
	}
	return nil
}

func (p *Plugin) validateBundle(ctx context.Context, a admission.Attributes) error {
	b, ok := a.GetObject().(*certificatesv1.ClusterTrustBundle)
	if !ok {
		return admission.NewForbidden(a, fmt.Errorf("expected type ClusterTrustBundle, got: %T", a.GetObject()))
	}
	if b.Spec.SignerName == "" {
		return nil
	}
	// An update of what only the garbage collector changes needs no
	// attestation, so that it can remove finalizers and owners.
	if a.GetOperation() == admission.Update && onlyGCFields(a.GetObject(), a.GetOldObject()) {
		return nil
	}
	if !p.allowed(ctx, a.GetUserInfo(), "attest", b.Spec.SignerName) {
		return admission.NewForbidden(a, fmt.Errorf("user not permitted to attest for signerName %q", b.Spec.SignerName))
	}
	return nil
}

// allowed reports whether u may verb for signer, named as it is or as
// its domain followed by /*: k8s.io/kubernetes@v1.37.1
// pkg/certauthorization/certauthorization.go.
func (p *Plugin) allowed(ctx context.Context, u user.Info, verb, signer string) bool {
	domain, _, _ := strings.Cut(signer, "/")
	for _, name := range []string{signer, domain + "/*"} {
		decision, _, err := p.authz.Authorize(ctx, authorizer.AttributesRecord{
			User: u, Verb: verb, Name: name, APIGroup: certificatesv1.GroupName, APIVersion: "*",
			Resource: "signers", ResourceRequest: true,
		})
		if err == nil && decision == authorizer.DecisionAllow {
			return true
		}
	}
	return false
}

// onlyGCFields reports whether obj differs from old in nothing but its
// owners, finalizers and managed fields: k8s.io/kubernetes@v1.37.1
// pkg/registry/rbac/helpers.go IsOnlyMutatingGCFields.
func onlyGCFields(obj, old runtime.Object) bool {
	if old == nil || reflect.ValueOf(old).IsNil() {
		return false
	}
	copied := obj.DeepCopyObject()
	m, err := meta.Accessor(copied)
	if err != nil {
		return false
	}
	o, err := meta.Accessor(old)
	if err != nil {
		return false
	}
	m.SetOwnerReferences(o.GetOwnerReferences())
	m.SetFinalizers(o.GetFinalizers())
	m.SetSelfLink(o.GetSelfLink())
	m.SetManagedFields(o.GetManagedFields())
	return equality.Semantic.DeepEqual(copied, old)
}
