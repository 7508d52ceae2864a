package placement

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apiserver/pkg/cel/environment"

	placementv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/placement/v1alpha1"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// Constraint is a PlacementConstraint and the logical cluster it is in.
type Constraint struct {
	Cluster logicalcluster.Name
	*placementv1alpha1.PlacementConstraint
}

// Policy is a Placement compiled with the constraints that bind it: its
// selectors parsed and its expressions compiled once, for deciding many
// objects.
type Policy struct {
	// Name and Priority order policies selecting the same object.
	Name     string
	Priority int32

	namespaces  labels.Selector
	resources   []workloadv1alpha1.GroupResource
	required    selector
	groups      []group
	constraints []constraint
	tolerations []corev1.Toleration
	strategy    placementv1alpha1.Strategy
	weights     []weight
	failover    bool
	grace       time.Duration
	overrides   []override
	rollout     *rollout
}

// selector is a compiled TargetSelector; a nil part selects everything.
type selector struct {
	labels labels.Selector
	expr   *expression
}

type group struct {
	name string
	selector
}

type constraint struct {
	// name is <cluster>/<name>, as explanations name it.
	name string
	selector
}

type weight struct {
	labels labels.Selector
	weight uint64
}

// Compile compiles placement p, bound by constraints: those of the
// logical cluster of the objects it places and of its ancestors. p is
// taken with its defaults, whether or not they were stored.
func Compile(p *placementv1alpha1.Placement, constraints []Constraint) (*Policy, error) {
	spec := *p.Spec.DeepCopy()
	placementv1alpha1.SetDefaults(&spec)
	pol := &Policy{
		Name:        p.Name,
		Priority:    spec.Priority,
		resources:   spec.Resources,
		tolerations: spec.Tolerations,
		strategy:    spec.Strategy,
		failover:    !spec.Failover.Disabled,
		grace:       spec.Failover.GracePeriod.Duration,
	}
	var err error
	if pol.namespaces, err = labelSelector(spec.NamespaceSelector); err != nil {
		return nil, fmt.Errorf("placement %s: spec.namespaceSelector: %w", p.Name, err)
	}
	if pol.required, err = compileSelector(spec.Targets.TargetSelector); err != nil {
		return nil, fmt.Errorf("placement %s: spec.targets: %w", p.Name, err)
	}
	for _, g := range spec.Targets.PreferenceGroups {
		s, err := compileSelector(g.TargetSelector)
		if err != nil {
			return nil, fmt.Errorf("placement %s: preference group %s: %w", p.Name, g.Name, err)
		}
		pol.groups = append(pol.groups, group{name: g.Name, selector: s})
	}
	for _, c := range constraints {
		s, err := compileSelector(c.Spec.AllowedTargets)
		if err != nil {
			return nil, fmt.Errorf("PlacementConstraint %s/%s: %w", c.Cluster, c.Name, err)
		}
		pol.constraints = append(pol.constraints, constraint{name: string(c.Cluster) + "/" + c.Name, selector: s})
	}
	if err := pol.compileOverrides(p.Name, spec.Overrides); err != nil {
		return nil, err
	}
	if pol.rollout, err = compileRollout(p.Name, spec.Rollout); err != nil {
		return nil, err
	}
	if d := spec.Strategy.Divide; spec.Strategy.Type == placementv1alpha1.StrategyDivide && d.By == placementv1alpha1.DivideByWeights {
		for i, w := range d.Weights {
			s, err := labelSelector(w.LabelSelector)
			if err != nil {
				return nil, fmt.Errorf("placement %s: spec.strategy.divide.weights[%d]: %w", p.Name, i, err)
			}
			pol.weights = append(pol.weights, weight{labels: s, weight: uint64(max(w.Weight, 0))})
		}
	}
	return pol, nil
}

func compileSelector(s placementv1alpha1.TargetSelector) (selector, error) {
	ls, err := labelSelector(s.LabelSelector)
	if err != nil {
		return selector{}, fmt.Errorf("labelSelector: %w", err)
	}
	out := selector{labels: ls}
	if s.Expression != "" {
		if out.expr, err = compileExpression(s.Expression, environment.StoredExpressions); err != nil {
			return selector{}, fmt.Errorf("expression: %w", err)
		}
	}
	return out, nil
}

// labelSelector is s parsed, everything when unset.
func labelSelector(s *metav1.LabelSelector) (labels.Selector, error) {
	if s == nil {
		return labels.Everything(), nil
	}
	return metav1.LabelSelectorAsSelector(s)
}

// matches says whether target t, with CEL variables vars, is selected,
// and if not, why.
func (s selector) matches(t *Target, vars func() map[string]any) (bool, string) {
	if !s.labels.Matches(labels.Set(t.Labels)) {
		return false, fmt.Sprintf("labels do not match %s", s.labels)
	}
	if s.expr == nil {
		return true, ""
	}
	ok, err := s.expr.matches(vars())
	switch {
	case err != nil:
		return false, fmt.Sprintf("expression %q failed: %v", s.expr.source, err)
	case !ok:
		return false, fmt.Sprintf("expression %q is false", s.expr.source)
	}
	return true, ""
}

// Selects is whether p places objects of resource gr in a namespace with
// labels ns.
func (p *Policy) Selects(ns labels.Set, gr workloadv1alpha1.GroupResource) bool {
	return p.namespaces.Matches(ns) && (len(p.resources) == 0 || slices.Contains(p.resources, gr))
}

// Choose is the policy among policies that places objects of resource gr
// in a namespace with labels ns: of those selecting them, the one of
// highest priority, then of the alphabetically first name; nil if none
// does.
func Choose(policies []*Policy, ns labels.Set, gr workloadv1alpha1.GroupResource) *Policy {
	var chosen *Policy
	for _, p := range policies {
		if !p.Selects(ns, gr) {
			continue
		}
		if chosen == nil || p.Priority > chosen.Priority || p.Priority == chosen.Priority && p.Name < chosen.Name {
			chosen = p
		}
	}
	return chosen
}

// Applicable are the placements of the objects of a logical cluster,
// given the placements of each logical cluster of its Lineage, its own
// first: its own, if it has any, or else those with inheritance
// Descendants of its nearest ancestor that has some; with the index in
// lineage of the logical cluster they are in.
func Applicable(lineage [][]*placementv1alpha1.Placement) (int, []*placementv1alpha1.Placement) {
	if len(lineage) == 0 {
		return 0, nil
	}
	if len(lineage[0]) > 0 {
		return 0, lineage[0]
	}
	for i, placements := range lineage[1:] {
		var inherited []*placementv1alpha1.Placement
		for _, p := range placements {
			if p.Spec.Inheritance == placementv1alpha1.InheritanceDescendants {
				inherited = append(inherited, p)
			}
		}
		if len(inherited) > 0 {
			return i + 1, inherited
		}
	}
	return 0, nil
}

// weightOf is target t's weight under p's Divide strategy: its share of
// the replicas is in proportion to it.
func (p *Policy) weightOf(t *Target) (uint64, string) {
	d := p.strategy.Divide
	if d.By == placementv1alpha1.DivideByCapacity {
		q, ok := t.Allocatable[d.Resource]
		if !ok || q.Sign() <= 0 {
			return 0, fmt.Sprintf("no allocatable %s to divide replicas by", d.Resource)
		}
		return uint64(q.MilliValue()), ""
	}
	if len(p.weights) == 0 {
		return 1, ""
	}
	for _, w := range p.weights {
		if w.labels.Matches(labels.Set(t.Labels)) {
			if w.weight == 0 {
				return 0, fmt.Sprintf("weight 0, from the weight for %s", w.labels)
			}
			return w.weight, ""
		}
	}
	return 0, "no weight selects it"
}

// replicaCap is how many replicas, or whole objects without replicas,
// of requests target t can hold: MaxInt32 when it requests nothing.
func replicaCap(t *Target, requests corev1.ResourceList) (int32, string) {
	most := int64(math.MaxInt32)
	var short []string
	for name, req := range requests {
		r := req.MilliValue()
		if r <= 0 {
			continue
		}
		have := t.Allocatable[name]
		n := have.MilliValue() / r
		if n == 0 {
			short = append(short, fmt.Sprintf("%s %s of %s", name, have.String(), req.String()))
		}
		most = min(most, n)
	}
	if len(short) > 0 {
		slices.Sort(short)
		return 0, "allocatable " + strings.Join(short, ", ") + " requested"
	}
	return int32(most), ""
}
