package rollouthistory

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/utils/ptr"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// revisionHashLabel is the label of a StatefulSet's ControllerRevision
// holding the hash of its data, as in k8s.io/kubernetes@v1.37.1
// pkg/controller/history/controller_history.go.
const revisionHashLabel = "controller.kubernetes.io/hash"

// workload is a StatefulSet or DaemonSet, whose revisions are
// ControllerRevisions.
type workload struct {
	obj      metav1.Object
	kind     schema
	template *corev1.PodTemplateSpec
	limit    *int32
}

// schema names a workload's kind, and how its revisions are named.
type schema struct {
	kind string
	// byTemplate names a revision by the template's hash, as the
	// DaemonSet controller does, rather than by its data's, as the
	// StatefulSet controller does.
	byTemplate bool
}

var (
	statefulSet = schema{kind: "StatefulSet"}
	daemonSet   = schema{kind: "DaemonSet", byTemplate: true}
)

// workloadOf is obj as a workload, if it is a StatefulSet or DaemonSet.
func workloadOf(obj runtime.Object) (workload, bool) {
	switch o := obj.(type) {
	case *appsv1.StatefulSet:
		return workload{o, statefulSet, &o.Spec.Template, o.Spec.RevisionHistoryLimit}, true
	case *appsv1.DaemonSet:
		return workload{o, daemonSet, &o.Spec.Template, o.Spec.RevisionHistoryLimit}, true
	}
	return workload{}, false
}

// Patch is the data of a revision of template: a strategic merge patch
// replacing a workload's template, byte for byte as kube's StatefulSet
// and DaemonSet controllers write it (k8s.io/kubernetes@v1.37.1
// pkg/controller/statefulset/stateful_set_utils.go and
// pkg/controller/daemon/update.go, getPatch) and as kubectl compares it
// with the workload's to tell the revision it runs.
func Patch(template *corev1.PodTemplateSpec) ([]byte, error) {
	b, err := json.Marshal(template)
	if err != nil {
		return nil, err
	}
	var t map[string]any
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, err
	}
	t["$patch"] = "replace"
	return json.Marshal(map[string]any{"spec": map[string]any{"template": t}})
}

// HashRevision is the hash of a revision's data as the StatefulSet
// controller names revisions, with probe, when not nil, after a
// collision (k8s.io/kubernetes@v1.37.1
// pkg/controller/history/controller_history.go, HashControllerRevision).
func HashRevision(data []byte, probe *int32) string {
	hf := fnv.New32()
	hf.Write(data)
	if probe != nil {
		hf.Write([]byte(strconv.FormatInt(int64(*probe), 10)))
	}
	return rand.SafeEncodeString(fmt.Sprint(hf.Sum32()))
}

// ReconcileRevisions returns the ControllerRevisions w should have given
// those it owns (owned), and those of owned to delete. The revision of
// w's template is the one whose data is its Patch, or else a new one,
// named with probe after a collision; it has the highest revision
// number. The oldest beyond w's revisionHistoryLimit go.
func ReconcileRevisions(w workload, owned []*appsv1.ControllerRevision, probe *int32) (want, stale []*appsv1.ControllerRevision, err error) {
	data, err := Patch(w.template)
	if err != nil {
		return nil, nil, err
	}
	var current *appsv1.ControllerRevision
	var old []*appsv1.ControllerRevision
	for _, cr := range owned {
		if current == nil && string(cr.Data.Raw) == string(data) {
			current = cr.DeepCopy()
			continue
		}
		old = append(old, cr.DeepCopy())
	}
	slices.SortStableFunc(old, func(a, b *appsv1.ControllerRevision) int { return int(a.Revision - b.Revision) })
	next := int64(1)
	if len(old) > 0 {
		next = old[len(old)-1].Revision + 1
	}
	if current == nil {
		current = newRevision(w, data, probe)
	}
	current.Revision = max(current.Revision, next)
	limit := int(ptr.Deref(w.limit, defaultHistoryLimit))
	for i, cr := range old {
		if len(old)-i > limit {
			stale = append(stale, cr)
			continue
		}
		want = append(want, cr)
	}
	return append(want, current), stale, nil
}

// newRevision is the ControllerRevision of data for w, owned by w as its
// controller, named and labelled as kube's controller of w's kind names
// and labels it.
func newRevision(w workload, data []byte, probe *int32) *appsv1.ControllerRevision {
	hash, label := HashRevision(data, probe), revisionHashLabel
	var annotations map[string]string
	if w.kind.byTemplate {
		hash, label = ComputeHash(w.template, probe), appsv1.DefaultDaemonSetUniqueLabelKey
		annotations = w.obj.GetAnnotations()
	}
	labels := withLabel(w.template.Labels, label, hash)
	labels[workloadv1alpha1.RevisionRecordLabel] = "true"
	return &appsv1.ControllerRevision{
		ObjectMeta: metav1.ObjectMeta{
			Name:            w.obj.GetName() + "-" + hash,
			Namespace:       w.obj.GetNamespace(),
			Labels:          labels,
			Annotations:     withoutCanopys(annotations),
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(w.obj, appsv1.SchemeGroupVersion.WithKind(w.kind.kind))},
		},
		Data: runtime.RawExtension{Raw: data},
	}
}

// withoutCanopys is annotations but for the hub's own; nil without any.
func withoutCanopys(annotations map[string]string) map[string]string {
	var out map[string]string
	for k, v := range annotations {
		if !canopys(k) && k != corev1.LastAppliedConfigAnnotation {
			if out == nil {
				out = map[string]string{}
			}
			out[k] = v
		}
	}
	return out
}
