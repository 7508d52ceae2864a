package e2e

import (
	"strings"
	"testing"
)

// widgetsCRD is a CustomResourceDefinition of widgets.example.com served
// at version, whose spec is schema, an OpenAPI v3 schema in YAML indented
// for its place.
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
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
` + schema
}

// The schemas of the widgets of root:a and root:b: one sizes a widget by
// a number, defaulting to 1; the other by a name, one of S, M or L,
// defaulting to M, with a CEL rule on its color.
const (
	sizeSchema = `            type: object
            properties:
              size:
                type: integer
                minimum: 1
                default: 1
`
	nameSchema = `            type: object
            properties:
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
			strings.Replace(widgetsCRD("v1", sizeSchema), "            type: object\n", "", 1),
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
