package sync

import (
	"context"
	"fmt"
	"maps"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// UpsyncedLabel marks, with the target's key as value, each pod and Event
// that a syncer copied to the hub from its physical cluster: a record of what
// runs there, which nothing at the hub runs or changes.
const UpsyncedLabel = "workload.canopy.dev/upsynced"

var pods = corev1.SchemeGroupVersion.WithResource("pods")

// setUpPods makes the informers of pods: downstream, those of the synced
// workloads, whose templates carry the target's label; at the hub, those
// the syncer upsynced, in every logical cluster. Both queue the pod's
// origin, so that a pod upsynced before a restart and gone since is found
// from the hub side.
func (s *Syncer) setUpPods(wildcard dynamic.Interface, downFactory dynamicinformer.DynamicSharedInformerFactory) error {
	var err error
	if s.hubPods, err = hubInformer(wildcard, pods, labels.Set{UpsyncedLabel: s.key}.String(), nil); err != nil {
		return err
	}
	if _, err := s.hubPods.AddEventHandler(hubOriginHandler(s.podQueue.Add)); err != nil {
		return err
	}
	down := downFactory.ForResource(pods)
	s.downPods = down.Lister()
	if _, err := down.Informer().AddEventHandler(s.downOriginHandler(s.podQueue.Add)); err != nil {
		return err
	}
	s.synced = append(s.synced, s.hubPods.HasSynced, down.Informer().HasSynced)
	return nil
}

// hubOriginHandler calls queue with the origin of each object of a hub
// informer, on any event.
func hubOriginHandler(queue func(origin)) cache.ResourceEventHandler {
	handle := func(obj any) {
		if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = d.Obj
		}
		if h, ok := obj.(*hubObject); ok {
			queue(origin{h.cluster, h.Unstructured.GetNamespace(), h.GetName()})
		}
	}
	return cache.ResourceEventHandlerFuncs{AddFunc: handle, UpdateFunc: func(_, obj any) { handle(obj) }, DeleteFunc: handle}
}

// downOriginHandler calls queue, on any event of a downstream object that
// the syncer did not make itself, such as a pod or an Event, with the
// origin of the object of the same name at the hub: that of its
// namespace, if the syncer made it.
func (s *Syncer) downOriginHandler(queue func(origin)) cache.ResourceEventHandler {
	handle := func(obj any) {
		if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = d.Obj
		}
		u, ok := obj.(*unstructured.Unstructured)
		if !ok {
			return
		}
		ns, err := s.namespaces.Get(u.GetNamespace())
		if err != nil {
			return
		}
		o := origin{ns.Annotations[workloadv1alpha1.OriginClusterAnnotation], ns.Annotations[workloadv1alpha1.OriginNamespaceAnnotation], u.GetName()}
		if o.cluster != "" && o.namespace != "" {
			queue(o)
		}
	}
	return cache.ResourceEventHandlerFuncs{AddFunc: handle, UpdateFunc: func(_, obj any) { handle(obj) }, DeleteFunc: handle}
}

// syncPod makes the hub pod of o match its downstream pod: created, its
// labels and status updated, or deleted once the downstream pod is gone.
// Both informers have listed in full before this runs, so a pod missing
// downstream is gone, not unseen.
func (s *Syncer) syncPod(ctx context.Context, o origin) error {
	hub, err := s.hubIn(o.cluster)
	if err != nil {
		return err
	}
	client := hub.Resource(pods).Namespace(o.namespace)
	obj, inHub, err := s.hubPods.GetStore().GetByKey(o.String())
	if err != nil {
		return err
	}
	down, err := s.downPods.ByNamespace(workloadv1alpha1.DownstreamNamespace(o.cluster, o.namespace)).Get(o.name)
	if ignoreNotFound(err) != nil {
		return err
	}
	if err != nil {
		if !inHub {
			return nil
		}
		return ignoreNotFound(client.Delete(ctx, o.name, metav1.DeleteOptions{
			Preconditions: &metav1.Preconditions{UID: ptr.To(obj.(*hubObject).GetUID())},
		}))
	}
	desired := s.upsynced(down.(*unstructured.Unstructured), o)
	status, _, _ := unstructured.NestedMap(desired.Object, "status")
	var current *unstructured.Unstructured
	if inHub {
		current = obj.(*hubObject).Unstructured.DeepCopy()
		if !maps.Equal(current.GetLabels(), desired.GetLabels()) {
			current.SetLabels(desired.GetLabels())
			if current, err = client.Update(ctx, current, metav1.UpdateOptions{FieldManager: FieldManager}); err != nil {
				return fmt.Errorf("updating the labels of the upsynced pod: %w", err)
			}
		}
	} else if current, err = client.Create(ctx, desired, metav1.CreateOptions{FieldManager: FieldManager}); err != nil {
		return fmt.Errorf("upsyncing the pod: %w", err)
	}
	if have, _, _ := unstructured.NestedMap(current.Object, "status"); equality.Semantic.DeepEqual(have, status) {
		return nil
	}
	if err := unstructured.SetNestedMap(current.Object, status, "status"); err != nil {
		return err
	}
	if _, err := client.UpdateStatus(ctx, current, metav1.UpdateOptions{FieldManager: FieldManager}); err != nil {
		return fmt.Errorf("updating the status of the upsynced pod: %w", err)
	}
	return nil
}

// upsynced is the hub pod of downstream pod down from o: its spec and
// status, its labels with the upsynced mark for the target's label, and
// nothing else of its metadata, which names downstream objects.
func (s *Syncer) upsynced(down *unstructured.Unstructured, o origin) *unstructured.Unstructured {
	out := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1",
		"kind":       "Pod",
		"spec":       down.Object["spec"],
		"status":     down.Object["status"],
	}}
	out = out.DeepCopy()
	out.SetName(o.name)
	out.SetNamespace(o.namespace)
	l := down.GetLabels()
	delete(l, workloadv1alpha1.TargetKeyLabel)
	if l == nil {
		l = map[string]string{}
	}
	l[UpsyncedLabel] = s.key
	out.SetLabels(l)
	return out
}
