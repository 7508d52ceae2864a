package placement

import (
	"context"
	"encoding/json"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/klog/v2"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/loopback"
	engine "github.com/canopy-dev/canopy/pkg/placement"
)

// place decides where the object of ref goes and writes the decision on
// it, as far as it may be carried out now. It reads the watch cache,
// which the event that queued ref is already in; an object read stale
// there conflicts when written, and its newer version queues it again.
// Any error leaves the object as it is, to be tried again.
func (c *Controller) place(ctx context.Context, ref objectRef) error {
	res := c.cfg.Resources[ref.resource]
	ctx = logicalcluster.WithCluster(genericapirequest.WithNamespace(ctx, ref.namespace), ref.cluster)
	obj, err := res.Store.Get(ctx, ref.name, &metav1.GetOptions{ResourceVersion: "0"})
	if apierrors.IsNotFound(err) {
		c.refusals.Forget(ref)
		return nil
	}
	if err != nil {
		return err
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return err
	}
	if !placeable(ref, m) {
		return nil
	}
	if !c.world.applies(ref.cluster) {
		return c.unplaced(ctx, ref, obj, m)
	}
	nsObj, err := c.cfg.Namespaces.Get(logicalcluster.WithCluster(genericapirequest.WithNamespace(ctx, ""), ref.cluster), ref.namespace,
		&metav1.GetOptions{ResourceVersion: "0"})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	ns, err := meta.Accessor(nsObj)
	if err != nil {
		return err
	}
	s, policy := c.choose(ref, ns)
	if policy == nil {
		return c.unplaced(ctx, ref, obj, m)
	}
	o, err := objectOf(ref, obj)
	if err != nil {
		return err
	}
	from := assignment{labels: m.GetLabels(), annotations: m.GetAnnotations()}
	if v, held := c.heldByLease(ref, obj, from.labels); held {
		return c.report(ctx, ref, obj, false, v)
	}
	now := time.Now()
	d := s.evaluation(policy, now).Decide(o)
	if !d.RecheckAt.IsZero() {
		c.objects.AddAfter(ref, d.RecheckAt.Sub(now))
	}
	selected := map[string]int32{}
	for _, t := range d.Selected() {
		selected[t.Key] = t.Replicas
	}
	reported := c.reports.Picker(ref.cluster, ref.groupResource(), m)
	out := assign(from, o.Replicas, selected, func(key string, replicas int32) bool {
		return availableAt(m, res.Status != nil, reported, key, replicas)
	})
	if err := withOverrides(&out, from, policy, s.Targets); err != nil {
		return err
	}
	progress, err := withRollout(&out, from, obj, policy, s.Targets, reported, now)
	if err != nil {
		return err
	}
	if written, err := c.carryOut(ctx, ref, obj, out); !written || err != nil {
		return err
	}
	if err := c.rolledOut(ctx, ref, obj, progress, now); err != nil {
		return err
	}
	if out.changed {
		klog.V(2).InfoS("Placed", "resource", ref.resource, "cluster", ref.cluster, "namespace", ref.namespace, "name", ref.name,
			"placement", s.id(policy).name, "targets", out.placed, "leaving", out.leaving, "message", d.Message)
	}
	return c.report(ctx, ref, obj, len(workloadv1alpha1.Targets(out.labels)) > 0, unplaceable(s.id(policy), d))
}

// unplaced carries out, on the object of ref that no placement selects,
// what is left of a move in flight (finish), and otherwise leaves it
// alone.
func (c *Controller) unplaced(ctx context.Context, ref objectRef, obj runtime.Object, m metav1.Object) error {
	if !moving(m) {
		// A Placed condition from a placement that selected it goes.
		c.setReported(ref, "")
		return ignoreStale(c.writeCondition(ctx, ref, obj, nil))
	}
	o, err := objectOf(ref, obj)
	if err != nil {
		return err
	}
	out := finish(assignment{labels: m.GetLabels(), annotations: m.GetAnnotations()}, o.Replicas, func(key string, replicas int32) bool {
		return availableAt(m, c.cfg.Resources[ref.resource].Status != nil, c.reports.Picker(ref.cluster, ref.groupResource(), m), key, replicas)
	})
	written, err := c.carryOut(ctx, ref, obj, out)
	if written && out.changed {
		klog.V(2).InfoS("Carried on a move no placement selects any more", "resource", ref.resource, "cluster", ref.cluster,
			"namespace", ref.namespace, "name", ref.name, "targets", out.placed, "leaving", out.leaving)
	}
	return err
}

// moving is whether placement is moving object m off some targets.
func moving(m metav1.Object) bool {
	return m.GetAnnotations()[workloadv1alpha1.LeavingAnnotation] != ""
}

// objectOf is obj, of ref, as the engine sees it.
func objectOf(ref objectRef, obj runtime.Object) (engine.Object, error) {
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return engine.Object{}, err
	}
	return engine.ObjectFrom(ref.cluster, ref.resource, u), nil
}

// carryOut writes out on obj, of ref, if it changes anything, and tells
// whether the object now carries it. A move waits for a token of the
// moves' bucket, and is queued again meanwhile; a write that conflicts,
// or finds the object gone, is left to the event that follows it; one
// the hub refuses is told on the object and tried again after a backoff.
func (c *Controller) carryOut(ctx context.Context, ref objectRef, obj runtime.Object, out outcome) (bool, error) {
	if !out.changed {
		c.refusals.Forget(ref)
		return true, nil
	}
	if out.moving && !c.moves.Allow() {
		c.objects.AddAfter(ref, time.Duration(float64(time.Second)/c.cfg.MovesPerSecond))
		return false, nil
	}
	err := c.write(ctx, ref, obj, out.assignment)
	switch {
	case err == nil:
		c.refusals.Forget(ref)
		return true, nil
	case apierrors.IsConflict(err) || apierrors.IsNotFound(err):
		return false, nil
	case loopback.Refused(err):
		return false, c.refused(ctx, ref, obj, out, err)
	}
	return false, err
}

// write patches obj to carry a, with obj's resourceVersion as a
// precondition: nothing else of the object changes, and a change made
// since it was read conflicts.
func (c *Controller) write(ctx context.Context, ref objectRef, obj runtime.Object, a assignment) error {
	m, err := meta.Accessor(obj)
	if err != nil {
		return err
	}
	patch, err := assignmentPatch(m.GetResourceVersion(), assignment{labels: m.GetLabels(), annotations: m.GetAnnotations()}, a)
	if err != nil {
		return err
	}
	return c.cfg.Client.Patch(ctx, c.resource(ref), ref.namespace, ref.name, types.MergePatchType, patch)
}

// resource is the group, version and resource of ref's objects.
func (c *Controller) resource(ref objectRef) schema.GroupVersionResource {
	return schema.GroupVersionResource{Group: ref.resource.Group, Version: c.cfg.Resources[ref.resource].Version, Resource: ref.resource.Resource}
}

// assignmentPatch is the JSON merge patch that turns assignment from, of
// an object at resourceVersion, into to: the labels and annotations that
// differ, null for those to remove, and the resourceVersion, which the
// hub checks as a precondition.
func assignmentPatch(resourceVersion string, from, to assignment) ([]byte, error) {
	metadata := map[string]any{"resourceVersion": resourceVersion}
	if d := mapPatch(from.labels, to.labels); len(d) > 0 {
		metadata["labels"] = d
	}
	if d := mapPatch(from.annotations, to.annotations); len(d) > 0 {
		metadata["annotations"] = d
	}
	return json.Marshal(map[string]any{"metadata": metadata})
}

// mapPatch is the merge patch of map from into to.
func mapPatch(from, to map[string]string) map[string]any {
	d := map[string]any{}
	for k := range from {
		if _, ok := to[k]; !ok {
			d[k] = nil
		}
	}
	for k, v := range to {
		if was, ok := from[k]; !ok || was != v {
			d[k] = v
		}
	}
	return d
}
