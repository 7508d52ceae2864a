package main

import (
	"bytes"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// An object file is read as the hub decodes it, whole numbers as int64
// so that its replicas count; what is not one named object says so.
func TestReadObject(t *testing.T) {
	u, err := readObject(strings.NewReader("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: 6}\n"), "-")
	if err != nil {
		t.Fatal(err)
	}
	if n, ok, _ := unstructured.NestedInt64(u.Object, "spec", "replicas"); !ok || n != 6 {
		t.Errorf("replicas %d (%v), want 6 as int64", n, ok)
	}
	for _, tc := range []struct{ input, want string }{
		{"", "holds no object"},
		{"kind: [\n", "is not one object"},
		{"metadata: {name: x}\n", "no apiVersion or kind"},
		{"apiVersion: v1\nkind: ConfigMap\n", "has no metadata.name"},
	} {
		if _, err := readObject(strings.NewReader(tc.input), "-"); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want an error saying %q", tc.input, err, tc.want)
		}
	}
}

// The text explanation of an object placed nowhere says so, and why.
func TestPrintNowhere(t *testing.T) {
	x := &explanation{Object: objectOf{LogicalCluster: "root:org", Resource: "deployments.apps", Kind: "Deployment", Namespace: "default", Name: "web"},
		Message: "no placement applies"}
	var out bytes.Buffer
	if err := x.print(&out, ""); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Placement:  none", "Placed on:  nothing", "Message:    no placement applies"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("lacks %q:\n%s", want, out.String())
		}
	}
}
