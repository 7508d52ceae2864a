package garbagecollector

import (
	"slices"
	"sync"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// id names one object: UIDs are unique within a logical cluster, and an
// ownerReference's UID means the object of that UID in its dependent's
// logical cluster.
type id struct {
	cluster logicalcluster.Name
	uid     types.UID
}

// node is what the graph knows of an object.
type node struct {
	// resource is the object's resource, whose store in the object's
	// logical cluster reads and writes it.
	resource        schema.GroupResource
	namespace, name string
	owners          []metav1.OwnerReference
	// deletingDependents is a foreground deletion waiting for the
	// dependents.
	deletingDependents bool
}

// graph is the objects of every store the controller watches and who owns
// whom, as the watches last told. Dependents are indexed by the UID their
// ownerReferences name, whether or not an object of that UID was seen.
type graph struct {
	mu         sync.Mutex
	nodes      map[id]*node
	dependents map[id]map[id]struct{}
}

func newGraph() *graph {
	return &graph{nodes: map[id]*node{}, dependents: map[id]map[id]struct{}{}}
}

// idOf is the id of obj and its metadata.
func idOf(obj runtime.Object) (id, metav1.Object, error) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return id{}, nil, err
	}
	cluster, err := logicalcluster.FromObject(m)
	if err != nil {
		return id{}, nil, err
	}
	return id{cluster, m.GetUID()}, m, nil
}

// heldBy tells whether m is being deleted and finalizer f holds it.
func heldBy(m metav1.Object, f string) bool {
	return m.GetDeletionTimestamp() != nil && slices.Contains(m.GetFinalizers(), f)
}

// observe records obj, an object of resource r, as it is now. It returns the
// objects to look at again: obj if it has owners that might be gone or
// is a deletion for the collector to finalize, the dependents of a
// foreground deletion that just began, and the foreground deletions an
// ownerReference that obj no longer holds was blocking.
func (g *graph) observe(r schema.GroupResource, obj runtime.Object) []id {
	i, m, err := idOf(obj)
	if err != nil {
		klog.ErrorS(err, "A watched object cannot be collected", "resource", r)
		return nil
	}
	n := &node{
		resource: r, namespace: m.GetNamespace(), name: m.GetName(),
		owners:             m.GetOwnerReferences(),
		deletingDependents: heldBy(m, metav1.FinalizerDeleteDependents),
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	old := g.nodes[i]
	g.nodes[i] = n
	var next []id
	switch {
	case old == nil:
		g.link(i, nil, n.owners)
		if len(n.owners) > 0 {
			next = append(next, i)
		}
	case !equality.Semantic.DeepEqual(old.owners, n.owners):
		next = append(next, g.link(i, old.owners, n.owners)...)
		if len(n.owners) > 0 {
			next = append(next, i)
		}
	}
	if n.deletingDependents || heldBy(m, metav1.FinalizerOrphanDependents) {
		next = append(next, i)
	}
	if n.deletingDependents && (old == nil || !old.deletingDependents) {
		next = append(next, g.dependentsOf(i)...)
	}
	return next
}

// forget drops the object i, which is gone. It returns its dependents,
// which may have lost their last owner, and its owners whose foreground
// deletion it may have been blocking.
func (g *graph) forget(i id) []id {
	g.mu.Lock()
	defer g.mu.Unlock()
	n, ok := g.nodes[i]
	if !ok {
		return nil
	}
	delete(g.nodes, i)
	return append(g.link(i, n.owners, nil), g.dependentsOf(i)...)
}

// replace makes the objects of resource r what objs is, forgetting those that are
// no longer there: after a broken watch, this is what a list tells.
func (g *graph) replace(r schema.GroupResource, objs []runtime.Object) []id {
	listed := map[id]bool{}
	var next []id
	for _, obj := range objs {
		if i, _, err := idOf(obj); err == nil {
			listed[i] = true
		}
		next = append(next, g.observe(r, obj)...)
	}
	g.mu.Lock()
	var gone []id
	for i, n := range g.nodes {
		if n.resource == r && !listed[i] {
			gone = append(gone, i)
		}
	}
	g.mu.Unlock()
	for _, i := range gone {
		next = append(next, g.forget(i)...)
	}
	return next
}

// link moves dependent i from the owners in before to those in after. It
// returns the foreground deletions among the owners whose reference
// changed, which i may no longer block.
func (g *graph) link(i id, before, after []metav1.OwnerReference) []id {
	var unblocked []id
	for _, ref := range before {
		if slices.ContainsFunc(after, func(r metav1.OwnerReference) bool { return equality.Semantic.DeepEqual(r, ref) }) {
			continue
		}
		owner := id{i.cluster, ref.UID}
		if o, ok := g.nodes[owner]; ok && o.deletingDependents {
			unblocked = append(unblocked, owner)
		}
		if slices.ContainsFunc(after, func(r metav1.OwnerReference) bool { return r.UID == ref.UID }) {
			continue
		}
		delete(g.dependents[owner], i)
		if len(g.dependents[owner]) == 0 {
			delete(g.dependents, owner)
		}
	}
	for _, ref := range after {
		owner := id{i.cluster, ref.UID}
		if g.dependents[owner] == nil {
			g.dependents[owner] = map[id]struct{}{}
		}
		g.dependents[owner][i] = struct{}{}
	}
	return unblocked
}

// dependentsOf is the objects whose ownerReferences name owner. The
// caller holds g.mu.
func (g *graph) dependentsOf(owner id) []id {
	var ds []id
	for d := range g.dependents[owner] {
		ds = append(ds, d)
	}
	return ds
}

// get is what the graph knows of i.
func (g *graph) get(i id) (node, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	n, ok := g.nodes[i]
	if !ok {
		return node{}, false
	}
	return *n, true
}

// dependentNodes is the objects whose ownerReferences name owner, with
// what the graph knows of each.
func (g *graph) dependentNodes(owner id) map[id]node {
	g.mu.Lock()
	defer g.mu.Unlock()
	ds := map[id]node{}
	for d := range g.dependents[owner] {
		ds[d] = *g.nodes[d]
	}
	return ds
}
