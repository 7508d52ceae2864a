package sync

import (
	"context"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// DefaultNamespaceGracePeriod is how long a downstream namespace the
// syncer made stays once nothing it synced is left in it, so that a
// workload deleted and made again soon after does not wait for its
// namespace to be deleted and made again.
const DefaultNamespaceGracePeriod = 5 * time.Minute

// namespaceKey is a downstream namespace in the namespace queue.
type namespaceKey string

func (k namespaceKey) String() string { return string(k) }

// namespaceHandler queues each namespace the syncer made, as the
// informer lists it at start, so that one left empty while the syncer
// was away goes too.
func (s *Syncer) namespaceHandler() cache.ResourceEventHandler {
	return cache.ResourceEventHandlerFuncs{AddFunc: func(obj any) {
		if ns, ok := obj.(*corev1.Namespace); ok {
			s.nsQueue.Add(namespaceKey(ns.Name))
		}
	}}
}

// syncNamespace deletes downstream namespace k once no object the syncer
// synced has been in it for the grace period. It counts the time from
// when it first finds the namespace empty, and starts again whenever it
// finds something in it; the queue brings k back when the period ends.
// Only a namespace that records the origin the syncer gave it is ever
// deleted.
func (s *Syncer) syncNamespace(ctx context.Context, k namespaceKey) error {
	name := string(k)
	ns, err := s.namespaces.Get(name)
	if err != nil || ns.Annotations[workloadv1alpha1.OriginClusterAnnotation] == "" || ns.DeletionTimestamp != nil {
		s.forgetEmpty(name)
		return ignoreNotFound(err)
	}
	occupied, err := s.occupied(name)
	if err != nil || occupied {
		s.forgetEmpty(name)
		return err
	}
	s.emptyMu.Lock()
	since, ok := s.emptySince[name]
	if !ok {
		since = time.Now()
		s.emptySince[name] = since
	}
	s.emptyMu.Unlock()
	if wait := s.namespaceGracePeriod - time.Since(since); wait > 0 {
		s.nsQueue.AddAfter(k, wait)
		return nil
	}
	err = s.downKube.CoreV1().Namespaces().Delete(ctx, name, metav1.DeleteOptions{
		Preconditions: &metav1.Preconditions{UID: ptr.To(ns.UID)},
	})
	countWrite(namespacesResource, "delete", err)
	if ignoreNotFound(err) != nil {
		return err
	}
	s.forgetEmpty(name)
	return nil
}

// occupied tells whether downstream namespace name holds an object the
// syncer synced, of any resource or dependency.
func (s *Syncer) occupied(name string) (bool, error) {
	listers := slices.Clone(s.dependencyListers)
	for _, r := range s.resources {
		listers = append(listers, r.down)
	}
	for _, l := range listers {
		objs, err := l.ByNamespace(name).List(labels.Everything())
		if err != nil || len(objs) > 0 {
			return len(objs) > 0, err
		}
	}
	return false, nil
}

func (s *Syncer) forgetEmpty(name string) {
	s.emptyMu.Lock()
	delete(s.emptySince, name)
	s.emptyMu.Unlock()
}
