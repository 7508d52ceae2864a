package authorization

import (
	"context"
	"fmt"

	authorizationv1 "k8s.io/api/authorization/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
)

// SubjectAccessReviews answers whether a user, with the groups and
// extras the review names, may do something in the logical cluster the
// review is posted to, by that logical cluster's RBAC as the hub's
// authorizer reads it: what a webhook authorizer or an aggregated API
// server asks of kube-apiserver.
type SubjectAccessReviews struct{ accessReviews }

var _ rest.Creater = &SubjectAccessReviews{}

// NewSubjectAccessReviews answers reviews with a.
func NewSubjectAccessReviews(a authorizer.Authorizer) *SubjectAccessReviews {
	return &SubjectAccessReviews{accessReviews{a, func() runtime.Object { return &authorizationv1.SubjectAccessReview{} }, false, "subjectaccessreview"}}
}

// Create answers the review as kube's subjectaccessreview REST does
// (k8s.io/kubernetes@v1.37.1 pkg/registry/authorization/subjectaccessreview/rest.go).
func (r *SubjectAccessReviews) Create(ctx context.Context, obj runtime.Object, createValidation rest.ValidateObjectFunc, _ *metav1.CreateOptions) (runtime.Object, error) {
	review, ok := obj.(*authorizationv1.SubjectAccessReview)
	if !ok {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("not a SubjectAccessReview: %T", obj))
	}
	if errs := validateSubjectAccessReview(review); len(errs) > 0 {
		return nil, apierrors.NewInvalid(kind(review.Kind), "", errs)
	}
	if createValidation != nil {
		if err := createValidation(ctx, obj.DeepCopyObject()); err != nil {
			return nil, err
		}
	}
	out := review.DeepCopy()
	out.Status = answer(ctx, r.authorizer, authorizationAttributesFrom(review.Spec))
	return out, nil
}

// LocalSubjectAccessReviews answers SubjectAccessReviews confined to one
// namespace, which a namespace's admin may be allowed to ask.
type LocalSubjectAccessReviews struct{ accessReviews }

var _ rest.Creater = &LocalSubjectAccessReviews{}

// NewLocalSubjectAccessReviews answers reviews with a.
func NewLocalSubjectAccessReviews(a authorizer.Authorizer) *LocalSubjectAccessReviews {
	return &LocalSubjectAccessReviews{accessReviews{a, func() runtime.Object { return &authorizationv1.LocalSubjectAccessReview{} }, true, "localsubjectaccessreview"}}
}

// Create answers the review as kube's localsubjectaccessreview REST does
// (k8s.io/kubernetes@v1.37.1 pkg/registry/authorization/localsubjectaccessreview/rest.go).
func (r *LocalSubjectAccessReviews) Create(ctx context.Context, obj runtime.Object, createValidation rest.ValidateObjectFunc, _ *metav1.CreateOptions) (runtime.Object, error) {
	review, ok := obj.(*authorizationv1.LocalSubjectAccessReview)
	if !ok {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("not a LocalSubjectAccessReview: %T", obj))
	}
	if errs := validateLocalSubjectAccessReview(review); len(errs) > 0 {
		return nil, apierrors.NewInvalid(kind(review.Kind), "", errs)
	}
	namespace := genericapirequest.NamespaceValue(ctx)
	if len(namespace) == 0 {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("namespace is required on this type: %v", namespace))
	}
	if namespace != review.Namespace {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("spec.resourceAttributes.namespace must match namespace: %v", namespace))
	}
	if createValidation != nil {
		if err := createValidation(ctx, obj.DeepCopyObject()); err != nil {
			return nil, err
		}
	}
	out := review.DeepCopy()
	out.Status = answer(ctx, r.authorizer, authorizationAttributesFrom(review.Spec))
	return out, nil
}
