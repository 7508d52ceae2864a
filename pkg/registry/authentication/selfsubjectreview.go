package authentication

import (
	"context"
	"fmt"

	authenticationv1 "k8s.io/api/authentication/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
)

var internalVersion = schema.GroupVersion{Group: authenticationv1.GroupName, Version: runtime.APIVersionInternal}

// AddToScheme registers authentication.k8s.io/v1 and, for the reviews,
// the same Go types as the internal version.
func AddToScheme(s *runtime.Scheme) error {
	if err := authenticationv1.AddToScheme(s); err != nil {
		return err
	}
	s.AddKnownTypes(internalVersion, &authenticationv1.SelfSubjectReview{}, &authenticationv1.TokenReview{})
	return s.SetVersionPriority(authenticationv1.SchemeGroupVersion)
}

// SelfSubjectReviews answers who the requester is.
type SelfSubjectReviews struct{}

var (
	_ rest.Creater              = SelfSubjectReviews{}
	_ rest.Scoper               = SelfSubjectReviews{}
	_ rest.SingularNameProvider = SelfSubjectReviews{}
)

func (SelfSubjectReviews) New() runtime.Object     { return &authenticationv1.SelfSubjectReview{} }
func (SelfSubjectReviews) Destroy()                {}
func (SelfSubjectReviews) NamespaceScoped() bool   { return false }
func (SelfSubjectReviews) GetSingularName() string { return "selfsubjectreview" }

// Create returns a new review, holding the requester's user info and
// nothing of the one posted, as kube's selfsubjectreview REST does
// (k8s.io/kubernetes@v1.37.1 pkg/registry/authentication/selfsubjectreview/rest.go):
// a review is a question, and its metadata is no part of the answer.
func (SelfSubjectReviews) Create(ctx context.Context, obj runtime.Object, createValidation rest.ValidateObjectFunc, _ *metav1.CreateOptions) (runtime.Object, error) {
	if _, ok := obj.(*authenticationv1.SelfSubjectReview); !ok {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("not a SelfSubjectReview: %T", obj))
	}
	if createValidation != nil {
		if err := createValidation(ctx, obj.DeepCopyObject()); err != nil {
			return nil, err
		}
	}
	u, ok := genericapirequest.UserFrom(ctx)
	if !ok {
		return nil, apierrors.NewBadRequest("no user in the request")
	}
	out := &authenticationv1.SelfSubjectReview{
		ObjectMeta: metav1.ObjectMeta{CreationTimestamp: metav1.Now()},
		Status: authenticationv1.SelfSubjectReviewStatus{
			UserInfo: authenticationv1.UserInfo{Username: u.GetName(), UID: u.GetUID(), Groups: u.GetGroups()},
		},
	}
	if extra := u.GetExtra(); len(extra) > 0 {
		out.Status.UserInfo.Extra = make(map[string]authenticationv1.ExtraValue, len(extra))
		for k, v := range extra {
			out.Status.UserInfo.Extra[k] = v
		}
	}
	return out, nil
}
