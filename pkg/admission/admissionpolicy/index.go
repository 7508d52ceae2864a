package admissionpolicy

import (
	"maps"
	"slices"
	"strings"
	"sync"

	"k8s.io/apiserver/pkg/admission/plugin/policy/generic"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// InheritLabel on a binding set to InheritDescendants makes it, with its
// policy, apply in every logical cluster below its own as well as in its
// own. Both objects stay in the ancestor, where those who administer a
// descendant have no rights unless granted there, so they can neither
// remove nor change them; and whatever the descendant sets itself only
// adds to them: any policy that denies a request denies it, and the
// descendant's mutations run before the inherited ones, which so have the
// last word, and before any validation, which sees the final object. Its
// selectors, though, read the labels of the descendant's namespaces and
// objects, which the descendant sets: a policy that must hold whatever
// the descendant does matches by resource rules and matchConditions.
const (
	InheritLabel       = "admission.canopy.dev/inherit"
	InheritDescendants = "descendants"
)

// index holds the policies and bindings of every logical cluster that has
// any, and what each evaluates: a logical cluster without them has no
// entry, so that its requests cost a map lookup.
type index[P, B object, E any] struct {
	kind       *kind[P, B, E]
	evaluators *evaluators[P, B, E]
	params     paramStores

	mu       sync.RWMutex
	clusters map[logicalcluster.Name]*clusterPolicies[P, B, E]
	// inheriting counts the clusters with bindings for their
	// descendants; while it is zero no request looks at its ancestors.
	inheriting int
}

// clusterPolicies are the policies and bindings of one logical cluster;
// own and inherited are rebuilt on each change of either, never changed
// in place, so that requests may keep them.
type clusterPolicies[P, B object, E any] struct {
	policies map[string]compiledPolicy[P, E]
	bindings map[string]B
	// own are the hooks of the cluster's requests; inherited those that
	// also apply below it: its policies with only their inherited
	// bindings.
	own, inherited []generic.PolicyHook[P, B, E]
}

type compiledPolicy[P object, E any] struct {
	policy    P
	key       specKey
	evaluator E
}

func newIndex[P, B object, E any](k *kind[P, B, E], params paramStores) *index[P, B, E] {
	return &index[P, B, E]{kind: k, evaluators: newEvaluators(k), params: params, clusters: map[logicalcluster.Name]*clusterPolicies[P, B, E]{}}
}

// hooksFor returns what applies to a request in cluster, in the order
// they run: its own hooks, then those its ancestors' inherited bindings
// call for, from the nearest ancestor to root. Mutations apply in that
// order, so an inherited policy's have the last word over what the
// cluster's own set, and root's over all. The caller must not change the
// slice.
func (x *index[P, B, E]) hooksFor(cluster logicalcluster.Name) []generic.PolicyHook[P, B, E] {
	x.mu.RLock()
	defer x.mu.RUnlock()
	var own []generic.PolicyHook[P, B, E]
	if c := x.clusters[cluster]; c != nil {
		own = c.own
	}
	if x.inheriting == 0 {
		return own
	}
	// Clipped, so that appending makes a slice of this request's own
	// instead of writing into the cluster's, which other requests share.
	hooks := slices.Clip(own)
	for p, ok := cluster.Parent(); ok; p, ok = p.Parent() {
		if c := x.clusters[p]; c != nil {
			hooks = append(hooks, c.inherited...)
		}
	}
	return hooks
}

// cluster returns the entry of name, making it; callers hold mu.
func (x *index[P, B, E]) cluster(name logicalcluster.Name) *clusterPolicies[P, B, E] {
	c := x.clusters[name]
	if c == nil {
		c = &clusterPolicies[P, B, E]{policies: map[string]compiledPolicy[P, E]{}, bindings: map[string]B{}}
		x.clusters[name] = c
	}
	return c
}

// setPolicy adds or replaces a policy of cluster.
func (x *index[P, B, E]) setPolicy(cluster logicalcluster.Name, p P) {
	key, v := x.evaluators.acquire(p)
	x.mu.Lock()
	c := x.cluster(cluster)
	old, had := c.policies[p.GetName()]
	c.policies[p.GetName()] = compiledPolicy[P, E]{policy: p, key: key, evaluator: v}
	x.rebuild(cluster, c)
	x.mu.Unlock()
	if had {
		x.evaluators.release(old.key)
	}
}

// deletePolicy removes a policy of cluster.
func (x *index[P, B, E]) deletePolicy(cluster logicalcluster.Name, name string) {
	x.mu.Lock()
	c := x.clusters[cluster]
	if c == nil {
		x.mu.Unlock()
		return
	}
	old, had := c.policies[name]
	delete(c.policies, name)
	x.rebuild(cluster, c)
	x.mu.Unlock()
	if had {
		x.evaluators.release(old.key)
	}
}

// setBinding adds or replaces a binding of cluster.
func (x *index[P, B, E]) setBinding(cluster logicalcluster.Name, b B) {
	x.mu.Lock()
	defer x.mu.Unlock()
	c := x.cluster(cluster)
	c.bindings[b.GetName()] = b
	x.rebuild(cluster, c)
}

// deleteBinding removes a binding of cluster.
func (x *index[P, B, E]) deleteBinding(cluster logicalcluster.Name, name string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if c := x.clusters[cluster]; c != nil {
		delete(c.bindings, name)
		x.rebuild(cluster, c)
	}
}

// rebuild recomputes the hooks of c, and drops it once it holds nothing;
// callers hold mu.
func (x *index[P, B, E]) rebuild(name logicalcluster.Name, c *clusterPolicies[P, B, E]) {
	if len(c.inherited) > 0 {
		x.inheriting--
	}
	c.own, c.inherited = nil, nil
	if len(c.policies) == 0 && len(c.bindings) == 0 {
		delete(x.clusters, name)
		return
	}
	byPolicy := map[string][]B{}
	for _, b := range c.bindings {
		n := x.kind.policyName(b)
		byPolicy[n] = append(byPolicy[n], b)
	}
	// Sorted, so that the first denial reported is the same each time.
	for _, policyName := range slices.Sorted(maps.Keys(c.policies)) {
		bindings := byPolicy[policyName]
		if len(bindings) == 0 {
			continue
		}
		slices.SortFunc(bindings, func(a, b B) int { return strings.Compare(a.GetName(), b.GetName()) })
		p := c.policies[policyName]
		h := generic.PolicyHook[P, B, E]{Policy: p.policy, Bindings: bindings, Evaluator: p.evaluator}
		if kind := x.kind.paramKind(p.policy); kind != nil {
			h.ParamInformer, h.ParamScope, h.ConfigurationError = x.params.paramsOf(name, kind)
		}
		c.own = append(c.own, h)
		h.Bindings = slices.DeleteFunc(slices.Clone(bindings), func(b B) bool { return b.GetLabels()[InheritLabel] != InheritDescendants })
		if len(h.Bindings) > 0 {
			c.inherited = append(c.inherited, h)
		}
	}
	if len(c.inherited) > 0 {
		x.inheriting++
	}
}
