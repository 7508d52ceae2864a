package placement

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	placementv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/placement/v1alpha1"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	engine "github.com/canopy-dev/canopy/pkg/placement"
)

// TestWithOverrides: each target placement put the object on gets the
// actions of the rules selecting it, in the same assignment; one no rule
// selects, or that placement did not put the object on, gets none.
func TestWithOverrides(t *testing.T) {
	one := int32(1)
	policy, err := engine.Compile(&placementv1alpha1.Placement{ObjectMeta: metav1.ObjectMeta{Name: "p"}, Spec: placementv1alpha1.PlacementSpec{
		Overrides: []placementv1alpha1.Override{{Name: "canary", Targets: placementv1alpha1.TargetSelector{
			LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"canary": "true"}}},
			ObjectOverride: workloadv1alpha1.ObjectOverride{Replicas: &one}}},
	}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	target := func(name string, labels map[string]string) engine.Target {
		return engine.Target{Cluster: logicalcluster.Root, Name: name, Key: workloadv1alpha1.TargetKey("root", name), Labels: labels}
	}
	canary, plain, byHand := target("pc1", map[string]string{"canary": "true"}), target("pc2", nil), target("pc3", map[string]string{"canary": "true"})
	from := assignment{labels: map[string]string{label(byHand.Key): "Sync"}, annotations: map[string]string{
		workloadv1alpha1.OverridesAnnotation(plain.Key):  `[{"replicas":5}]`,
		workloadv1alpha1.OverridesAnnotation(byHand.Key): `[{"replicas":5}]`,
	}}
	out := assign(from, ptr(3), map[string]int32{canary.Key: 3, plain.Key: 3}, func(string, int32) bool { return true })
	if err := withOverrides(&out, from, policy, []engine.Target{canary, plain, byHand}); err != nil {
		t.Fatal(err)
	}
	if got := out.annotations[workloadv1alpha1.OverridesAnnotation(canary.Key)]; got != `[{"replicas":1}]` {
		t.Errorf("the canary's overrides %q", got)
	}
	for _, key := range []string{plain.Key, byHand.Key} {
		if got, ok := out.annotations[workloadv1alpha1.OverridesAnnotation(key)]; ok {
			t.Errorf("target %s keeps overrides %q", key, got)
		}
	}
	if !out.changed {
		t.Error("the overrides changed nothing")
	}
}
