package placement

import (
	"context"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/klog/v2"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
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
		c.record(ref, nil)
		return nil
	}
	if err != nil {
		return err
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return err
	}
	// An object being deleted stays where it is until its syncers let
	// it go. A Deployment's revision record at the hub runs nowhere.
	if m.GetDeletionTimestamp() != nil || m.GetLabels()[workloadv1alpha1.RevisionRecordLabel] != "" {
		c.record(ref, nil)
		return nil
	}
	if !c.world.applies(ref.cluster) {
		return c.unplaced(ctx, ref, obj, m)
	}
	nsObj, err := c.cfg.Namespaces.Get(logicalcluster.WithCluster(genericapirequest.WithNamespace(ctx, ""), ref.cluster), ref.namespace,
		&metav1.GetOptions{ResourceVersion: "0"})
	if apierrors.IsNotFound(err) {
		c.record(ref, nil)
		return nil
	}
	if err != nil {
		return err
	}
	ns, err := meta.Accessor(nsObj)
	if err != nil {
		return err
	}
	s := c.world.scope(ref.cluster)
	policy := engine.Choose(s.Policies, labels.Set(ns.GetLabels()), ref.resource)
	if policy == nil {
		return c.unplaced(ctx, ref, obj, m)
	}
	o, err := objectOf(ref, obj)
	if err != nil {
		return err
	}
	from := assignment{labels: m.GetLabels(), annotations: m.GetAnnotations()}
	now := time.Now()
	d := s.evaluation(policy, now).Decide(o)
	if !d.RecheckAt.IsZero() {
		c.objects.AddAfter(ref, d.RecheckAt.Sub(now))
	}
	selected := map[string]int32{}
	for _, t := range d.Selected() {
		selected[t.Key] = t.Replicas
	}
	out := assign(from, o.Replicas, selected, func(key string, replicas int32) bool {
		return availableAt(m, res.Status != nil, key, replicas)
	})
	if written, err := c.carryOut(ctx, ref, obj, out); !written || err != nil {
		return err
	}
	if out.changed {
		klog.V(2).InfoS("Placed", "resource", ref.resource, "cluster", ref.cluster, "namespace", ref.namespace, "name", ref.name,
			"placement", s.id(policy).name, "targets", out.placed, "leaving", out.leaving, "message", d.Message)
	}
	c.record(ref, &record{placement: s.id(policy), placed: out.placed})
	return c.report(ctx, ref, obj, len(workloadv1alpha1.Targets(out.labels)) > 0, unplaceable(s.id(policy), d))
}

// unplaced carries out, on the object of ref that no placement selects,
// what is left of a move in flight (finish), and otherwise leaves it
// alone.
func (c *Controller) unplaced(ctx context.Context, ref objectRef, obj runtime.Object, m metav1.Object) error {
	c.record(ref, nil)
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
		return availableAt(m, c.cfg.Resources[ref.resource].Status != nil, key, replicas)
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
// or finds the object gone, is left to the event that follows it.
func (c *Controller) carryOut(ctx context.Context, ref objectRef, obj runtime.Object, out outcome) (bool, error) {
	if !out.changed {
		return true, nil
	}
	if out.moving && !c.moves.Allow() {
		c.objects.AddAfter(ref, time.Duration(float64(time.Second)/c.cfg.MovesPerSecond))
		return false, nil
	}
	if err := c.write(ctx, ref, obj, out.assignment); err != nil {
		if apierrors.IsConflict(err) || apierrors.IsNotFound(err) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

// write updates obj to carry a, with obj's resourceVersion as a
// precondition: nothing else of the object changes, and a change made
// since it was read conflicts.
func (c *Controller) write(ctx context.Context, ref objectRef, obj runtime.Object, a assignment) error {
	updated := obj.DeepCopyObject()
	m, err := meta.Accessor(updated)
	if err != nil {
		return err
	}
	m.SetLabels(a.labels)
	m.SetAnnotations(a.annotations)
	_, _, err = c.cfg.Resources[ref.resource].Store.Update(ctx, ref.name, rest.DefaultUpdatedObjectInfo(updated),
		rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{})
	return err
}
