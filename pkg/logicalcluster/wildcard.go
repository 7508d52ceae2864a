package logicalcluster

import (
	"fmt"
	"net/http"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
)

// WildcardReadersGroup is the group whose members may list and watch
// across all logical clusters what RBAC in root grants them; see the
// package documentation.
const WildcardReadersGroup = "canopy:wildcard-readers"

// WithWildcardReadOnly refuses every resource request to the wildcard but
// list and watch of a resource, saying so, and lists or watches one
// namespace of every logical cluster by selecting it by field: the keys
// of all clusters share no prefix per namespace. It needs the request's
// RequestInfo, so it goes after authorization, which tells those who may
// not use the wildcard at all so first.
func WithWildcardReadOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		info, ok := genericapirequest.RequestInfoFrom(req.Context())
		if !IsWildcard(req.Context()) || !ok || !info.IsResourceRequest {
			next.ServeHTTP(w, req)
			return
		}
		if (info.Verb != "list" && info.Verb != "watch") || info.Subresource != "" {
			what := info.Verb + " " + info.Resource
			if info.Subresource != "" {
				what += "/" + info.Subresource
			}
			writeStatus(w, &apierrors.StatusError{ErrStatus: metav1.Status{
				Status: metav1.StatusFailure, Code: http.StatusMethodNotAllowed, Reason: metav1.StatusReasonMethodNotAllowed,
				Details: &metav1.StatusDetails{Group: info.APIGroup, Kind: info.Resource, Name: info.Name},
				Message: fmt.Sprintf("%s is not allowed on %s%s: the wildcard is read-only, for list and watch across all logical clusters; "+
					"send it to the object's own logical cluster, %s<name>/…", what, PathPrefix, Wildcard, PathPrefix),
			}})
			return
		}
		if info.Namespace != "" {
			q := req.URL.Query()
			selector := "metadata.namespace=" + info.Namespace
			if s := q.Get("fieldSelector"); s != "" {
				selector = s + "," + selector
			}
			q.Set("fieldSelector", selector)
			u := *req.URL
			u.RawQuery = q.Encode()
			req = req.Clone(req.Context())
			req.URL = &u
			req.RequestURI = u.RequestURI()
		}
		next.ServeHTTP(w, req)
	})
}
