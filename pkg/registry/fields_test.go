package registry

import (
	"errors"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
)

func TestFieldsConvertFieldLabel(t *testing.T) {
	namespaced := Fields[*corev1.ConfigMap]{
		Values:  map[string]func(*corev1.ConfigMap) string{"spec.x": func(*corev1.ConfigMap) string { return "" }},
		Aliases: map[string]string{"spec.old": "spec.x"},
	}
	clusterScoped := Fields[*corev1.ConfigMap]{ClusterScoped: true}
	custom := Fields[*corev1.ConfigMap]{NotSupported: func(label string) error { return errors.New("no " + label) }}
	for _, c := range []struct {
		name      string
		f         Selectable
		label     string
		converted string
		err       string
	}{
		{"a field", namespaced, "spec.x", "spec.x", ""},
		{"an alias", namespaced, "spec.old", "spec.x", ""},
		{"the name", namespaced, "metadata.name", "metadata.name", ""},
		{"the namespace", namespaced, "metadata.namespace", "metadata.namespace", ""},
		{"an unknown field", namespaced, "spec.y", "", "field label not supported: spec.y"},
		{"the name of a cluster-scoped kind", clusterScoped, "metadata.name", "metadata.name", ""},
		{"the namespace of a cluster-scoped kind", clusterScoped, "metadata.namespace", "", "field label not supported: metadata.namespace"},
		{"an unknown field with its own message", custom, "spec.y", "", "no spec.y"},
	} {
		label, value, err := c.f.ConvertFieldLabel(c.label, "v")
		switch {
		case c.err != "" && (err == nil || err.Error() != c.err):
			t.Errorf("%s: error %v, want %s", c.name, err, c.err)
		case c.err == "" && (err != nil || label != c.converted || value != "v"):
			t.Errorf("%s: %q=%q, %v; want %q=v", c.name, label, value, err, c.converted)
		}
	}
}

func TestFieldsAttrs(t *testing.T) {
	f := Fields[*corev1.Secret]{Values: map[string]func(*corev1.Secret) string{"type": func(s *corev1.Secret) string { return string(s.Type) }}}
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "s", Namespace: "ns", Labels: map[string]string{"a": "b"}}, Type: corev1.SecretTypeOpaque}
	labels, got, err := f.Attrs(secret)
	want := fields.Set{"metadata.name": "s", "metadata.namespace": "ns", "type": "Opaque"}
	if err != nil || labels["a"] != "b" || len(got) != len(want) || !fields.SelectorFromSet(want).Matches(got) {
		t.Errorf("Attrs = %v, %v, %v; want labels a=b and fields %v", labels, got, err, want)
	}
	_, got, _ = Fields[*corev1.Namespace]{ClusterScoped: true}.Attrs(&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "n"}})
	if _, ok := got["metadata.namespace"]; ok || got["metadata.name"] != "n" {
		t.Errorf("a cluster-scoped object's fields are %v, want metadata.name only", got)
	}
	if _, _, err := f.Attrs(&corev1.ConfigMap{}); err == nil {
		t.Error("Attrs of a ConfigMap as a Secret gave no error")
	}
}
