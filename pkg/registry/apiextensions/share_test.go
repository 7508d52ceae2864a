package apiextensions

import (
	"runtime"
	"strings"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	"k8s.io/apimachinery/pkg/api/equality"
	runtimeschema "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
)

// Definitions decoded with equal specs, managedFields and annotations
// hold one copy of them; a different spec its own.
func TestShare(t *testing.T) {
	s := runtimeschema.NewScheme()
	if err := AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	decode := func(sizeType string) *apiextensions.CustomResourceDefinition {
		t.Helper()
		in := `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
			"metadata":{"name":"widgets.example.com","annotations":{"big":"` + strings.Repeat("x", largeAnnotation) + `"},
				"managedFields":[{"manager":"kubectl","operation":"Apply","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:group":{}}}}]},
			"spec":{"group":"example.com","scope":"Namespaced",
				"names":{"plural":"widgets","singular":"widget","kind":"Widget"},
				"versions":[{"name":"v1","served":true,"storage":true,
					"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object",
						"properties":{"size":{"type":"` + sizeType + `"}}}}}}}]}}`
		obj, _, err := serializer.NewCodecFactory(s).UniversalDecoder(apiextensions.SchemeGroupVersion).Decode([]byte(in), nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		crd := obj.(*apiextensions.CustomResourceDefinition)
		strategy{}.Sharing()(crd)
		return crd
	}
	a, b, c := decode("integer"), decode("integer"), decode("string")
	if a.Spec.Validation != b.Spec.Validation || &a.Spec.Versions[0] != &b.Spec.Versions[0] || a.Spec.Conversion != b.Spec.Conversion {
		t.Error("equal specs were not shared")
	}
	// A pointer into the decoded v1 object would keep it all alive.
	if a.Spec.PreserveUnknownFields != b.Spec.PreserveUnknownFields {
		t.Error("preserveUnknownFields points into each definition's own decoding")
	}
	if &a.ManagedFields[0].FieldsV1.Raw[0] != &b.ManagedFields[0].FieldsV1.Raw[0] {
		t.Error("equal managedFields were not shared")
	}
	if a.Spec.Validation == c.Spec.Validation || c.Spec.Validation.OpenAPIV3Schema.Properties["spec"].Properties["size"].Type != "string" {
		t.Error("different specs were shared")
	}
	if !equality.Semantic.DeepEqual(a.Spec, b.Spec) || a.Annotations["big"] != b.Annotations["big"] {
		t.Error("sharing changed a definition")
	}
	runtime.KeepAlive(c)
}
