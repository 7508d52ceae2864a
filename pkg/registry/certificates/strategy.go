package certificates

import (
	"context"

	certificatesv1 "k8s.io/api/certificates/v1"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/canopy-dev/canopy/pkg/registry"
)

// The strategies of CertificateSigningRequests and ClusterTrustBundles are
// Kubernetes' (k8s.io/kubernetes@v1.37.1
// pkg/registry/certificates/certificates/strategy.go and
// clustertrustbundle/strategy.go), on registry.Kind's metadata handling:
// neither kind has a metadata.generation, a request's spec and status
// change only as its subresources allow, and a bundle is updated only at
// the resourceVersion it was read at.

type csr = certificatesv1.CertificateSigningRequest

type csrStrategy struct {
	registry.Kind[*csr]
}

// PrepareForCreate records who asks for the certificate, whatever the
// client claims, and that nobody has approved or signed it yet.
func (csrStrategy) PrepareForCreate(ctx context.Context, obj runtime.Object) {
	c := obj.(*csr)
	c.Spec.Username, c.Spec.UID, c.Spec.Groups, c.Spec.Extra = "", "", nil, nil
	if u, ok := genericapirequest.UserFrom(ctx); ok {
		c.Spec.Username, c.Spec.UID, c.Spec.Groups = u.GetName(), u.GetUID(), u.GetGroups()
		if extra := u.GetExtra(); len(extra) > 0 {
			c.Spec.Extra = map[string]certificatesv1.ExtraValue{}
			for k, v := range extra {
				c.Spec.Extra[k] = v
			}
		}
	}
	c.Status = certificatesv1.CertificateSigningRequestStatus{Conditions: []certificatesv1.CertificateSigningRequestCondition{}}
}

// PrepareForUpdate keeps spec and status: only the subresources change
// them.
func (csrStrategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	c, was := obj.(*csr), old.(*csr)
	c.Spec, c.Status = was.Spec, was.Status
}

func (s csrStrategy) Validate(ctx context.Context, obj runtime.Object) field.ErrorList {
	return append(s.Kind.Validate(ctx, obj), validateCSR(obj.(*csr), nil, csrUpdate{})...)
}

func (s csrStrategy) ValidateUpdate(ctx context.Context, obj, old runtime.Object) field.ErrorList {
	return s.validateUpdate(obj, old, csrUpdate{})
}

func (s csrStrategy) validateUpdate(obj, old runtime.Object, how csrUpdate) field.ErrorList {
	errs := apivalidation.ValidateObjectMetaAccessorUpdate(obj.(*csr), old.(*csr), field.NewPath("metadata"))
	errs = append(errs, apivalidation.ValidateObjectMetaAccessor(obj.(*csr), false, s.ValidName, field.NewPath("metadata"))...)
	return append(errs, validateCSR(obj.(*csr), old.(*csr), how)...)
}

func (csrStrategy) GetResetFields() map[fieldpath.APIVersion]*fieldpath.Set {
	return resetFields(fieldpath.MakePathOrDie("spec"), fieldpath.MakePathOrDie("status"))
}

// csrStatusStrategy is the status subresource's, through which signers
// set the certificate and conditions other than Approved and Denied.
type csrStatusStrategy struct{ csrStrategy }

func (csrStatusStrategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	c, was := obj.(*csr), old.(*csr)
	c.Spec = was.Spec
	// Approved and Denied conditions stay as they were; adding or
	// removing one fails validation.
	keepConditions(c, was, certificatesv1.CertificateApproved)
	keepConditions(c, was, certificatesv1.CertificateDenied)
	stampConditions(c, was)
}

func (s csrStatusStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) field.ErrorList {
	return s.validateUpdate(obj, old, csrUpdate{certificate: true})
}

func (csrStatusStrategy) WarningsOnUpdate(context.Context, runtime.Object, runtime.Object) []string {
	return nil
}

func (csrStatusStrategy) GetResetFields() map[fieldpath.APIVersion]*fieldpath.Set {
	return resetFields(fieldpath.MakePathOrDie("spec"), fieldpath.MakePathOrDie("status", "conditions"))
}

// csrApprovalStrategy is the approval subresource's, which changes the
// conditions and nothing else.
type csrApprovalStrategy struct{ csrStrategy }

func (csrApprovalStrategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	c, was := obj.(*csr), old.(*csr)
	stampConditions(c, was)
	conditions := c.Status.Conditions
	c.Spec, c.Status = was.Spec, was.Status
	c.Status.Conditions = conditions
}

func (s csrApprovalStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) field.ErrorList {
	return s.validateUpdate(obj, old, csrUpdate{approval: true})
}

func (csrApprovalStrategy) WarningsOnUpdate(context.Context, runtime.Object, runtime.Object) []string {
	return nil
}

func (csrApprovalStrategy) GetResetFields() map[fieldpath.APIVersion]*fieldpath.Set {
	return resetFields(fieldpath.MakePathOrDie("spec"), fieldpath.MakePathOrDie("status", "certificate"))
}

func resetFields(paths ...fieldpath.Path) map[fieldpath.APIVersion]*fieldpath.Set {
	return map[fieldpath.APIVersion]*fieldpath.Set{
		fieldpath.APIVersion(certificatesv1.SchemeGroupVersion.String()): fieldpath.NewSet(paths...),
	}
}

// keepConditions gives c the conditions of type t that old had, when c
// has as many of them.
func keepConditions(c, old *csr, t certificatesv1.RequestConditionType) {
	was, is := conditionIndices(old, t), conditionIndices(c, t)
	if len(was) != len(is) {
		return
	}
	for i, j := range was {
		c.Status.Conditions[is[i]] = old.Status.Conditions[j]
	}
}

func conditionIndices(c *csr, t certificatesv1.RequestConditionType) []int {
	var out []int
	for i, cond := range c.Status.Conditions {
		if cond.Type == t {
			out = append(out, i)
		}
	}
	return out
}

// stampConditions fills in the update and transition times a condition
// of c lacks; the transition time of one whose type and status old had
// stays old's.
func stampConditions(c, old *csr) {
	now := metav1.Now()
	for i := range c.Status.Conditions {
		cond := &c.Status.Conditions[i]
		if cond.LastUpdateTime.IsZero() {
			cond.LastUpdateTime = now
		}
		if !cond.LastTransitionTime.IsZero() {
			continue
		}
		cond.LastTransitionTime = now
		for _, prev := range old.Status.Conditions {
			if prev.Type == cond.Type && prev.Status == cond.Status && !prev.LastTransitionTime.IsZero() {
				cond.LastTransitionTime = prev.LastTransitionTime
				break
			}
		}
	}
}

type bundle = certificatesv1.ClusterTrustBundle

type bundleStrategy struct {
	registry.Kind[*bundle]
}

func (bundleStrategy) PrepareForCreate(context.Context, runtime.Object)                 {}
func (bundleStrategy) PrepareForUpdate(context.Context, runtime.Object, runtime.Object) {}
func (bundleStrategy) AllowUnconditionalUpdate(context.Context) bool                    { return false }
func (bundleStrategy) GetResetFields() map[fieldpath.APIVersion]*fieldpath.Set          { return nil }
