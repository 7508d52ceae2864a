package fairness

import (
	"context"
	"net/http"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/endpoints/handlers/responsewriters"
)

// RetryAfterSeconds is what a request the share refuses is told to wait
// before it tries again: the share frees as soon as one of its logical
// cluster's requests is done, which takes well under a second.
const RetryAfterSeconds = 1

// refusalKey is the context key of a request's *refusal.
type refusalKey struct{}

// refusal is why the share refused a request, once it has.
type refusal struct{ err error }

// WithRefusals gives each request a place where flow control leaves why
// the share refused it. Upstream's filter, which calls flow control, can
// only answer a refusal with a bare 429 "Too many requests"; flow control
// instead lets a refused request through, to AnswerRefused further in,
// which says which limit refused it and what to do.
func WithRefusals(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		next.ServeHTTP(w, req.WithContext(context.WithValue(req.Context(), refusalKey{}, &refusal{})))
	})
}

// AnswerRefused answers a request the share refused with 429
// TooManyRequests and a Retry-After, saying why, and serves any other.
func AnswerRefused(next http.Handler, s runtime.NegotiatedSerializer) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if r, ok := req.Context().Value(refusalKey{}).(*refusal); ok && r.err != nil {
			responsewriters.ErrorNegotiated(apierrors.NewTooManyRequests(r.err.Error(), RetryAfterSeconds), s, schema.GroupVersion{}, w, req)
			return
		}
		next.ServeHTTP(w, req)
	})
}
