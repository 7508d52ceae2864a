package registry

import (
	"maps"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

func entry(manager string, op metav1.ManagedFieldsOperationType, fields string) metav1.ManagedFieldsEntry {
	return metav1.ManagedFieldsEntry{Manager: manager, Operation: op, FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(fields)}}
}

func configMap(annotations map[string]string, managed ...metav1.ManagedFieldsEntry) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "c", Annotations: annotations, ManagedFields: managed}}
}

// fieldsOf is each manager's fields, as JSON.
func fieldsOf(cm *corev1.ConfigMap) map[string]string {
	out := map[string]string{}
	for _, e := range cm.ManagedFields {
		out[e.Manager] = string(e.FieldsV1.Raw)
	}
	return out
}

// The cluster annotation leaves an object with its managers' ownership of
// it; of the annotations map too, for the managers that own the map only
// because of it.
func TestUnstamp(t *testing.T) {
	const (
		cluster    = `{"f:metadata":{"f:annotations":{".":{},"f:canopy.dev/cluster":{}}}}`
		withA      = `{"f:metadata":{"f:annotations":{".":{},"f:a":{},"f:canopy.dev/cluster":{}}}}`
		emptyApply = `{"f:metadata":{"f:annotations":{}},"f:data":{}}`
		data       = `{"f:data":{".":{},"f:k":{}}}`
	)
	stamped := map[string]string{logicalcluster.Annotation: "root:a"}
	stored := configMap(stamped, entry("before-first-apply", metav1.ManagedFieldsOperationUpdate, cluster))
	for _, c := range []struct {
		name            string
		obj             *corev1.ConfigMap
		old             runtime.Object
		wantAnnotations map[string]string
		want            map[string]string
	}{
		{
			name:            "other annotations stay, and their map",
			obj:             configMap(map[string]string{logicalcluster.Annotation: "root:a", "a": "1"}, entry("m", metav1.ManagedFieldsOperationUpdate, withA)),
			wantAnnotations: map[string]string{"a": "1"},
			want:            map[string]string{"m": `{"f:metadata":{"f:annotations":{".":{},"f:a":{}}}}`},
		},
		{
			name: "a manager owning only the annotation is dropped",
			obj:  configMap(stamped, entry("m", metav1.ManagedFieldsOperationUpdate, cluster), entry("d", metav1.ManagedFieldsOperationUpdate, data)),
			want: map[string]string{"d": data},
		},
		{
			name: "an applier that owned the map before keeps it",
			obj:  configMap(stamped, entry("apply", metav1.ManagedFieldsOperationApply, emptyApply), entry("m", metav1.ManagedFieldsOperationUpdate, cluster)),
			old:  configMap(nil, entry("apply", metav1.ManagedFieldsOperationApply, emptyApply)),
			want: map[string]string{"apply": emptyApply},
		},
		{
			name: "a stored object loses the annotation alone",
			obj:  stored,
			old:  stored,
			want: map[string]string{"before-first-apply": `{"f:metadata":{"f:annotations":{}}}`},
		},
	} {
		if err := unstamp(c.obj, c.old); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !maps.Equal(c.obj.Annotations, c.wantAnnotations) {
			t.Errorf("%s: annotations %v, want %v", c.name, c.obj.Annotations, c.wantAnnotations)
		}
		if got := fieldsOf(c.obj); !maps.Equal(got, c.want) {
			t.Errorf("%s: managedFields %v, want %v", c.name, got, c.want)
		}
	}
}

// An object without the annotation is left as it is.
func TestUnstampWithout(t *testing.T) {
	cm := configMap(map[string]string{"a": "1"}, entry("m", metav1.ManagedFieldsOperationUpdate, `{"f:metadata":{"f:annotations":{".":{},"f:a":{}}}}`))
	before := cm.DeepCopy()
	if err := unstamp(cm, nil); err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(cm.Annotations, before.Annotations) || !slices.EqualFunc(cm.ManagedFields, before.ManagedFields, func(a, b metav1.ManagedFieldsEntry) bool {
		return string(a.FieldsV1.Raw) == string(b.FieldsV1.Raw)
	}) {
		t.Errorf("changed: %v", cm)
	}
}
