package core

import (
	"context"
	"fmt"
	"math"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/warning"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// TokenIssuer signs ServiceAccount tokens.
type TokenIssuer interface {
	// Issue returns a token for sa of cluster, for audiences, valid for
	// expiration, and when it expires.
	Issue(cluster logicalcluster.Name, sa *corev1.ServiceAccount, audiences []string, expiration time.Duration) (string, time.Time, error)
	// DefaultAudiences are a token's audiences when its request names none.
	DefaultAudiences() []string
	// MaxExpiration is the longest a token may be valid; zero for no
	// limit.
	MaxExpiration() time.Duration
}

const (
	// Kubernetes' bounds and default for spec.expirationSeconds: a token
	// shorter-lived than ten minutes would expire before clients that
	// renew at 80% of its life get to it.
	minTokenExpirationSeconds     = 10 * 60
	maxTokenExpirationSeconds     = math.MaxUint32
	defaultTokenExpirationSeconds = 60 * 60
)

// tokenRequests serve serviceaccounts/token: TokenRequests, which are
// answered with a token and never stored.
type tokenRequests struct {
	serviceAccounts rest.Getter
	issuer          TokenIssuer
}

var (
	_ rest.NamedCreater             = &tokenRequests{}
	_ rest.GroupVersionKindProvider = &tokenRequests{}
	_ rest.Storage                  = &tokenRequests{}
)

func (*tokenRequests) New() runtime.Object { return &authenticationv1.TokenRequest{} }
func (*tokenRequests) Destroy()            {}

// GroupVersionKind tells the API installer that this subresource of a core
// resource takes and returns authentication.k8s.io/v1 objects.
func (*tokenRequests) GroupVersionKind(schema.GroupVersion) schema.GroupVersionKind {
	return authenticationv1.SchemeGroupVersion.WithKind("TokenRequest")
}

// Create issues a token for ServiceAccount name of the request's logical
// cluster and namespace.
func (r *tokenRequests) Create(ctx context.Context, name string, obj runtime.Object, createValidation rest.ValidateObjectFunc, _ *metav1.CreateOptions) (runtime.Object, error) {
	req, ok := obj.(*authenticationv1.TokenRequest)
	if !ok {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("not a TokenRequest: %T", obj))
	}
	cluster, ok := logicalcluster.ClusterFrom(ctx)
	if !ok {
		return nil, apierrors.NewInternalError(fmt.Errorf("no logical cluster in the request"))
	}
	out := req.DeepCopy()
	ns, _ := genericapirequest.NamespaceFrom(ctx)
	out.Name, out.Namespace = name, ns
	if out.Spec.ExpirationSeconds == nil {
		seconds := int64(defaultTokenExpirationSeconds)
		out.Spec.ExpirationSeconds = &seconds
	}
	if len(out.Spec.Audiences) == 0 {
		out.Spec.Audiences = r.issuer.DefaultAudiences()
	}
	// kube-apiserver names no object in this refusal: the TokenRequest
	// has none of its own.
	if errs := validateTokenRequest(out); len(errs) > 0 {
		return nil, apierrors.NewInvalid(authenticationv1.SchemeGroupVersion.WithKind("TokenRequest").GroupKind(), "", errs)
	}
	if createValidation != nil {
		if err := createValidation(ctx, out); err != nil {
			return nil, err
		}
	}
	// As kube-apiserver with --service-account-max-token-expiration, a
	// request for longer is shortened, with a warning, not refused.
	if limit := int64(r.issuer.MaxExpiration() / time.Second); limit > 0 && *out.Spec.ExpirationSeconds > limit {
		warning.AddWarning(ctx, "", fmt.Sprintf("requested expiration of %d seconds shortened to %d seconds", *out.Spec.ExpirationSeconds, limit))
		out.Spec.ExpirationSeconds = &limit
	}
	obj, err := r.serviceAccounts.Get(ctx, name, &metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	sa := obj.(*corev1.ServiceAccount)
	token, expires, err := r.issuer.Issue(cluster, sa, out.Spec.Audiences, time.Duration(*out.Spec.ExpirationSeconds)*time.Second)
	if err != nil {
		return nil, apierrors.NewInternalError(fmt.Errorf("signing the token: %w", err))
	}
	out.Status = authenticationv1.TokenRequestStatus{Token: token, ExpirationTimestamp: metav1.NewTime(expires)}
	return out, nil
}

// validateTokenRequest checks a defaulted request. Tokens bound to an
// object are refused: nothing here would revoke them when the object
// goes, so they would outlive what they promise to.
func validateTokenRequest(req *authenticationv1.TokenRequest) field.ErrorList {
	spec := field.NewPath("spec")
	var errs field.ErrorList
	switch seconds := *req.Spec.ExpirationSeconds; {
	case seconds < minTokenExpirationSeconds:
		errs = append(errs, field.Invalid(spec.Child("expirationSeconds"), seconds, "may not specify a duration less than 10 minutes"))
	case seconds > maxTokenExpirationSeconds:
		errs = append(errs, field.Invalid(spec.Child("expirationSeconds"), seconds, "may not specify a duration larger than 2^32 seconds"))
	}
	for i, aud := range req.Spec.Audiences {
		if aud == "" {
			errs = append(errs, field.Invalid(spec.Child("audiences").Index(i), aud, "must not be empty"))
		}
	}
	if req.Spec.BoundObjectRef != nil {
		errs = append(errs, field.Forbidden(spec.Child("boundObjectRef"), "tokens bound to an object are not supported"))
	}
	return errs
}
