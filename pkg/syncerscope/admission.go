package syncerscope

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/admission"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// Admission checks the objects a syncer writes, which its Authorizer
// cannot see: what it creates is labelled as its copy or report, its
// copies stay labelled so, and of the objects assigned to it, it changes
// only its finalizer and its report of their status.
type Admission struct {
	*admission.Handler
}

var _ admission.ValidationInterface = &Admission{}

// NewAdmission returns the plugin.
func NewAdmission() *Admission {
	return &Admission{Handler: admission.NewHandler(admission.Create, admission.Update)}
}

func (p *Admission) Validate(_ context.Context, a admission.Attributes, _ admission.ObjectInterfaces) error {
	t, ok, err := targetOf(a.GetUserInfo())
	if !ok {
		return nil
	}
	if err != nil {
		return admission.NewForbidden(a, err)
	}
	gr := a.GetResource().GroupResource()
	obj, err := meta.Accessor(a.GetObject())
	if err != nil {
		return admission.NewForbidden(a, err)
	}
	if gr == pods || gr == events {
		if !t.copied(obj) {
			return admission.NewForbidden(a, fmt.Errorf("the syncer of SyncTarget %s writes only the pods and Events labelled %s=%s or %s=%s",
				t, workloadv1alpha1.UpsyncedLabel, t.key, workloadv1alpha1.ReportedByLabel, t.key))
		}
		return nil
	}
	if a.GetOperation() != admission.Update || a.GetSubresource() != "" {
		// The Authorizer allowed no other create, and a status update
		// changes nothing but the status.
		return nil
	}
	old, err := meta.Accessor(a.GetOldObject())
	if err != nil {
		return admission.NewForbidden(a, err)
	}
	added := !t.holds(old) && t.holds(obj)
	if added && !t.assigned(old) {
		return admission.NewForbidden(a, fmt.Errorf("the syncer of SyncTarget %s may add its finalizer %s only to objects assigned to it", t, t.finalizer()))
	}
	changed, err := changedButOwn(a.GetOldObject(), a.GetObject(), t.key)
	if err != nil {
		return admission.NewForbidden(a, err)
	}
	if len(changed) > 0 {
		return admission.NewForbidden(a, fmt.Errorf("the syncer of SyncTarget %s may change, of an object assigned to it, only its status, its finalizer %s and its annotation %s, not %s",
			t, t.finalizer(), workloadv1alpha1.StatusAnnotation(t.key), strings.Join(changed, ", ")))
	}
	return nil
}

// changedButOwn are the fields in which old and obj differ, but for the
// finalizer and status annotation of the syncer of key, and what the
// server sets on every write.
func changedButOwn(old, obj runtime.Object, key string) ([]string, error) {
	finalizer := workloadv1alpha1.FinalizerPrefix + key
	var maps [2]map[string]any
	for i, o := range []runtime.Object{old, obj} {
		u, err := toUnstructured(o.DeepCopyObject())
		if err != nil {
			return nil, err
		}
		others := slices.DeleteFunc(u.GetFinalizers(), func(f string) bool { return f == finalizer })
		if len(others) == 0 {
			others = nil
		}
		u.SetFinalizers(others)
		// Its report of the object's status at its target, where the
		// object is assigned to several (pkg/controller/statusaggregation).
		annotations := u.GetAnnotations()
		delete(annotations, workloadv1alpha1.StatusAnnotation(key))
		u.SetAnnotations(annotations)
		u.SetManagedFields(nil)
		u.SetResourceVersion("")
		// The request's path, not its body, says what the object is.
		delete(u.Object, "apiVersion")
		delete(u.Object, "kind")
		maps[i] = u.Object
	}
	return changed("", maps[0], maps[1]), nil
}

// changed are the paths of the fields that differ between a and b.
func changed(path string, a, b map[string]any) []string {
	var paths []string
	for k := range a {
		if _, ok := b[k]; !ok {
			paths = append(paths, path+"."+k)
		}
	}
	for k, bv := range b {
		av, ok := a[k]
		am, aIsMap := av.(map[string]any)
		bm, bIsMap := bv.(map[string]any)
		switch {
		case !ok:
			paths = append(paths, path+"."+k)
		case aIsMap && bIsMap:
			paths = append(paths, changed(path+"."+k, am, bm)...)
		case !equality.Semantic.DeepEqual(av, bv):
			paths = append(paths, path+"."+k)
		}
	}
	slices.Sort(paths)
	return paths
}
