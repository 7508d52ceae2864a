package e2e

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/tools/clientcmd"

	"github.com/canopy-dev/canopy/e2e/pcluster"
)

// gizmoDefinition is a definition whose schema gains defaults in its
// second form: for a field of spec, and for one of an object in a list.
const gizmoDefinition = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gizmos.defaults.example.com}
spec:
  group: defaults.example.com
  scope: Namespaced
  names: {plural: gizmos, singular: gizmo, kind: Gizmo}
  versions:
  - name: v1
    served: true
    storage: true
    additionalPrinterColumns:
    - {name: Color, type: string, jsonPath: .spec.color}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer}
              color: {type: string%s}
              parts:
                type: array
                items:
                  type: object
                  properties:
                    name: {type: string}
                    count: {type: integer%s}
`

// TestCustomResourceDefaultedOnRead compares with kube-apiserver what a
// custom resource written before its definition gained defaults reads
// back as: get, list, watch and kubectl get's columns show the defaults,
// and an update of another field writes them.
func TestCustomResourceDefaultedOnRead(t *testing.T) {
	t.Parallel()
	if _, err := pcluster.EnsureBinaries(); err != nil {
		t.Fatal(err)
	}
	pc := pcluster.Start(t, "crdef", pcluster.Options{})
	kubeconfig, err := clientcmd.LoadFromFile(pc.Kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	h, admin := startHub(t, buildHub(t), "")
	admin.addContexts(h, filepath.Join(h.dataDir, "pki"), "admin")
	admin.createLogicalCluster("root", "a")
	servers := []server{
		{name: "kube-apiserver", k: kubectl{t: t, kubeconfig: pc.Kubeconfig, home: t.TempDir()}, context: kubeconfig.CurrentContext},
		{name: "the hub", k: admin, context: "a"},
	}

	gizmo := `apiVersion: defaults.example.com/v1
kind: Gizmo
metadata: {name: g, namespace: default}
spec: {size: 1, parts: [{name: wheel}]}
`
	for _, s := range servers {
		s.k.apply(s.context, fmt.Sprintf(gizmoDefinition, "", ""))
		s.must("wait", "--for=condition=Established", "crd/gizmos.defaults.example.com")
		waitFor(t, 30*time.Second, s.name+" serves gizmos", func() (bool, string) {
			_, err := s.run("apply", "-f", writeFile(t, gizmo))
			return err == nil, fmt.Sprint(err)
		})
		s.k.apply(s.context, fmt.Sprintf(gizmoDefinition, ", default: blue", ", default: 1"))
	}

	want := map[string]any{"size": int64(1), "color": "blue", "parts": []any{map[string]any{"name": "wheel", "count": int64(1)}}}
	reads := map[string][]string{
		"get":   {"get", "gizmo", "g", "-n", "default", "-o", "json"},
		"list":  {"get", "gizmos", "-n", "default", "-o", "json"},
		"watch": {"get", "gizmos", "-n", "default", "-o", "json", "--watch", "--request-timeout=2s"},
	}
	for _, s := range servers {
		for what, args := range reads {
			waitFor(t, 30*time.Second, fmt.Sprintf("%s: a %s of the gizmo shows its definition's new defaults", s.name, what), func() (bool, string) {
				out, _ := s.run(args...)
				spec, err := gizmoSpec(out)
				if err != nil {
					return false, err.Error()
				}
				return reflect.DeepEqual(normalizeNumbers(spec), want), fmt.Sprintf("spec %v", spec)
			})
		}
		waitFor(t, 30*time.Second, s.name+": kubectl get prints the defaulted color", func() (bool, string) {
			out, _ := s.run("get", "gizmos", "-n", "default")
			return strings.Contains(out, "blue"), out
		})
	}

	// An update of another field writes the defaults with it, so that the
	// definition losing them keeps them on the object.
	for _, s := range servers {
		s.must("patch", "gizmo", "g", "-n", "default", "--type=merge", "-p", `{"spec":{"size":2}}`)
		s.k.apply(s.context, fmt.Sprintf(gizmoDefinition, "", ""))
	}
	want["size"] = int64(2)
	for _, s := range servers {
		waitFor(t, 30*time.Second, s.name+": the patched gizmo kept the defaults it was written with", func() (bool, string) {
			out, _ := s.run(reads["get"]...)
			spec, err := gizmoSpec(out)
			if err != nil {
				return false, err.Error()
			}
			return reflect.DeepEqual(normalizeNumbers(spec), want), fmt.Sprintf("spec %v", spec)
		})
	}
}

// gizmoSpec is the spec of the first gizmo in what kubectl printed as
// JSON: an object, a list, or the objects of a watch one after another.
func gizmoSpec(out string) (map[string]any, error) {
	dec := json.NewDecoder(strings.NewReader(out))
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil {
		return nil, fmt.Errorf("kubectl printed no object: %v: %q", err, out)
	}
	if items, ok := obj["items"].([]any); ok {
		if len(items) == 0 {
			return nil, fmt.Errorf("the list is empty")
		}
		obj, _ = items[0].(map[string]any)
	}
	spec, ok := obj["spec"].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("no spec in %q", out)
	}
	return spec, nil
}

// normalizeNumbers makes the float64s encoding/json decodes whole numbers
// into int64s, to compare with literals.
func normalizeNumbers(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range v {
			out[k] = normalizeNumbers(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = normalizeNumbers(e)
		}
		return out
	case float64:
		return int64(v)
	}
	return v
}
