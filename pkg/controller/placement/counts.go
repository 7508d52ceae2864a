package placement

import (
	"maps"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/controller/namespacedefaults"
	engine "github.com/canopy-dev/canopy/pkg/placement"
)

// A Placement's status counts the objects and replicas it put on each
// target. The replica that writes the status owns the Placement's
// logical cluster, but an inherited Placement places the objects of
// descendants that other replicas own. So the counts are not made from
// what this replica wrote: every replica records, from its informers,
// which placement selects each object of every logical cluster, as place
// would choose it, and the targets the object's labels and annotations
// say placement put it on. Every replica holds the same objects and the
// same world, and so the same counts, whichever shards it owns.

// record is which placement selects an object, and the targets, by key,
// that placement put it on, with the replicas each runs.
type record struct {
	placement placementID
	placed    map[string]int32
}

type count struct{ objects, replicas int32 }

// record records again where the object of ref was put, as its
// informer holds it now, and queues the status of the placements whose
// counts change; it tells whether the object had a record before. It
// reads the object under c.mu rather than taking the version an event
// brought, so that an event handled while a region is walked cannot be
// overwritten with an older version: the last record made of an object
// is made after its last change.
func (c *Controller) record(ref objectRef) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := c.recordOf(ref)
	was, had := c.records[ref]
	if had && r != nil && was.placement == r.placement && maps.Equal(was.placed, r.placed) {
		return true
	}
	if had {
		c.add(was, -1)
		delete(c.records, ref)
		c.statuses.AddAfter(was.placement, statusDelay)
	}
	if r != nil {
		c.records[ref] = *r
		c.add(*r, 1)
		c.statuses.AddAfter(r.placement, statusDelay)
	}
	return had
}

// recordOf is the record of the object of ref as its informer holds it:
// nil when it is gone or placement leaves it where it is (placeable), or
// no placement selects it.
func (c *Controller) recordOf(ref objectRef) *record {
	if !c.world.applies(ref.cluster) {
		return nil
	}
	obj, ok := c.resources[ref.resource].Get(ref.cluster, ref.namespace, ref.name)
	if !ok {
		return nil
	}
	m, err := meta.Accessor(obj)
	if err != nil || !placeable(ref, m) {
		return nil
	}
	nsObj, ok := c.namespaces.Get(ref.cluster, "", ref.namespace)
	if !ok {
		return nil
	}
	ns, err := meta.Accessor(nsObj)
	if err != nil {
		return nil
	}
	s, policy := c.choose(ref, ns)
	if policy == nil {
		return nil
	}
	r := &record{placement: s.id(policy), placed: map[string]int32{}}
	// Only an object placed somewhere needs its replicas read.
	if engine.Placed(m.GetLabels(), m.GetAnnotations()).Len() > 0 {
		o, err := objectOf(ref, obj)
		if err != nil {
			return nil
		}
		r.placed = o.Current
	}
	return r
}

// placeable is whether placement may move object m of ref: not one being
// deleted, which stays where it is until its syncers let it go, nor a
// Deployment's revision record at the hub, which runs nowhere, nor an
// object every namespace downstream has of its own.
func placeable(ref objectRef, m metav1.Object) bool {
	return m.GetDeletionTimestamp() == nil && m.GetLabels()[workloadv1alpha1.RevisionRecordLabel] == "" &&
		!namespacedefaults.Kept(schema.GroupResource{Group: ref.resource.Group, Resource: ref.resource.Resource}, m.GetName())
}

// choose is the scope of ref's logical cluster and the policy there that
// places the object of ref in namespace ns, nil if none selects it.
func (c *Controller) choose(ref objectRef, ns metav1.Object) (*scope, *engine.Policy) {
	s := c.world.scope(ref.cluster)
	return s, engine.Choose(s.Policies, labels.Set(ns.GetLabels()), ref.resource)
}

// add adds r's targets to the counts, sign 1, or takes them away, -1;
// c.mu is held.
func (c *Controller) add(r record, sign int32) {
	counts := c.counts[r.placement]
	if counts == nil {
		counts = map[string]*count{}
		c.counts[r.placement] = counts
	}
	for key, replicas := range r.placed {
		n := counts[key]
		if n == nil {
			n = &count{}
			counts[key] = n
		}
		n.objects += sign
		n.replicas += sign * replicas
		if n.objects == 0 {
			delete(counts, key)
		}
	}
	if len(counts) == 0 {
		delete(c.counts, r.placement)
	}
}

// countsOf are the objects and replicas placement id put on each target.
func (c *Controller) countsOf(id placementID) map[string]count {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string]count{}
	for key, n := range c.counts[id] {
		out[key] = *n
	}
	return out
}
