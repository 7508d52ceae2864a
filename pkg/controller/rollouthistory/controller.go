package rollouthistory

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/controller/clusterwide"
	"github.com/canopy-dev/canopy/pkg/informer"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/shard"
)

const (
	name    = "rollout-history"
	workers = 2
	// collisions is how many other hashes a new record tries when its
	// name is taken by one that is not its workload's.
	collisions = 5
)

// Config is what the controller reads and writes.
type Config struct {
	Deployments      *genericregistry.Store
	ReplicaSets      *genericregistry.Store
	ReplicaSetStatus rest.Updater
	// DeploymentStatus writes a Deployment's revision annotation, as
	// kube's deployment controller writes it, through the status.
	DeploymentStatus    rest.Updater
	StatefulSets        *genericregistry.Store
	DaemonSets          *genericregistry.Store
	ControllerRevisions *genericregistry.Store
	// Informers has the shared informers of all of these.
	Informers *informer.Factory
	// Ownership says which logical clusters' records this replica keeps.
	Ownership shard.Ownership
}

// key names one Deployment, StatefulSet or DaemonSet, by its kind.
type key struct {
	kind            string
	cluster         logicalcluster.Name
	namespace, name string
}

// Controller keeps the hub ReplicaSets recording each Deployment's
// revisions, and the ControllerRevisions recording each StatefulSet's and
// DaemonSet's.
type Controller struct {
	cfg  Config
	loop clusterwide.Loop[key]
	// The informers of cfg's stores, which reads go to.
	deployments, replicaSets, statefulSets, daemonSets, revisions *informer.Informer
}

// New returns the controller, which watches the workloads, and the
// records of their revisions, across every logical cluster.
func New(cfg Config) *Controller {
	f := cfg.Informers
	c := &Controller{
		cfg:          cfg,
		deployments:  f.For(cfg.Deployments),
		replicaSets:  f.For(cfg.ReplicaSets),
		statefulSets: f.For(cfg.StatefulSets),
		daemonSets:   f.For(cfg.DaemonSets),
		revisions:    f.For(cfg.ControllerRevisions),
	}
	c.loop = clusterwide.Loop[key]{
		Name:      name,
		Workers:   workers,
		Cluster:   func(k key) logicalcluster.Name { return k.cluster },
		Ownership: cfg.Ownership,
		Process:   c.process,
	}
	for _, i := range []*informer.Informer{c.deployments, c.replicaSets, c.statefulSets, c.daemonSets, c.revisions} {
		c.loop.Watch(i, keys)
	}
	return c
}

// Run works until ctx ends.
func (c *Controller) Run(ctx context.Context) { c.loop.Run(ctx) }

// keys is the workload obj is, or the one whose revision obj records.
func keys(obj runtime.Object, deleted bool) []key {
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil
	}
	cluster, err := logicalcluster.FromObject(m)
	if err != nil {
		klog.ErrorS(err, "A stored object has no logical cluster", "namespace", m.GetNamespace(), "name", m.GetName())
		return nil
	}
	switch obj.(type) {
	case *appsv1.Deployment, *appsv1.StatefulSet, *appsv1.DaemonSet:
		if !deleted {
			return []key{{kindOf(m), cluster, m.GetNamespace(), m.GetName()}}
		}
	case *appsv1.ReplicaSet, *appsv1.ControllerRevision:
		if ref := metav1.GetControllerOf(m); ref != nil && m.GetLabels()[workloadv1alpha1.RevisionRecordLabel] == "true" {
			return []key{{ref.Kind, cluster, m.GetNamespace(), ref.Name}}
		}
	}
	return nil
}

// kindOf is the kind of a workload, as its stored type meta is empty.
func kindOf(m metav1.Object) string {
	switch m.(type) {
	case *appsv1.Deployment:
		return "Deployment"
	case *appsv1.StatefulSet:
		return statefulSet.kind
	case *appsv1.DaemonSet:
		return daemonSet.kind
	}
	return ""
}

// process brings the records of k's workload in line with it.
func (c *Controller) process(ctx context.Context, k key) error {
	ctx = logicalcluster.WithCluster(genericapirequest.WithNamespace(ctx, k.namespace), k.cluster)
	switch k.kind {
	case "Deployment":
		return c.processDeployment(ctx, k)
	case statefulSet.kind:
		return c.processRevisions(ctx, c.statefulSets, k)
	case daemonSet.kind:
		return c.processRevisions(ctx, c.daemonSets, k)
	}
	return nil
}

// processDeployment brings the ReplicaSets recording k's Deployment in
// line with it, reading both from the informers: a write from a stale
// read conflicts, or finds its ReplicaSet made already, and the informer
// queues k again.
func (c *Controller) processDeployment(ctx context.Context, k key) error {
	obj, ok := c.deployments.Get(k.cluster, k.namespace, k.name)
	if !ok {
		// The garbage collector deletes what it owned.
		return nil
	}
	d, ok := obj.(*appsv1.Deployment)
	if !ok || d.DeletionTimestamp != nil {
		return nil
	}
	owned := c.owned(k, d)
	if d.Spec.Paused && !slices.ContainsFunc(owned, func(rs *appsv1.ReplicaSet) bool { return EqualIgnoreHash(&rs.Spec.Template, &d.Spec.Template) }) {
		// kube's controller makes no ReplicaSet for the template of a
		// paused Deployment, and so no revision, until it is resumed.
		return nil
	}
	for i := 0; i <= collisions; i++ {
		var count *int32
		if i > 0 {
			count = ptr.To(int32(i))
		}
		err := c.reconcile(ctx, d, owned, ComputeHash(&d.Spec.Template, count))
		if err != errNameTaken {
			return err
		}
	}
	return fmt.Errorf("the names of %d ReplicaSets for the template of Deployment %s/%s in %s are all taken by ReplicaSets it does not own; delete them",
		collisions+1, k.namespace, k.name, k.cluster)
}

// owned are the recording ReplicaSets in the namespace of k's Deployment
// d that d controls.
func (c *Controller) owned(k key, d *appsv1.Deployment) []*appsv1.ReplicaSet {
	var out []*appsv1.ReplicaSet
	for _, obj := range c.replicaSets.InNamespace(k.cluster, k.namespace) {
		if rs, ok := obj.(*appsv1.ReplicaSet); ok && recording(rs) && metav1.IsControlledBy(rs, d) && rs.DeletionTimestamp == nil {
			out = append(out, rs)
		}
	}
	return out
}

// recording tells whether m is a record of a revision.
func recording(m metav1.Object) bool {
	return m.GetLabels()[workloadv1alpha1.RevisionRecordLabel] == "true"
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
	if err := deleteAll(ctx, c.cfg.ReplicaSets, stale); err != nil {
		return err
	}
	for _, rs := range want {
		if err := c.write(ctx, d, rs, have[rs.Name]); err != nil {
			return err
		}
	}
	// The ReplicaSet of d's template comes last.
	return c.setRevision(ctx, d, Revision(want[len(want)-1]))
}

// setRevision gives Deployment d the revision of its template in
// RevisionAnnotation, as kube's deployment controller does, so that d
// answers as a Deployment in a Kubernetes cluster does and kubectl
// rollout status --revision finds it. It writes through the status
// subresource, as kube's controller does, which keeps d's generation: a
// revision is no change of what the user asked for.
func (c *Controller) setRevision(ctx context.Context, d *appsv1.Deployment, revision int64) error {
	value := strconv.FormatInt(revision, 10)
	if d.Annotations[RevisionAnnotation] == value {
		return nil
	}
	updated := d.DeepCopy()
	if updated.Annotations == nil {
		updated.Annotations = map[string]string{}
	}
	updated.Annotations[RevisionAnnotation] = value
	_, _, err := c.cfg.DeploymentStatus.Update(ctx, d.Name, rest.DefaultUpdatedObjectInfo(updated),
		rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{})
	if apierrors.IsConflict(err) || apierrors.IsNotFound(err) {
		// The informer has the newer Deployment, and queues it again.
		return nil
	}
	if err != nil {
		return fmt.Errorf("writing the revision of Deployment %s/%s: %w", d.Namespace, d.Name, err)
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
			return c.taken(ctx, c.cfg.ReplicaSets, d, rs.Name)
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

// taken tells whether name, which a create in store found taken, is
// owner's own record, which the watch cache did not hold yet, or
// another's (errNameTaken).
func (c *Controller) taken(ctx context.Context, store *genericregistry.Store, owner metav1.Object, name string) error {
	obj, err := store.Get(ctx, name, &metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return err
	}
	if metav1.IsControlledBy(m, owner) {
		return nil
	}
	return errNameTaken
}

// processRevisions brings the ControllerRevisions recording k's
// StatefulSet or DaemonSet, read from workloads, in line with it, as
// processDeployment does for a Deployment's ReplicaSets.
func (c *Controller) processRevisions(ctx context.Context, workloads *informer.Informer, k key) error {
	obj, ok := workloads.Get(k.cluster, k.namespace, k.name)
	if !ok {
		return nil
	}
	w, ok := workloadOf(obj)
	if !ok || w.obj.GetDeletionTimestamp() != nil {
		return nil
	}
	var owned []*appsv1.ControllerRevision
	have := map[string]*appsv1.ControllerRevision{}
	for _, obj := range c.revisions.InNamespace(k.cluster, k.namespace) {
		if cr, ok := obj.(*appsv1.ControllerRevision); ok && recording(cr) && metav1.IsControlledBy(cr, w.obj) && cr.DeletionTimestamp == nil {
			owned = append(owned, cr)
			have[cr.Name] = cr
		}
	}
	for i := 0; i <= collisions; i++ {
		var probe *int32
		if i > 0 {
			probe = ptr.To(int32(i))
		}
		want, stale, err := ReconcileRevisions(w, owned, probe)
		if err != nil {
			return err
		}
		if err := deleteAll(ctx, c.cfg.ControllerRevisions, stale); err != nil {
			return err
		}
		err = c.writeRevisions(ctx, w, want, have)
		if err != errNameTaken {
			return err
		}
	}
	return fmt.Errorf("the names of %d ControllerRevisions for the template of %s %s/%s in %s are all taken by ControllerRevisions it does not own; delete them",
		collisions+1, k.kind, k.namespace, k.name, k.cluster)
}

// writeRevisions creates or updates each of want, errNameTaken saying
// that the name of a new one is another's.
func (c *Controller) writeRevisions(ctx context.Context, w workload, want []*appsv1.ControllerRevision, have map[string]*appsv1.ControllerRevision) error {
	for _, cr := range want {
		was := have[cr.Name]
		var err error
		switch {
		case was == nil:
			_, err = c.cfg.ControllerRevisions.Create(ctx, cr, rest.ValidateAllObjectFunc, &metav1.CreateOptions{})
			if apierrors.IsAlreadyExists(err) {
				err = c.taken(ctx, c.cfg.ControllerRevisions, w.obj, cr.Name)
			}
		case cr.Revision != was.Revision:
			_, _, err = c.cfg.ControllerRevisions.Update(ctx, cr.Name, rest.DefaultUpdatedObjectInfo(cr),
				rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{})
		}
		if err != nil && !apierrors.IsConflict(err) && !apierrors.IsNotFound(err) {
			return err
		}
	}
	return nil
}

// deleteAll deletes objs from store, each as it was read.
func deleteAll[T metav1.Object](ctx context.Context, store *genericregistry.Store, objs []T) error {
	for _, o := range objs {
		_, _, err := store.Delete(ctx, o.GetName(), rest.ValidateAllObjectFunc, &metav1.DeleteOptions{Preconditions: metav1.NewUIDPreconditions(string(o.GetUID()))})
		if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsConflict(err) {
			return err
		}
	}
	return nil
}
