package difftest

import (
	"encoding/json"
	"flag"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
)

// basisKinds are the kinds of basis.yaml, as Discover would give them,
// namespaced or not by what their objects say.
func basisKinds(t *testing.T) []Kind {
	t.Helper()
	var kinds []Kind
	for id, obj := range basis {
		gvk := fromAPIVersion(obj["apiVersion"].(string), obj["kind"].(string))
		if !Scheme.Recognizes(gvk) {
			t.Fatalf("basis.yaml: %s is no built-in kind", id)
		}
		verbs := []string{"create", "get", "list", "watch", "update", "patch", "delete"}
		if strings.HasSuffix(gvk.Kind, "Review") {
			verbs = []string{"create"}
		}
		kinds = append(kinds, Kind{GroupVersionKind: gvk, Resource: strings.ToLower(gvk.Kind) + "s", Namespaced: true, Verbs: verbs})
	}
	slices.SortFunc(kinds, func(a, b Kind) int { return strings.Compare(a.ID(), b.ID()) })
	return kinds
}

// Every object of basis.yaml decodes, with no unknown field, into its
// kind's Go type: a typo there would make every case of the kind test the
// decoder.
func TestBasisDecodesStrictly(t *testing.T) {
	for _, k := range basisKinds(t) {
		typed, err := Scheme.New(k.GroupVersionKind)
		if err != nil {
			t.Fatal(err)
		}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation(BaseObject(k, "ns", "base"), typed, true); err != nil {
			t.Errorf("basis.yaml %s: %v", k.ID(), err)
		}
	}
}

// A case is the same for the same seed, kind and index, so that a
// divergence can be run again from what the report prints; and cases of
// one kind vary.
func TestGenerateIsReproducible(t *testing.T) {
	for _, k := range basisKinds(t) {
		seen := map[string]bool{}
		for i := range 30 {
			a, err := Generate(k, "ns", 7, i)
			if err != nil {
				t.Fatalf("%s#%d: %v", k.ID(), i, err)
			}
			b, _ := Generate(k, "ns", 7, i)
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("%s#%d: two generations differ:\n%v\n%v", k.ID(), i, a, b)
			}
			body, _ := json.Marshal(a.Object)
			seen[string(body)+string(a.Patch)] = true
		}
		if len(seen) < 15 {
			t.Errorf("%s: 30 cases hold only %d different requests", k.ID(), len(seen))
		}
	}
}

// Every operation and every way of mutating occurs among a kind's cases.
func TestGenerateCoversOpsAndMutations(t *testing.T) {
	k := Kind{GroupVersionKind: fromAPIVersion("apps/v1", "Deployment"), Resource: "deployments", Namespaced: true,
		Verbs: []string{"create", "get", "update", "patch"}}
	ops, mutations := map[Op]int{}, map[string]int{}
	for i := range 200 {
		c, err := Generate(k, "ns", 1, i)
		if err != nil {
			t.Fatal(err)
		}
		ops[c.Op]++
		kind, _, _ := strings.Cut(c.Mutation, " ")
		if strings.Contains(c.Mutation, " = ") {
			kind = "targeted"
		}
		mutations[kind]++
		if c.Op == OpJSONPatch || c.Op == OpMergePatch || c.Op == OpStrategicPatch {
			if len(c.Patch) == 0 {
				t.Errorf("case %s: %s without a patch", c.ID(), c.Op)
			}
		}
	}
	for _, op := range []Op{OpCreate, OpUpdate, OpJSONPatch, OpMergePatch, OpStrategicPatch, OpApply, OpForceApply} {
		if ops[op] < 20 {
			t.Errorf("%d cases of %s in 200", ops[op], op)
		}
	}
	for _, m := range []string{"valid", "randfill", "targeted"} {
		if mutations[m] < 20 {
			t.Errorf("%d %s cases in 200: %v", mutations[m], m, mutations)
		}
	}
}

// The JSON patch the generator writes turns the base object into the
// mutated one.
func TestJSONPatchApplies(t *testing.T) {
	from := map[string]any{"a": map[string]any{"b": "x", "gone": 1.0}, "l": []any{1.0}, "k/e~y": "v"}
	to := map[string]any{"a": map[string]any{"b": "y", "new": true}, "l": []any{1.0, 2.0}, "k/e~y": "w", "top": "t"}
	ops := jsonPatch(from, to, nil)
	got, _ := json.Marshal(ops)
	want := `[{"op":"replace","path":"/a/b","value":"y"},{"op":"add","path":"/a/new","value":true},` +
		`{"op":"remove","path":"/a/gone"},{"op":"replace","path":"/k~1e~0y","value":"w"},` +
		`{"op":"replace","path":"/l","value":[1,2]},{"op":"add","path":"/top","value":"t"}]`
	if string(got) != want {
		t.Errorf("jsonPatch:\n got %s\nwant %s", got, want)
	}
}

// namespaceNameLabel is the label kube-apiserver gives every Namespace,
// its name.
const namespaceNameLabel = "kubernetes.io/metadata.name"

// The normalizer takes out what two servers legitimately answer
// differently, and leaves the rest.
func TestNormalize(t *testing.T) {
	obj := map[string]any{
		"kind": "Service",
		"metadata": map[string]any{
			"name": "web-x7k2p", "generateName": "web-", "uid": "u-1", "resourceVersion": "12",
			"creationTimestamp": "2026-01-01T00:00:00Z",
			"managedFields":     []any{map[string]any{"manager": "m", "time": "2026-01-01T00:00:00Z"}},
			"labels":            map[string]any{"controller-uid": "u-1", "job-name": "web-x7k2p"},
		},
		"spec": map[string]any{
			"clusterIP": "10.96.0.12", "clusterIPs": []any{"10.96.0.12"},
			"ports": []any{map[string]any{"port": 80.0, "nodePort": 30123.0}},
		},
		"status": map[string]any{"startTime": "2026-01-01T00:00:00Z", "message": "2026-01-01T00:00:00Z"},
	}
	want := map[string]any{
		"kind": "Service",
		"metadata": map[string]any{
			"name": "web-<generated>", "generateName": "web-", "creationTimestamp": someTime,
			"managedFields": []any{map[string]any{"manager": "m"}},
			"labels":        map[string]any{"controller-uid": someUID, "job-name": "web-<generated>"},
		},
		"spec": map[string]any{
			"clusterIP": someAllocated, "clusterIPs": []any{someAllocated},
			"ports": []any{map[string]any{"port": 80.0, "nodePort": someAllocated}},
		},
		"status": map[string]any{"startTime": someTime, "message": "2026-01-01T00:00:00Z"},
	}
	if got := Normalize(obj); !reflect.DeepEqual(got, want) {
		g, _ := json.MarshalIndent(got, "", " ")
		t.Errorf("Normalize:\n%s", g)
	}
	ns := map[string]any{"kind": "Namespace", "metadata": map[string]any{
		"name": "c-2x57v", "generateName": "c-", "labels": map[string]any{namespaceNameLabel: "c-2x57v"},
	}}
	if got := Normalize(ns)["metadata"].(map[string]any)["labels"]; !reflect.DeepEqual(got, map[string]any{namespaceNameLabel: "c-" + someGenerated}) {
		t.Errorf("a Namespace of a generated name has labels %v, want its name label normalized as its name", got)
	}
	headless := map[string]any{"kind": "Service", "spec": map[string]any{"clusterIP": "None"}}
	if got := Normalize(headless); got["spec"].(map[string]any)["clusterIP"] != "None" {
		t.Errorf("a headless Service's clusterIP normalized to %v", got["spec"])
	}
	// A SelfSubjectRulesReview's rules in any order are the same answer;
	// each rule's own lists keep theirs.
	rules := func(order ...int) map[string]any {
		all := []any{
			map[string]any{"verbs": []any{"get"}, "nonResourceURLs": []any{"/version", "/healthz"}},
			map[string]any{"verbs": []any{"*"}, "nonResourceURLs": []any{"*"}},
		}
		var list []any
		for _, i := range order {
			list = append(list, all[i])
		}
		return map[string]any{"kind": "SelfSubjectRulesReview", "status": map[string]any{"nonResourceRules": list}}
	}
	if a, b := Normalize(rules(0, 1)), Normalize(rules(1, 0)); !reflect.DeepEqual(a, b) {
		t.Errorf("rules in another order normalized apart: %v, %v", a, b)
	}
	if got := Normalize(rules(0))["status"].(map[string]any)["nonResourceRules"].([]any)[0].(map[string]any)["nonResourceURLs"]; !reflect.DeepEqual(got, []any{"/version", "/healthz"}) {
		t.Errorf("a rule's URLs normalized to %v", got)
	}
}

func statusAnswer(code int, reason string, causes ...string) Answer {
	var cs []any
	for _, c := range causes {
		field, typ, _ := strings.Cut(c, " ")
		cs = append(cs, map[string]any{"field": field, "reason": typ, "message": "m"})
	}
	body := map[string]any{"kind": "Status", "code": code, "reason": reason, "message": "x", "details": map[string]any{"causes": cs}}
	raw, _ := json.Marshal(body)
	return Answer{Code: code, Body: body, Raw: raw}
}

func classes(diffs []Difference) []string {
	var out []string
	for _, d := range diffs {
		out = append(out, d.Class)
	}
	return out
}

// The comparator tells codes, causes (as a multiset: a cause told twice is
// not the same answer) and objects apart, and messages on their own.
func TestCompareAnswers(t *testing.T) {
	cases := []struct {
		name      string
		kube, hub Answer
		want      []string
	}{
		{"same", statusAnswer(422, "Invalid", "spec.a FieldValueRequired"), statusAnswer(422, "Invalid", "spec.a FieldValueRequired"), nil},
		{"code", statusAnswer(422, "Invalid"), Answer{Code: 201, Body: map[string]any{"kind": "Pod"}}, []string{"code: kube 422 Invalid, hub 201 "}},
		{"causes",
			statusAnswer(422, "Invalid", "spec.a[0].b FieldValueRequired", "spec.c FieldValueInvalid"),
			statusAnswer(422, "Invalid", "spec.a[0].b FieldValueRequired", "spec.a[0].b FieldValueRequired"),
			[]string{"cause only at kube: spec.c FieldValueInvalid", "cause repeated at hub: spec.a[*].b FieldValueRequired"}},
		{"objects",
			Answer{Code: 200, Body: map[string]any{"metadata": map[string]any{"uid": "1", "annotations": map[string]any{"a": "1"}}, "spec": map[string]any{"x": 1.0, "l": []any{1.0, 2.0}}}},
			Answer{Code: 200, Body: map[string]any{"metadata": map[string]any{"uid": "2"}, "spec": map[string]any{"x": 2.0, "l": []any{1.0, 3.0}}}},
			[]string{"object: metadata.annotations.a only at kube", "object: spec.l[*] differs", "object: spec.x differs"}},
	}
	for _, c := range cases {
		if got := classes(CompareAnswers(c.kube, c.hub)); !slices.Equal(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
	a, b := statusAnswer(404, "NotFound"), statusAnswer(404, "NotFound")
	b.Body["message"] = "y"
	b.Raw, _ = json.Marshal(b.Body)
	if got := CompareAnswers(a, b); len(got) != 1 || got[0].Aspect != AspectMessage {
		t.Errorf("messages alone: got %v", got)
	}
}

// A deliberate divergence covers its path and what is under it, in its
// kind, and in watch events as in answers.
func TestDivergenceCovers(t *testing.T) {
	pod := Kind{GroupVersionKind: fromAPIVersion("v1", "Pod")}
	d := Divergence{Kind: "v1/Pod", Aspect: AspectObject, Path: "spec.priority"}
	for diff, want := range map[Difference]bool{
		{Aspect: AspectObject, Path: "spec.priority"}:            true,
		{Aspect: AspectWatch, Path: "spec.priority"}:             true,
		{Aspect: AspectObject, Path: "spec.priorityClassName"}:   false,
		{Aspect: AspectCause, Path: "spec.priority"}:             false,
		{Aspect: AspectObject, Path: "spec.priority.x"}:          true,
		{Aspect: AspectObject, Path: "spec.containers[*].image"}: false,
	} {
		if got := d.Covers(pod, diff); got != want {
			t.Errorf("%v covers %v: %v, want %v", d, diff, got, want)
		}
	}
	if d.Covers(Kind{GroupVersionKind: fromAPIVersion("apps/v1", "Deployment")}, Difference{Aspect: AspectObject, Path: "spec.priority"}) {
		t.Errorf("%v covers another kind", d)
	}
	// One that is only at the hub covers the field the hub alone gives,
	// and not one both give otherwise.
	d.Only = "hub"
	for diff, want := range map[Difference]bool{
		{Aspect: AspectObject, Path: "spec.priority", Class: "object: spec.priority only at hub"}:  true,
		{Aspect: AspectObject, Path: "spec.priority", Class: "object: spec.priority only at kube"}: false,
		{Aspect: AspectObject, Path: "spec.priority", Class: "object: spec.priority differs"}:      false,
	} {
		if got := d.Covers(pod, diff); got != want {
			t.Errorf("%v covers %v: %v, want %v", d, diff, got, want)
		}
	}
	for _, d := range Divergences {
		if d.Only != "" && d.Only != "hub" && d.Only != "kube" {
			t.Errorf("divergences.yaml: %s %s: only is %q, not hub or kube", d.Kind, d.Path, d.Only)
		}
	}
}

// A deliberate divergence of codes covers those codes alone, and only when
// both servers tell the same message.
func TestDivergenceCoversCodes(t *testing.T) {
	pod := Kind{GroupVersionKind: fromAPIVersion("v1", "Pod")}
	d := Divergence{Kind: "*", Aspect: AspectCode, Codes: []int{500, 400}}
	same := statusAnswer(500, "")
	bad := statusAnswer(400, "BadRequest")
	other := statusAnswer(400, "BadRequest")
	other.Body["message"] = "something else"
	other.Raw, _ = json.Marshal(other.Body)
	for _, c := range []struct {
		name      string
		kube, hub Answer
		want      bool
	}{
		{"same message", same, bad, true},
		{"another message", same, other, false},
		{"other codes", statusAnswer(422, "Invalid"), bad, false},
	} {
		diffs := CompareAnswers(c.kube, c.hub)
		if len(diffs) != 1 {
			t.Fatalf("%s: differences %v, want one of code", c.name, diffs)
		}
		if got := d.Covers(pod, diffs[0]); got != c.want {
			t.Errorf("%s: covered %v, want %v", c.name, got, c.want)
		}
	}
}

var updateREADME = flag.Bool("update-readme", false, "write the README's list of deliberate divergences from divergences.yaml")

const (
	readmeBegin = "<!-- divergences.yaml begins: made by go test ./internal/difftest -update-readme -->\n"
	readmeEnd   = "<!-- divergences.yaml ends -->\n"
)

// The README lists the deliberate divergences of divergences.yaml, the
// same ones.
func TestREADMEListsDivergences(t *testing.T) {
	const path = "../../README.md"
	readme, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	before, rest, ok := strings.Cut(string(readme), readmeBegin)
	_, after, ok2 := strings.Cut(rest, readmeEnd)
	if !ok || !ok2 {
		t.Fatalf("README.md has no section between %q and %q", readmeBegin, readmeEnd)
	}
	want := before + readmeBegin + READMESection() + readmeEnd + after
	if want == string(readme) {
		return
	}
	if *updateREADME {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README.md's deliberate divergences are not divergences.yaml's; run go test ./internal/difftest -update-readme. Want:\n%s", READMESection())
}

// A Table is compared by its columns and cells, ages, uids and allocated
// addresses aside.
func TestTableOf(t *testing.T) {
	table := map[string]any{
		"kind":     "Table",
		"metadata": map[string]any{"resourceVersion": "7"},
		"columnDefinitions": []any{
			map[string]any{"name": "Name", "type": "string"},
			map[string]any{"name": "Cluster-IP", "type": "string"},
			map[string]any{"name": "Age", "type": "string"},
			map[string]any{"name": "Selector", "type": "string"},
		},
		"rows": []any{map[string]any{
			"cells":  []any{"web", "10.96.0.7", "3s", "controller-uid=u-1"},
			"object": map[string]any{"metadata": map[string]any{"uid": "u-1"}},
		}},
	}
	got := tableOf(table)
	want := map[string]any{
		"kind":              "Table",
		"columnDefinitions": table["columnDefinitions"],
		"rows":              []any{map[string]any{"cells": []any{"web", someAllocated, someTime, "controller-uid=" + someUID}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tableOf:\n got %v\nwant %v", got, want)
	}
	status := map[string]any{"kind": "Status", "code": 406.0}
	if got := tableOf(status); !reflect.DeepEqual(got, status) {
		t.Errorf("tableOf changed a Status: %v", got)
	}
}

// The watch script's events keep what the script wrote and leave out what
// only changed status or annotations the script does not own, as a
// controller's write does.
func TestReadEventsDropsStatusOnlyChanges(t *testing.T) {
	stream := `{"type":"ADDED","object":{"kind":"Pod","metadata":{"name":"w","resourceVersion":"1"}}}
{"type":"MODIFIED","object":{"kind":"Pod","metadata":{"name":"w","resourceVersion":"2"},"status":{"phase":"Pending"}}}
{"type":"MODIFIED","object":{"kind":"Pod","metadata":{"name":"w","resourceVersion":"3","labels":{"a":"b"}}}}
{"type":"MODIFIED","object":{"kind":"Pod","metadata":{"name":"w","resourceVersion":"4","labels":{"a":"b"},"annotations":{"by":"a controller"}}}}
{"type":"DELETED","object":{"kind":"Pod","metadata":{"name":"w","resourceVersion":"4","labels":{"a":"b"}}}}
{"type":"ADDED","object":{"kind":"Pod","metadata":{"name":"after"}}}
`
	if got := eventTypes(readEvents(strings.NewReader(stream))); got != "[ADDED MODIFIED DELETED]" {
		t.Errorf("readEvents kept %s", got)
	}
}

// What controllers wrote to an object after the harness made it, its
// status, their managedFields and the annotations only they own, is left
// out of an update's answer; what the harness's managers own stays.
func TestWithoutControllers(t *testing.T) {
	owns := func(manager string, annotations ...string) map[string]any {
		fields := map[string]any{}
		for _, a := range annotations {
			fields["f:"+a] = map[string]any{}
		}
		return map[string]any{"manager": manager, "fieldsV1": map[string]any{"f:metadata": map[string]any{"f:annotations": fields}}}
	}
	a := Answer{Code: 200, Body: map[string]any{
		"kind": "Deployment",
		"metadata": map[string]any{
			"annotations": map[string]any{"mine": "x", "deployment.kubernetes.io/revision": "1", "unowned": "y"},
			"managedFields": []any{
				owns(otherManager, "mine"),
				owns("kube-controller-manager", "deployment.kubernetes.io/revision"),
			},
		},
		"status": map[string]any{"replicas": 1.0},
	}}
	want := map[string]any{
		"kind": "Deployment",
		"metadata": map[string]any{
			"annotations":   map[string]any{"mine": "x"},
			"managedFields": []any{owns(otherManager, "mine")},
		},
	}
	if got := a.withoutControllers().Body; !reflect.DeepEqual(got, want) {
		g, _ := json.MarshalIndent(got, "", " ")
		t.Errorf("withoutControllers:\n%s", g)
	}
	if _, ok := a.Body["status"]; !ok {
		t.Error("withoutControllers changed the answer it was given")
	}
}
