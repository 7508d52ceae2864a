package sync

import (
	"context"
	"fmt"
	"slices"

	"go.opentelemetry.io/otel/trace"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/sync/patch"
	"github.com/canopy-dev/canopy/pkg/sync/spec"
)

// syncDown makes the downstream object of k match its hub object, or
// removes it downstream and releases the hub object when the hub object
// is being deleted, no longer assigned, or of a logical cluster the
// target does not serve.
func (s *Syncer) syncDown(ctx context.Context, k objectKey) error {
	h, ok, err := s.hubObjectOf(k)
	if err != nil {
		return err
	}
	if ok && h.GetDeletionTimestamp() == nil {
		if !s.usable(k.cluster) {
			return s.refuse(ctx, k, h)
		}
		s.forgetRefusal(conflictKey{s.resources[k.resource].gvr, k.origin})
		return s.apply(ctx, k, h)
	}
	var obj *unstructured.Unstructured
	if ok {
		obj = h.Unstructured
	} else {
		// Not in the informer: unassigned, deleted, or the informer is
		// behind, as it may be when a restart finds a downstream object.
		// Only a read in its logical cluster tells which, and nothing is
		// deleted on a guess or an error.
		hub, err := s.hubIn(k.cluster)
		if err != nil {
			return err
		}
		obj, err = hub.Resource(s.resources[k.resource].gvr).Namespace(k.namespace).Get(ctx, k.name, metav1.GetOptions{})
		if err != nil && !outOfScope(err) {
			return err
		}
		if err != nil {
			obj = nil
		} else if obj.GetDeletionTimestamp() == nil {
			if obj.GetLabels()[workloadv1alpha1.StateLabel(s.key)] == workloadv1alpha1.StateSync {
				// Assigned: the informer brings it.
				return nil
			}
			if dep, ok := s.asDependency(k); ok {
				referenced, err := s.referenced(dep)
				if err != nil {
					return err
				}
				if referenced {
					// Unassigned but still needed by a synced workload:
					// it stays downstream as a dependency.
					s.depQueue.Add(dep)
					return s.release(ctx, k, obj)
				}
			}
		}
	}
	gone, err := s.deleteDownstream(ctx, k)
	if gone {
		s.resolved(s.resources[k.resource].gvr, k.origin)
		s.forgetRejection(s.resources[k.resource].gvr, k.origin)
	}
	if err != nil || !gone || obj == nil {
		return err
	}
	return s.release(ctx, k, obj)
}

// asDependency is k as a dependencyKey, if its resource is one that
// workloads depend on.
func (s *Syncer) asDependency(k objectKey) (dependencyKey, bool) {
	for i, gvr := range dependencyResources {
		if gvr == s.resources[k.resource].gvr {
			return dependencyKey{i, k.origin}, true
		}
	}
	return dependencyKey{}, false
}

// apply holds the finalizer on h and applies it downstream.
func (s *Syncer) apply(ctx context.Context, k objectKey, h *hubObject) error {
	finalizer := workloadv1alpha1.FinalizerPrefix + s.key
	obj := h.Unstructured
	if !slices.Contains(h.GetFinalizers(), finalizer) {
		obj = obj.DeepCopy()
		obj.SetFinalizers(append(obj.GetFinalizers(), finalizer))
		if err := s.updateHub(ctx, k, obj); err != nil {
			return err
		}
	}
	current, _, err := s.downstreamOf(k)
	if err != nil {
		return err
	}
	r := s.resources[k.resource]
	conflict, err := s.applyDownstream(ctx, r.gvr, r.gvk, k.origin, obj, current)
	if conflict {
		s.downQueue.AddAfter(k, conflictRecheck)
	}
	return err
}

// applyDownstream server-side applies hub object obj of o downstream,
// unless it is up to date already or the downstream object is someone
// else's: then the conflict is recorded at the hub and reported, for the
// caller to look again later. current is the downstream object from the
// informer, nil if it has none.
func (s *Syncer) applyDownstream(ctx context.Context, gvr schema.GroupVersionResource, gvk schema.GroupVersionKind, o origin, obj, current *unstructured.Unstructured) (conflict bool, err error) {
	downNamespace := s.downstreamNamespace(o.cluster, o.namespace)
	trace.SpanFromContext(ctx).SetAttributes(hubIdentity(obj)...)
	desired, err := targetObject(obj, o, s.key)
	if err != nil {
		return false, err
	}
	desired.SetGroupVersionKind(gvk)
	desired.SetNamespace(downNamespace)
	if err := spec.Stamp(desired); err != nil {
		return false, err
	}
	if f, ok := s.rejectionOf(gvr, o, obj.GetUID(), desired.GetAnnotations()[spec.AppliedAnnotation]); ok {
		// Refused as it is: nothing is sent downstream, not even a read,
		// until it changes; a resync or a restart of the work finds it
		// here. Only a report that failed is made again.
		return false, s.reportRejection(ctx, gvr, o, obj, f)
	}
	if current == nil {
		// The informer sees only objects carrying the target's label; one
		// without it may be there all the same, someone else's.
		c, err := s.down.Resource(gvr).Namespace(downNamespace).Get(ctx, o.name, metav1.GetOptions{})
		if ignoreNotFound(err) != nil {
			return false, err
		}
		if err == nil {
			current = c
		}
	}
	action := spec.Decide(desired, current)
	if action == spec.Conflict {
		klog.InfoS("Not syncing over a downstream object the syncer did not create",
			"resource", gvr.String(), "cluster", o.cluster, "namespace", o.namespace, "name", o.name,
			"downstreamNamespace", downNamespace)
		return true, s.conflicted(ctx, gvr, o, obj)
	}
	s.resolved(gvr, o)
	obj, err = s.clearConditions(ctx, gvr, o.cluster, obj, ConflictReason)
	if err != nil {
		return false, err
	}
	if action == spec.Apply {
		if err := s.ensureNamespace(ctx, o); err != nil {
			return false, s.failed(ctx, gvr, o, obj, desired, namespaceWrite(downNamespace), err)
		}
		if err := s.serverSideApply(ctx, gvr, desired); err != nil {
			return false, s.failed(ctx, gvr, o, obj, desired, applyWrite(gvr, desired), err)
		}
	}
	return false, s.applied(ctx, gvr, o, obj)
}

// serverSideApply applies desired downstream, in a span of its own that
// names the downstream object and the version the apply made of it.
func (s *Syncer) serverSideApply(ctx context.Context, gvr schema.GroupVersionResource, desired *unstructured.Unstructured) error {
	ctx, span := s.tracer.Start(ctx, spanApply, trace.WithAttributes(
		attrResource.String(gvr.GroupResource().String()),
		attrDownstreamNamespace.String(desired.GetNamespace()),
		attrName.String(desired.GetName())))
	applied, err := s.down.Resource(gvr).Namespace(desired.GetNamespace()).Apply(ctx, desired.GetName(), desired, metav1.ApplyOptions{FieldManager: FieldManager, Force: true})
	countWrite(gvr.GroupResource(), "apply", err)
	if err == nil {
		span.SetAttributes(downstreamIdentity(applied)...)
		observeLatency(ctx, queueDown, gvr)
	}
	endSpan(span, err)
	return err
}

// ensureNamespace creates the downstream namespace of o's logical cluster
// and namespace, recording its origin.
func (s *Syncer) ensureNamespace(ctx context.Context, k origin) error {
	name := s.downstreamNamespace(k.cluster, k.namespace)
	if _, err := s.namespaces.Get(name); err == nil {
		return nil
	}
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{
		Name:   name,
		Labels: map[string]string{workloadv1alpha1.TargetKeyLabel: s.key},
		Annotations: map[string]string{
			workloadv1alpha1.OriginClusterAnnotation:   k.cluster,
			workloadv1alpha1.OriginNamespaceAnnotation: k.namespace,
		},
	}}
	_, err := s.downKube.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{FieldManager: FieldManager})
	countWrite(namespacesResource, "create", err)
	if apierrors.IsAlreadyExists(err) {
		return nil
	}
	return err
}

// deleteDownstream deletes the downstream object of k if the syncer made
// it, and tells whether it is gone; one it did not make counts as gone.
func (s *Syncer) deleteDownstream(ctx context.Context, k objectKey) (bool, error) {
	current, exists, err := s.downstreamOf(k)
	if err != nil || !exists {
		return !exists, err
	}
	if o, ok := originOf(current); !ok || o != k.origin {
		return true, nil
	}
	if current.GetDeletionTimestamp() == nil {
		gvr := s.resources[k.resource].gvr
		err := s.down.Resource(gvr).Namespace(current.GetNamespace()).Delete(ctx, current.GetName(), metav1.DeleteOptions{
			Preconditions: &metav1.Preconditions{UID: ptr.To(current.GetUID())},
		})
		countWrite(gvr.GroupResource(), "delete", err)
		if ignoreNotFound(err) != nil {
			return false, err
		}
	}
	// The informer's delete event queues k again; the retry covers a
	// missed one.
	s.downQueue.AddAfter(k, retryAfter)
	return false, nil
}

// release removes the syncer's finalizer from hub object obj, and the
// ConflictReason and FailedReason conditions from one that stays.
func (s *Syncer) release(ctx context.Context, k objectKey, obj *unstructured.Unstructured) error {
	finalizer := workloadv1alpha1.FinalizerPrefix + s.key
	if !slices.Contains(obj.GetFinalizers(), finalizer) {
		return nil
	}
	if obj.GetDeletionTimestamp() == nil {
		var err error
		if obj, err = s.clearConditions(ctx, s.resources[k.resource].gvr, k.cluster, obj, ConflictReason, FailedReason); err != nil {
			return ignoreNotFound(err)
		}
	}
	released := obj.DeepCopy()
	released.SetFinalizers(slices.DeleteFunc(released.GetFinalizers(), func(f string) bool { return f == finalizer }))
	// Its report of the status at the target, where the object was
	// shared, goes with it.
	annotations := released.GetAnnotations()
	delete(annotations, workloadv1alpha1.StatusAnnotation(s.key))
	released.SetAnnotations(annotations)
	return ignoreNotFound(s.updateHub(ctx, k, released))
}

// updateHub updates hub object obj in its logical cluster, and sets obj's
// resourceVersion to the one written; a conflict fails, to be retried on
// the informer's newer copy.
func (s *Syncer) updateHub(ctx context.Context, k objectKey, obj *unstructured.Unstructured) error {
	hub, err := s.hubIn(k.cluster)
	if err != nil {
		return err
	}
	r := s.resources[k.resource]
	obj.SetGroupVersionKind(r.gvk)
	updated, err := hub.Resource(r.gvr).Namespace(k.namespace).Update(ctx, obj, metav1.UpdateOptions{FieldManager: FieldManager})
	if err != nil {
		return fmt.Errorf("updating the hub object: %w", err)
	}
	obj.SetResourceVersion(updated.GetResourceVersion())
	return nil
}

// writeHubStatus makes the status of hub object from, of gvr in logical
// cluster cluster, that of to, and makes to the object as the hub has it
// then. It is a merge patch without a resourceVersion (pkg/sync/patch),
// which no other write of the object makes conflict: the status it
// writes is the syncer's. Since others' writes of the object's other
// fields may land in between, to takes the whole object the hub answers,
// not only its resourceVersion, so that an update made from it later
// undoes none of them. Nothing is written where both are equal.
func (s *Syncer) writeHubStatus(ctx context.Context, gvr schema.GroupVersionResource, cluster string, from, to *unstructured.Unstructured) error {
	have, _, _ := unstructured.NestedMap(from.Object, "status")
	want, _, _ := unstructured.NestedMap(to.Object, "status")
	p, err := patch.Status(have, want)
	if err != nil || p == nil {
		return err
	}
	updated, err := s.patchHubStatus(ctx, gvr, origin{cluster, to.GetNamespace(), to.GetName()}, p)
	if err != nil {
		return err
	}
	updated.SetManagedFields(nil)
	to.Object = updated.Object
	return nil
}

// patchHubStatus sends merge patch p to the status of the hub object of
// gvr at o.
func (s *Syncer) patchHubStatus(ctx context.Context, gvr schema.GroupVersionResource, o origin, p []byte) (*unstructured.Unstructured, error) {
	hub, err := s.hubIn(o.cluster)
	if err != nil {
		return nil, err
	}
	return hub.Resource(gvr).Namespace(o.namespace).Patch(ctx, o.name, types.MergePatchType, p, metav1.PatchOptions{FieldManager: FieldManager}, "status")
}

// outOfScope tells whether err answers a read of a hub object that it is
// not the syncer's: gone, or, as its scope at the hub answers with a 403
// (pkg/syncerscope), neither assigned to the target, nor holding its
// finalizer, nor a dependency of an object assigned to it.
func outOfScope(err error) bool {
	return apierrors.IsNotFound(err) || apierrors.IsForbidden(err)
}

func ignoreNotFound(err error) error {
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}
