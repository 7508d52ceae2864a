package difftest

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"maps"
	"math/rand"
	"reflect"
	"slices"
	"strings"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/apimachinery/pkg/util/yaml"
)

// Op is what a case does with its object.
type Op string

const (
	OpCreate         Op = "create"
	OpUpdate         Op = "update"
	OpJSONPatch      Op = "json-patch"
	OpMergePatch     Op = "merge-patch"
	OpStrategicPatch Op = "strategic-merge-patch"
	// OpApply applies as another field manager than the one that made the
	// base object, without force: changing a field the base's manager set
	// is a conflict.
	OpApply      Op = "apply"
	OpForceApply Op = "apply-force"
)

// ops are the operations cases go through in turn, so that every kind gets
// as many cases of each.
var ops = []Op{OpCreate, OpUpdate, OpJSONPatch, OpMergePatch, OpStrategicPatch, OpApply, OpForceApply}

// Field managers: the one that owns the base objects, and the one cases
// apply as.
const (
	baseManager  = "difftest"
	otherManager = "difftest-other"
)

// Case is one generated request, the same for both servers.
type Case struct {
	Kind  Kind
	Seed  int64
	Index int
	Op    Op
	// Mutation says how the object was made from the kind's valid one:
	// "valid", "randfill N fields", "randfill whole", or the field path
	// and what it was set to.
	Mutation string
	// Object is what the case sends (create, update, apply), or what its
	// patch turns the base object into.
	Object map[string]any
	// Patch is the body of a patch.
	Patch []byte
}

// ID names the case for a rerun: kind ID, '#', index.
func (c Case) ID() string { return fmt.Sprintf("%s#%d", c.Kind.ID(), c.Index) }

func (c Case) String() string {
	return fmt.Sprintf("seed %d case %s: %s, %s", c.Seed, c.ID(), c.Op, c.Mutation)
}

//go:embed basis.yaml
var basisYAML string

// basis are the valid objects cases start from, by kind ID.
var basis = func() map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, doc := range strings.Split(basisYAML, "\n---\n") {
		var obj map[string]any
		if err := yaml.Unmarshal([]byte(doc), &obj); err != nil || obj == nil {
			panic(fmt.Sprintf("basis.yaml: %v in\n%s", err, doc))
		}
		k := Kind{}
		k.GroupVersionKind = fromAPIVersion(obj["apiVersion"].(string), obj["kind"].(string))
		out[k.ID()] = obj
	}
	return out
}()

// namespacePlaceholder stands in basis.yaml for the namespace of the run,
// where an object names its own namespace (an Event's involvedObject).
const namespacePlaceholder = "$NAMESPACE"

// replaceString replaces, in the JSON value v, every string old by new.
func replaceString(v any, old, new string) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if e == old {
				v[k] = new
			}
			replaceString(e, old, new)
		}
	case []any:
		for i, e := range v {
			if e == old {
				v[i] = new
			}
			replaceString(e, old, new)
		}
	}
}

// BaseObject is kind's valid object named name, in namespace ns when the
// kind is namespaced.
func BaseObject(k Kind, ns, name string) map[string]any {
	obj := deepCopy(basis[k.ID()])
	if obj == nil {
		obj = map[string]any{}
	}
	replaceString(obj, namespacePlaceholder, ns)
	if spec, ok := obj["spec"].(map[string]any); ok && obj["kind"] == "CustomResourceDefinition" {
		plural, _, _ := strings.Cut(name, ".")
		spec["names"].(map[string]any)["plural"] = plural
	}
	obj["apiVersion"], obj["kind"] = k.GroupVersion().String(), k.Kind
	meta := map[string]any{}
	// A review is never stored: it has no name, and kube-apiserver
	// refuses one with metadata.
	if !createOnly(k) {
		meta["name"] = name
	}
	if k.Namespaced {
		meta["namespace"] = ns
	}
	obj["metadata"] = meta
	return obj
}

// objectName is the name of kind k's object made for role ("base" or
// "watch"): each kind's own, so that no controller of kube's takes one
// kind's object for another's, as the endpoints controller would take
// Endpoints "base" for those of Service "base".
func (k Kind) objectName(role string) string {
	name := role + "-" + strings.ToLower(k.Kind)
	if k.Group != "" {
		name += "-" + strings.ToLower(strings.Split(k.Group, ".")[0])
	}
	return k.validName(name)
}

// crdGroup is the group of basis.yaml's CustomResourceDefinition.
const crdGroup = "difftest.example.com"

// validName is name as kind k requires its objects' names: a
// CustomResourceDefinition's is its plural, a dot and its group.
func (k Kind) validName(name string) string {
	if k.Group == "apiextensions.k8s.io" && k.Kind == "CustomResourceDefinition" {
		return name + "." + crdGroup
	}
	return name
}

// createOnly reports whether k's resource takes nothing but create, as the
// reviews do: their cases are all creates, of objects never stored.
func createOnly(k Kind) bool { return !k.Can("get") }

// Generate makes case index of kind k for seed, always the same one.
func Generate(k Kind, ns string, seed int64, index int) (Case, error) {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%s/%d", seed, k.ID(), index)
	r := rand.New(rand.NewSource(int64(h.Sum64())))
	c := Case{Kind: k, Seed: seed, Index: index, Op: ops[index%len(ops)]}
	if createOnly(k) {
		c.Op = OpCreate
	}
	name := k.objectName("base")
	if c.Op == OpCreate {
		name = k.validName(fmt.Sprintf("c-%d", index))
	}
	base := BaseObject(k, ns, name)
	obj := deepCopy(base)
	var err error
	switch n := r.Intn(10); {
	case n < 2:
		c.Mutation = "valid"
	case n < 5:
		c.Mutation, err = randfillMutation(r, k, c.Op, obj)
	default:
		c.Mutation = targetedMutation(r, k, c.Op, obj)
	}
	if err != nil {
		return c, err
	}
	if c.Op == OpCreate && !createOnly(k) && r.Intn(10) == 0 {
		// A generated name, which the normalizer compares by its prefix.
		meta, _ := obj["metadata"].(map[string]any)
		if _, named := meta["name"].(string); named {
			delete(meta, "name")
			meta["generateName"] = "c-"
			c.Mutation += ", generateName"
		}
	}
	c.Object = obj
	switch c.Op {
	case OpJSONPatch:
		c.Patch, err = json.Marshal(jsonPatch(base, obj, nil))
	case OpMergePatch:
		c.Patch, err = mergePatch(base, obj)
	case OpStrategicPatch:
		c.Patch, err = strategicPatch(k, base, obj)
	}
	return c, err
}

// randfillMutation fills a typed object of k with randfill and carries
// some of its fields into obj, or all of them (keeping obj's metadata and
// type), and says which. Only a create carries status: an update or patch
// of the object ignores it, and would only meet what kube's controllers
// wrote to the base object's status, which the hub's has not.
func randfillMutation(r *rand.Rand, k Kind, op Op, obj map[string]any) (string, error) {
	typed, err := Scheme.New(k.GroupVersionKind)
	if err != nil {
		return "", err
	}
	newFiller(r).Fill(typed)
	filled, err := runtime.DefaultUnstructuredConverter.ToUnstructured(typed)
	if err != nil {
		return "", err
	}
	delete(filled, "metadata")
	delete(filled, "apiVersion")
	delete(filled, "kind")
	if op != OpCreate {
		delete(filled, "status")
	}
	if r.Intn(5) == 0 {
		for key, v := range filled {
			obj[key] = v
		}
		return "randfill whole", nil
	}
	var leaves [][]segment
	leafPaths(filled, nil, &leaves)
	if len(leaves) == 0 {
		return "randfill nothing", nil
	}
	n := 1 + r.Intn(3)
	var set []string
	for range n {
		p := leaves[r.Intn(len(leaves))]
		setPath(obj, p, getPath(filled, p))
		set = append(set, pathString(p))
	}
	return "randfill " + strings.Join(set, ", "), nil
}

// targetedMutation sets one field path of k's type in obj to a value its
// validation should refuse, or one of a kind that often is, and says
// which. A create may set metadata.name too; only a create sets status,
// as randfillMutation says why.
func targetedMutation(r *rand.Rand, k Kind, op Op, obj map[string]any) string {
	typed, err := Scheme.New(k.GroupVersionKind)
	if err != nil {
		return "valid"
	}
	paths := fieldPaths(reflect.TypeOf(typed))
	if op == OpCreate && r.Intn(8) == 0 {
		v := pick(r, badNames)
		setPath(obj, []segment{{key: "metadata"}, {key: "name"}}, v)
		return fmt.Sprintf("metadata.name = %q", v)
	}
	if len(paths) == 0 {
		return "valid"
	}
	if op != OpCreate {
		paths = slices.DeleteFunc(slices.Clone(paths), func(p fieldPath) bool { return p.segments[0].key == "status" })
	}
	if len(paths) == 0 {
		return "valid"
	}
	p := paths[r.Intn(len(paths))]
	if (op == OpApply || op == OpForceApply) && r.Intn(2) == 0 {
		// A field the base object sets, which its field manager owns:
		// applying another value is a conflict, unless forced.
		if owned := ownedPaths(obj, paths); len(owned) > 0 {
			p = owned[r.Intn(len(owned))]
		}
	}
	v, what := invalidValue(r, p, getPath(obj, p.segments))
	setPath(obj, p.segments, v)
	return p.String() + " = " + what
}

// ownedPaths are the paths among paths that obj holds a value at, its
// name and namespace left out.
func ownedPaths(obj map[string]any, paths []fieldPath) []fieldPath {
	var leaves [][]segment
	leafPaths(obj, nil, &leaves)
	held := map[string]bool{}
	for _, l := range leaves {
		held[pathString(l)] = true
	}
	var out []fieldPath
	for _, p := range paths {
		if held[p.String()] {
			out = append(out, p)
		}
	}
	return out
}

var badNames = []string{"", "Bad_Name", "UPPER", "-leading", "trailing-", "a.b", strings.Repeat("n", 254), "a/b", "..", "%"}

// invalidValue is a value for a field of path p's type, current being what
// the field holds now, and a description of it.
func invalidValue(r *rand.Rand, p fieldPath, current any) (any, string) {
	t := p.leaf
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	describe := func(v any) (any, string) {
		b, _ := json.Marshal(v)
		s := string(b)
		if len(s) > 40 {
			s = s[:37] + "..."
		}
		return v, s
	}
	switch {
	case t == reflect.TypeFor[[]string]() || (t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.String):
		return describe(pick(r, [][]any{{}, {""}, {"dup", "dup"}, {"Bad_Name"}, {strings.Repeat("x", 300)}}))
	case t.Kind() == reflect.Slice && t.Elem().Kind() != reflect.Uint8:
		if list, ok := current.([]any); ok && len(list) > 0 && r.Intn(2) == 0 {
			return append(deepCopyList(list), deepCopyAny(list[0])), "a duplicate of its first element"
		}
		return describe(pick(r, []any{[]any{}, []any{map[string]any{}}}))
	case t.Kind() == reflect.Map:
		return describe(pick(r, []any{
			map[string]any{"Bad Key!": "v"}, map[string]any{"example.com/": "v"},
			map[string]any{"a": strings.Repeat("v", 64)}, map[string]any{strings.Repeat("k", 64): "v"}, map[string]any{},
		}))
	case t == reflect.TypeFor[intstr.IntOrString]():
		return describe(pick(r, []any{-1, 0, 65536, "", "Bad_Name", "99999", "150%"}))
	case t.Name() == "Quantity":
		return describe(pick(r, []any{"-1", "0", "100Gi", "1m"}))
	case t.Kind() == reflect.String:
		return describe(pick(r, []any{"", "Bad_Name!", "UPPER", "-leading", "Unknown", "a/b/c", " ", "10.0.0.999",
			strings.Repeat("a", 64), strings.Repeat("b", 254), strings.Repeat("c", 1025)}))
	case t.Kind() == reflect.Bool:
		b, _ := current.(bool)
		return describe(!b)
	case t.Kind() >= reflect.Int && t.Kind() <= reflect.Uint64:
		return describe(pick(r, []any{-1, 0, 65536, 2147483647, -2147483648}))
	case t.Kind() == reflect.Float32 || t.Kind() == reflect.Float64:
		return describe(pick(r, []any{-1.5, 0, 1e9}))
	default:
		return describe(pick(r, []any{nil, "", map[string]any{}}))
	}
}

func deepCopy(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	return runtime.DeepCopyJSON(m)
}

func deepCopyList(l []any) []any { return runtime.DeepCopyJSONValue(l).([]any) }

func deepCopyAny(v any) any {
	if v == nil {
		return nil
	}
	return runtime.DeepCopyJSONValue(v)
}

// jsonPatch is an RFC 6902 patch turning from into to: replace, add and
// remove of each changed field, lists replaced whole.
func jsonPatch(from, to map[string]any, prefix []string) []map[string]any {
	var ops []map[string]any
	path := func(key string) string {
		escaped := strings.NewReplacer("~", "~0", "/", "~1").Replace(key)
		return "/" + strings.Join(append(append([]string(nil), prefix...), escaped), "/")
	}
	for _, key := range sortedKeys(to) {
		fv, had := from[key]
		tv := to[key]
		fm, fok := fv.(map[string]any)
		tm, tok := tv.(map[string]any)
		switch {
		case had && fok && tok:
			escaped := strings.NewReplacer("~", "~0", "/", "~1").Replace(key)
			ops = append(ops, jsonPatch(fm, tm, append(append([]string(nil), prefix...), escaped))...)
		case !had:
			ops = append(ops, map[string]any{"op": "add", "path": path(key), "value": tv})
		case !reflect.DeepEqual(fv, tv):
			ops = append(ops, map[string]any{"op": "replace", "path": path(key), "value": tv})
		}
	}
	for _, key := range sortedKeys(from) {
		if _, ok := to[key]; !ok {
			ops = append(ops, map[string]any{"op": "remove", "path": path(key)})
		}
	}
	return ops
}

// marshalBoth is from and to as JSON.
func marshalBoth(from, to map[string]any) ([]byte, []byte, error) {
	a, err := json.Marshal(from)
	if err != nil {
		return nil, nil, err
	}
	b, err := json.Marshal(to)
	return a, b, err
}

func mergePatch(from, to map[string]any) ([]byte, error) {
	a, b, err := marshalBoth(from, to)
	if err != nil {
		return nil, err
	}
	return jsonpatch.CreateMergePatch(a, b)
}

// strategicPatch is the strategic merge patch from from to to, by k's Go
// type; where the values do not fit the type, the merge patch, which a
// strategic merge patch also is.
func strategicPatch(k Kind, from, to map[string]any) ([]byte, error) {
	a, b, err := marshalBoth(from, to)
	if err != nil {
		return nil, err
	}
	typed, err := Scheme.New(k.GroupVersionKind)
	if err != nil {
		return nil, err
	}
	patch, err := strategicpatch.CreateTwoWayMergePatch(a, b, typed)
	if err != nil {
		return jsonpatch.CreateMergePatch(a, b)
	}
	return patch, nil
}

func sortedKeys(m map[string]any) []string { return slices.Sorted(maps.Keys(m)) }

// fromAPIVersion is the GroupVersionKind of an object's apiVersion and kind.
func fromAPIVersion(apiVersion, kind string) schema.GroupVersionKind {
	gv, _ := schema.ParseGroupVersion(apiVersion)
	return gv.WithKind(kind)
}
