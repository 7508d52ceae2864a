package sync

import (
	"context"
	"fmt"
	"slices"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/utils/ptr"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/podspec"
)

// dependencyResources are the kinds of objects a pod template refers to
// that follow a synced workload downstream; a dependencyKey names one by
// its index here.
var dependencyResources = func() []schema.GroupVersionResource {
	var gvrs []schema.GroupVersionResource
	for _, r := range podspec.ReferencedResources {
		gvrs = append(gvrs, corev1.SchemeGroupVersion.WithResource(r))
	}
	return gvrs
}()

// dependencyKey is a hub object that a synced workload may depend on, in
// the dependency queue.
type dependencyKey struct {
	resource int
	origin
}

func (k dependencyKey) String() string {
	return fmt.Sprintf("%s %s/%s/%s", dependencyResources[k.resource].Resource, k.cluster, k.namespace, k.name)
}

// byDependency is the hub informers' index of workloads by the
// dependencyKey.String() of each object their pod template refers to.
const byDependency = "dependency"

// dependencies are the objects that the pod template of obj refers to, in
// obj's namespace. An object without a pod template has none.
func dependencies(obj *unstructured.Unstructured, cluster string) []dependencyKey {
	spec, ok := podspec.OfUnstructured(obj.Object)
	if !ok {
		return nil
	}
	var keys []dependencyKey
	for _, r := range podspec.References(spec) {
		// Every namespace downstream has its own default ServiceAccount
		// and root CA, which kube-controller-manager keeps there.
		if r.Resource == "serviceaccounts" && r.Name == "default" || r.Resource == "configmaps" && r.Name == "kube-root-ca.crt" {
			continue
		}
		i := slices.IndexFunc(dependencyResources, func(gvr schema.GroupVersionResource) bool { return gvr.Resource == r.Resource })
		keys = append(keys, dependencyKey{i, origin{cluster, obj.GetNamespace(), r.Name}})
	}
	return keys
}

// indexDependencies is the byDependency index function of hub informers.
func indexDependencies(obj any) ([]string, error) {
	h, ok := obj.(*hubObject)
	if !ok {
		return nil, nil
	}
	var keys []string
	for _, k := range dependencies(h.Unstructured, h.cluster) {
		keys = append(keys, k.String())
	}
	return keys, nil
}

// queueDependencies queues the dependencies of hub object obj, as it was
// or as it is, so that each is made or removed downstream.
func (s *Syncer) queueDependencies(obj any) {
	if h, ok := obj.(*hubObject); ok {
		for _, k := range dependencies(h.Unstructured, h.cluster) {
			s.depQueue.Add(k)
		}
	}
}

// referenced tells whether a synced workload, not being deleted, refers
// to k.
func (s *Syncer) referenced(k dependencyKey) (bool, error) {
	for _, r := range s.resources {
		objs, err := r.hub.GetIndexer().ByIndex(byDependency, k.String())
		if err != nil {
			return false, err
		}
		for _, obj := range objs {
			if obj.(*hubObject).GetDeletionTimestamp() == nil {
				return true, nil
			}
		}
	}
	return false, nil
}

// syncDependency makes the downstream copy of k match its hub object
// while a synced workload refers to it, and removes it once none does.
//
// The hub is not watched for these objects: they need not carry the
// assignment label, and watching every ConfigMap and Secret of every
// logical cluster would cost what the label saves. Each is read, in its
// own logical cluster, whenever a workload referring to it is synced,
// which the hub informers' resync period bounds: a change at the hub
// reaches downstream within the hub resync period, or at once when the workload
// changes.
func (s *Syncer) syncDependency(ctx context.Context, k dependencyKey) error {
	gvr := dependencyResources[k.resource]
	if i, ok := s.accepted[gvr]; ok {
		if h, ok, err := s.hubObjectOf(objectKey{i, k.origin}); err != nil || ok && h.GetDeletionTimestamp() == nil {
			// Assigned itself: syncDown owns it.
			return err
		}
	}
	// A dependency is in the logical cluster of the workloads referring
	// to it: one the target does not serve has none synced.
	referenced, err := s.referenced(k)
	if err != nil {
		return err
	}
	referenced = referenced && s.usable(k.cluster)
	hub, err := s.hubIn(k.cluster)
	if err != nil {
		return err
	}
	obj, err := hub.Resource(gvr).Namespace(k.namespace).Get(ctx, k.name, metav1.GetOptions{})
	if err != nil && !outOfScope(err) {
		return err
	}
	exists := err == nil
	if exists && obj.GetLabels()[workloadv1alpha1.StateLabel(s.key)] == workloadv1alpha1.StateSync && obj.GetDeletionTimestamp() == nil {
		// Assigned, and the informer has not seen it yet: syncDown will.
		return nil
	}
	downNamespace := s.downstreamNamespace(k.cluster, k.namespace)
	down := s.down.Resource(gvr).Namespace(downNamespace)
	current, err := s.dependencyListers[k.resource].ByNamespace(downNamespace).Get(k.name)
	if ignoreNotFound(err) != nil {
		return err
	}
	ours := false
	var currentObj *unstructured.Unstructured
	if err == nil {
		currentObj = current.(*unstructured.Unstructured)
		o, ok := originOf(currentObj)
		ours = ok && o == k.origin
	}
	if !referenced || !exists || obj.GetDeletionTimestamp() != nil {
		s.resolved(gvr, k.origin)
		s.forgetRejection(gvr, k.origin)
		if !ours {
			return nil
		}
		err := down.Delete(ctx, k.name, metav1.DeleteOptions{
			Preconditions: &metav1.Preconditions{UID: ptr.To(currentObj.GetUID())},
		})
		countWrite(gvr.GroupResource(), "delete", err)
		return ignoreNotFound(err)
	}
	conflict, err := s.applyDownstream(ctx, gvr, obj.GroupVersionKind(), k.origin, obj, currentObj)
	if conflict {
		s.depQueue.AddAfter(k, conflictRecheck)
	}
	return err
}
