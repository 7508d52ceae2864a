package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// widgetsCRD is a CustomResourceDefinition of widgets.example.com served
// at version, whose spec is schema, an OpenAPI v3 schema in YAML indented
// for its place, with status and scale subresources and the size as a
// printer column.
func widgetsCRD(version, schema string) string {
	return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: widgets
    singular: widget
    kind: Widget
    shortNames: [wd]
  versions:
  - name: ` + version + `
    served: true
    storage: true
    subresources:
      status: {}
      scale:
        specReplicasPath: .spec.replicas
        statusReplicasPath: .status.replicas
    additionalPrinterColumns:
    - name: Size
      type: string
      jsonPath: .spec.size
    schema:
      openAPIV3Schema:
        type: object
        properties:
          status:
            type: object
            properties:
              replicas:
                type: integer
          spec:
` + schema
}

// The schemas of the widgets of root:a and root:b: one sizes a widget by
// a number, defaulting to 1; the other by a name, one of S, M or L,
// defaulting to M, with a CEL rule on its color.
const (
	sizeSchema = `            type: object
            properties:
              replicas:
                type: integer
              size:
                type: integer
                minimum: 1
                default: 1
`
	nameSchema = `            type: object
            properties:
              replicas:
                type: integer
              size:
                type: string
                enum: [S, M, L]
                default: M
              color:
                type: string
            x-kubernetes-validations:
            - rule: "!has(self.color) || self.color != 'invisible'"
              message: a widget must be visible
`
)

// CustomResourceDefinitions are objects of their own logical cluster:
// the same name in two is two definitions, and each is validated as
// kube-apiserver validates it, with what the hub cannot serve refused.
func TestCRDDefinitions(t *testing.T) {
	t.Parallel()
	_, k, _ := startHubWith(t, "a", "b")
	k.apply("a", widgetsCRD("v1", sizeSchema))
	if _, err := k.run("--context", "b", "get", "crd", "widgets.example.com"); err == nil || !strings.Contains(err.Error(), "NotFound") {
		t.Fatalf("root:a's definition is visible in root:b: %v", err)
	}
	// Server-side apply knows the definitions' schema.
	k.must("--context", "b", "apply", "--server-side", "-f", writeFile(t, widgetsCRD("v2", nameSchema)))
	for context, want := range map[string]string{"a": "v1", "b": "v2"} {
		if got := k.must("--context", context, "get", "crd", "widgets.example.com", "-o", "jsonpath={.spec.versions[*].name}"); got != want {
			t.Errorf("root:%s's definition serves %q, want %q", context, got, want)
		}
		// Upstream's table, by the short name kubectl knows.
		if got := k.must("--context", context, "get", "crds"); !strings.Contains(got, "widgets.example.com") || !strings.Contains(got, "Namespaced") {
			t.Errorf("kubectl get crds in root:%s printed\n%s", context, got)
		}
	}

	for name, tc := range map[string]struct{ manifest, want string }{
		"a schema that is not structural": {
			strings.Replace(widgetsCRD("v1", sizeSchema), "          spec:\n            type: object\n", "          spec:\n", 1),
			"openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields",
		},
		"a CEL rule that does not compile": {
			strings.Replace(widgetsCRD("v1", nameSchema), "self.color != 'invisible'", "self.colour != 'invisible'", 1),
			"compilation failed",
		},
		"conversion by webhook": {
			strings.Replace(widgetsCRD("v1", sizeSchema), "  scope: Namespaced\n", "  scope: Namespaced\n  conversion:\n    strategy: Webhook\n"+
				"    webhook:\n      conversionReviewVersions: [v1]\n      clientConfig:\n        url: https://convert.example.com\n", 1),
			`spec.conversion.strategy: Unsupported value: "Webhook": supported values: "None"`,
		},
		"a group the hub serves": {
			strings.NewReplacer("widgets.example.com", "widgets.workload.canopy.dev", "group: example.com", "group: workload.canopy.dev").Replace(widgetsCRD("v1", sizeSchema)),
			"spec.group: Forbidden: workload.canopy.dev is served by the hub itself; a CustomResourceDefinition needs a group of its own",
		},
	} {
		gadgets := strings.NewReplacer("name: widgets.", "name: gadgets.", "plural: widgets", "plural: gadgets").Replace(tc.manifest)
		_, err := k.run("--context", "a", "create", "-f", writeFile(t, gadgets))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: created, or refused for another reason than %q: %v", name, tc.want, err)
		}
	}

	k.must("--context", "a", "delete", "crd", "widgets.example.com")
	if got := k.must("--context", "b", "get", "crd", "-o", "name"); got != "customresourcedefinition.apiextensions.k8s.io/widgets.example.com\n" {
		t.Errorf("after root:a's deletion root:b has %q", got)
	}
}

// gizmosAsWidgets is a definition of gizmos.example.com whose objects are
// of kind Widget, which root:a's widgets.example.com has.
var gizmosAsWidgets = strings.NewReplacer("name: widgets.", "name: gizmos.", "plural: widgets", "plural: gizmos", "singular: widget", "singular: gizmo",
	"shortNames: [wd]", "shortNames: [gz]").Replace(widgetsCRD("v1", sizeSchema))

// A definition's names are decided among those of its own logical
// cluster: a kind taken in root:a is free in root:b, and freed in root:a
// when its definition goes.
func TestCRDConditions(t *testing.T) {
	t.Parallel()
	_, k, _ := startHubWith(t, "a", "b")
	k.apply("a", widgetsCRD("v1", sizeSchema))
	k.must("--context", "a", "wait", "--for=condition=Established", "crd/widgets.example.com", "--timeout=10s")
	if got := k.must("--context", "a", "get", "crd", "widgets.example.com", "-o",
		`jsonpath={range .status.conditions[*]}{.type}={.status}/{.reason};{end} {.status.acceptedNames.kind} {.status.acceptedNames.shortNames}`); got != `NamesAccepted=True/NoConflicts;Established=True/InitialNamesAccepted; Widget ["wd"]` {
		t.Errorf("root:a's widgets: %s", got)
	}

	k.apply("a", gizmosAsWidgets)
	k.apply("b", gizmosAsWidgets)
	k.must("--context", "a", "wait", "--for=condition=NamesAccepted=False", "crd/gizmos.example.com", "--timeout=10s")
	// As upstream, the last name in conflict gives the reason.
	if got := k.must("--context", "a", "get", "crd", "gizmos.example.com", "-o",
		`jsonpath={.status.conditions[?(@.type=="NamesAccepted")].reason}: {.status.conditions[?(@.type=="NamesAccepted")].message}; `+
			`{.status.conditions[?(@.type=="Established")].status}/{.status.conditions[?(@.type=="Established")].reason}`); got != `ListKindConflict: "WidgetList" is already in use; False/NotAccepted` {
		t.Errorf("root:a's gizmos: %s", got)
	}
	k.must("--context", "b", "wait", "--for=condition=Established", "crd/gizmos.example.com", "--timeout=10s")

	k.must("--context", "a", "delete", "crd", "widgets.example.com")
	k.must("--context", "a", "wait", "--for=condition=Established", "crd/gizmos.example.com", "--timeout=10s")
	if got := k.must("--context", "a", "get", "crd", "gizmos.example.com", "-o", "jsonpath={.status.acceptedNames.kind}"); got != "Widget" {
		t.Errorf("root:a's gizmos were granted kind %q once widgets had gone", got)
	}
}

// crClient sends requests to the hub as admin, in one logical cluster or
// another.
type crClient struct {
	t      *testing.T
	client *http.Client
	port   int
}

// do sends body with contentType to path in logical cluster, accepting
// accept, and returns the answer's code and body.
func (c crClient) do(method, cluster, path, contentType, accept, body string) (int, string) {
	c.t.Helper()
	req, err := http.NewRequest(method, fmt.Sprintf("https://127.0.0.1:%d/clusters/%s%s", c.port, cluster, path), strings.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	resp, err := c.client.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatal(err)
	}
	return resp.StatusCode, string(raw)
}

// must sends a JSON body, a merge patch for PATCH, and decodes the
// object answered, failing unless the request succeeded.
func (c crClient) must(method, cluster, path, body string) map[string]any {
	c.t.Helper()
	contentType := "application/json"
	if method == http.MethodPatch {
		contentType = "application/merge-patch+json"
	}
	code, raw := c.do(method, cluster, path, contentType, "", body)
	if code >= 300 {
		c.t.Fatalf("%s %s in %s: %d %s", method, path, cluster, code, raw)
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(raw), &obj); err != nil {
		c.t.Fatal(err)
	}
	return obj
}

// refused sends a JSON body and returns the Status of its refusal.
func (c crClient) refused(method, cluster, path, body string) (int, metav1.Status) {
	c.t.Helper()
	code, raw := c.do(method, cluster, path, "application/json", "", body)
	var status metav1.Status
	if err := json.Unmarshal([]byte(raw), &status); err != nil || status.Kind != "Status" {
		c.t.Fatalf("%s %s in %s: %d %s; want a Status", method, path, cluster, code, raw)
	}
	return code, status
}

// field is the value at path in obj, a decoded JSON object.
func field(obj map[string]any, path ...string) any {
	var v any = obj
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[p]
	}
	return v
}

const widgets = "/apis/example.com/v1/namespaces/default/widgets"

// Acceptance: root:a and root:b each define widgets.example.com, with
// different schemas; each logical cluster serves its own, validating,
// defaulting and pruning by it, and root:c, without a definition, serves
// none.
func TestCRDServing(t *testing.T) {
	t.Parallel()
	h, k, pki := startHubWith(t, "a", "b", "c")
	client, err := adminClient(pki)
	if err != nil {
		t.Fatal(err)
	}
	c := crClient{t, client, h.port}
	k.apply("a", widgetsCRD("v1", sizeSchema))
	k.apply("b", widgetsCRD("v1", nameSchema))
	for _, context := range []string{"a", "b"} {
		k.must("--context", context, "wait", "--for=condition=Established", "--for=condition=NamesAccepted", "crd/widgets.example.com", "--timeout=10s")
	}

	// Each defaults and prunes by its own schema.
	a := c.must(http.MethodPost, "root:a", widgets, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"shape":"round"}}`)
	if got := field(a, "spec"); fmt.Sprint(got) != "map[size:1]" {
		t.Errorf("root:a's widget has spec %v, want the size defaulted to 1 and the unknown shape pruned", got)
	}
	b := c.must(http.MethodPost, "root:b", widgets, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"shape":"round","color":"red"}}`)
	if got := field(b, "spec"); fmt.Sprint(got) != "map[color:red size:M]" {
		t.Errorf("root:b's widget has spec %v, want the size defaulted to M and the unknown shape pruned", got)
	}
	// kubectl reads them without discovery. A raw path is the whole
	// path, logical cluster included.
	if got := k.must("get", "--raw", "/clusters/root:a"+widgets+"/w"); !strings.Contains(got, `"spec":{"size":1}`) {
		t.Errorf("kubectl get --raw in root:a: %s", got)
	}

	// Each validates by its own schema, CEL rules included.
	for _, tc := range []struct{ cluster, spec, want string }{
		{"root:a", `{"size":0}`, "spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1"},
		{"root:a", `{"size":"M"}`, `spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"`},
		{"root:b", `{"size":3}`, `spec.size: Invalid value: "integer": spec.size in body must be of type string: "integer"`},
		{"root:b", `{"color":"invisible"}`, "spec: Invalid value: a widget must be visible"},
	} {
		code, status := c.refused(http.MethodPost, tc.cluster, widgets, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"bad"},"spec":`+tc.spec+`}`)
		if code != http.StatusUnprocessableEntity || !strings.Contains(status.Message, tc.want) {
			t.Errorf("a widget with spec %s in %s: %d %q; want 422 saying %q", tc.spec, tc.cluster, code, status.Message, tc.want)
		}
	}

	// Each logical cluster lists its own widgets only.
	for _, cluster := range []string{"root:a", "root:b"} {
		list := c.must(http.MethodGet, cluster, widgets, "")
		items, _ := field(list, "items").([]any)
		if len(items) != 1 || field(items[0].(map[string]any), "metadata", "annotations", "canopy.dev/cluster") != cluster {
			t.Errorf("%s lists %v", cluster, items)
		}
	}

	// root:c has no definition: 404, saying so.
	code, status := c.refused(http.MethodGet, "root:c", widgets, "")
	if code != http.StatusNotFound || status.Reason != metav1.StatusReasonNotFound ||
		status.Message != "the server could not find the requested resource: logical cluster root:c has no CustomResourceDefinition widgets.example.com" {
		t.Errorf("root:c answered %d %+v", code, status)
	}
	if _, err := k.run("get", "--raw", widgets); err == nil || !strings.Contains(err.Error(), "logical cluster root has no CustomResourceDefinition widgets.example.com") {
		t.Errorf("kubectl get --raw in root: %v", err)
	}
	code, status = c.refused(http.MethodGet, "root:a", "/apis/example.com/v2/namespaces/default/widgets", "")
	if code != http.StatusNotFound || !strings.Contains(status.Message, "logical cluster root:a serves widgets.example.com at v1, not v2") {
		t.Errorf("root:a at v2 answered %d %q", code, status.Message)
	}

	// The status subresource sets the status and nothing else; the main
	// resource, everything but the status.
	c.must(http.MethodPatch, "root:a", widgets+"/w/status", `{"spec":{"size":5},"status":{"replicas":2}}`)
	c.must(http.MethodPatch, "root:a", widgets+"/w", `{"spec":{"replicas":2},"status":{"replicas":7}}`)
	w := c.must(http.MethodGet, "root:a", widgets+"/w", "")
	if fmt.Sprint(field(w, "spec"), field(w, "status")) != "map[replicas:2 size:1] map[replicas:2]" {
		t.Errorf("after status and spec patches: spec %v, status %v", field(w, "spec"), field(w, "status"))
	}
	// The scale subresource reads and sets the replicas.
	scale := c.must(http.MethodGet, "root:a", widgets+"/w/scale", "")
	if field(scale, "kind") != "Scale" || fmt.Sprint(field(scale, "spec", "replicas"), field(scale, "status", "replicas")) != "2 2" {
		t.Errorf("scale: %v", scale)
	}
	c.must(http.MethodPatch, "root:a", widgets+"/w/scale", `{"spec":{"replicas":4}}`)
	if got := field(c.must(http.MethodGet, "root:a", widgets+"/w", ""), "spec", "replicas"); fmt.Sprint(got) != "4" {
		t.Errorf("after scaling to 4 the widget has %v replicas", got)
	}

	// kubectl get's table has the printer columns.
	code, table := c.do(http.MethodGet, "root:b", widgets, "", "application/json;as=Table;v=v1;g=meta.k8s.io", "")
	if code != http.StatusOK || !strings.Contains(table, `"name":"Size"`) || !strings.Contains(table, `"cells":["w","M"]`) {
		t.Errorf("root:b's table: %d %s", code, table)
	}

	// Server-side apply: a field another manager owns conflicts, unless
	// forced.
	apply := func(manager, size string, force bool) (int, string) {
		return c.do(http.MethodPatch, "root:b", fmt.Sprintf("%s/applied?fieldManager=%s&force=%t", widgets, manager, force), "application/apply-patch+yaml", "",
			"apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: applied\nspec:\n  size: "+size+"\n")
	}
	if code, raw := apply("alice", "S", false); code != http.StatusCreated {
		t.Fatalf("alice's apply: %d %s", code, raw)
	}
	if code, raw := apply("bob", "L", false); code != http.StatusConflict || !strings.Contains(raw, `conflict with \"alice\"`) {
		t.Errorf("bob's apply over alice's size: %d %s", code, raw)
	}
	if code, raw := apply("bob", "L", true); code != http.StatusOK || !strings.Contains(raw, `"size":"L"`) {
		t.Errorf("bob's forced apply: %d %s", code, raw)
	}

	// A watch in root:a sees root:a's changes, and nothing of root:b's.
	stop := k.start("get", "--raw", "/clusters/root:a"+widgets+"?watch=true&resourceVersion="+fmt.Sprint(field(w, "metadata", "resourceVersion")))
	c.must(http.MethodPost, "root:b", widgets, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"elsewhere"}}`)
	c.must(http.MethodPost, "root:a", widgets, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"watched"}}`)
	deadline := time.Now().Add(10 * time.Second)
	var seen string
	for time.Now().Before(deadline) {
		time.Sleep(200 * time.Millisecond)
		if seen = stop(); strings.Contains(seen, `"name":"watched"`) {
			break
		}
		stop = k.start("get", "--raw", "/clusters/root:a"+widgets+"?watch=true&resourceVersion="+fmt.Sprint(field(w, "metadata", "resourceVersion")))
	}
	if !strings.Contains(seen, `"type":"ADDED"`) || !strings.Contains(seen, `"name":"watched"`) || strings.Contains(seen, "elsewhere") {
		t.Errorf("root:a's watch saw\n%s", seen)
	}

	// Deleting root:a's definition deletes root:a's widgets first, and
	// only those: defined again, root:a has none.
	k.must("--context", "a", "delete", "crd", "widgets.example.com", "--timeout=20s")
	k.apply("a", widgetsCRD("v1", sizeSchema))
	k.must("--context", "a", "wait", "--for=condition=Established", "crd/widgets.example.com", "--timeout=10s")
	for cluster, want := range map[string]int{"root:a": 0, "root:b": 3} {
		if items, _ := field(c.must(http.MethodGet, cluster, widgets, ""), "items").([]any); len(items) != want {
			t.Errorf("after root:a's definition was deleted and created again, %s has %d widgets, want %d", cluster, len(items), want)
		}
	}
}

// gadgetsCRD defines gadgets.example.com at v1, its storage version, and
// v2, which has a label v1 does not: with conversion None, a gadget is
// the same object at both, but for its apiVersion and what its version's
// schema does not know.
const gadgetsCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.com
spec:
  group: example.com
  scope: Cluster
  names:
    plural: gadgets
    singular: gadget
    kind: Gadget
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size:
                type: integer
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size:
                type: integer
              label:
                type: string
`

// A definition with several versions and conversion None serves its
// objects at each, stored at its storage version.
func TestCRDVersions(t *testing.T) {
	t.Parallel()
	h, k, pki := startHubWith(t, "a")
	client, err := adminClient(pki)
	if err != nil {
		t.Fatal(err)
	}
	c := crClient{t, client, h.port}
	k.apply("a", gadgetsCRD)
	k.must("--context", "a", "wait", "--for=condition=Established", "crd/gadgets.example.com", "--timeout=10s")

	// Created at v2, a gadget is stored at v1, whose schema has no label.
	created := c.must(http.MethodPost, "root:a", "/apis/example.com/v2/gadgets", `{"apiVersion":"example.com/v2","kind":"Gadget","metadata":{"name":"new"},"spec":{"size":2,"label":"x"}}`)
	if fmt.Sprintf("%v %v", field(created, "apiVersion"), field(created, "spec")) != "example.com/v2 map[size:2]" {
		t.Errorf("created at v2: %v %v", field(created, "apiVersion"), field(created, "spec"))
	}
	c.must(http.MethodPost, "root:a", "/apis/example.com/v1/gadgets", `{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"old"},"spec":{"size":1}}`)
	for _, version := range []string{"v1", "v2"} {
		for _, name := range []string{"new", "old"} {
			g := c.must(http.MethodGet, "root:a", "/apis/example.com/"+version+"/gadgets/"+name, "")
			if got := field(g, "apiVersion"); got != "example.com/"+version {
				t.Errorf("gadget %s read at %s is of %v", name, version, got)
			}
		}
		list := c.must(http.MethodGet, "root:a", "/apis/example.com/"+version+"/gadgets", "")
		items, _ := field(list, "items").([]any)
		if len(items) != 2 {
			t.Fatalf("%s lists %v", version, items)
		}
		for _, item := range items {
			if got := field(item.(map[string]any), "apiVersion"); got != "example.com/"+version {
				t.Errorf("a gadget listed at %s is of %v", version, got)
			}
		}
	}
	// Updated at v2, a gadget keeps being stored at v1.
	c.must(http.MethodPatch, "root:a", "/apis/example.com/v2/gadgets/old", `{"spec":{"size":3}}`)
	if got := field(c.must(http.MethodGet, "root:a", "/apis/example.com/v1/gadgets/old", ""), "spec", "size"); fmt.Sprint(got) != "3" {
		t.Errorf("patched at v2 to size 3, the gadget reads %v at v1", got)
	}
	if got := k.must("--context", "a", "get", "crd", "gadgets.example.com", "-o", "jsonpath={.status.storedVersions}"); got != `["v1"]` {
		t.Errorf("stored versions %s", got)
	}
}

// discovered is the groups /apis lists in cluster, aggregated or not, and
// the aggregated list's ETag.
func (c crClient) discovered(cluster string, aggregated bool) (groups []string, etag string) {
	c.t.Helper()
	accept := "application/json"
	if aggregated {
		accept = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"
	}
	req, err := http.NewRequest(http.MethodGet, fmt.Sprintf("https://127.0.0.1:%d/clusters/%s/apis", c.port, cluster), nil)
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Accept", accept)
	resp, err := c.client.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	var list struct {
		Groups []struct{ Name string }
		Items  []struct{ Metadata struct{ Name string } }
	}
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
		c.t.Fatal(err)
	}
	for _, g := range list.Groups {
		groups = append(groups, g.Name)
	}
	for _, g := range list.Items {
		groups = append(groups, g.Metadata.Name)
	}
	return groups, resp.Header.Get("ETag")
}

// Discovery in a logical cluster lists its established definitions after
// the hub's groups, so that kubectl uses custom resources by kind and
// short name there, and only there.
func TestCRDDiscovery(t *testing.T) {
	t.Parallel()
	h, k, pki := startHubWith(t, "a", "b")
	client, err := adminClient(pki)
	if err != nil {
		t.Fatal(err)
	}
	c := crClient{t, client, h.port}
	_, before := c.discovered("root:a", true)
	k.apply("a", widgetsCRD("v1", sizeSchema))
	k.must("--context", "a", "wait", "--for=condition=Established", "crd/widgets.example.com", "--timeout=10s")

	for _, aggregated := range []bool{false, true} {
		a, etag := c.discovered("root:a", aggregated)
		if len(a) == 0 || a[len(a)-1] != "example.com" {
			t.Errorf("root:a discovers %v (aggregated: %t), want example.com last", a, aggregated)
		}
		if aggregated && (etag == "" || etag == before) {
			t.Errorf("root:a's aggregated discovery has ETag %s, and had %s before its definition", etag, before)
		}
		if b, _ := c.discovered("root:b", aggregated); slices.Contains(b, "example.com") {
			t.Errorf("root:b discovers %v (aggregated: %t)", b, aggregated)
		}
	}
	if got := k.must("--context", "a", "api-resources", "--api-group", "example.com", "--no-headers"); !regexp.MustCompile(`^widgets\s+wd\s+example.com/v1\s+true\s+Widget\n$`).MatchString(got) {
		t.Errorf("kubectl api-resources in root:a:\n%s", got)
	}
	if got := k.must("--context", "b", "api-resources", "--api-group", "example.com", "--no-headers"); got != "" {
		t.Errorf("kubectl api-resources in root:b:\n%s", got)
	}

	// kubectl works with widgets by kind and short name.
	k.apply("a", "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  namespace: default\nspec:\n  size: 3\n")
	if got := k.must("--context", "a", "get", "wd"); !regexp.MustCompile(`^NAME\s+SIZE\nw\s+3\n$`).MatchString(got) {
		t.Errorf("kubectl get wd in root:a:\n%s", got)
	}
	k.must("--context", "a", "scale", "widget/w", "--replicas=2")
	k.must("--context", "a", "apply", "--server-side", "-f", writeFile(t, "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  namespace: default\nspec:\n  size: 4\n"))
	if got := k.must("--context", "a", "get", "widget", "w", "-o", "jsonpath={.spec.size} {.spec.replicas}"); got != "4 2" {
		t.Errorf("after kubectl scale and apply the widget has size and replicas %s", got)
	}
	if _, err := k.run("--context", "b", "get", "widgets"); err == nil || !strings.Contains(err.Error(), `the server doesn't have a resource type "widgets"`) {
		t.Errorf("kubectl get widgets in root:b: %v", err)
	}
	k.must("--context", "a", "delete", "widget", "w")
}

// OpenAPI v3 in each logical cluster describes the custom resources of
// its own definitions, for kubectl explain.
func TestCRDOpenAPI(t *testing.T) {
	t.Parallel()
	h, k, pki := startHubWith(t, "a", "b")
	k.apply("a", widgetsCRD("v1", sizeSchema))
	k.apply("b", widgetsCRD("v1", nameSchema))
	for _, context := range []string{"a", "b"} {
		k.must("--context", context, "wait", "--for=condition=Established", "crd/widgets.example.com", "--timeout=10s")
	}
	for context, want := range map[string]string{"a": "FIELD: size <integer>", "b": "FIELD: size <string>"} {
		if got := k.must("--context", context, "explain", "widgets.spec.size"); !strings.Contains(got, want) {
			t.Errorf("kubectl explain widgets.spec.size in root:%s:\n%s", context, got)
		}
	}
	if got := k.must("--context", "b", "explain", "widgets.spec"); !strings.Contains(got, "color\t<string>") {
		t.Errorf("kubectl explain widgets.spec in root:b:\n%s", got)
	}
	if _, err := k.run("--context", "root", "explain", "widgets"); err == nil {
		t.Error("kubectl explain widgets in root, which has no definition, succeeded")
	}

	// The same definition elsewhere is the same document, by its hash.
	client, err := adminClient(pki)
	if err != nil {
		t.Fatal(err)
	}
	c := crClient{t, client, h.port}
	url := func(cluster string) string {
		var paths struct {
			Paths map[string]struct{ ServerRelativeURL string }
		}
		if err := json.Unmarshal([]byte(k.must("get", "--raw", "/clusters/"+cluster+"/openapi/v3")), &paths); err != nil {
			t.Fatal(err)
		}
		return paths.Paths["apis/example.com/v1"].ServerRelativeURL
	}
	a, b := url("root:a"), url("root:b")
	if a == "" || a == b {
		t.Errorf("root:a's widgets at %q, root:b's at %q", a, b)
	}
	k.createLogicalCluster("root", "c")
	k.must("--server", fmt.Sprintf("https://127.0.0.1:%d/clusters/root:c", h.port), "apply", "-f", writeFile(t, widgetsCRD("v1", sizeSchema)))
	k.must("--server", fmt.Sprintf("https://127.0.0.1:%d/clusters/root:c", h.port), "wait", "--for=condition=Established", "crd/widgets.example.com", "--timeout=10s")
	if got := url("root:c"); got != a {
		t.Errorf("root:c's widgets, defined as root:a's, at %q, root:a's at %q", got, a)
	}
	code, doc := c.do(http.MethodGet, "root:a", a, "", "application/json", "")
	if code != http.StatusOK || !strings.Contains(doc, `"com.example.v1.Widget"`) {
		t.Errorf("root:a's document: %d %.300s", code, doc)
	}
	if code, doc := c.do(http.MethodGet, "root:a", a, "", "application/com.github.proto-openapi.spec.v3.v1.0+protobuf", ""); code != http.StatusOK || !strings.Contains(doc, "com.example.v1.Widget") {
		t.Errorf("root:a's document in protobuf: %d", code)
	}
}
