package boundedencoding

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"

	"go.yaml.in/yaml/v2"
	"k8s.io/apimachinery/pkg/runtime"
)

// MinBound is the most any object may be indented to, however small its
// compact form: every indented object fits within it or four times its
// compact size, whichever is larger.
const MinBound = 1 << 20

// MaxYAMLInput is the largest compact JSON written as YAML. Parsing JSON
// as YAML, as upstream does to keep its numbers' types, allocates about
// 140 times its size for a long list of small values: larger objects are
// sent as compact JSON, which YAML parsers read as well.
const MaxYAMLInput = 128 << 10

// bound is the largest indented form of a compact encoding of n bytes.
func bound(n int) int { return max(4*n, MinBound) }

// NegotiatedSerializer is s with its pretty JSON and its YAML encoders
// bounded.
func NegotiatedSerializer(s runtime.NegotiatedSerializer) runtime.NegotiatedSerializer {
	return negotiatedSerializer{NegotiatedSerializer: s, mediaTypes: MediaTypes(s.SupportedMediaTypes())}
}

type negotiatedSerializer struct {
	runtime.NegotiatedSerializer
	mediaTypes []runtime.SerializerInfo
}

func (s negotiatedSerializer) SupportedMediaTypes() []runtime.SerializerInfo { return s.mediaTypes }

// MediaTypes are infos with the pretty JSON encoder and the YAML encoder
// replaced by bounded ones, which start from the compact JSON of the JSON
// media type. Decoding is left as it is.
func MediaTypes(infos []runtime.SerializerInfo) []runtime.SerializerInfo {
	var compact runtime.Encoder
	for _, info := range infos {
		if info.MediaType == runtime.ContentTypeJSON {
			compact = info.Serializer
		}
	}
	if compact == nil {
		return infos
	}
	out := make([]runtime.SerializerInfo, len(infos))
	for i, info := range infos {
		switch info.MediaType {
		case runtime.ContentTypeJSON:
			if info.PrettySerializer != nil {
				info.PrettySerializer = codec{Decoder: info.PrettySerializer, encoder: prettyJSON{compact}}
			}
		case runtime.ContentTypeYAML:
			info.Serializer = codec{Decoder: info.Serializer, encoder: yamlEncoder{compact}}
		}
		out[i] = info
	}
	return out
}

// codec decodes as its Decoder does and encodes with encoder.
type codec struct {
	runtime.Decoder
	encoder runtime.Encoder
}

func (s codec) Encode(obj runtime.Object, w io.Writer) error { return s.encoder.Encode(obj, w) }
func (s codec) Identifier() runtime.Identifier               { return s.encoder.Identifier() }

// prettyJSON indents the compact JSON of an object when the indented form
// is within bound, and otherwise sends the compact form.
type prettyJSON struct{ compact runtime.Encoder }

func (e prettyJSON) Identifier() runtime.Identifier {
	return runtime.Identifier(`{"bounded":"pretty","compact":` + string(e.compact.Identifier()) + "}")
}

func (e prettyJSON) Encode(obj runtime.Object, w io.Writer) error {
	var compact bytes.Buffer
	if err := e.compact.Encode(obj, &compact); err != nil {
		return err
	}
	size := IndentedSize(compact.Bytes())
	if size > bound(compact.Len()) {
		_, err := w.Write(compact.Bytes())
		return err
	}
	var indented bytes.Buffer
	indented.Grow(size)
	if err := json.Indent(&indented, bytes.TrimSpace(compact.Bytes()), "", "  "); err != nil {
		return err
	}
	_, err := w.Write(indented.Bytes())
	return err
}

// IndentedSize is the size of what json.Indent makes of compact with an
// indent of two spaces, computed without making it.
func IndentedSize(compact []byte) int {
	compact = bytes.TrimSpace(compact)
	size, depth := 0, 0
	inString, escaped := false, false
	newline := func() int { return 1 + 2*depth }
	for i, c := range compact {
		size++
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			// An empty object or array stays on its line.
			if i+1 < len(compact) && (compact[i+1] == '}' || compact[i+1] == ']') {
				depth++
				continue
			}
			depth++
			size += newline()
		case c == '}' || c == ']':
			empty := i > 0 && (compact[i-1] == '{' || compact[i-1] == '[')
			depth--
			if !empty {
				size += newline()
			}
		case c == ',':
			size += newline()
		case c == ':':
			size++
		}
	}
	return size
}

// yamlEncoder writes the YAML of an object as upstream's serializer does
// (sigs.k8s.io/yaml's JSONToYAML), into a buffer that refuses to grow past
// bound, and sends the compact JSON when it would.
type yamlEncoder struct{ compact runtime.Encoder }

func (e yamlEncoder) Identifier() runtime.Identifier {
	return runtime.Identifier(`{"bounded":"yaml","compact":` + string(e.compact.Identifier()) + "}")
}

func (e yamlEncoder) Encode(obj runtime.Object, w io.Writer) error {
	var compact bytes.Buffer
	if err := e.compact.Encode(obj, &compact); err != nil {
		return err
	}
	out, ok := e.indent(compact.Bytes())
	if !ok {
		out = compact.Bytes()
	}
	_, err := w.Write(out)
	return err
}

// indent is the YAML of compact, false if compact is larger than
// MaxYAMLInput, the YAML past bound, or compact beyond what the YAML
// parser takes, such as JSON nested more than 10,000 deep.
func (e yamlEncoder) indent(compact []byte) ([]byte, bool) {
	if len(compact) > MaxYAMLInput {
		return nil, false
	}
	// YAML reads numbers as the types they look like, where JSON would
	// make them all floats.
	var value any
	if err := yaml.Unmarshal(compact, &value); err != nil {
		return nil, false
	}
	// The encoder writes as it goes, in small pieces, and fails at the
	// first the buffer refuses.
	out := &limitedBuffer{limit: bound(len(compact))}
	enc := yaml.NewEncoder(out)
	if err := enc.Encode(value); err != nil {
		return nil, false
	}
	if err := enc.Close(); err != nil {
		return nil, false
	}
	return out.Bytes(), true
}

var errPastBound = errors.New("the encoding is larger than its bound")

// limitedBuffer is a buffer that refuses writes past limit bytes.
type limitedBuffer struct {
	bytes.Buffer
	limit int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if b.Len()+len(p) > b.limit {
		return 0, errPastBound
	}
	return b.Buffer.Write(p)
}
