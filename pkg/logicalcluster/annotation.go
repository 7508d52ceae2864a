package logicalcluster

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Annotation holds the logical cluster of a stored object.
const Annotation = "canopy.dev/cluster"

// SetOn records n as the logical cluster of obj, replacing whatever a
// client put there.
func SetOn(obj metav1.Object, n Name) {
	a := obj.GetAnnotations()
	if a == nil {
		a = map[string]string{}
	}
	a[Annotation] = string(n)
	obj.SetAnnotations(a)
}

// FromObject returns the logical cluster recorded on obj.
func FromObject(obj metav1.Object) (Name, error) {
	v, ok := obj.GetAnnotations()[Annotation]
	if !ok {
		return "", fmt.Errorf("%s %q has no %s annotation", obj.GetNamespace(), obj.GetName(), Annotation)
	}
	return Parse(v)
}
