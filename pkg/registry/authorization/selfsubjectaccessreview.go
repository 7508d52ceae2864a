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

// AddToScheme registers authorization.k8s.io/v1 and, for the reviews,
// the same Go types as the internal version.
func AddToScheme(s *runtime.Scheme) error {
	if err := authorizationv1.AddToScheme(s); err != nil {
		return err
	}
	s.AddKnownTypes(internalVersion, &authorizationv1.SelfSubjectAccessReview{}, &authorizationv1.SubjectAccessReview{},
		&authorizationv1.LocalSubjectAccessReview{}, &authorizationv1.SelfSubjectRulesReview{})
	return s.SetVersionPriority(authorizationv1.SchemeGroupVersion)
}

// kind qualifies a review's kind for an Invalid error, as kube's
// authorizationapi.Kind does.
func kind(k string) schema.GroupKind {
	return schema.GroupKind{Group: authorizationv1.GroupName, Kind: k}
}

// answer asks a whether attrs are allowed in the logical cluster of ctx,
// and returns the review's status, as kube's reviews do.
func answer(ctx context.Context, a authorizer.Authorizer, attrs authorizer.AttributesRecord) authorizationv1.SubjectAccessReviewStatus {
	decision, reason, err := a.Authorize(ctx, attrs)
	return authorizationv1.SubjectAccessReviewStatus{
		Allowed:         decision == authorizer.DecisionAllow,
		Denied:          decision == authorizer.DecisionDeny,
		Reason:          reason,
		EvaluationError: buildEvaluationError(err, attrs),
	}
}

// accessReviews is what the access reviews' storages share: the
// authorizer that answers them, and what the API server asks of a
// storage beyond Create.
type accessReviews struct {
	authorizer authorizer.Authorizer
	newReview  func() runtime.Object
	namespaced bool
	singular   string
}

var (
	_ rest.Scoper               = &accessReviews{}
	_ rest.SingularNameProvider = &accessReviews{}
)

func (r *accessReviews) New() runtime.Object     { return r.newReview() }
func (*accessReviews) Destroy()                  {}
func (r *accessReviews) NamespaceScoped() bool   { return r.namespaced }
func (r *accessReviews) GetSingularName() string { return r.singular }

// SelfSubjectAccessReviews answers whether the requester may do
// something.
type SelfSubjectAccessReviews struct{ accessReviews }

var _ rest.Creater = &SelfSubjectAccessReviews{}

// NewSelfSubjectAccessReviews answers reviews with a.
func NewSelfSubjectAccessReviews(a authorizer.Authorizer) *SelfSubjectAccessReviews {
	return &SelfSubjectAccessReviews{accessReviews{a, func() runtime.Object { return &authorizationv1.SelfSubjectAccessReview{} }, false, "selfsubjectaccessreview"}}
}

// Create answers the review for the requester, as kube's selfsubjectaccessreview
// REST does (k8s.io/kubernetes@v1.37.1 pkg/registry/authorization/selfsubjectaccessreview/rest.go).
func (r *SelfSubjectAccessReviews) Create(ctx context.Context, obj runtime.Object, createValidation rest.ValidateObjectFunc, _ *metav1.CreateOptions) (runtime.Object, error) {
	review, ok := obj.(*authorizationv1.SelfSubjectAccessReview)
	if !ok {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("not a SelfSubjectAccessReview: %T", obj))
	}
	if errs := validateSelfSubjectAccessReview(review); len(errs) > 0 {
		return nil, apierrors.NewInvalid(kind(review.Kind), "", errs)
	}
	u, ok := genericapirequest.UserFrom(ctx)
	if !ok {
		return nil, apierrors.NewBadRequest("no user present on request")
	}
	if createValidation != nil {
		if err := createValidation(ctx, obj.DeepCopyObject()); err != nil {
			return nil, err
		}
	}
	var attrs authorizer.AttributesRecord
	if ra := review.Spec.ResourceAttributes; ra != nil {
		attrs = resourceAttributesFrom(u, *ra)
	} else {
		attrs = nonResourceAttributesFrom(u, *review.Spec.NonResourceAttributes)
	}
	out := review.DeepCopy()
	out.Status = answer(ctx, r.authorizer, attrs)
	return out, nil
}
