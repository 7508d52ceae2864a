package sync

import (
	"context"
	"fmt"
	"slices"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	kubescheme "k8s.io/client-go/kubernetes/scheme"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/override"
	"github.com/canopy-dev/canopy/pkg/sync/hubclient"
	"github.com/canopy-dev/canopy/pkg/sync/report"
	"github.com/canopy-dev/canopy/pkg/sync/spec"
	"github.com/canopy-dev/canopy/pkg/sync/telemetry"
)

// specController applies each hub object assigned to the target in the
// physical cluster, and removes it there once it is deleted at the hub,
// no longer assigned, or of a logical cluster the target does not
// serve. Its queue holds the hub objects, fed by the hub informers and
// by the downstream ones, so that drift downstream is undone.
type specController struct {
	key        string
	hub        *hubclient.Clients
	reports    *hubclient.Reports
	down       dynamic.Interface
	downKube   kubernetes.Interface
	namespaces corelisters.NamespaceLister
	// namespaceOf is the downstream namespace of a namespace of a
	// logical cluster (pkg/sync/namespace.Name).
	namespaceOf func(cluster, namespace string) string
	resources   []*resource
	report      *report.Reporter
	tracer      trace.Tracer

	queue workqueue.TypedRateLimitingInterface[objectKey]
	// observed holds when the changes waiting in queue were observed,
	// for their sync latency.
	observed telemetry.ObservedTimes[objectKey]

	// usable tells whether the target serves a logical cluster, and
	// served lists those its spec names (refuse.go).
	usable func(cluster string) bool
	served func() []string
	// keepDependency tells whether the hub object of k, no longer
	// assigned, is still a dependency of a synced workload, and hands it
	// to the dependency controller if it is (dependencies.go).
	keepDependency func(k objectKey) (bool, error)
}

// conflictRecheck is how often an object in conflict is looked at again:
// the downstream informers select the syncer's label, so they do not see
// the other object go.
const conflictRecheck = 10 * time.Second

// retryAfter is how long a deletion waits before it looks again whether
// the downstream object is gone, should its delete event be missed.
const retryAfter = 2 * time.Second

// Run syncs with workers until ctx ends.
func (c *specController) Run(ctx context.Context, workers int) {
	sync := telemetry.Traced(c.tracer, telemetry.SpanDown, c.attributes, telemetry.Timed(&c.observed, c.sync))
	runWorkers(ctx, telemetry.QueueDown, c.queue, workers, sync)
}

func (c *specController) attributes(k objectKey) []attribute.KeyValue {
	return telemetry.ObjectAttributes(c.resources[k.resource].gvr, k.cluster, k.namespace, k.name, c.namespaceOf(k.cluster, k.namespace))
}

// enqueue queues k, on a change observed now.
func (c *specController) enqueue(k objectKey) {
	c.observed.Observed(k, time.Now())
	c.queue.Add(k)
}

// hubHandler queues each hub object of resources[i] on any event.
func (c *specController) hubHandler(i int) cache.ResourceEventHandler {
	return hubOriginHandler(func(o origin) { c.enqueue(objectKey{i, o}) })
}

// downHandler queues each downstream object of resources[i] on any
// event: drift is undone, a deleted one made again, and one found at
// start whose hub object is gone or unassigned deleted, and its hub
// object released.
func (c *specController) downHandler(i int) cache.ResourceEventHandler {
	return originHandler(func(o origin) { c.enqueue(objectKey{i, o}) })
}

// sync makes the downstream object of k match its hub object, or
// removes it downstream and releases the hub object when the hub object
// is being deleted, no longer assigned, or of a logical cluster the
// target does not serve.
func (c *specController) sync(ctx context.Context, k objectKey) error {
	r := c.resources[k.resource]
	h, ok, err := r.hubObject(k.origin)
	if err != nil {
		return err
	}
	if ok && h.GetDeletionTimestamp() == nil {
		if !c.usable(k.cluster) {
			return c.refuse(ctx, k, h)
		}
		c.report.ForgetRefusal(r.ref(k.origin))
		return c.apply(ctx, k, h)
	}
	var obj *unstructured.Unstructured
	if ok {
		obj = h.Unstructured
	} else {
		// Not in the informer: unassigned, deleted, or the informer is
		// behind, as it may be when a restart finds a downstream object.
		// Only a read in its logical cluster tells which, and nothing is
		// deleted on a guess or an error.
		hub, err := c.hub.In(k.cluster)
		if err != nil {
			return err
		}
		obj, err = hub.Resource(r.gvr).Namespace(k.namespace).Get(ctx, k.name, metav1.GetOptions{})
		if err != nil && !outOfScope(err) {
			return err
		}
		if err != nil {
			obj = nil
		} else if obj.GetDeletionTimestamp() == nil {
			if obj.GetLabels()[workloadv1alpha1.StateLabel(c.key)] == workloadv1alpha1.StateSync {
				// Assigned: the informer brings it.
				return nil
			}
			kept, err := c.keepDependency(k)
			if err != nil {
				return err
			}
			if kept {
				// Unassigned but still needed by a synced workload: it
				// stays downstream as a dependency.
				return c.release(ctx, k, obj)
			}
		}
	}
	gone, err := c.deleteDownstream(ctx, k)
	if gone {
		c.report.Resolved(r.ref(k.origin))
		c.report.ForgetRejection(r.ref(k.origin))
	}
	if err != nil || !gone || obj == nil {
		return err
	}
	return c.release(ctx, k, obj)
}

// apply holds the finalizer on h and applies it downstream.
func (c *specController) apply(ctx context.Context, k objectKey, h *hubObject) error {
	finalizer := workloadv1alpha1.FinalizerPrefix + c.key
	obj := h.Unstructured
	if !slices.Contains(h.GetFinalizers(), finalizer) {
		var err error
		if obj, err = c.holdFinalizer(ctx, k, obj, finalizer); err != nil {
			return err
		}
	}
	r := c.resources[k.resource]
	current, _, err := r.downstream(k.origin)
	if err != nil {
		return err
	}
	conflict, err := c.applyDownstream(ctx, r.gvr, r.gvk, k.origin, obj, current)
	if conflict {
		c.queue.AddAfter(k, conflictRecheck)
	}
	return err
}

// applyDownstream server-side applies hub object obj of o downstream,
// unless it is up to date already or the downstream object is someone
// else's: then the conflict is recorded at the hub and reported, for the
// caller to look again later. current is the downstream object from the
// informer, nil if it has none.
func (c *specController) applyDownstream(ctx context.Context, gvr schema.GroupVersionResource, gvk schema.GroupVersionKind, o origin, obj, current *unstructured.Unstructured) (conflict bool, err error) {
	downNamespace := c.namespaceOf(o.cluster, o.namespace)
	trace.SpanFromContext(ctx).SetAttributes(telemetry.HubIdentity(obj)...)
	desired, err := targetObject(obj, o, c.key)
	if err != nil {
		return false, err
	}
	desired.SetGroupVersionKind(gvk)
	desired.SetNamespace(downNamespace)
	if err := spec.Stamp(desired); err != nil {
		return false, err
	}
	ref := report.Ref{Resource: gvr, Cluster: o.cluster, Namespace: o.namespace, Name: o.name}
	if rejected, err := c.report.Rejected(ctx, ref, obj, desired.GetAnnotations()[spec.AppliedAnnotation]); rejected {
		// Refused as it is: nothing is sent downstream, not even a read,
		// until it changes; a resync or a restart of the work finds it
		// here. Only a report that failed is made again.
		return false, err
	}
	if current == nil {
		// The informer sees only objects carrying the target's label; one
		// without it may be there all the same, someone else's.
		found, err := c.down.Resource(gvr).Namespace(downNamespace).Get(ctx, o.name, metav1.GetOptions{})
		if ignoreNotFound(err) != nil {
			return false, err
		}
		if err == nil {
			current = found
		}
	}
	action := spec.Decide(desired, current)
	if action == spec.Conflict {
		klog.InfoS("Not syncing over a downstream object the syncer did not create",
			"resource", gvr.String(), "cluster", o.cluster, "namespace", o.namespace, "name", o.name,
			"downstreamNamespace", downNamespace)
		return true, c.report.Conflicted(ctx, ref, obj, downNamespace)
	}
	c.report.Resolved(ref)
	obj, err = c.report.ClearConditions(ctx, ref, obj, report.ConflictReason)
	if err != nil {
		return false, err
	}
	if action == spec.Apply {
		if err := c.ensureNamespace(ctx, o); err != nil {
			return false, c.report.Failed(ctx, ref, obj, desired, report.NamespaceWrite(downNamespace), err)
		}
		if err := c.serverSideApply(ctx, gvr, desired); err != nil {
			return false, c.report.Failed(ctx, ref, obj, desired, report.ApplyWrite(gvr, desired), err)
		}
	}
	return false, c.report.Applied(ctx, ref, obj)
}

// serverSideApply applies desired downstream, in a span of its own that
// names the downstream object and the version the apply made of it.
func (c *specController) serverSideApply(ctx context.Context, gvr schema.GroupVersionResource, desired *unstructured.Unstructured) error {
	ctx, span := c.tracer.Start(ctx, telemetry.SpanApply, trace.WithAttributes(telemetry.ApplyAttributes(gvr, desired.GetNamespace(), desired.GetName())...))
	applied, err := c.down.Resource(gvr).Namespace(desired.GetNamespace()).Apply(ctx, desired.GetName(), desired, metav1.ApplyOptions{FieldManager: FieldManager, Force: true})
	telemetry.CountWrite(gvr.GroupResource(), "apply", err)
	if err == nil {
		span.SetAttributes(telemetry.DownstreamIdentity(applied)...)
		telemetry.ObserveLatency(ctx, telemetry.QueueDown, gvr)
	}
	telemetry.EndSpan(span, err)
	return err
}

// ensureNamespace creates the downstream namespace of o's logical cluster
// and namespace, recording its origin.
func (c *specController) ensureNamespace(ctx context.Context, k origin) error {
	name := c.namespaceOf(k.cluster, k.namespace)
	if _, err := c.namespaces.Get(name); err == nil {
		return nil
	}
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{
		Name:   name,
		Labels: map[string]string{workloadv1alpha1.TargetKeyLabel: c.key},
		Annotations: map[string]string{
			workloadv1alpha1.OriginClusterAnnotation:   k.cluster,
			workloadv1alpha1.OriginNamespaceAnnotation: k.namespace,
		},
	}}
	_, err := c.downKube.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{FieldManager: FieldManager})
	telemetry.CountWrite(telemetry.NamespacesResource, "create", err)
	if apierrors.IsAlreadyExists(err) {
		return nil
	}
	return err
}

// deleteDownstream deletes the downstream object of k if the syncer made
// it, and tells whether it is gone; one it did not make counts as gone.
func (c *specController) deleteDownstream(ctx context.Context, k objectKey) (bool, error) {
	r := c.resources[k.resource]
	current, exists, err := r.downstream(k.origin)
	if err != nil || !exists {
		return !exists, err
	}
	if o, ok := originOf(current); !ok || o != k.origin {
		return true, nil
	}
	if current.GetDeletionTimestamp() == nil {
		err := c.down.Resource(r.gvr).Namespace(current.GetNamespace()).Delete(ctx, current.GetName(), metav1.DeleteOptions{
			Preconditions: &metav1.Preconditions{UID: ptr.To(current.GetUID())},
		})
		telemetry.CountWrite(r.gvr.GroupResource(), "delete", err)
		if ignoreNotFound(err) != nil {
			return false, err
		}
	}
	// The informer's delete event queues k again; the retry covers a
	// missed one.
	c.queue.AddAfter(k, retryAfter)
	return false, nil
}

// release removes the syncer's finalizer from hub object obj, and the
// ConflictReason and FailedReason conditions from one that stays.
func (c *specController) release(ctx context.Context, k objectKey, obj *unstructured.Unstructured) error {
	finalizer := workloadv1alpha1.FinalizerPrefix + c.key
	if !slices.Contains(obj.GetFinalizers(), finalizer) {
		return nil
	}
	if obj.GetDeletionTimestamp() == nil {
		var err error
		if obj, err = c.report.ClearConditions(ctx, c.resources[k.resource].ref(k.origin), obj, report.ConflictReason, report.FailedReason); err != nil {
			return ignoreNotFound(err)
		}
	}
	released := obj.DeepCopy()
	released.SetFinalizers(slices.DeleteFunc(released.GetFinalizers(), func(f string) bool { return f == finalizer }))
	// Its report of the status at the target, where the object was
	// shared, goes with it: the annotation of an earlier release too.
	annotations := released.GetAnnotations()
	delete(annotations, workloadv1alpha1.StatusAnnotation(c.key))
	released.SetAnnotations(annotations)
	r := c.resources[k.resource]
	if _, held := c.reports.Held(k.cluster, r.gvr.GroupResource(), obj); held && obj.GetNamespace() != "" {
		if err := c.reports.Write(ctx, r.gvr, k.cluster, obj, nil); err != nil {
			return err
		}
	}
	return ignoreNotFound(c.updateHub(ctx, k, released))
}

// holdFinalizer adds finalizer to hub object obj of k, and returns the
// object as the hub wrote it. A built-in kind gets a strategic merge
// patch of the finalizers alone, which the hub merges with those of the
// other targets (a list merged by value) and which carries no
// resourceVersion: an update conflicts with every other write of the
// object, and where many targets' syncers write one object at once, as
// when a workload placed on fifty targets starts, most of them would.
// The patch names the object's UID, which no update may change, so it
// never lands on an object of the same name made since. A custom
// resource takes no strategic merge patch, and is updated instead.
func (c *specController) holdFinalizer(ctx context.Context, k objectKey, obj *unstructured.Unstructured, finalizer string) (*unstructured.Unstructured, error) {
	r := c.resources[k.resource]
	if !kubescheme.Scheme.Recognizes(r.gvk) {
		held := obj.DeepCopy()
		held.SetFinalizers(append(held.GetFinalizers(), finalizer))
		return held, c.updateHub(ctx, k, held)
	}
	p, err := utiljson.Marshal(map[string]any{"metadata": map[string]any{"uid": obj.GetUID(), "finalizers": []string{finalizer}}})
	if err != nil {
		return nil, err
	}
	hub, err := c.hub.In(k.cluster)
	if err != nil {
		return nil, err
	}
	held, err := hub.Resource(r.gvr).Namespace(k.namespace).Patch(ctx, k.name, types.StrategicMergePatchType, p, metav1.PatchOptions{FieldManager: FieldManager})
	if err != nil {
		return nil, fmt.Errorf("adding the syncer's finalizer to the hub object: %w", err)
	}
	return held, nil
}

// updateHub updates hub object obj in its logical cluster, and sets obj's
// resourceVersion to the one written; a conflict fails, to be retried on
// the informer's newer copy.
func (c *specController) updateHub(ctx context.Context, k objectKey, obj *unstructured.Unstructured) error {
	hub, err := c.hub.In(k.cluster)
	if err != nil {
		return err
	}
	r := c.resources[k.resource]
	obj.SetGroupVersionKind(r.gvk)
	updated, err := hub.Resource(r.gvr).Namespace(k.namespace).Update(ctx, obj, metav1.UpdateOptions{FieldManager: FieldManager})
	if err != nil {
		return fmt.Errorf("updating the hub object: %w", err)
	}
	obj.SetResourceVersion(updated.GetResourceVersion())
	return nil
}

// refuse keeps hub object h of k, assigned to the target from a logical
// cluster it does not serve, out of the physical cluster: any copy the
// syncer made before goes, as for an object no longer assigned, and the
// finalizer with it. It is reported once per object, by UID, while the
// syncer runs.
func (c *specController) refuse(ctx context.Context, k objectKey, h *hubObject) error {
	// The copy goes first: a report that fails must not keep it.
	gone, err := c.deleteDownstream(ctx, k)
	if err != nil {
		return err
	}
	if gone {
		if err := c.release(ctx, k, h.Unstructured); err != nil {
			return err
		}
	}
	return c.report.Refused(ctx, c.resources[k.resource].ref(k.origin), h.Unstructured, c.served())
}

// withRevision is hub with the spec of revision rev, which a rollout
// keeps on it (workloadv1alpha1.SpecAnnotation): the spec the hub gave
// the target, which may be older than the hub object's.
func withRevision(hub *unstructured.Unstructured, rev string) (*unstructured.Unstructured, error) {
	raw, ok := hub.GetAnnotations()[workloadv1alpha1.SpecAnnotation(rev)]
	if !ok {
		return nil, fmt.Errorf("the hub names revision %s, whose spec it does not hold", rev)
	}
	spec := map[string]any{}
	if err := utiljson.Unmarshal([]byte(raw), &spec); err != nil {
		return nil, fmt.Errorf("the spec of revision %s: %w", rev, err)
	}
	out := hub.DeepCopy()
	out.Object["spec"] = spec
	return out, nil
}

// targetObject is the object to apply in the physical cluster of the
// target of key for hub object hub, of o: downstream's, with the
// overrides placement resolved for the target applied
// (workloadv1alpha1.OverridesAnnotation), after the target's share of
// the replicas. Overrides that do not apply, as a JSON patch removing a
// field the object lacks, are an error: the target then receives nothing
// new rather than the object without them, and is tried again with
// backoff; a change of the object or of its placement's rules ends it.
// Where a rollout names the revision the target runs, its spec is that
// revision's, and the downstream object records the revision, which the
// syncer reports with the target's status, instead of the hub generation:
// a target pinned to a revision receives exactly the object it had while
// the hub's spec moves on without it (status.FromDownstream).
func targetObject(hub *unstructured.Unstructured, o origin, key string) (*unstructured.Unstructured, error) {
	rev := hub.GetAnnotations()[workloadv1alpha1.RevisionAnnotation(key)]
	if rev != "" {
		pinned, err := withRevision(hub, rev)
		if err != nil {
			return nil, fmt.Errorf("%s for this target: %w", o, err)
		}
		hub = pinned
	}
	out := spec.Downstream(hub, o.cluster, o.namespace, o.name, key)
	if rev != "" {
		annotations := out.GetAnnotations()
		annotations[workloadv1alpha1.AppliedRevisionAnnotation] = rev
		delete(annotations, workloadv1alpha1.HubGenerationAnnotation)
		out.SetAnnotations(annotations)
	}
	raw := hub.GetAnnotations()[workloadv1alpha1.OverridesAnnotation(key)]
	if raw == "" {
		return out, nil
	}
	if err := override.ApplyAnnotation(out, raw); err != nil {
		return nil, fmt.Errorf("the overrides placement gave %s for this target do not apply: %w", o, err)
	}
	// An override replacing the pod template's labels keeps the
	// target's, by which its pods are found.
	spec.LabelTemplates(out, key)
	return out, nil
}
