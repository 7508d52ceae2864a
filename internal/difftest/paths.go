package difftest

import (
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// A fieldPath is one field a kind's Go type has, as JSON names: into a
// list it goes through the list's first element.
type fieldPath struct {
	segments []segment
	// leaf is the Go type of the field.
	leaf reflect.Type
}

// A segment is a JSON object key, or index 0 of a list when list is set.
type segment struct {
	key  string
	list bool
}

func (p fieldPath) String() string { return pathString(p.segments) }

func pathString(segments []segment) string {
	var b strings.Builder
	for _, s := range segments {
		switch {
		case s.list:
			b.WriteString("[0]")
		case strings.ContainsAny(s.key, "./") || s.key == "":
			b.WriteString("[" + s.key + "]")
		default:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.key)
		}
	}
	return b.String()
}

// maxPathDepth bounds the walk through recursive types (JSONSchemaProps).
const maxPathDepth = 9

// serverMetadata are the fields of metadata the server owns or the harness
// sets: mutating them tests nothing a user writes.
var serverMetadata = map[string]bool{
	"name": true, "namespace": true, "generateName": true, "uid": true, "resourceVersion": true,
	"generation": true, "creationTimestamp": true, "deletionTimestamp": true,
	"deletionGracePeriodSeconds": true, "managedFields": true, "selfLink": true,
}

// leafTypes are the types a path ends at although they are structs: what
// they hold is one JSON value.
var leafTypes = map[reflect.Type]bool{
	reflect.TypeFor[resource.Quantity]():      true,
	reflect.TypeFor[intstr.IntOrString]():     true,
	reflect.TypeFor[metav1.Time]():            true,
	reflect.TypeFor[metav1.MicroTime]():       true,
	reflect.TypeFor[metav1.Duration]():        true,
	reflect.TypeFor[runtime.RawExtension]():   true,
	reflect.TypeFor[metav1.FieldsV1]():        true,
	reflect.TypeFor[[]byte]():                 true,
	reflect.TypeFor[map[string]string]():      true,
	reflect.TypeFor[map[string][]byte]():      true,
	reflect.TypeFor[[]string]():               true,
	reflect.TypeFor[resource.QuantityValue](): true,
}

var pathsCache sync.Map // reflect.Type → []fieldPath

// fieldPaths lists every field path of type t, metadata's server-owned
// fields left out.
func fieldPaths(t reflect.Type) []fieldPath {
	if cached, ok := pathsCache.Load(t); ok {
		return cached.([]fieldPath)
	}
	var paths []fieldPath
	walkType(t, nil, map[reflect.Type]int{}, &paths)
	pathsCache.Store(t, paths)
	return paths
}

func walkType(t reflect.Type, prefix []segment, seen map[reflect.Type]int, out *[]fieldPath) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if len(prefix) > maxPathDepth || seen[t] > 1 {
		return
	}
	if leafTypes[t] {
		*out = append(*out, fieldPath{segments: clone(prefix), leaf: t})
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		seen[t]++
		defer func() { seen[t]-- }()
		for i := range t.NumField() {
			f := t.Field(i)
			name, inline, ok := jsonName(f)
			if !ok {
				continue
			}
			if inline {
				walkType(f.Type, prefix, seen, out)
				continue
			}
			if len(prefix) == 1 && prefix[0].key == "metadata" && serverMetadata[name] {
				continue
			}
			if len(prefix) == 0 && (name == "apiVersion" || name == "kind") {
				continue
			}
			walkType(f.Type, append(prefix, segment{key: name}), seen, out)
		}
	case reflect.Slice:
		// The list itself, for duplicates and emptiness, then its first
		// element's fields.
		*out = append(*out, fieldPath{segments: clone(prefix), leaf: t})
		walkType(t.Elem(), append(prefix, segment{list: true}), seen, out)
	case reflect.Map:
		*out = append(*out, fieldPath{segments: clone(prefix), leaf: t})
	case reflect.Interface:
	default:
		*out = append(*out, fieldPath{segments: clone(prefix), leaf: t})
	}
}

func clone(s []segment) []segment { return append([]segment(nil), s...) }

// jsonName is the JSON name of field f, whether f is inlined, and whether
// it is serialized at all.
func jsonName(f reflect.StructField) (name string, inline, ok bool) {
	if !f.IsExported() {
		return "", false, false
	}
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", false, false
	}
	name, opts, _ := strings.Cut(tag, ",")
	if strings.Contains(opts, "inline") || (f.Anonymous && name == "") {
		return "", true, true
	}
	if name == "" {
		name = f.Name
	}
	return name, false, true
}

// setPath sets value at segments in the JSON object obj, making the
// objects and one-element lists on the way that are not there.
func setPath(obj map[string]any, segments []segment, value any) {
	var cur any = obj
	for i, s := range segments {
		last := i == len(segments)-1
		next := func(existing any) any {
			if last {
				return value
			}
			if existing != nil {
				return existing
			}
			if segments[i+1].list {
				return []any{nil}
			}
			return map[string]any{}
		}
		switch c := cur.(type) {
		case map[string]any:
			c[s.key] = next(c[s.key])
			cur = c[s.key]
		case []any:
			if len(c) == 0 {
				return
			}
			existing := c[0]
			if _, ok := existing.(map[string]any); !ok && !last && !segments[i+1].list {
				existing = nil
			}
			c[0] = next(existing)
			cur = c[0]
		default:
			return
		}
	}
}

// getPath is the value at segments in obj, nil when it is not there.
func getPath(obj any, segments []segment) any {
	cur := obj
	for _, s := range segments {
		switch c := cur.(type) {
		case map[string]any:
			cur = c[s.key]
		case []any:
			if len(c) == 0 {
				return nil
			}
			cur = c[0]
		default:
			return nil
		}
	}
	return cur
}

// leafPaths lists the paths to every value in obj that is not an object:
// scalars, and lists as a whole.
func leafPaths(obj any, prefix []segment, out *[][]segment) {
	m, ok := obj.(map[string]any)
	if !ok || len(m) == 0 {
		if len(prefix) > 0 {
			*out = append(*out, clone(prefix))
		}
		return
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		leafPaths(m[k], append(prefix, segment{key: k}), out)
	}
}

// indexless replaces list indexes in a path string by [*], so that the
// differences of one field in every element count as one class.
func indexless(path string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(path, '[')
		if i < 0 {
			b.WriteString(path)
			return b.String()
		}
		j := strings.IndexByte(path[i:], ']')
		if j < 0 {
			b.WriteString(path)
			return b.String()
		}
		inner := path[i+1 : i+j]
		b.WriteString(path[:i])
		if _, err := strconv.Atoi(inner); err == nil {
			b.WriteString("[*]")
		} else {
			b.WriteString(path[i : i+j+1])
		}
		path = path[i+j+1:]
	}
}
