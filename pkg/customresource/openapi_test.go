package customresource

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	"k8s.io/kube-openapi/pkg/validation/spec"
)

func TestAcceptsProtobuf(t *testing.T) {
	for accept, want := range map[string]bool{
		"":                 false,
		"application/json": false,
		"application/com.github.proto-openapi.spec.v3.v1.0+protobuf":                   true,
		"application/com.github.proto-openapi.spec.v3@v1.0+protobuf, application/json": true,
		"application/json, application/com.github.proto-openapi.spec.v3.v1.0+protobuf": false,
		"text/html, */*": false,
	} {
		if got := acceptsProtobuf(accept, protobufOpenAPI); got != want {
			t.Errorf("acceptsProtobuf(%q) = %t", accept, got)
		}
	}
}

// A group version's hash depends on the definitions serving it, not on
// their order, and on the version.
func TestGroupVersionHash(t *testing.T) {
	a, b := sha256.Sum256([]byte("a")), sha256.Sum256([]byte("b"))
	ab := groupVersionDocs{hashes: [][sha256.Size]byte{a, b}}.hash("v1")
	if ba := (groupVersionDocs{hashes: [][sha256.Size]byte{b, a}}).hash("v1"); ab != ba {
		t.Errorf("the order of the definitions changes the hash: %s, %s", ab, ba)
	}
	if v2 := (groupVersionDocs{hashes: [][sha256.Size]byte{a, b}}).hash("v2"); v2 == ab {
		t.Error("v1 and v2 hash the same")
	}
	if only := (groupVersionDocs{hashes: [][sha256.Size]byte{a}}).hash("v1"); only == ab {
		t.Error("one definition hashes as two")
	}
}

// The merged OpenAPI v2 holds the hub's definitions and the custom
// resources', is made once per distinct set of definitions, and asks the
// hub for its own document once.
func TestOpenAPIV2Docs(t *testing.T) {
	builtinAsked := 0
	builtin := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		builtinAsked++
		if req.URL.Path != openAPIV2 {
			t.Errorf("the hub's document asked at %s", req.URL.Path)
		}
		_, _ = w.Write([]byte(`{"swagger":"2.0","info":{"title":"Canopy","version":"1"},"paths":{"/api/v1/":{}},"definitions":{"io.k8s.api.core.v1.ConfigMap":{"type":"object"}}}`))
	})
	d := newOpenAPIV2Docs()
	integers := []*apiextensions.CustomResourceDefinition{widgets("1", "integer")}
	doc, err := d.doc(context.Background(), "A", integers, builtin)
	if err != nil {
		t.Fatal(err)
	}
	merged := &spec.Swagger{}
	if err := json.Unmarshal(doc.json, merged); err != nil {
		t.Fatal(err)
	}
	size := merged.Definitions["com.example.v1.Widget"].Properties["spec"].Properties["size"]
	if _, ok := merged.Definitions["io.k8s.api.core.v1.ConfigMap"]; !ok || !size.Type.Contains("integer") {
		t.Errorf("the merged document has definitions %v, a widget's size of type %v", slices.Collect(maps.Keys(merged.Definitions)), size.Type)
	}
	if _, ok := merged.Paths.Paths["/apis/example.com/v1/namespaces/{namespace}/widgets"]; !ok {
		t.Error("the merged document has no path of widgets")
	}
	if pb, err := doc.protobuf(); err != nil || len(pb) == 0 {
		t.Errorf("the document in protobuf: %d bytes, %v", len(pb), err)
	}

	if again, err := d.doc(context.Background(), "A", integers, builtin); err != nil || again != doc {
		t.Errorf("the same definitions' document is made again: %v", err)
	}
	other, err := d.doc(context.Background(), "B", []*apiextensions.CustomResourceDefinition{widgets("2", "string")}, builtin)
	if err != nil || other == doc {
		t.Errorf("other definitions share a document: %v", err)
	}
	if builtinAsked != 1 {
		t.Errorf("the hub's document was asked for %d times", builtinAsked)
	}
}
