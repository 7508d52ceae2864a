package namespace

import (
	"context"
	"fmt"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"

	"github.com/canopy-dev/canopy/pkg/controller/clusterwide"
	"github.com/canopy-dev/canopy/pkg/informer"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/loopback"
	"github.com/canopy-dev/canopy/pkg/shard"
)

// reasonContentDeletionFailed is the reason of condition
// NamespaceDeletionContentFailure, as kube's namespace controller gives.
const reasonContentDeletionFailed = "ContentDeletionFailed"

// workers is how many namespaces are emptied at once. Each waits mostly on
// its commits, which the store groups across concurrent writers.
const workers = 16

// Config is what the controller acts on.
type Config struct {
	// Namespaces is the namespaces' registry store, watched across all
	// logical clusters through its shared informer.
	Namespaces *genericregistry.Store
	Informers  *informer.Factory
	// Ownership says which logical clusters' namespaces this replica
	// empties.
	Ownership shard.Ownership
	// Delete deletes a namespace as the API does: a Terminating one
	// without finalizers left is removed.
	Delete rest.GracefulDeleter
	// Finalize is namespaces/finalize, which sets spec.finalizers.
	Finalize rest.Updater
	// Status is namespaces/status, where a Terminating namespace says
	// why its content is not all deleted.
	Status rest.Updater
	// Data are the stores of every resource, custom resources among
	// them: a Terminating namespace's objects are listed in each of those
	// that are namespaced in its logical cluster.
	Data clusterwide.Stores
	// Client deletes those objects. They are the users', so the hub
	// deletes them through the API, as the controller's own user
	// (pkg/loopback): the admission policies of their logical cluster see
	// it, and the audit log names the controller.
	Client Deleter
	// Typer tells the version of the hub's own types, which the
	// deletions address.
	Typer runtime.ObjectTyper
}

// Deleter deletes objects through the API, as *loopback.Client does.
type Deleter interface {
	Delete(ctx context.Context, resource schema.GroupVersionResource, namespace, name string, opts metav1.DeleteOptions) error
}

// key names one namespace of one logical cluster.
type key struct {
	cluster logicalcluster.Name
	name    string
}

// Controller empties and removes Terminating namespaces.
type Controller struct {
	c    Config
	loop clusterwide.Loop[key]
	// refusals backs off, per namespace, emptying it again after the hub
	// refused to delete some of its content.
	refusals workqueue.TypedRateLimiter[key]
}

// New returns a controller for c.
func New(c Config) *Controller {
	ctl := &Controller{c: c, refusals: workqueue.NewTypedItemExponentialFailureRateLimiter[key](time.Second, 5*time.Minute)}
	ctl.loop = clusterwide.Loop[key]{
		Name:      "namespaces",
		Workers:   workers,
		Cluster:   func(k key) logicalcluster.Name { return k.cluster },
		Ownership: c.Ownership,
		Process:   ctl.process,
	}
	ctl.loop.Watch(c.Informers.For(c.Namespaces), keys)
	return ctl
}

// Run works until ctx ends.
func (c *Controller) Run(ctx context.Context) { c.loop.Run(ctx) }

// keys is the Terminating namespace obj is, if it is one.
func keys(obj runtime.Object, deleted bool) []key {
	ns, ok := obj.(*corev1.Namespace)
	if !ok {
		klog.ErrorS(nil, "The namespace watch sent something else", "type", fmt.Sprintf("%T", obj))
		return nil
	}
	if deleted || ns.DeletionTimestamp == nil {
		return nil
	}
	cluster, err := logicalcluster.FromObject(ns)
	if err != nil {
		klog.ErrorS(err, "A stored namespace has no logical cluster", "namespace", ns.Name)
		return nil
	}
	return []key{{cluster, ns.Name}}
}

// in is ctx for requests to namespace ns of logical cluster n.
func in(ctx context.Context, n logicalcluster.Name, ns string) context.Context {
	return logicalcluster.WithCluster(genericapirequest.WithNamespace(ctx, ns), n)
}

// process empties and removes namespace k if it is Terminating, reading
// it from the database, since the event that queued it may be stale.
func (c *Controller) process(ctx context.Context, k key) error {
	obj, err := c.c.Namespaces.Get(in(ctx, k.cluster, ""), k.name, &metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		c.refusals.Forget(k)
		return nil
	}
	if err != nil {
		return err
	}
	ns := obj.(*corev1.Namespace)
	if ns.DeletionTimestamp == nil {
		return nil
	}
	// Pods go first, and the rest only once they are gone, as kube 1.37's
	// OrderedNamespaceDeletion has it: a pod is not left running without
	// the Secrets, ConfigMaps and ServiceAccount it uses, nor without the
	// policies that guard it.
	for _, only := range []func(*genericregistry.Store) bool{isPods, nil} {
		emptied, err := c.empty(ctx, k, ns, only)
		if !emptied || err != nil {
			return err
		}
	}
	if slices.Contains(ns.Spec.Finalizers, corev1.FinalizerKubernetes) {
		ns.Spec.Finalizers = slices.DeleteFunc(ns.Spec.Finalizers, func(f corev1.FinalizerName) bool { return f == corev1.FinalizerKubernetes })
		if _, _, err := c.c.Finalize.Update(in(ctx, k.cluster, ""), ns.Name, rest.DefaultUpdatedObjectInfo(ns),
			rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{}); err != nil {
			return err
		}
	}
	// Other spec finalizers are someone else's; their removal deletes
	// the namespace.
	if len(ns.Spec.Finalizers) > 0 {
		return nil
	}
	uid := ns.UID
	_, _, err = c.c.Delete.Delete(in(ctx, k.cluster, ""), ns.Name, rest.ValidateAllObjectFunc,
		&metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &uid}})
	if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
		return nil
	}
	if err == nil {
		klog.V(2).InfoS("Deleted the content of a namespace", "cluster", k.cluster, "namespace", k.name)
	}
	return err
}

// isPods tells whether s is the pods' store.
func isPods(s *genericregistry.Store) bool {
	return s.DefaultQualifiedResource == corev1.Resource("pods")
}

// empty deletes the content of namespace k, the objects of the namespaced
// stores that only picks (all of them when only is nil), until a pass
// finds none, and tells whether it got there. A deletion the hub refused
// is not: empty has the namespace say so and emptied again later.
func (c *Controller) empty(ctx context.Context, k key, ns *corev1.Namespace, only func(*genericregistry.Store) bool) (bool, error) {
	for {
		stores, err := c.namespaced(ctx, k.cluster)
		if err != nil {
			return false, err
		}
		if only != nil {
			stores = slices.DeleteFunc(stores, func(s *genericregistry.Store) bool { return !only(s) })
		}
		found, held, err := clusterwide.Empty(in(ctx, k.cluster, k.name), stores, c.deleteContent)
		left := clusterwide.Count(held)
		if loopback.Refused(err) {
			return false, c.refused(ctx, k, ns, err)
		}
		if err != nil {
			return false, err
		}
		if found == 0 {
			return true, nil
		}
		if left > 0 {
			return false, fmt.Errorf("%w: %d objects in namespace %s", clusterwide.ErrWaiting, left, k.name)
		}
		// Everything found was deleted. Look again, for objects whose
		// creation was already past admission when the namespace began
		// Terminating.
	}
}

// refused says on Terminating namespace ns, of k, that the hub refused
// to delete some of its content, err saying why, as kube's namespace
// controller does with condition NamespaceDeletionContentFailure, and
// empties it again after a backoff that grows with each refusal.
func (c *Controller) refused(ctx context.Context, k key, ns *corev1.Namespace, err error) error {
	why := err.Error()
	if status, ok := err.(apierrors.APIStatus); ok {
		why = status.Status().Message
	}
	updated := ns.DeepCopy()
	condition := corev1.NamespaceCondition{
		Type: corev1.NamespaceDeletionContentFailure, Status: corev1.ConditionTrue, Reason: reasonContentDeletionFailed,
		Message: "The hub refused to delete some of the namespace's content: " + why, LastTransitionTime: metav1.Now(),
	}
	i := slices.IndexFunc(updated.Status.Conditions, func(c corev1.NamespaceCondition) bool { return c.Type == condition.Type })
	switch {
	case i < 0:
		updated.Status.Conditions = append(updated.Status.Conditions, condition)
	case updated.Status.Conditions[i].Message != condition.Message || updated.Status.Conditions[i].Status != condition.Status:
		updated.Status.Conditions[i] = condition
	default:
		updated = nil
	}
	if updated != nil {
		_, _, err := c.c.Status.Update(in(ctx, k.cluster, ""), ns.Name, rest.DefaultUpdatedObjectInfo(updated),
			rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{})
		if err != nil && !apierrors.IsConflict(err) && !apierrors.IsNotFound(err) {
			return err
		}
	}
	delay := c.refusals.When(k)
	klog.InfoS("The hub refused to delete some of a Terminating namespace's content; trying again later", "cluster", k.cluster,
		"namespace", k.name, "after", delay, "reason", why)
	c.loop.AddAfter(k, delay)
	return nil
}

// deleteContent deletes obj, of s, in the namespace being emptied, through
// the API. The API does not tell this client whether finalizers hold the
// object; the next pass of Empty finds it if they do, and counts it then.
func (c *Controller) deleteContent(ctx context.Context, s *genericregistry.Store, obj runtime.Object, m metav1.Object,
	opts *metav1.DeleteOptions,
) (bool, error) {
	resource, err := loopback.Versioned(c.c.Typer, s.DefaultQualifiedResource, obj)
	if err != nil {
		return false, err
	}
	return true, c.c.Client.Delete(ctx, resource, m.GetNamespace(), m.GetName(), *opts)
}

// namespaced are the stores of the resources namespaced in cluster. A
// custom resource may be namespaced in one logical cluster and not in
// another, so they are looked up anew for each pass.
func (c *Controller) namespaced(ctx context.Context, cluster logicalcluster.Name) ([]*genericregistry.Store, error) {
	all, err := c.c.Data.In(ctx, cluster)
	if err != nil {
		return nil, err
	}
	var namespaced []*genericregistry.Store
	for _, s := range all {
		if s.NamespaceScoped() {
			namespaced = append(namespaced, s)
		}
	}
	return namespaced, nil
}
