package authentication

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	authenticationv1 "k8s.io/api/authentication/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/authentication/authenticator"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/klog/v2"
)

// badAuthenticatorAuds is kube's answer when an authenticator accepts a
// token for none of the audiences asked.
var badAuthenticatorAuds = apierrors.NewInternalError(errors.New("error validating audiences"))

// TokenReviews answers who a bearer token is, as the hub authenticates it
// for a request to the logical cluster the review is posted to: a
// ServiceAccount token of that logical cluster is its ServiceAccount, one
// of another logical cluster is no one. It is what a webhook token
// authenticator or an aggregated API server asks of kube-apiserver.
type TokenReviews struct {
	tokens       authenticator.Request
	apiAudiences authenticator.Audiences
}

// NewTokenReviews answers reviews with tokens, which authenticates a
// request by its bearer token alone, for the audiences a review names or
// else apiAudiences.
func NewTokenReviews(tokens authenticator.Request, apiAudiences []string) *TokenReviews {
	return &TokenReviews{tokens: tokens, apiAudiences: apiAudiences}
}

var (
	_ rest.Creater              = &TokenReviews{}
	_ rest.Scoper               = &TokenReviews{}
	_ rest.SingularNameProvider = &TokenReviews{}
)

func (*TokenReviews) New() runtime.Object     { return &authenticationv1.TokenReview{} }
func (*TokenReviews) Destroy()                {}
func (*TokenReviews) NamespaceScoped() bool   { return false }
func (*TokenReviews) GetSingularName() string { return "tokenreview" }

// Create answers as kube's tokenreview REST does
// (k8s.io/kubernetes@v1.37.1 pkg/registry/authentication/tokenreview/storage.go),
// but for the logical cluster: the token is authenticated in a request
// with the review's context, which names it.
func (r *TokenReviews) Create(ctx context.Context, obj runtime.Object, createValidation rest.ValidateObjectFunc, _ *metav1.CreateOptions) (runtime.Object, error) {
	review, ok := obj.(*authenticationv1.TokenReview)
	if !ok {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("not a TokenReview: %T", obj))
	}
	if namespace := genericapirequest.NamespaceValue(ctx); len(namespace) != 0 {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("namespace is not allowed on this type: %v", namespace))
	}
	if len(review.Spec.Token) == 0 {
		return nil, apierrors.NewBadRequest("token is required for TokenReview in authentication")
	}
	if createValidation != nil {
		if err := createValidation(ctx, obj.DeepCopyObject()); err != nil {
			return nil, err
		}
	}
	auds := authenticator.Audiences(review.Spec.Audiences)
	if len(auds) == 0 {
		auds = r.apiAudiences
	}
	// A request with nothing but the token, and the context's logical
	// cluster.
	req := (&http.Request{Header: http.Header{}}).WithContext(authenticator.WithAudiences(ctx, auds))
	req.Header.Add("Authorization", "Bearer "+review.Spec.Token)
	resp, ok, err := r.tokens.AuthenticateRequest(req)

	out := review.DeepCopy()
	out.Status.Authenticated = ok
	if err != nil {
		out.Status.Error = err.Error()
	}
	if resp != nil && len(auds.Intersect(resp.Audiences)) == 0 {
		klog.ErrorS(nil, "A token authenticator answered for other audiences", "want", auds, "got", resp.Audiences)
		return nil, badAuthenticatorAuds
	}
	if resp != nil && resp.User != nil {
		out.Status.User = authenticationv1.UserInfo{
			Username: resp.User.GetName(),
			UID:      resp.User.GetUID(),
			Groups:   resp.User.GetGroups(),
			Extra:    map[string]authenticationv1.ExtraValue{},
		}
		for k, v := range resp.User.GetExtra() {
			out.Status.User.Extra[k] = v
		}
		out.Status.Audiences = resp.Audiences
	}
	return out, nil
}
