package placement

import (
	placementv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/placement/v1alpha1"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// Level is what one logical cluster of a lineage holds that placement
// reads.
type Level struct {
	Cluster     logicalcluster.Name
	Placements  []*placementv1alpha1.Placement
	Constraints []*placementv1alpha1.PlacementConstraint
	Targets     []Target
}

// Scope is what places the objects of one logical cluster: the
// placements that apply there, compiled with the constraints of its
// lineage, and the candidate targets, the SyncTargets of its lineage
// that let it use them (spec.logicalClusters).
type Scope struct {
	// From is the logical cluster of the placements that apply: the
	// objects' own, or the ancestor they inherit from; empty if none
	// applies.
	From     logicalcluster.Name
	Policies []*Policy
	// Invalid are the applicable placements that do not compile, by
	// name, with why.
	Invalid map[string]error
	Targets []Target
}

// NewScope is the scope of the objects of lineage[0], given what each
// logical cluster of its Lineage holds, in that order.
func NewScope(lineage []Level) *Scope {
	s := &Scope{Invalid: map[string]error{}}
	placements := make([][]*placementv1alpha1.Placement, len(lineage))
	var constraints []Constraint
	for i, l := range lineage {
		placements[i] = l.Placements
		for _, pc := range l.Constraints {
			constraints = append(constraints, Constraint{Cluster: l.Cluster, PlacementConstraint: pc})
		}
		for _, t := range l.Targets {
			// A target whose spec keeps lineage[0] out is no candidate.
			if workloadv1alpha1.UsableFrom(string(l.Cluster), t.LogicalClusters, string(lineage[0].Cluster)) {
				s.Targets = append(s.Targets, t)
			}
		}
	}
	level, applicable := Applicable(placements)
	if len(applicable) == 0 {
		return s
	}
	s.From = lineage[level].Cluster
	for _, p := range applicable {
		policy, err := Compile(p, constraints)
		if err != nil {
			s.Invalid[p.Name] = err
			continue
		}
		s.Policies = append(s.Policies, policy)
	}
	return s
}
