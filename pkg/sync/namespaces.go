package sync

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"

	"github.com/canopy-dev/canopy/pkg/sync/namespace"
	"github.com/canopy-dev/canopy/pkg/sync/telemetry"
)

// The downstream namespaces the syncer made go once they stay empty for
// the grace period (pkg/sync/namespace); the syncer tells that
// controller which are occupied.

// DefaultNamespaceGracePeriod is how long a downstream namespace the
// syncer made stays once nothing it synced is left in it, so that a
// workload deleted and made again soon after does not wait for its
// namespace to be deleted and made again.
const DefaultNamespaceGracePeriod = 5 * time.Minute

// namespaceController feeds the queue of pkg/sync/namespace's controller:
// the namespaces the informer lists at start, and the namespace of each
// event of a downstream object the syncer synced, which may have become
// empty or no longer be.
type namespaceController struct {
	*namespace.Controller
	// listers hold the downstream objects the syncer synced, of every
	// resource and dependency.
	listers []cache.GenericLister

	queue workqueue.TypedRateLimitingInterface[namespace.Key]
}

// newNamespaceController is the namespaceController deleting through
// client the namespaces of informer that no object of listers is left
// in for grace.
func newNamespaceController(client kubernetes.Interface, informer coreinformers.NamespaceInformer, listers []cache.GenericLister, grace time.Duration) (*namespaceController, error) {
	c := &namespaceController{listers: listers, queue: newQueue[namespace.Key](telemetry.QueueNamespaces)}
	c.Controller = namespace.New(client, informer.Lister(), c.occupied, c.queue.AddAfter,
		func(err error) { telemetry.CountWrite(telemetry.NamespacesResource, "delete", err) }, grace)
	if _, err := informer.Informer().AddEventHandler(namespace.Handler(c.queue.Add)); err != nil {
		return nil, err
	}
	return c, nil
}

// downHandler queues the namespace of each downstream object on any
// event.
func (c *namespaceController) downHandler() cache.ResourceEventHandler {
	return onAny(func(obj any) {
		if u, ok := obj.(*unstructured.Unstructured); ok {
			c.queue.Add(namespace.Key(u.GetNamespace()))
		}
	})
}

// Run syncs with workers until ctx ends.
func (c *namespaceController) Run(ctx context.Context, workers int) {
	runWorkers(ctx, telemetry.QueueNamespaces, c.queue, workers, c.Sync)
}

// occupied tells whether downstream namespace name holds an object the
// syncer synced, of any resource or dependency.
func (c *namespaceController) occupied(name string) (bool, error) {
	for _, l := range c.listers {
		objs, err := l.ByNamespace(name).List(labels.Everything())
		if err != nil || len(objs) > 0 {
			return len(objs) > 0, err
		}
	}
	return false, nil
}
