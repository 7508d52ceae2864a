package customresource

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"time"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	"k8s.io/apiextensions-apiserver/pkg/controller/openapi/builder"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/kube-openapi/pkg/handler3"
	"k8s.io/kube-openapi/pkg/spec3"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// The OpenAPI v3 of a logical cluster is the hub's own group versions,
// the same everywhere, and those of its established definitions. A group
// version's document is merged, for each request, from the documents of
// the definitions that serve it, which are made once per distinct
// definition; its hash is that of their contents.

// openAPIV3 is where OpenAPI v3 is served.
const openAPIV3 = "/openapi/v3"

// protobufOpenAPI is the media type of OpenAPI v3 documents in protobuf,
// under its current name and its deprecated one.
var protobufOpenAPI = []string{"application/com.github.proto-openapi.spec.v3.v1.0+protobuf", "application/com.github.proto-openapi.spec.v3@v1.0+protobuf"}

// groupVersionDocs are the documents of the definitions serving one group
// version, with the hashes of those definitions.
type groupVersionDocs struct {
	docs   []*spec3.OpenAPI
	hashes [][sha256.Size]byte
}

// hash identifies the merged document of d at version.
func (d groupVersionDocs) hash(version string) string { return hashOf(version, d.hashes) }

// hashOf identifies a document named by name and made of the definitions
// of hashes, in any order.
func hashOf(name string, hashes [][sha256.Size]byte) string {
	slices.SortFunc(hashes, func(a, b [sha256.Size]byte) int { return bytes.Compare(a[:], b[:]) })
	h := sha256.New()
	h.Write([]byte(name))
	for _, sum := range hashes {
		h.Write(sum[:])
	}
	return strings.ToUpper(hex.EncodeToString(h.Sum(nil)[:16]))
}

// openAPIDocs are the documents of the established definitions of
// cluster, by the path of their group version below openAPIV3, as
// "apis/example.com/v1".
func (h *Handler) openAPIDocs(ctx context.Context, cluster logicalcluster.Name) (map[string]*groupVersionDocs, error) {
	crds, err := h.established(ctx)
	if err != nil {
		return nil, err
	}
	docs := map[string]*groupVersionDocs{}
	for _, crd := range crds {
		s, err := h.catalog.served(cluster, crd)
		if err != nil {
			return nil, err
		}
		for _, v := range crd.Spec.Versions {
			if !v.Served {
				continue
			}
			path := "apis/" + crd.Spec.Group + "/" + v.Name
			if docs[path] == nil {
				docs[path] = &groupVersionDocs{}
			}
			docs[path].docs = append(docs[path].docs, s.openAPI[v.Name])
			docs[path].hashes = append(docs[path].hashes, s.hash)
		}
	}
	return docs, nil
}

// established are the established definitions of the request's logical
// cluster, which OpenAPI describes to its members.
func (h *Handler) established(ctx context.Context) ([]*apiextensions.CustomResourceDefinition, error) {
	crds, err := h.visibleDefinitions(ctx)
	if err != nil {
		return nil, err
	}
	var established []*apiextensions.CustomResourceDefinition
	for i := range crds {
		if apiextensions.IsCRDConditionTrue(&crds[i], apiextensions.Established) {
			established = append(established, &crds[i])
		}
	}
	return established, nil
}

// serveOpenAPI serves /openapi/v3 and the documents of the definitions'
// group versions below it, in a logical cluster with established
// definitions, and leaves the rest to next.
func (h *Handler) serveOpenAPI(w http.ResponseWriter, req *http.Request, next http.Handler) {
	ctx := req.Context()
	cluster, ok := logicalcluster.ClusterFrom(ctx)
	if !ok {
		next.ServeHTTP(w, req)
		return
	}
	docs, err := h.openAPIDocs(ctx, cluster)
	if err != nil {
		h.fail(w, req, schema.GroupVersion{}, err)
		return
	}
	path := strings.TrimPrefix(strings.TrimPrefix(req.URL.Path, openAPIV3), "/")
	switch d, ok := docs[path]; {
	case path == "" && len(docs) == 0:
		next.ServeHTTP(w, req)
	case path == "":
		h.serveOpenAPIPaths(w, req, next, docs)
	case ok:
		serveOpenAPIDoc(w, req, path, d)
	default:
		// Upstream's handler writes nothing for a group version it does
		// not know, where kube-apiserver answers 404.
		tracked := &writeTracker{ResponseWriter: w}
		next.ServeHTTP(tracked, req)
		if !tracked.wrote {
			w.WriteHeader(http.StatusNotFound)
		}
	}
}

// writeTracker tells whether anything was written to its ResponseWriter.
type writeTracker struct {
	http.ResponseWriter
	wrote bool
}

func (w *writeTracker) WriteHeader(code int) {
	w.wrote = true
	w.ResponseWriter.WriteHeader(code)
}

func (w *writeTracker) Write(b []byte) (int, error) {
	w.wrote = true
	return w.ResponseWriter.Write(b)
}

// serveOpenAPIPaths serves the hub's /openapi/v3 with the definitions'
// group versions added.
func (h *Handler) serveOpenAPIPaths(w http.ResponseWriter, req *http.Request, next http.Handler, docs map[string]*groupVersionDocs) {
	// The hub's own paths, as its handler serves them; fresh, whatever
	// the client has.
	builtinReq := req.Clone(req.Context())
	builtinReq.Header.Del("If-None-Match")
	builtinReq.Header.Del("If-Modified-Since")
	rec := httptest.NewRecorder()
	next.ServeHTTP(rec, builtinReq)
	if rec.Code != http.StatusOK {
		h.fail(w, req, schema.GroupVersion{}, fmt.Errorf("the hub's %s answered %d", openAPIV3, rec.Code))
		return
	}
	paths := handler3.OpenAPIV3Discovery{}
	if err := json.Unmarshal(rec.Body.Bytes(), &paths); err != nil {
		h.fail(w, req, schema.GroupVersion{}, fmt.Errorf("the hub's %s: %w", openAPIV3, err))
		return
	}
	for path, d := range docs {
		version := path[strings.LastIndex(path, "/")+1:]
		paths.Paths[path] = handler3.OpenAPIV3DiscoveryGroupVersion{ServerRelativeURL: openAPIV3 + "/" + path + "?hash=" + d.hash(version)}
	}
	body, err := json.Marshal(paths)
	if err != nil {
		h.fail(w, req, schema.GroupVersion{}, err)
		return
	}
	w.Header().Set("Etag", strconv.Quote(fmt.Sprintf("%X", sha512.Sum512(body))))
	w.Header().Set("Content-Type", "application/json")
	http.ServeContent(w, req, openAPIV3, time.Time{}, bytes.NewReader(body))
}

// serveOpenAPIDoc serves the document of the group version at path, in
// JSON or protobuf as the client asks.
func serveOpenAPIDoc(w http.ResponseWriter, req *http.Request, path string, d *groupVersionDocs) {
	version := path[strings.LastIndex(path, "/")+1:]
	merged, err := builder.MergeSpecsV3(d.docs...)
	if err == nil {
		var body []byte
		if body, err = json.Marshal(merged); err == nil {
			contentType := "application/json"
			if acceptsProtobuf(req.Header.Get("Accept"), protobufOpenAPI) {
				contentType = protobufOpenAPI[0]
				body, err = handler3.ToV3ProtoBinary(body)
			}
			if err == nil {
				etag := d.hash(version)
				w.Header().Set("Content-Type", contentType)
				w.Header().Set("Vary", "Accept")
				w.Header().Set("Etag", strconv.Quote(etag))
				// A URL with the hash of this content names this content
				// for good.
				if req.URL.Query().Get("hash") == etag {
					w.Header().Set("Cache-Control", "public, immutable")
					w.Header().Set("Expires", time.Now().AddDate(1, 0, 0).Format(time.RFC1123))
				}
				http.ServeContent(w, req, "", time.Time{}, bytes.NewReader(body))
				return
			}
		}
	}
	http.Error(w, fmt.Sprintf("the OpenAPI document of %s: %v", path, err), http.StatusInternalServerError)
}

// acceptsProtobuf tells whether accept prefers protobuf, one of
// mediaTypes, to JSON.
func acceptsProtobuf(accept string, mediaTypes []string) bool {
	for _, clause := range strings.Split(accept, ",") {
		mediaType := strings.TrimSpace(strings.SplitN(clause, ";", 2)[0])
		switch {
		case slices.Contains(mediaTypes, mediaType):
			return true
		case mediaType == "application/json", mediaType == "application/*", mediaType == "*/*":
			return false
		}
	}
	return false
}
