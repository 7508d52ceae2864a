package spec

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// Action is what the spec controller does downstream for one hub object.
type Action int

const (
	// None: the downstream object holds what would be applied already.
	None Action = iota
	// Apply: the object is missing downstream, or differs there.
	Apply
	// Conflict: another's object, one the syncer did not make from this
	// hub object, holds its place downstream; it is left alone.
	Conflict
)

// Decide is what to do downstream with desired, the stamped object the
// syncer would apply (Downstream, Stamp), given current, the object in
// its place downstream, nil where there is none.
func Decide(desired, current *unstructured.Unstructured) Action {
	if current == nil {
		return Apply
	}
	dc, dns, dn, _ := Origin(desired)
	if c, ns, n, ok := Origin(current); !ok || c != dc || ns != dns || n != dn {
		return Conflict
	}
	if UpToDate(desired, current) {
		return None
	}
	return Apply
}

// Origin is the logical cluster, namespace and name at the hub of the
// object downstream object obj was made from, and false if the syncer
// did not make it.
func Origin(obj *unstructured.Unstructured) (cluster, namespace, name string, ok bool) {
	a := obj.GetAnnotations()
	cluster, namespace, name = a[workloadv1alpha1.OriginClusterAnnotation], a[workloadv1alpha1.OriginNamespaceAnnotation], a[workloadv1alpha1.OriginNameAnnotation]
	return cluster, namespace, name, cluster != "" && namespace != "" && name != ""
}
