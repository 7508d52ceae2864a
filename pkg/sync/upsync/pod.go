package upsync

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/sync/patch"
)

// Pod is the hub copy, namespace/name, of downstream pod down, for the
// syncer of the target of key: its spec and status, its labels with the
// upsynced mark for the target's label, the hub object owner it is a pod
// of, and nothing else of its metadata, which names downstream objects.
func Pod(down *unstructured.Unstructured, namespace, name, key, owner string) *unstructured.Unstructured {
	out := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1",
		"kind":       "Pod",
		"spec":       down.Object["spec"],
		"status":     down.Object["status"],
	}}
	out = out.DeepCopy()
	out.SetName(name)
	out.SetNamespace(namespace)
	l := down.GetLabels()
	delete(l, workloadv1alpha1.TargetKeyLabel)
	if l == nil {
		l = map[string]string{}
	}
	l[workloadv1alpha1.UpsyncedLabel] = key
	out.SetLabels(l)
	out.SetAnnotations(map[string]string{workloadv1alpha1.OwnerAnnotation: owner})
	return out
}

// Plan is what the pod controller does with the copy of one pod before
// bringing it up to date.
type Plan struct {
	// Delete deletes the copy at the hub.
	Delete bool
	// Done is that nothing follows, after Delete where there is a copy:
	// the pod is gone downstream or is not of an object synced to the
	// target.
	Done bool
	// Wait, when positive, is how long to wait for the scheduler before
	// the copy is made; nothing else is done now.
	Wait time.Duration
	// Create makes the copy, missing at the hub or deleted first.
	Create bool
}

// Decide is the Plan for hub copy hub of downstream pod down, either nil
// when there is none, at now; owned tells whether down is a pod of an
// object synced to the target, which the hub takes copies of alone.
func Decide(hub, down *unstructured.Unstructured, owned bool, now time.Time) Plan {
	if down == nil || !owned {
		return Plan{Delete: hub != nil, Done: true}
	}
	var p Plan
	if hub != nil && NodeOf(hub) != NodeOf(down) {
		// Bound to a node since it was copied: the hub, as Kubernetes,
		// lets no update change a pod's node, so the copy is made again.
		p.Delete, hub = true, nil
	}
	if hub != nil {
		return p
	}
	if wait := SchedulingWait(down, now); wait > 0 {
		p.Wait = wait
		return p
	}
	p.Create = true
	return p
}

// Writes are the merge patches that make hub copy current as desired
// is: of its labels and owner annotation, and of its status; each nil
// when it needs none.
func Writes(current, desired *unstructured.Unstructured) (metadata, status []byte, err error) {
	if metadata, err = patch.Metadata(current.GetLabels(), desired.GetLabels(), current.GetAnnotations(), desired.GetAnnotations()); err != nil {
		return nil, nil, err
	}
	have, _, _ := unstructured.NestedMap(current.Object, "status")
	want, _, _ := unstructured.NestedMap(desired.Object, "status")
	status, err = patch.Status(have, want)
	return metadata, status, err
}

// SchedulingGrace is how long a new pod that no scheduler has looked at
// waits to be copied to the hub. A copy made before the pod is bound is
// made again once it is; waiting for the scheduler spares that to the
// pods it binds at once, while one that no scheduler takes still shows
// at the hub after the grace.
const SchedulingGrace = 5 * time.Second

// SchedulingWait is how much longer downstream pod down waits to be
// copied to the hub at now: none once it is bound to a node or a
// scheduler has reported on it, as unschedulable, else what is left of
// SchedulingGrace since it was created.
func SchedulingWait(down *unstructured.Unstructured, now time.Time) time.Duration {
	if NodeOf(down) != "" {
		return 0
	}
	conditions, _, _ := unstructured.NestedSlice(down.Object, "status", "conditions")
	for _, c := range conditions {
		if c, ok := c.(map[string]any); ok && c["type"] == string(corev1.PodScheduled) {
			return 0
		}
	}
	return max(0, down.GetCreationTimestamp().Add(SchedulingGrace).Sub(now))
}

// NodeOf is the node pod is bound to, "" if none.
func NodeOf(pod *unstructured.Unstructured) string {
	node, _, _ := unstructured.NestedString(pod.Object, "spec", "nodeName")
	return node
}
