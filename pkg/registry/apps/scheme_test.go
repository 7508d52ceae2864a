package apps

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
)

// A DaemonSet decodes as in kube-apiserver, through upstream's internal
// type: with its template generation in the annotation apps/v1 keeps it
// in, written whether the request set it or not, so that server-side
// apply records who set it.
func TestDaemonSetDecodesThroughInternal(t *testing.T) {
	s := runtime.NewScheme()
	if err := AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	decoder := serializer.NewCodecFactory(s).UniversalDecoder(internalVersion)
	for body, want := range map[string]string{
		`{"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"a"}}`:                                                                 "0",
		`{"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"a","annotations":{"deprecated.daemonset.template.generation":"07"}}}`: "7",
	} {
		obj, _, err := decoder.Decode([]byte(body), nil, nil)
		if err != nil {
			t.Fatalf("decoding %s: %v", body, err)
		}
		ds := obj.(*appsv1.DaemonSet)
		if got := ds.Annotations[appsv1.DeprecatedTemplateGeneration]; got != want {
			t.Errorf("%s decodes with template generation %q, want %q", body, got, want)
		}
		if ds.Spec.RevisionHistoryLimit == nil {
			t.Errorf("%s decodes without upstream's defaults", body)
		}
	}
}
