package authorization

import (
	"context"
	"fmt"

	authorizationv1 "k8s.io/api/authorization/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
)

var internalVersion = schema.GroupVersion{Group: authorizationv1.GroupName, Version: runtime.APIVersionInternal}

// AddToScheme registers authorization.k8s.io/v1 and, for
// SelfSubjectAccessReviews, the same Go type as the internal version.
func AddToScheme(s *runtime.Scheme) error {
	if err := authorizationv1.AddToScheme(s); err != nil {
		return err
	}
	s.AddKnownTypes(internalVersion, &authorizationv1.SelfSubjectAccessReview{})
	return s.SetVersionPriority(authorizationv1.SchemeGroupVersion)
}

// SelfSubjectAccessReviews answers reviews with an authorizer.
type SelfSubjectAccessReviews struct {
	authorizer authorizer.Authorizer
}

// NewSelfSubjectAccessReviews answers reviews with a.
func NewSelfSubjectAccessReviews(a authorizer.Authorizer) *SelfSubjectAccessReviews {
	return &SelfSubjectAccessReviews{authorizer: a}
}

var (
	_ rest.Creater              = &SelfSubjectAccessReviews{}
	_ rest.Scoper               = &SelfSubjectAccessReviews{}
	_ rest.SingularNameProvider = &SelfSubjectAccessReviews{}
)

func (*SelfSubjectAccessReviews) New() runtime.Object {
	return &authorizationv1.SelfSubjectAccessReview{}
}
func (*SelfSubjectAccessReviews) Destroy()                {}
func (*SelfSubjectAccessReviews) NamespaceScoped() bool   { return false }
func (*SelfSubjectAccessReviews) GetSingularName() string { return "selfsubjectaccessreview" }

// Create answers the review for the requester, as Kubernetes does,
// reporting the authorizer's reason and any error it met.
func (r *SelfSubjectAccessReviews) Create(ctx context.Context, obj runtime.Object, createValidation rest.ValidateObjectFunc, _ *metav1.CreateOptions) (runtime.Object, error) {
	review, ok := obj.(*authorizationv1.SelfSubjectAccessReview)
	if !ok {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("not a SelfSubjectAccessReview: %T", obj))
	}
	spec := review.Spec
	if (spec.ResourceAttributes == nil) == (spec.NonResourceAttributes == nil) {
		return nil, apierrors.NewBadRequest("exactly one of spec.resourceAttributes and spec.nonResourceAttributes must be set")
	}
	if createValidation != nil {
		if err := createValidation(ctx, obj); err != nil {
			return nil, err
		}
	}
	u, ok := genericapirequest.UserFrom(ctx)
	if !ok {
		return nil, apierrors.NewBadRequest("no user in the request")
	}
	attrs := authorizer.AttributesRecord{User: u}
	if ra := spec.ResourceAttributes; ra != nil {
		attrs.Verb, attrs.Namespace, attrs.APIGroup, attrs.APIVersion = ra.Verb, ra.Namespace, ra.Group, ra.Version
		attrs.Resource, attrs.Subresource, attrs.Name = ra.Resource, ra.Subresource, ra.Name
		attrs.ResourceRequest = true
	} else {
		attrs.Verb, attrs.Path = spec.NonResourceAttributes.Verb, spec.NonResourceAttributes.Path
	}
	decision, reason, err := r.authorizer.Authorize(ctx, attrs)
	out := review.DeepCopy()
	out.Status = authorizationv1.SubjectAccessReviewStatus{
		Allowed: decision == authorizer.DecisionAllow,
		Denied:  decision == authorizer.DecisionDeny,
		Reason:  reason,
	}
	if err != nil {
		out.Status.EvaluationError = err.Error()
	}
	return out, nil
}
