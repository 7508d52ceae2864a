package deploymenthistory

import (
	"context"
	"errors"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metainternalversion "k8s.io/apimachinery/pkg/apis/meta/internalversion"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/controller/clusterwide"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

const (
	name    = "deployment-history"
	workers = 2
	// collisions is how many other hashes a new ReplicaSet tries when
	// its name is taken by a ReplicaSet that is not its Deployment's.
	collisions = 5
)

// Config is what the controller reads and writes.
type Config struct {
	Deployments      *genericregistry.Store
	ReplicaSets      *genericregistry.Store
	ReplicaSetStatus rest.Updater
}

// key names one Deployment.
type key struct {
	cluster         logicalcluster.Name
	namespace, name string
}

// Controller keeps the hub ReplicaSets recording each Deployment's
// revisions.
type Controller struct {
	cfg   Config
	queue workqueue.TypedDelayingInterface[key]
}

// New returns the controller.
func New(cfg Config) *Controller { return &Controller{cfg: cfg} }

// Run works until ctx ends: it watches the Deployments, and the
// ReplicaSets recording them, across every logical cluster.
func (c *Controller) Run(ctx context.Context) {
	c.queue = workqueue.NewTypedDelayingQueueWithConfig(workqueue.TypedDelayingQueueConfig[key]{Name: name})
	defer c.queue.ShutDown()
	clusterwide.Work(ctx, name, c.queue, workers, c.process)
	go clusterwide.Watch(ctx, name+"-replicasets", c.cfg.ReplicaSets, c.cfg.ReplicaSets.NewListFunc, c.listed, c.changed)
	clusterwide.Watch(ctx, name, c.cfg.Deployments, c.cfg.Deployments.NewListFunc, c.listed, c.changed)
}

func (c *Controller) listed(objs []runtime.Object) {
	for _, obj := range objs {
		c.changed(obj, false)
	}
}

// changed queues the Deployment obj is, or the one a recording
// ReplicaSet obj belongs to.
func (c *Controller) changed(obj runtime.Object, deleted bool) {
	switch o := obj.(type) {
	case *appsv1.Deployment:
		if !deleted {
			c.add(o.ObjectMeta, o.Name)
		}
	case *appsv1.ReplicaSet:
		if ref := metav1.GetControllerOf(o); ref != nil && o.Labels[workloadv1alpha1.RevisionRecordLabel] == "true" && ref.Kind == "Deployment" {
			c.add(o.ObjectMeta, ref.Name)
		}
	}
}

func (c *Controller) add(m metav1.ObjectMeta, deployment string) {
	cluster, err := logicalcluster.FromObject(&m)
	if err != nil {
		klog.ErrorS(err, "A stored object has no logical cluster", "namespace", m.Namespace, "name", m.Name)
		return
	}
	c.queue.Add(key{cluster, m.Namespace, deployment})
}

// process brings the ReplicaSets recording k's Deployment in line with
// it, reading both from the watch cache: a write from a stale read
// conflicts, or finds its ReplicaSet made already, and the watch queues
// k again.
func (c *Controller) process(ctx context.Context, k key) error {
	ctx = logicalcluster.WithCluster(genericapirequest.WithNamespace(ctx, k.namespace), k.cluster)
	obj, err := c.cfg.Deployments.Get(ctx, k.name, &metav1.GetOptions{ResourceVersion: "0"})
	if apierrors.IsNotFound(err) {
		// The garbage collector deletes what it owned.
		return nil
	}
	if err != nil {
		return err
	}
	d := obj.(*appsv1.Deployment)
	if d.DeletionTimestamp != nil {
		return nil
	}
	owned, err := c.owned(ctx, d)
	if err != nil {
		return err
	}
	for i := 0; i <= collisions; i++ {
		var count *int32
		if i > 0 {
			count = ptrTo(int32(i))
		}
		err := c.reconcile(ctx, d, owned, ComputeHash(&d.Spec.Template, count))
		if err != errNameTaken {
			return err
		}
	}
	return fmt.Errorf("the names of %d ReplicaSets for the template of Deployment %s/%s in %s are all taken by ReplicaSets it does not own; delete them",
		collisions+1, k.namespace, k.name, k.cluster)
}

func ptrTo[T any](v T) *T { return &v }

// owned are the recording ReplicaSets in d's namespace that d controls.
func (c *Controller) owned(ctx context.Context, d *appsv1.Deployment) ([]*appsv1.ReplicaSet, error) {
	list, err := c.cfg.ReplicaSets.List(ctx, &metainternalversion.ListOptions{
		ResourceVersion: "0",
		LabelSelector:   labels.SelectorFromSet(labels.Set{workloadv1alpha1.RevisionRecordLabel: "true"}),
	})
	if err != nil {
		return nil, err
	}
	var out []*appsv1.ReplicaSet
	for i := range list.(*appsv1.ReplicaSetList).Items {
		rs := &list.(*appsv1.ReplicaSetList).Items[i]
		if metav1.IsControlledBy(rs, d) && rs.DeletionTimestamp == nil {
			out = append(out, rs)
		}
	}
	return out, nil
}

var errNameTaken = errors.New("the name is taken")

// reconcile writes what Reconcile decides, with hash as the
// pod-template-hash of a new ReplicaSet; errNameTaken says that its name
// is another's.
func (c *Controller) reconcile(ctx context.Context, d *appsv1.Deployment, owned []*appsv1.ReplicaSet, hash string) error {
	want, stale := Reconcile(d, owned, hash)
	have := map[string]*appsv1.ReplicaSet{}
	for _, rs := range owned {
		have[rs.Name] = rs
	}
	for _, rs := range stale {
		_, _, err := c.cfg.ReplicaSets.Delete(ctx, rs.Name, rest.ValidateAllObjectFunc, &metav1.DeleteOptions{Preconditions: metav1.NewUIDPreconditions(string(rs.UID))})
		if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsConflict(err) {
			return err
		}
	}
	for _, rs := range want {
		if err := c.write(ctx, d, rs, have[rs.Name]); err != nil {
			return err
		}
	}
	return nil
}

// write makes the stored ReplicaSet was (nil if there is none) rs: its
// metadata and spec, then its status, which the registry keeps apart.
func (c *Controller) write(ctx context.Context, d *appsv1.Deployment, rs, was *appsv1.ReplicaSet) error {
	status := rs.Status
	var stored runtime.Object
	var err error
	switch {
	case was == nil:
		stored, err = c.cfg.ReplicaSets.Create(ctx, rs, rest.ValidateAllObjectFunc, &metav1.CreateOptions{})
		if apierrors.IsAlreadyExists(err) {
			return c.taken(ctx, d, rs.Name)
		}
	case !apiequality.Semantic.DeepEqual(rs.ObjectMeta, was.ObjectMeta) || !apiequality.Semantic.DeepEqual(rs.Spec, was.Spec):
		stored, _, err = c.cfg.ReplicaSets.Update(ctx, rs.Name, rest.DefaultUpdatedObjectInfo(rs),
			rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{})
	default:
		stored = was
	}
	if apierrors.IsConflict(err) || apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("writing ReplicaSet %s/%s: %w", rs.Namespace, rs.Name, err)
	}
	updated := stored.(*appsv1.ReplicaSet).DeepCopy()
	status.ObservedGeneration = updated.Generation
	if apiequality.Semantic.DeepEqual(updated.Status, status) {
		return nil
	}
	updated.Status = status
	_, _, err = c.cfg.ReplicaSetStatus.Update(ctx, rs.Name, rest.DefaultUpdatedObjectInfo(updated),
		rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{})
	if apierrors.IsConflict(err) || apierrors.IsNotFound(err) {
		return nil
	}
	return err
}

// taken tells whether name, which a create found taken, is d's own
// ReplicaSet, which the watch cache did not hold yet, or another's.
func (c *Controller) taken(ctx context.Context, d *appsv1.Deployment, name string) error {
	obj, err := c.cfg.ReplicaSets.Get(ctx, name, &metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if metav1.IsControlledBy(obj.(*appsv1.ReplicaSet), d) {
		return nil
	}
	return errNameTaken
}
