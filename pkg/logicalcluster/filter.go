package logicalcluster

import (
	"net/http"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apiserver/pkg/audit"
	"k8s.io/apiserver/pkg/endpoints/handlers/responsewriters"
)

// PathPrefix starts the path of every request addressed to a logical
// cluster: /clusters/<name>/….
const PathPrefix = "/clusters/"

// Wildcard stands for every logical cluster in a path: /clusters/*/….
const Wildcard = "*"

// WithLogicalCluster serves /clusters/<name>/rest as /rest in logical
// cluster <name>, /clusters/*/rest as /rest in every logical cluster (see
// WithWildcard), and any other path in Root. A malformed name gets 400
// before anything else sees the request, so everything behind this filter
// can trust the context.
//
// The request's audit event, if the audit policy records it, says the
// logical cluster, or *, in its annotation Annotation: the event's
// requestURI is the path within the cluster, and kube's event has no
// field for it.
func WithLogicalCluster(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		// The audit context is the one the generic server's WithAuditInit
		// would make further in, which reuses it.
		ctx := audit.WithAuditContext(req.Context())
		rest, wildcard := RouteWildcard(req.URL.Path)
		if wildcard {
			ctx = WithWildcard(ctx)
			audit.AddAuditAnnotation(ctx, Annotation, Wildcard)
		} else {
			name, named, err := Route(req.URL.Path)
			if err != nil {
				writeStatus(w, apierrors.NewBadRequest(err.Error()))
				return
			}
			ctx, rest = WithCluster(ctx, name), named
			audit.AddAuditAnnotation(ctx, Annotation, string(name))
		}
		r := req.WithContext(ctx)
		if rest != req.URL.Path {
			u := *req.URL
			u.Path = rest
			// The raw path has the same shape, with the cluster segment
			// possibly escaped, as "*" often is (%2A).
			u.RawPath = ""
			if raw := req.URL.RawPath; strings.HasPrefix(raw, PathPrefix) {
				_, rawRest, _ := strings.Cut(raw[len(PathPrefix):], "/")
				u.RawPath = "/" + rawRest
			}
			r.URL = &u
			r.RequestURI = u.RequestURI()
		}
		next.ServeHTTP(w, r)
	})
}

// RouteWildcard returns the path to serve in every logical cluster, if
// path is one of the wildcard's: /clusters/* or below it.
func RouteWildcard(path string) (string, bool) {
	rest, ok := strings.CutPrefix(path, PathPrefix+Wildcard)
	if !ok || (rest != "" && rest[0] != '/') {
		return "", false
	}
	if rest == "" {
		rest = "/"
	}
	return rest, true
}

func writeStatus(w http.ResponseWriter, err apierrors.APIStatus) {
	status := err.Status()
	status.TypeMeta = metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}
	responsewriters.WriteRawJSON(int(status.Code), status, w)
}

// Route splits a request path into the logical cluster it addresses and
// the path to serve there.
func Route(path string) (Name, string, error) {
	if !strings.HasPrefix(path, PathPrefix) {
		return Root, path, nil
	}
	raw, rest, _ := strings.Cut(path[len(PathPrefix):], "/")
	name, err := Parse(raw)
	if err != nil {
		return "", "", err
	}
	return name, "/" + rest, nil
}
