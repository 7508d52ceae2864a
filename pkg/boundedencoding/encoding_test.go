package boundedencoding

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
)

func TestIndentedSize(t *testing.T) {
	for _, compact := range []string{
		`{}`, `[]`, `{"a":1}`, `{"a":{}}`, `{"a":[],"b":[1,2,{"c":"x,y:{[\"]}"}]}`,
		`[[[[]]]]`, `{"a":{"b":{"c":{"d":[1,[2,[3]]]}}}}`, `"s"`, `1`, `{"a\\":"\\"}`,
	} {
		var want bytes.Buffer
		if err := json.Indent(&want, []byte(compact), "", "  "); err != nil {
			t.Fatal(err)
		}
		if got := IndentedSize([]byte(compact + "\n")); got != want.Len() {
			t.Errorf("IndentedSize(%s) = %d, want %d:\n%s", compact, got, want.Len(), want.String())
		}
	}
}

// nested is an object with a value depth maps deep holding s.
func nested(depth int, s string) *unstructured.Unstructured {
	var v any = s
	for range depth {
		v = map[string]any{"a": v}
	}
	return &unstructured.Unstructured{Object: map[string]any{"apiVersion": "example.com/v1", "kind": "Deep", "spec": v}}
}

func encoders(t *testing.T) (pretty, yamlEnc runtime.Encoder) {
	t.Helper()
	scheme := runtime.NewScheme()
	metav1.AddToGroupVersion(scheme, metav1.SchemeGroupVersion)
	for _, info := range NegotiatedSerializer(serializer.NewCodecFactory(scheme)).SupportedMediaTypes() {
		switch info.MediaType {
		case runtime.ContentTypeJSON:
			pretty = info.PrettySerializer
		case runtime.ContentTypeYAML:
			yamlEnc = info.Serializer
		}
	}
	return pretty, yamlEnc
}

func TestBounded(t *testing.T) {
	pretty, yamlEnc := encoders(t)
	for _, c := range []struct {
		name     string
		obj      *unstructured.Unstructured
		indented map[string]bool
	}{
		{"shallow", nested(3, "x"), map[string]bool{"pretty": true, "yaml": true}},
		{"100 deep", nested(100, "x"), map[string]bool{"pretty": true, "yaml": true}},
		{"9000 deep", nested(9000, "x"), map[string]bool{"pretty": false, "yaml": false}},
		// JSON escapes the newlines; YAML writes each on a line of its own,
		// indented.
		{"many lines 100 deep", nested(100, strings.Repeat("line\n", 1<<14)), map[string]bool{"pretty": true, "yaml": false}},
		{"larger than MaxYAMLInput", nested(3, strings.Repeat("x", MaxYAMLInput)), map[string]bool{"pretty": true, "yaml": false}},
	} {
		var compact bytes.Buffer
		if err := json.NewEncoder(&compact).Encode(c.obj); err != nil {
			t.Fatal(err)
		}
		for name, enc := range map[string]runtime.Encoder{"pretty": pretty, "yaml": yamlEnc} {
			var out bytes.Buffer
			if err := enc.Encode(c.obj, &out); err != nil {
				t.Fatalf("%s %s: %v", c.name, name, err)
			}
			if out.Len() > bound(compact.Len()) {
				t.Errorf("%s %s: %d bytes, past the bound %d", c.name, name, out.Len(), bound(compact.Len()))
			}
			if got := !bytes.Equal(out.Bytes(), compact.Bytes()); got != c.indented[name] {
				t.Errorf("%s %s: indented %v, want %v", c.name, name, got, c.indented[name])
			}
			if !json.Valid(compact.Bytes()) {
				t.Errorf("%s %s: the compact form is not JSON", c.name, name)
			}
		}
	}
}
