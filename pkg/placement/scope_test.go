package placement

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	placementv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/placement/v1alpha1"
)

func namedPlacement(name string, inheritance placementv1alpha1.Inheritance, required *metav1.LabelSelector) *placementv1alpha1.Placement {
	return &placementv1alpha1.Placement{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: placementv1alpha1.PlacementSpec{
		Inheritance: inheritance,
		Targets:     placementv1alpha1.TargetSelection{TargetSelector: placementv1alpha1.TargetSelector{LabelSelector: required}},
	}}
}

func allowing(name string, required *metav1.LabelSelector) *placementv1alpha1.PlacementConstraint {
	return &placementv1alpha1.PlacementConstraint{ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: placementv1alpha1.PlacementConstraintSpec{AllowedTargets: placementv1alpha1.TargetSelector{LabelSelector: required}}}
}

// A scope takes the placements that apply, says where they are, binds
// them by the constraints of every ancestor, offers the targets of every
// ancestor, and sets aside a placement that does not compile.
func TestNewScope(t *testing.T) {
	eu := namedPlacement("eu", placementv1alpha1.InheritanceDescendants, matchLabels("region=eu"))
	broken := namedPlacement("broken", placementv1alpha1.InheritanceDescendants, &metav1.LabelSelector{
		MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "region", Operator: "Near"}},
	})
	pc1, pc2, pc3 := pcs()[0], pcs()[1], pcs()[2]
	lineage := []Level{
		{Cluster: "root:org:team"},
		{Cluster: "root:org", Placements: []*placementv1alpha1.Placement{broken, eu}, Constraints: []*placementv1alpha1.PlacementConstraint{allowing("no-pc1", &metav1.LabelSelector{
			MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "name", Operator: metav1.LabelSelectorOpNotIn, Values: []string{"pc1"}}},
		})}, Targets: []Target{with(pc2, func(t *Target) { t.Labels["name"] = "pc2" })}},
		{Cluster: "root", Targets: []Target{with(pc1, func(t *Target) { t.Labels["name"] = "pc1" }), pc3}},
	}
	s := NewScope(lineage)
	if s.From != "root:org" {
		t.Errorf("From %q, want the ancestor inherited from, root:org", s.From)
	}
	if len(s.Policies) != 1 || s.Policies[0].Name != "eu" {
		t.Fatalf("policies %v, want eu alone", s.Policies)
	}
	if err := s.Invalid["broken"]; err == nil || !strings.Contains(err.Error(), "placement broken") {
		t.Errorf("invalid placement broken: %v", err)
	}
	if len(s.Targets) != 3 {
		t.Fatalf("candidates %v, want those of root:org and root", s.Targets)
	}
	d := s.Policies[0].Evaluate(s.Targets, now).Decide(object("web", 6, nil))
	assertShares(t, d, map[string]int32{"pc2": 6})
	assertReasons(t, d, map[string]placementv1alpha1.TargetReason{
		"pc1": placementv1alpha1.ReasonConstraint, "pc2": placementv1alpha1.ReasonSelected, "pc3": placementv1alpha1.ReasonLabelMismatch,
	})
	if msg := messageOf(d, "pc1"); !strings.Contains(msg, "root:org/no-pc1") {
		t.Errorf("pc1's message %q does not name the constraint", msg)
	}

	// A placement of the cluster itself is all that applies; none at all
	// leaves the scope without policies, and its targets still listed.
	own := NewScope(append([]Level{{Cluster: "root:org:team", Placements: []*placementv1alpha1.Placement{namedPlacement("team", placementv1alpha1.InheritanceNone, nil)}}}, lineage[1:]...))
	if own.From != "root:org:team" || len(own.Policies) != 1 || own.Policies[0].Name != "team" || len(own.Invalid) != 0 {
		t.Errorf("own placement: from %q, policies %v, invalid %v", own.From, own.Policies, own.Invalid)
	}
	// A target that names the logical clusters it serves is a candidate
	// only there and below.
	only := func(clusters ...string) Target {
		return with(pcs()[0], func(t *Target) { t.LogicalClusters = clusters })
	}
	for _, tc := range []struct {
		clusters []string
		want     int
	}{{nil, 1}, {[]string{"root:org"}, 1}, {[]string{"root:org:team"}, 1}, {[]string{"root:other"}, 0}, {[]string{"root:org:other", "root:org:team:sub"}, 0}} {
		if got := NewScope([]Level{{Cluster: "root:org:team"}, {Cluster: "root:org"}, {Cluster: "root", Targets: []Target{only(tc.clusters...)}}}); len(got.Targets) != tc.want {
			t.Errorf("target for %v: %d candidates in root:org:team, want %d", tc.clusters, len(got.Targets), tc.want)
		}
	}
	none := NewScope([]Level{{Cluster: "root:org"}, {Cluster: "root", Targets: pcs()}})
	if none.From != "" || len(none.Policies) != 0 || len(none.Targets) != 3 {
		t.Errorf("no placement: from %q, policies %v, targets %d", none.From, none.Policies, len(none.Targets))
	}
}
