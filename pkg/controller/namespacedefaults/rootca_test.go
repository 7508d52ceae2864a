package namespacedefaults

import (
	"maps"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestRepairRootCA checks which edits of kube-root-ca.crt are put back:
// its data and its description, as kube's publisher does, but not what
// its users add around them.
func TestRepairRootCA(t *testing.T) {
	data := map[string]string{RootCACertKey: "the CA"}
	published := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: RootCACertConfigMap, Annotations: map[string]string{DescriptionAnnotation: description}},
		Data:       maps.Clone(data),
	}
	for _, tc := range []struct {
		name    string
		edit    func(*corev1.ConfigMap)
		repairs bool
	}{
		{"as published", func(*corev1.ConfigMap) {}, false},
		{"labelled by its users", func(cm *corev1.ConfigMap) { cm.Labels = map[string]string{"mine": "yes"} }, false},
		{"another description", func(cm *corev1.ConfigMap) { cm.Annotations[DescriptionAnnotation] = "ours" }, false},
		{"another CA", func(cm *corev1.ConfigMap) { cm.Data[RootCACertKey] = "forged" }, true},
		{"a key added", func(cm *corev1.ConfigMap) { cm.Data["extra"] = "x" }, true},
		{"no description", func(cm *corev1.ConfigMap) { delete(cm.Annotations, DescriptionAnnotation) }, true},
		{"no annotations", func(cm *corev1.ConfigMap) { cm.Annotations = nil }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			have := published.DeepCopy()
			tc.edit(have)
			before := have.DeepCopy()
			got, repairs := repairRootCA(have, data)
			if repairs != tc.repairs {
				t.Fatalf("repairs %v; want %v", repairs, tc.repairs)
			}
			if !maps.Equal(got.Data, data) || got.Annotations[DescriptionAnnotation] == "" {
				t.Errorf("repaired to data %v, annotations %v", got.Data, got.Annotations)
			}
			if !maps.Equal(got.Labels, before.Labels) {
				t.Errorf("the labels became %v; want %v", got.Labels, before.Labels)
			}
			if have.Data[RootCACertKey] != before.Data[RootCACertKey] || len(have.Data) != len(before.Data) {
				t.Error("repairRootCA changed the object it was given, which an informer shares")
			}
		})
	}
}
