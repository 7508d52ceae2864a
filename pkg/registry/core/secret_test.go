package core_test

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"

	"github.com/canopy-dev/canopy/pkg/registry/core"
)

// A Secret decoded from a request has its stringData in data, and no
// stringData, before anything reads it, as kube-apiserver's decoding to
// its internal version leaves it: its managedFields then name data, as
// kube's do.
func TestSecretStringDataIsDecodedIntoData(t *testing.T) {
	scheme := runtime.NewScheme()
	if err := core.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	body := `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},"data":{"a":"YQ==","b":"Yg=="},"stringData":{"b":"B","c":"C"}}`
	obj, _, err := serializer.NewCodecFactory(scheme).UniversalDecoder().Decode([]byte(body), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	secret := obj.(*corev1.Secret)
	want := map[string]string{"a": "a", "b": "B", "c": "C"}
	if len(secret.Data) != len(want) {
		t.Errorf("data = %q, want %q", secret.Data, want)
	}
	for k, v := range want {
		if string(secret.Data[k]) != v {
			t.Errorf("data[%s] = %q, want %q (stringData wins over data)", k, secret.Data[k], v)
		}
	}
	if secret.StringData != nil {
		t.Errorf("stringData = %q, want none: it is merged into data", secret.StringData)
	}
	if secret.Type != corev1.SecretTypeOpaque {
		t.Errorf("type = %q, want upstream's default %q", secret.Type, corev1.SecretTypeOpaque)
	}
}
