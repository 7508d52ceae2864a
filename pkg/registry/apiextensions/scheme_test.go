package apiextensions

import (
	"fmt"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
)

// A v1 CustomResourceDefinition decodes to the internal version the store
// keeps, defaulted, and encodes back to what was sent.
func TestSchemeRoundTrip(t *testing.T) {
	s := runtime.NewScheme()
	if err := AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	codecs := serializer.NewCodecFactory(s)
	in := []byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
		"metadata":{"name":"widgets.example.com"},
		"spec":{"group":"example.com","scope":"Namespaced",
			"names":{"plural":"widgets","singular":"widget","kind":"Widget"},
			"versions":[{"name":"v1","served":true,"storage":true,
				"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object",
					"properties":{"size":{"type":"integer","default":3}}}}}}}]}}`)
	obj, _, err := codecs.UniversalDecoder(apiextensions.SchemeGroupVersion).Decode(in, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	crd, ok := obj.(*apiextensions.CustomResourceDefinition)
	if !ok {
		t.Fatalf("decoded a %T", obj)
	}
	// v1's defaults: the list kind and the None conversion.
	if crd.Spec.Names.ListKind != "WidgetList" || crd.Spec.Conversion == nil || crd.Spec.Conversion.Strategy != apiextensions.NoneConverter {
		t.Errorf("not defaulted: names %+v, conversion %+v", crd.Spec.Names, crd.Spec.Conversion)
	}
	if got := crd.Spec.Validation.OpenAPIV3Schema.Properties["spec"].Properties["size"].Default; got == nil || fmt.Sprint(*got) != "3" {
		t.Errorf("the schema's default is %v", got)
	}
	out, err := runtime.Encode(codecs.LegacyCodec(apiextensionsv1.SchemeGroupVersion), crd)
	if err != nil {
		t.Fatal(err)
	}
	var want, got apiextensionsv1.CustomResourceDefinition
	if err := runtime.DecodeInto(codecs.UniversalDecoder(apiextensionsv1.SchemeGroupVersion), in, &want); err != nil {
		t.Fatal(err)
	}
	if err := runtime.DecodeInto(codecs.UniversalDecoder(apiextensionsv1.SchemeGroupVersion), out, &got); err != nil {
		t.Fatal(err)
	}
	if !equality.Semantic.DeepEqual(want, got) {
		t.Errorf("round trip changed the definition:\nwant %+v\ngot  %+v", want.Spec, got.Spec)
	}
	if got.TypeMeta != (metav1.TypeMeta{APIVersion: "apiextensions.k8s.io/v1", Kind: "CustomResourceDefinition"}) {
		t.Errorf("encoded as %+v", got.TypeMeta)
	}
}
