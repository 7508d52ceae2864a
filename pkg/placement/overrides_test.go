package placement

import (
	"fmt"
	"testing"

	placementv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/placement/v1alpha1"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// TestOverrides resolves the acceptance test's rules: a registry rewrite
// for region us, and one replica for a canary target picked by an
// expression, in their order.
func TestOverrides(t *testing.T) {
	one := int32(1)
	p, err := Compile(placement(placementv1alpha1.PlacementSpec{Overrides: []placementv1alpha1.Override{
		{Name: "us-registry", Targets: placementv1alpha1.TargetSelector{LabelSelector: matchLabels("region=us")},
			ObjectOverride: workloadv1alpha1.ObjectOverride{Image: &workloadv1alpha1.ImageOverride{Registry: "us.example.com"}}},
		{Name: "canary", Targets: placementv1alpha1.TargetSelector{Expression: "labels['canary'] == 'true'"},
			ObjectOverride: workloadv1alpha1.ObjectOverride{Replicas: &one}},
	}}), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		target Target
		want   string
	}{
		{target("pc1", "region=eu", "canary=true"), "[canary]"},
		{target("pc2", "region=eu"), "[]"},
		{target("pc3", "region=us", "canary=true"), "[us-registry canary]"},
	} {
		names, actions := p.Overrides(&tc.target)
		if got := fmt.Sprint(names); got != tc.want && !(tc.want == "[]" && names == nil) {
			t.Errorf("%s: rules %s, want %s", tc.target.Name, got, tc.want)
		}
		if len(actions) != len(names) {
			t.Errorf("%s: %d actions for rules %v", tc.target.Name, len(actions), names)
		}
	}
	if _, err := Compile(placement(placementv1alpha1.PlacementSpec{Overrides: []placementv1alpha1.Override{
		{Name: "bad", Targets: placementv1alpha1.TargetSelector{Expression: "labels["}},
	}}), nil); err == nil {
		t.Error("a rule whose expression does not compile compiled")
	}
}
