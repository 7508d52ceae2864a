package namespace

import (
	"context"
	gosync "sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// Key is a downstream namespace in the controller's queue.
type Key string

func (k Key) String() string { return string(k) }

// Decision is what the controller does with one namespace.
type Decision struct {
	// Forget drops when the namespace was first found empty: it is gone,
	// not the syncer's, being deleted, or occupied.
	Forget bool
	// Wait, when positive, is how much of the grace period is left.
	Wait time.Duration
	// Delete deletes the namespace.
	Delete bool
}

// Decide is what to do with downstream namespace ns, nil when it is gone,
// at now, given whether it is occupied by an object the syncer synced and
// since when it is known to be empty (now where it was not before).
func Decide(ns *corev1.Namespace, occupied bool, emptySince, now time.Time, grace time.Duration) Decision {
	if ns == nil || ns.Annotations[workloadv1alpha1.OriginClusterAnnotation] == "" || ns.DeletionTimestamp != nil || occupied {
		return Decision{Forget: true}
	}
	if wait := grace - now.Sub(emptySince); wait > 0 {
		return Decision{Wait: wait}
	}
	return Decision{Delete: true, Forget: true}
}

// Controller deletes the downstream namespaces the syncer made once they
// stay empty for the grace period.
type Controller struct {
	client     kubernetes.Interface
	namespaces corelisters.NamespaceLister
	// occupied tells whether a namespace holds an object the syncer
	// synced, of any resource.
	occupied func(namespace string) (bool, error)
	// requeue brings a namespace back after a delay.
	requeue func(Key, time.Duration)
	// counted counts each delete sent downstream, by its error.
	counted func(error)
	grace   time.Duration

	mu         gosync.Mutex
	emptySince map[string]time.Time
}

// New is a Controller deleting through client the namespaces of lister
// that stay empty for grace.
func New(client kubernetes.Interface, lister corelisters.NamespaceLister, occupied func(string) (bool, error),
	requeue func(Key, time.Duration), counted func(error), grace time.Duration,
) *Controller {
	return &Controller{client: client, namespaces: lister, occupied: occupied, requeue: requeue, counted: counted,
		grace: grace, emptySince: map[string]time.Time{}}
}

// Handler queues, through queue, each namespace the informer lists at
// start, so that one left empty while the syncer was away goes too.
func Handler(queue func(Key)) cache.ResourceEventHandler {
	return cache.ResourceEventHandlerFuncs{AddFunc: func(obj any) {
		if ns, ok := obj.(*corev1.Namespace); ok {
			queue(Key(ns.Name))
		}
	}}
}

// Sync deletes downstream namespace k once Decide says so.
func (c *Controller) Sync(ctx context.Context, k Key) error {
	name := string(k)
	ns, err := c.namespaces.Get(name)
	if err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	occupied := false
	if err == nil {
		if occupied, err = c.occupied(name); err != nil {
			c.forget(name)
			return err
		}
	}
	now := time.Now()
	c.mu.Lock()
	since, ok := c.emptySince[name]
	if !ok {
		since = now
	}
	d := Decide(ns, occupied, since, now, c.grace)
	if d.Wait > 0 {
		c.emptySince[name] = since
	}
	c.mu.Unlock()
	if d.Wait > 0 {
		c.requeue(k, d.Wait)
		return nil
	}
	if d.Delete {
		err := c.client.CoreV1().Namespaces().Delete(ctx, name, metav1.DeleteOptions{
			Preconditions: &metav1.Preconditions{UID: ptr.To(ns.UID)},
		})
		c.counted(err)
		if err != nil && !apierrors.IsNotFound(err) {
			return err
		}
	}
	if d.Forget {
		c.forget(name)
	}
	return nil
}

func (c *Controller) forget(name string) {
	c.mu.Lock()
	delete(c.emptySince, name)
	c.mu.Unlock()
}
