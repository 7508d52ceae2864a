package placement

import (
	"context"
	"encoding/json"
	"maps"
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
// or finds the object gone or changed since it was read, is left to the
// event that follows it; one the hub refuses is told on the object and
// tried again after a backoff.
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
	if err == nil {
		c.refusals.Forget(ref)
		return true, nil
	}
	if stale, serr := c.stale(ctx, ref, obj, err); serr != nil || stale {
		return false, serr
	}
	if loopback.Refused(err) {
		return false, c.refused(ctx, ref, obj, out, err)
	}
	return false, err
}

// write patches obj to carry a, on condition that the object is still,
// as far as the decision goes, the one it was decided from
// (assignmentPatch).
func (c *Controller) write(ctx context.Context, ref objectRef, obj runtime.Object, a assignment) error {
	m, err := meta.Accessor(obj)
	if err != nil {
		return err
	}
	patch, err := assignmentPatch(m, a)
	if err != nil {
		return err
	}
	return c.cfg.Client.Patch(ctx, c.resource(ref), ref.namespace, ref.name, types.JSONPatchType, patch)
}

// stale is whether err, the answer to placement's write of obj, of ref,
// says that the object changed since obj was read, in what placement
// decides from (decidedFrom), or is gone (loopback.Stale).
func (c *Controller) stale(ctx context.Context, ref objectRef, obj runtime.Object, err error) (bool, error) {
	return loopback.Stale(ctx, err, c.cfg.Resources[ref.resource].Store, ref.name, obj, func(obj runtime.Object) ([]loopback.PatchOp, error) {
		m, err := meta.Accessor(obj)
		if err != nil {
			return nil, err
		}
		return decidedFrom(m), nil
	})
}

// resource is the group, version and resource of ref's objects.
func (c *Controller) resource(ref objectRef) schema.GroupVersionResource {
	return schema.GroupVersionResource{Group: ref.resource.Group, Version: c.cfg.Resources[ref.resource].Version, Resource: ref.resource.Resource}
}

// decidedFrom are the JSON patch tests that hold while object m is, as
// far as placement's decision goes, what it was when m was read. The
// decision reads of the object its UID, labels, annotations (its
// assignment, its rollout, and the status annotations of syncers of an
// earlier release), finalizers (which targets' syncers hold it), whether
// it is being deleted, and its spec, for which its generation stands
// where the kind keeps one: the API bumps it at every change of the spec.
// It does not read the status. A kind that keeps no generation
// (ConfigMap, Service) is tested on its resourceVersion: any change.
//
// A test of null holds where the field is absent, as the API encodes an
// empty map or list (loopback.Test). The API patches the object as a
// client sees it, without the hub's logicalcluster.Annotation
// (pkg/registry's ClientUpdate).
func decidedFrom(m metav1.Object) []loopback.PatchOp {
	test := loopback.Test
	annotations := clientAnnotations(m.GetAnnotations())
	spec := test("/metadata/generation", m.GetGeneration())
	if m.GetGeneration() == 0 {
		spec = test("/metadata/resourceVersion", m.GetResourceVersion())
	}
	return []loopback.PatchOp{
		test("/metadata/uid", m.GetUID()),
		spec,
		test("/metadata/labels", orNull(len(m.GetLabels()), m.GetLabels())),
		test("/metadata/annotations", orNull(len(annotations), annotations)),
		test("/metadata/finalizers", orNull(len(m.GetFinalizers()), m.GetFinalizers())),
		test("/metadata/deletionTimestamp", nil),
	}
}

// clientAnnotations are annotations without the hub's
// logicalcluster.Annotation.
func clientAnnotations(annotations map[string]string) map[string]string {
	out := maps.Clone(annotations)
	delete(out, logicalcluster.Annotation)
	return out
}

// orNull is v, of length n, or nil if it is empty.
func orNull(n int, v any) any {
	if n == 0 {
		return nil
	}
	return v
}

// assignmentPatch is the JSON patch that turns the assignment of object
// m into to, on condition that m is still what placement decided from
// (decidedFrom): the labels and annotations, set whole where they differ.
//
// The condition is not m's resourceVersion, which would make the patch
// conflict with any write of the object, such as status aggregation's
// write of its status, which the same reports that move a rollout call
// for: with it, at 50 targets in bench/rollout, 40 to 56 of placement's
// writes of the object per run conflicted, the write past a healthy wave
// at 19 of 27 waves, and each waited for the next event, a few hundred
// milliseconds on a loaded machine. The API applies a JSON patch to the object it is about
// to replace, inside the store's compare-and-swap, and again on every
// retry of it: so the patch lands on top of a write that changed
// nothing placement reads, and fails its test, to be decided again from
// the event of the change, after one that did. Status aggregation's
// write of the status, in the same way, tests only what aggregation read.
func assignmentPatch(m metav1.Object, to assignment) ([]byte, error) {
	ops := decidedFrom(m)
	if !maps.Equal(m.GetLabels(), to.labels) {
		ops = append(ops, loopback.PatchOp{Op: "add", Path: "/metadata/labels", Value: to.labels})
	}
	if !maps.Equal(m.GetAnnotations(), to.annotations) {
		ops = append(ops, loopback.PatchOp{Op: "add", Path: "/metadata/annotations", Value: clientAnnotations(to.annotations)})
	}
	return json.Marshal(ops)
}
