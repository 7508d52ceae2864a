package placement

import (
	"slices"
	"strings"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"

	placementv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/placement/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	engine "github.com/canopy-dev/canopy/pkg/placement"
)

// placementID names a Placement.
type placementID struct {
	cluster logicalcluster.Name
	name    string
}

// world is what decisions are made from besides the object: every
// logical cluster's Placements, PlacementConstraints and SyncTargets, as
// last listed and watched, and per logical cluster with objects to
// place, its scope compiled from them. Each map holds only the logical
// clusters that have some.
type world struct {
	mu          sync.RWMutex
	placements  map[logicalcluster.Name]map[string]*placementv1alpha1.Placement
	constraints map[logicalcluster.Name]map[string]*placementv1alpha1.PlacementConstraint
	targets     map[logicalcluster.Name]map[string]engine.Target
	scopes      map[logicalcluster.Name]*scope
}

func newWorld() *world {
	return &world{
		placements:  map[logicalcluster.Name]map[string]*placementv1alpha1.Placement{},
		constraints: map[logicalcluster.Name]map[string]*placementv1alpha1.PlacementConstraint{},
		targets:     map[logicalcluster.Name]map[string]engine.Target{},
		scopes:      map[logicalcluster.Name]*scope{},
	}
}

// scope is the engine's scope of one logical cluster, with each
// policy's evaluation while it holds.
type scope struct {
	*engine.Scope

	mu          sync.Mutex
	evaluations map[*engine.Policy]*engine.Evaluation
}

// evaluation is policy's evaluation of the scope's targets at now: the
// last one, unless time has changed its verdicts since.
func (s *scope) evaluation(policy *engine.Policy, now time.Time) *engine.Evaluation {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.evaluations[policy]
	if e == nil || !e.RecheckAt().IsZero() && !now.Before(e.RecheckAt()) {
		e = policy.Evaluate(s.Targets, now)
		s.evaluations[policy] = e
	}
	return e
}

// id names the placement of policy.
func (s *scope) id(policy *engine.Policy) placementID {
	return placementID{s.From, policy.Name}
}

// policy is the policy of placement id, nil if it does not apply here
// or does not compile.
func (s *scope) policy(id placementID) *engine.Policy {
	for _, p := range s.Policies {
		if s.id(p) == id {
			return p
		}
	}
	return nil
}

// invalid is why placement id does not compile, if it applies here and
// does not.
func (s *scope) invalid(id placementID) (error, bool) {
	if id.cluster != s.From {
		return nil, false
	}
	err, ok := s.Invalid[id.name]
	return err, ok
}

// within is whether cluster is root or one of its descendants.
func within(cluster, root logicalcluster.Name) bool {
	return cluster == root || strings.HasPrefix(string(cluster), string(root)+":")
}

// applies is whether any placement may place objects of cluster: one of
// its own, or an inherited one of an ancestor.
func (w *world) applies(cluster logicalcluster.Name) bool {
	w.mu.RLock()
	defer w.mu.RUnlock()
	if len(w.placements[cluster]) > 0 {
		return true
	}
	for _, c := range engine.Lineage(cluster)[1:] {
		for _, p := range w.placements[c] {
			if p.Spec.Inheritance == placementv1alpha1.InheritanceDescendants {
				return true
			}
		}
	}
	return false
}

// scope is the scope of cluster, compiled on first use after a change.
func (w *world) scope(cluster logicalcluster.Name) *scope {
	w.mu.RLock()
	s := w.scopes[cluster]
	w.mu.RUnlock()
	if s != nil {
		return s
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if s := w.scopes[cluster]; s != nil {
		return s
	}
	s = w.compile(cluster)
	w.scopes[cluster] = s
	return s
}

// compile makes the scope of cluster; w.mu is held.
func (w *world) compile(cluster logicalcluster.Name) *scope {
	lineage := engine.Lineage(cluster)
	levels := make([]engine.Level, len(lineage))
	for i, c := range lineage {
		levels[i].Cluster = c
		for _, name := range sortedKeys(w.placements[c]) {
			levels[i].Placements = append(levels[i].Placements, w.placements[c][name])
		}
		for _, name := range sortedKeys(w.constraints[c]) {
			levels[i].Constraints = append(levels[i].Constraints, w.constraints[c][name])
		}
		for _, name := range sortedKeys(w.targets[c]) {
			levels[i].Targets = append(levels[i].Targets, w.targets[c][name])
		}
	}
	return &scope{Scope: engine.NewScope(levels), evaluations: map[*engine.Policy]*engine.Evaluation{}}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// forget drops the scopes of root and its descendants, or of root alone,
// for a change that only concerns it; w.mu is held.
func (w *world) forget(root logicalcluster.Name, descendants bool) {
	for c := range w.scopes {
		if c == root || descendants && within(c, root) {
			delete(w.scopes, c)
		}
	}
}

// setPlacement records a change of Placement p in cluster, and says
// whether it changes what is placed and whether the descendants of
// cluster are concerned too: when the placement is, or was, inherited.
// A status written changes nothing.
func (w *world) setPlacement(cluster logicalcluster.Name, p *placementv1alpha1.Placement, deleted bool) (changed, descendants bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	was := w.placements[cluster][p.Name]
	changed = was == nil || deleted || was.Generation != p.Generation
	descendants = inherited(was) || inherited(p)
	set(w.placements, cluster, p.Name, p, deleted)
	if changed {
		w.forget(cluster, descendants)
	}
	return changed, descendants
}

func inherited(p *placementv1alpha1.Placement) bool {
	return p != nil && p.Spec.Inheritance == placementv1alpha1.InheritanceDescendants
}

// setConstraint records a change of PlacementConstraint pc in cluster,
// and says whether it changes what is allowed.
func (w *world) setConstraint(cluster logicalcluster.Name, pc *placementv1alpha1.PlacementConstraint, deleted bool) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	was := w.constraints[cluster][pc.Name]
	changed := was == nil || deleted || !equality.Semantic.DeepEqual(was.Spec, pc.Spec)
	set(w.constraints, cluster, pc.Name, pc, deleted)
	if changed {
		w.forget(cluster, true)
	}
	return changed
}

// setTarget records a change of SyncTarget t in cluster, and says
// whether it changes anything placement reads: a heartbeat alone does
// not.
func (w *world) setTarget(cluster logicalcluster.Name, t engine.Target, deleted bool) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	was, ok := w.targets[cluster][t.Name]
	if ok && !deleted && sameTarget(was, t) {
		return false
	}
	set(w.targets, cluster, t.Name, t, deleted)
	w.forget(cluster, true)
	return true
}

func sameTarget(a, b engine.Target) bool {
	return a.Key == b.Key && a.Ready == b.Ready && a.Evicted == b.Evicted && a.NotReadySince.Equal(b.NotReadySince) && a.Unschedulable == b.Unschedulable &&
		equality.Semantic.DeepEqual(a.Labels, b.Labels) && equality.Semantic.DeepEqual(a.Taints, b.Taints) &&
		equality.Semantic.DeepEqual(a.Resources, b.Resources) && equality.Semantic.DeepEqual(a.Allocatable, b.Allocatable) &&
		slices.Equal(a.LogicalClusters, b.LogicalClusters)
}

func set[V any](m map[logicalcluster.Name]map[string]V, cluster logicalcluster.Name, name string, v V, deleted bool) {
	if deleted {
		delete(m[cluster], name)
		if len(m[cluster]) == 0 {
			delete(m, cluster)
		}
		return
	}
	if m[cluster] == nil {
		m[cluster] = map[string]V{}
	}
	m[cluster][name] = v
}

// placement is placement id as last watched, nil if there is none.
func (w *world) placement(id placementID) *placementv1alpha1.Placement {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return w.placements[id.cluster][id.name]
}

// placementsWithin are the placements of root and its descendants.
func (w *world) placementsWithin(root logicalcluster.Name) []placementID {
	w.mu.RLock()
	defer w.mu.RUnlock()
	var ids []placementID
	for c, byName := range w.placements {
		if within(c, root) {
			for name := range byName {
				ids = append(ids, placementID{c, name})
			}
		}
	}
	return ids
}
