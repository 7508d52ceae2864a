package garbagecollector

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/client-go/util/retry"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"

	"github.com/canopy-dev/canopy/pkg/controller/clusterwide"
	"github.com/canopy-dev/canopy/pkg/informer"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/loopback"
	"github.com/canopy-dev/canopy/pkg/shard"
)

// name names the controller in logs and in its queue's metrics.
const name = "garbagecollector"

// workers is how many objects are collected at once. Each waits mostly on
// reads of owners and on commits, which the store groups across writers.
const workers = 16

// Config is what the collector acts on.
type Config struct {
	// Stores are the registry stores of every resource whose objects may
	// own others or be owned, watched across all logical clusters.
	Stores []*genericregistry.Store
	// Typer tells the kinds of the stores' objects, which
	// ownerReferences name.
	Typer runtime.ObjectTyper
	// Client deletes the objects collected, and patches the
	// ownerReferences and deletion finalizers of owners and dependents.
	// They are the users' objects, so the hub writes them through the
	// API, as the collector's own user (pkg/loopback): the admission
	// policies of their logical cluster may refuse it, the audit log and
	// managedFields name the collector, and a namespace is deleted as the
	// API deletes one.
	Client Client
	// Custom, when set, are the custom resources, whose objects may own
	// others or be owned too.
	Custom CustomResources
	// Informers has the stores' shared informers, of which the collector
	// reads only metadata.
	Informers *informer.Factory
	// Ownership says which logical clusters' objects this replica
	// collects. The graph holds every logical cluster's.
	Ownership shard.Ownership
}

// Client writes through the API, as *loopback.Client does.
type Client interface {
	Delete(ctx context.Context, resource schema.GroupVersionResource, namespace, name string, opts metav1.DeleteOptions) error
	Patch(ctx context.Context, resource schema.GroupVersionResource, namespace, name string, pt types.PatchType, data []byte,
		subresources ...string) error
}

// CustomResources are the resources that come and go with the
// definitions of each logical cluster. A group resource may be defined
// in several logical clusters, with a kind, scope and schema of its own
// in each, so its objects are read and written through the store of
// their own logical cluster's definition.
type CustomResources interface {
	// WatchResources calls added with a store of each group resource
	// once some logical cluster defines it, and removed once none does,
	// until ctx ends. The store lists and watches the resource's objects
	// across all logical clusters.
	WatchResources(ctx context.Context, added func(schema.GroupResource, *genericregistry.Store), removed func(schema.GroupResource))
	// Resource is the store of gr in cluster, NotFound if cluster does not
	// define it.
	Resource(ctx context.Context, cluster logicalcluster.Name, gr schema.GroupResource) (*genericregistry.Store, error)
	// Kind is the store of the resource of kind gk in cluster, nil if
	// cluster defines none.
	Kind(ctx context.Context, cluster logicalcluster.Name, gk schema.GroupKind) (*genericregistry.Store, error)
}

// Controller collects the objects whose owners are gone and finalizes
// foreground and orphaning deletions.
type Controller struct {
	c         Config
	kinds     map[schema.GroupKind]*genericregistry.Store
	resources map[schema.GroupResource]*genericregistry.Store
	graph     *graph
	loop      clusterwide.Loop[id]
	// custom are the custom group resources watched, by the one goroutine
	// that WatchResources calls back.
	custom map[schema.GroupResource]bool
	// refusals backs off, per object, the deletions the hub refuses, as
	// an admission policy may: nothing changes until someone changes the
	// policy or the object, whose change queues it anyway.
	refusals workqueue.TypedRateLimiter[id]
}

// New returns a collector for c.
func New(c Config) (*Controller, error) {
	kinds := map[schema.GroupKind]*genericregistry.Store{}
	resources := map[schema.GroupResource]*genericregistry.Store{}
	for _, s := range c.Stores {
		resources[s.DefaultQualifiedResource] = s
		gvks, _, err := c.Typer.ObjectKinds(s.New())
		if err != nil {
			return nil, fmt.Errorf("the kind of %s: %w", s.DefaultQualifiedResource, err)
		}
		for _, gvk := range gvks {
			kinds[gvk.GroupKind()] = s
		}
	}
	ctl := &Controller{
		c: c, kinds: kinds, resources: resources, graph: newGraph(), custom: map[schema.GroupResource]bool{},
		refusals: workqueue.NewTypedItemExponentialFailureRateLimiter[id](time.Second, 5*time.Minute),
	}
	ctl.loop = clusterwide.Loop[id]{
		Name:      name,
		Workers:   workers,
		Cluster:   func(i id) logicalcluster.Name { return i.cluster },
		Ownership: c.Ownership,
		Process:   ctl.process,
	}
	for _, s := range c.Stores {
		ctl.watch(s)
	}
	return ctl, nil
}

// Run works until ctx ends. The informer of each store feeds the graph,
// and that of each custom group resource once some logical cluster
// defines it; the workers serve every logical cluster.
func (c *Controller) Run(ctx context.Context) {
	if c.c.Custom != nil {
		go c.c.Custom.WatchResources(ctx, c.watchCustom, c.forgetCustom)
	}
	c.loop.Run(ctx)
}

// watch feeds the graph the objects of s.
func (c *Controller) watch(s *genericregistry.Store) {
	r := s.DefaultQualifiedResource
	c.loop.Watch(c.c.Informers.Metadata(s), func(obj runtime.Object, deleted bool) []id { return c.changed(r, obj, deleted) })
}

// watchCustom watches custom group resource gr, once. Its informer
// stays when no logical cluster defines gr any more: it holds nothing
// then, since a definition goes only after its objects.
func (c *Controller) watchCustom(gr schema.GroupResource, s *genericregistry.Store) {
	if !c.custom[gr] {
		c.custom[gr] = true
		c.watch(s)
	}
}

// forgetCustom drops the objects of gr from the graph once no logical
// cluster defines it, and looks at their dependents again.
func (c *Controller) forgetCustom(gr schema.GroupResource) {
	for _, i := range c.graph.replace(gr, nil) {
		c.loop.Add(i)
	}
}

// changed records obj in the graph and is what it calls for.
func (c *Controller) changed(r schema.GroupResource, obj runtime.Object, deleted bool) []id {
	if !deleted {
		return c.graph.observe(r, obj)
	}
	i, _, err := idOf(obj)
	if err != nil {
		klog.ErrorS(err, "A deleted object cannot be collected", "resource", r)
		return nil
	}
	return c.graph.forget(i)
}

// store is the store of resource r in cluster: the hub's own, or that of
// cluster's definition of it. NotFound if cluster does not define r.
func (c *Controller) store(ctx context.Context, cluster logicalcluster.Name, r schema.GroupResource) (*genericregistry.Store, error) {
	if s, ok := c.resources[r]; ok {
		return s, nil
	}
	if c.c.Custom == nil {
		return nil, apierrors.NewNotFound(r, "")
	}
	return c.c.Custom.Resource(ctx, cluster, r)
}

// in is ctx for requests to namespace ns of logical cluster n.
func in(ctx context.Context, n logicalcluster.Name, ns string) context.Context {
	return logicalcluster.WithCluster(genericapirequest.WithNamespace(ctx, ns), n)
}

// process does what object i calls for, reading it from the database,
// since the graph may lag behind.
func (c *Controller) process(ctx context.Context, i id) error {
	n, ok := c.graph.get(i)
	if !ok {
		c.refusals.Forget(i)
		return nil
	}
	s, err := c.store(ctx, i.cluster, n.resource)
	if apierrors.IsNotFound(err) {
		// Its definition went, and its objects with it.
		return nil
	}
	if err != nil {
		return err
	}
	obj, err := s.Get(in(ctx, i.cluster, n.namespace), n.name, &metav1.GetOptions{})
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
	switch {
	case m.GetUID() != i.uid:
		// Replaced: the watch tells of the new object.
		return nil
	case heldBy(m, metav1.FinalizerOrphanDependents):
		return c.orphan(ctx, i, n)
	case heldBy(m, metav1.FinalizerDeleteDependents):
		return c.finishForeground(ctx, i, n)
	case m.GetDeletionTimestamp() != nil:
		// Someone else's finalizers hold it; it is going anyway.
		return nil
	}
	return c.collect(ctx, i, n, obj, m)
}

// orphan strips the ownerReferences to i from its dependents, then the
// orphan finalizer from i, which lets it go.
func (c *Controller) orphan(ctx context.Context, i id, n node) error {
	for d, dn := range c.graph.dependentNodes(i) {
		if err := c.update(ctx, d, dn, func(m metav1.Object) {
			m.SetOwnerReferences(slices.DeleteFunc(m.GetOwnerReferences(), func(r metav1.OwnerReference) bool { return r.UID == i.uid }))
		}); err != nil {
			return err
		}
	}
	return c.update(ctx, i, n, removeFinalizer(metav1.FinalizerOrphanDependents))
}

// finishForeground lets i go once no dependent blocks it. The dependents
// are being deleted, each queued when i's foreground deletion began or
// when it was seen, and each blocking one queues i again as it goes. An
// object that names itself as its owner does not wait for itself.
func (c *Controller) finishForeground(ctx context.Context, i id, n node) error {
	for d, dn := range c.graph.dependentNodes(i) {
		if d != i && slices.ContainsFunc(dn.owners, func(r metav1.OwnerReference) bool {
			return r.UID == i.uid && r.BlockOwnerDeletion != nil && *r.BlockOwnerDeletion
		}) {
			return nil
		}
	}
	return c.update(ctx, i, n, removeFinalizer(metav1.FinalizerDeleteDependents))
}

func removeFinalizer(f string) func(metav1.Object) {
	return func(m metav1.Object) {
		m.SetFinalizers(slices.DeleteFunc(m.GetFinalizers(), func(g string) bool { return g == f }))
	}
}

// ownerState is what an ownerReference finds.
type ownerState int

const (
	// solid is an owner that exists and is not waiting for its
	// dependents.
	solid ownerState = iota
	// dangling is an owner that does not exist: nothing of its kind has
	// its name where the dependent would find it, or that object has
	// another UID.
	dangling
	// waiting is an owner being deleted in the foreground.
	waiting
)

// errInvalidReference is an ownerReference that names no object the hub
// could ever find. Retrying does not help, so the dependent is left
// alone, as Kubernetes leaves it.
var errInvalidReference = errors.New("invalid ownerReference")

// collect deletes the dependent i if none of its owners exists, or is
// waiting for it, and otherwise strips its ownerReferences to the missing
// ones.
func (c *Controller) collect(ctx context.Context, i id, n node, obj runtime.Object, m metav1.Object) error {
	refs := m.GetOwnerReferences()
	if len(refs) == 0 {
		return nil
	}
	var solids, waitings int
	var gone []types.UID
	for _, ref := range refs {
		state, err := c.owner(ctx, i.cluster, m.GetNamespace(), ref)
		if errors.Is(err, errInvalidReference) {
			klog.InfoS("Not collecting an object with an invalid ownerReference", "cluster", i.cluster,
				"resource", n.resource, "namespace", n.namespace, "name", n.name, "reason", err)
			return nil
		}
		if err != nil {
			return err
		}
		switch state {
		case solid:
			solids++
		case waiting:
			waitings++
			gone = append(gone, ref.UID)
		case dangling:
			gone = append(gone, ref.UID)
		}
	}
	switch {
	case solids > 0:
		if len(gone) == 0 {
			return nil
		}
		return c.update(ctx, i, n, func(m metav1.Object) {
			m.SetOwnerReferences(slices.DeleteFunc(m.GetOwnerReferences(), func(r metav1.OwnerReference) bool { return slices.Contains(gone, r.UID) }))
		})
	case waitings > 0:
		dependents := c.graph.dependentNodes(i)
		if len(dependents) > 0 {
			// An owner waits for i and i for its own dependents. If one of
			// those waits in turn, there may be a cycle back to i's
			// owners: i stops blocking them, as Kubernetes does.
			for _, dn := range dependents {
				if dn.deletingDependents {
					if err := c.update(ctx, i, n, unblockOwners); err != nil {
						return err
					}
					break
				}
			}
			return c.delete(ctx, i, n, obj, metav1.DeletePropagationForeground)
		}
	}
	// i's own finalizers tell how its dependents go with it.
	policy := metav1.DeletePropagationBackground
	switch {
	case slices.Contains(m.GetFinalizers(), metav1.FinalizerOrphanDependents):
		policy = metav1.DeletePropagationOrphan
	case slices.Contains(m.GetFinalizers(), metav1.FinalizerDeleteDependents):
		policy = metav1.DeletePropagationForeground
	}
	return c.delete(ctx, i, n, obj, policy)
}

func unblockOwners(m metav1.Object) {
	refs := m.GetOwnerReferences()
	unblocked := false
	for k := range refs {
		refs[k].BlockOwnerDeletion = &unblocked
	}
	m.SetOwnerReferences(refs)
}

// owner looks up the owner ref names for a dependent in namespace ns of
// logical cluster cluster: there, and nowhere else.
func (c *Controller) owner(ctx context.Context, cluster logicalcluster.Name, ns string, ref metav1.OwnerReference) (ownerState, error) {
	gv, err := schema.ParseGroupVersion(ref.APIVersion)
	if err != nil {
		return 0, fmt.Errorf("%w: apiVersion %q: %v", errInvalidReference, ref.APIVersion, err)
	}
	s, err := c.kind(ctx, cluster, gv.WithKind(ref.Kind).GroupKind())
	if err != nil {
		return 0, err
	}
	if s == nil {
		return 0, fmt.Errorf("%w: the hub serves no kind %s in %s in logical cluster %s", errInvalidReference, ref.Kind, ref.APIVersion, cluster)
	}
	if !s.NamespaceScoped() {
		ns = ""
	} else if ns == "" {
		return 0, fmt.Errorf("%w: a cluster-scoped object cannot be owned by a namespaced %s", errInvalidReference, ref.Kind)
	}
	obj, err := s.Get(in(ctx, cluster, ns), ref.Name, &metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err), apierrors.IsBadRequest(err):
		// A name that is no valid name names nothing either.
		return dangling, nil
	case err != nil:
		return 0, err
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return 0, err
	}
	switch {
	case m.GetUID() != ref.UID:
		return dangling, nil
	case heldBy(m, metav1.FinalizerDeleteDependents):
		return waiting, nil
	}
	return solid, nil
}

// kind is the store of the objects of kind gk in cluster, nil if it
// serves no such kind.
func (c *Controller) kind(ctx context.Context, cluster logicalcluster.Name, gk schema.GroupKind) (*genericregistry.Store, error) {
	if s, ok := c.kinds[gk]; ok || c.c.Custom == nil {
		return s, nil
	}
	return c.c.Custom.Kind(ctx, cluster, gk)
}

// delete deletes i, obj as read, unless it was replaced, with policy for
// its own dependents.
func (c *Controller) delete(ctx context.Context, i id, n node, obj runtime.Object, policy metav1.DeletionPropagation) error {
	resource, err := loopback.Versioned(c.c.Typer, n.resource, obj)
	if err != nil {
		return err
	}
	uid := i.uid
	err = c.c.Client.Delete(in(ctx, i.cluster, n.namespace), resource, n.namespace, n.name,
		metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &uid}, PropagationPolicy: &policy})
	switch {
	case apierrors.IsNotFound(err) || apierrors.IsConflict(err):
		c.refusals.Forget(i)
		return nil
	case loopback.Refused(err):
		return c.backOff(i, n, "deletion", err)
	case err == nil:
		c.refusals.Forget(i)
		klog.V(2).InfoS("Collected an object whose owners are gone", "cluster", i.cluster,
			"resource", n.resource, "namespace", n.namespace, "name", n.name, "propagation", policy)
	}
	return err
}

// update applies change to the ownerReferences and finalizers of i as
// stored, unless i was replaced or is gone. It patches them through the
// API with the resourceVersion read as a precondition, and on a conflict
// reads i again and retries, as client-go's callers do.
func (c *Controller) update(ctx context.Context, i id, n node, change func(metav1.Object)) error {
	s, err := c.store(ctx, i.cluster, n.resource)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	ctx = in(ctx, i.cluster, n.namespace)
	err = retry.RetryOnConflict(retry.DefaultRetry, func() error {
		obj, err := s.Get(ctx, n.name, &metav1.GetOptions{})
		if err != nil {
			return err
		}
		m, err := meta.Accessor(obj)
		if err != nil {
			return err
		}
		if m.GetUID() != i.uid {
			return nil
		}
		change(m)
		patch, err := json.Marshal(map[string]any{"metadata": map[string]any{
			"resourceVersion": m.GetResourceVersion(), "ownerReferences": m.GetOwnerReferences(), "finalizers": m.GetFinalizers(),
		}})
		if err != nil {
			return err
		}
		resource, err := loopback.Versioned(c.c.Typer, n.resource, obj)
		if err != nil {
			return err
		}
		return c.c.Client.Patch(ctx, resource, n.namespace, n.name, types.MergePatchType, patch)
	})
	switch {
	case apierrors.IsNotFound(err):
		return nil
	case loopback.Refused(err):
		return c.backOff(i, n, "update", err)
	case err == nil:
		c.refusals.Forget(i)
	}
	return err
}

// backOff queues i again after a backoff that grows with each refusal of
// what the collector asked of the hub.
func (c *Controller) backOff(i id, n node, what string, err error) error {
	delay := c.refusals.When(i)
	klog.InfoS("The hub refused the garbage collector's "+what+"; trying again later", "cluster", i.cluster,
		"resource", n.resource, "namespace", n.namespace, "name", n.name, "after", delay, "reason", err)
	c.loop.AddAfter(i, delay)
	return nil
}
