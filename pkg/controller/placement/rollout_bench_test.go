package placement

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	placementv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/placement/v1alpha1"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	engine "github.com/canopy-dev/canopy/pkg/placement"
)

// BenchmarkRolloutLook is the hub's part of the time from a wave turning
// healthy to the next wave's write (bench/rollout.sh): one look of
// placement's rollout at a Deployment on 50 targets in 10 waves of 5,
// the wave in progress healthy past its soak, deciding the next wave's
// revisions and the state to write.
func BenchmarkRolloutLook(b *testing.B) {
	five := intstr.FromInt32(5)
	spec := placementv1alpha1.PlacementSpec{Rollout: &placementv1alpha1.RolloutStrategy{
		Waves: []placementv1alpha1.RolloutWave{{Name: "all", MaxTargets: &five}},
	}}
	placementv1alpha1.SetDefaults(&spec)
	policy, err := engine.Compile(&placementv1alpha1.Placement{ObjectMeta: metav1.ObjectMeta{Name: "p"}, Spec: spec}, nil)
	if err != nil {
		b.Fatal(err)
	}
	var targets []engine.Target
	selected := map[string]int32{}
	for i := range 50 {
		name := fmt.Sprintf("pc%02d", i)
		t := engine.Target{Cluster: logicalcluster.Root, Name: name, Key: workloadv1alpha1.TargetKey("root", name)}
		targets = append(targets, t)
		selected[t.Key] = 0
	}
	d := func(image string, a assignment) *appsv1.Deployment {
		return &appsv1.Deployment{
			ObjectMeta: metav1.ObjectMeta{Name: "web", Generation: 2, Labels: a.labels, Annotations: a.annotations},
			Spec: appsv1.DeploymentSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
				Containers: []corev1.Container{{Name: "c", Image: image}}}}},
		}
	}
	now := time.Now()
	look := func(from assignment, obj *appsv1.Deployment) (outcome, engine.Progress) {
		out := assign(from, nil, selected, func(string, int32) bool { return true })
		p, err := withRollout(&out, from, obj, policy, targets, annotated(out.annotations), now)
		if err != nil {
			b.Fatal(err)
		}
		return out, p
	}
	out, _ := look(assignment{}, d("nginx:1.27", assignment{}))
	out, p := look(out.assignment, d("nginx:1.28", out.assignment))
	// The first wave reports the new revision, healthy.
	for key, rev := range p.Revisions {
		if rev == p.State.To {
			report, _ := json.Marshal(map[string]any{workloadv1alpha1.ReportRevisionField: rev, "observedGeneration": 2})
			out.annotations[workloadv1alpha1.StatusAnnotation(key)] = string(report)
		}
	}
	from, obj := out.assignment, d("nginx:1.28", out.assignment)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, p := look(from, obj); p.State.Step != 1 {
			b.Fatalf("the look did not start the next wave: %+v", p.State)
		}
	}
}
