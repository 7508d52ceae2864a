package logicalcluster

import (
	"net/http"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apiserver/pkg/endpoints/handlers/responsewriters"
)

// PathPrefix starts the path of every request addressed to a logical
// cluster: /clusters/<name>/….
const PathPrefix = "/clusters/"

// WithLogicalCluster serves /clusters/<name>/rest as /rest in logical
// cluster <name>, and any other path in Root. A malformed name gets 400
// before anything else sees the request, so everything behind this filter
// can trust the context.
func WithLogicalCluster(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		name, rest, err := Route(req.URL.Path)
		if err != nil {
			status := apierrors.NewBadRequest(err.Error()).Status()
			status.TypeMeta = metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}
			responsewriters.WriteRawJSON(int(status.Code), status, w)
			return
		}
		r := req.WithContext(WithCluster(req.Context(), name))
		if rest != req.URL.Path {
			u := *req.URL
			u.Path = rest
			u.RawPath = ""
			if req.URL.RawPath != "" {
				if _, rawRest, err := Route(req.URL.RawPath); err == nil {
					u.RawPath = rawRest
				}
			}
			r.URL = &u
			r.RequestURI = u.RequestURI()
		}
		next.ServeHTTP(w, r)
	})
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
