package customresource

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/controller/openapi/builder"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/kube-openapi/pkg/handler"
	"k8s.io/kube-openapi/pkg/validation/spec"
	"k8s.io/utils/lru"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// The OpenAPI v2 of a logical cluster with established definitions is
// the hub's own document with theirs merged in, as kube-apiserver's is:
// clients that still read v2 (client-go's OpenAPISchema, kubectl explain
// --output plaintext-openapiv2, Argo CD's diffs) know its custom
// resources. It is one large document, so each merged one is made once
// per distinct set of definitions and kept in a small cache, by the
// hash of their contents, which is also its ETag: logical clusters with
// the same definitions share it.

// openAPIV2 is where OpenAPI v2 is served.
const openAPIV2 = "/openapi/v2"

// protobufOpenAPIV2 is the media type of the OpenAPI v2 document in
// protobuf, under its current name and its deprecated one.
var protobufOpenAPIV2 = []string{"application/com.github.proto-openapi.spec.v2.v1.0+protobuf", "application/com.github.proto-openapi.spec.v2@v1.0+protobuf"}

// openAPIV2Cached is how many merged documents are kept. Each is a few
// MiB, the size of the hub's own document.
const openAPIV2Cached = 8

// openAPIV2Docs are the hub's own document and the merged ones. A
// document is made outside any lock, once however many ask for it at the
// same time, so that a request for one already made never waits for
// another being made.
type openAPIV2Docs struct {
	mu sync.Mutex
	// builtin is the hub's document, which does not change while it runs.
	builtin *spec.Swagger
	merged  *lru.Cache
	making  singleflight.Group
}

// openAPIV2Doc is one merged document, in JSON, and in protobuf once a
// client has asked for it.
type openAPIV2Doc struct {
	etag     string
	json     []byte
	protobuf func() ([]byte, error)
}

func newOpenAPIV2Docs() *openAPIV2Docs {
	return &openAPIV2Docs{merged: lru.New(openAPIV2Cached)}
}

// serveOpenAPIV2 serves /openapi/v2 in a logical cluster with established
// definitions, and leaves the rest to next.
func (h *Handler) serveOpenAPIV2(w http.ResponseWriter, req *http.Request, next http.Handler) {
	ctx := req.Context()
	cluster, ok := logicalcluster.ClusterFrom(ctx)
	if !ok {
		next.ServeHTTP(w, req)
		return
	}
	crds, err := h.established(ctx)
	if err != nil {
		h.fail(w, req, schema.GroupVersion{}, err)
		return
	}
	if len(crds) == 0 {
		next.ServeHTTP(w, req)
		return
	}
	hashes := make([][sha256.Size]byte, 0, len(crds))
	for _, crd := range crds {
		s, err := h.catalog.served(cluster, crd)
		if err != nil {
			h.fail(w, req, schema.GroupVersion{}, err)
			return
		}
		hashes = append(hashes, s.hash)
	}
	doc, err := h.openAPIV2.doc(ctx, hashOf(openAPIV2, hashes), crds, next)
	if err != nil {
		h.fail(w, req, schema.GroupVersion{}, err)
		return
	}
	body, contentType := doc.json, "application/json"
	if acceptsProtobuf(req.Header.Get("Accept"), protobufOpenAPIV2) {
		if body, err = doc.protobuf(); err != nil {
			h.fail(w, req, schema.GroupVersion{}, err)
			return
		}
		contentType = protobufOpenAPIV2[0]
	}
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Vary", "Accept")
	w.Header().Set("Etag", strconv.Quote(doc.etag))
	http.ServeContent(w, req, openAPIV2, time.Time{}, bytes.NewReader(body))
}

// doc is the merged document named etag, of the hub's and crds'.
func (d *openAPIV2Docs) doc(ctx context.Context, etag string, crds []*apiextensions.CustomResourceDefinition, next http.Handler) (*openAPIV2Doc, error) {
	if doc, ok := d.merged.Get(etag); ok {
		return doc.(*openAPIV2Doc), nil
	}
	// The requests waiting for it share the making: one leaving does
	// not stop it.
	ctx = context.WithoutCancel(ctx)
	doc, err, _ := d.making.Do(etag, func() (any, error) {
		if doc, ok := d.merged.Get(etag); ok {
			return doc, nil
		}
		doc, err := d.make(ctx, etag, crds, next)
		if err != nil {
			return nil, err
		}
		d.merged.Add(etag, doc)
		return doc, nil
	})
	if err != nil {
		return nil, err
	}
	return doc.(*openAPIV2Doc), nil
}

// builtinDoc is the hub's own document, read from next the first time.
func (d *openAPIV2Docs) builtinDoc(ctx context.Context, next http.Handler) (*spec.Swagger, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.builtin == nil {
		builtin, err := builtinOpenAPIV2(ctx, next)
		if err != nil {
			return nil, err
		}
		d.builtin = builtin
	}
	return d.builtin, nil
}

// make merges the documents of crds into the hub's.
func (d *openAPIV2Docs) make(ctx context.Context, etag string, crds []*apiextensions.CustomResourceDefinition, next http.Handler) (*openAPIV2Doc, error) {
	builtin, err := d.builtinDoc(ctx, next)
	if err != nil {
		return nil, err
	}
	specs := []*spec.Swagger{}
	for _, crd := range crds {
		v1 := &apiextensionsv1.CustomResourceDefinition{}
		if err := apiextensionsv1.Convert_apiextensions_CustomResourceDefinition_To_v1_CustomResourceDefinition(crd, v1, nil); err != nil {
			return nil, err
		}
		for _, v := range v1.Spec.Versions {
			if !v.Served {
				continue
			}
			s, err := builder.BuildOpenAPIV2(v1, v.Name, builder.Options{V2: true})
			if err != nil {
				return nil, fmt.Errorf("the OpenAPI v2 of %s at version %s: %w", crd.Name, v.Name, err)
			}
			specs = append(specs, s)
		}
	}
	merged, err := builder.MergeSpecs(builtin, specs...)
	if err != nil {
		return nil, err
	}
	body, err := json.Marshal(merged)
	if err != nil {
		return nil, err
	}
	return &openAPIV2Doc{etag: etag, json: body, protobuf: sync.OnceValues(func() ([]byte, error) { return handler.ToProtoBinary(body) })}, nil
}

// builtinOpenAPIV2 is the hub's own document, as its handler, next,
// serves it.
func builtinOpenAPIV2(ctx context.Context, next http.Handler) (*spec.Swagger, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, openAPIV2, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	rec := httptest.NewRecorder()
	next.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		return nil, fmt.Errorf("the hub's %s answered %d", openAPIV2, rec.Code)
	}
	builtin := &spec.Swagger{}
	if err := json.Unmarshal(rec.Body.Bytes(), builtin); err != nil {
		return nil, fmt.Errorf("the hub's %s: %w", openAPIV2, err)
	}
	return builtin, nil
}
