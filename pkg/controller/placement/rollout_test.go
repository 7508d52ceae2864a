package placement

import (
	"encoding/json"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	placementv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/placement/v1alpha1"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	engine "github.com/canopy-dev/canopy/pkg/placement"
)

// TestWithRollout: the first placement pins every target to the spec; a
// new spec goes to the canary's wave alone, the others keeping the old
// revision's spec; the canary's report of the new revision, healthy,
// starts the next wave after the soak; the state is on the object.
func TestWithRollout(t *testing.T) {
	spec := placementv1alpha1.PlacementSpec{Rollout: &placementv1alpha1.RolloutStrategy{
		Waves:    []placementv1alpha1.RolloutWave{{Name: "canary", Targets: placementv1alpha1.TargetSelector{Expression: "name == 'pc1'"}}},
		SoakTime: &metav1.Duration{Duration: 10 * time.Second},
	}}
	placementv1alpha1.SetDefaults(&spec)
	policy, err := engine.Compile(&placementv1alpha1.Placement{ObjectMeta: metav1.ObjectMeta{Name: "p"}, Spec: spec}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var targets []engine.Target
	for _, name := range []string{"pc1", "pc2", "pc3"} {
		targets = append(targets, engine.Target{Cluster: logicalcluster.Root, Name: name, Key: workloadv1alpha1.TargetKey("root", name)})
	}
	k1, k2 := targets[0].Key, targets[1].Key
	deployment := func(image string, generation int64, a assignment) *appsv1.Deployment {
		return &appsv1.Deployment{
			ObjectMeta: metav1.ObjectMeta{Name: "web", Generation: generation, Labels: a.labels, Annotations: a.annotations},
			Spec: appsv1.DeploymentSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
				Containers: []corev1.Container{{Name: "c", Image: image}}}}},
		}
	}
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	look := func(from assignment, d *appsv1.Deployment, at time.Time) (outcome, engine.Progress) {
		t.Helper()
		out := assign(from, nil, map[string]int32{k1: 0, k2: 0, targets[2].Key: 0}, func(string, int32) bool { return true })
		p, err := withRollout(&out, from, d, policy, targets, annotated(out.annotations), at)
		if err != nil {
			t.Fatal(err)
		}
		return out, p
	}

	out, _ := look(assignment{}, deployment("nginx:1.27", 1, assignment{}), now)
	r1 := out.annotations[workloadv1alpha1.RevisionAnnotation(k1)]
	if r1 == "" || out.annotations[workloadv1alpha1.RevisionAnnotation(k2)] != r1 || out.annotations[workloadv1alpha1.SpecAnnotation(r1)] == "" {
		t.Fatalf("the first placement does not pin every target to the spec: %v", out.annotations)
	}

	out, p := look(out.assignment, deployment("nginx:1.28", 2, out.assignment), now)
	r2 := p.State.To
	if r2 == r1 || out.annotations[workloadv1alpha1.RevisionAnnotation(k1)] != r2 || out.annotations[workloadv1alpha1.RevisionAnnotation(k2)] != r1 {
		t.Fatalf("a new spec: pc1 %s, pc2 %s; want %s and %s", out.annotations[workloadv1alpha1.RevisionAnnotation(k1)],
			out.annotations[workloadv1alpha1.RevisionAnnotation(k2)], r2, r1)
	}

	report, _ := json.Marshal(map[string]any{workloadv1alpha1.ReportRevisionField: r2, "observedGeneration": 2, "replicas": 1, "updatedReplicas": 1, "availableReplicas": 1})
	out.annotations[workloadv1alpha1.StatusAnnotation(k1)] = string(report)
	out, p = look(out.assignment, deployment("nginx:1.28", 2, out.assignment), now.Add(time.Second))
	if out.annotations[workloadv1alpha1.RevisionAnnotation(k2)] != r1 || !p.RecheckAt.Equal(now.Add(11*time.Second)) {
		t.Fatalf("pc1 healthy: pc2 runs %s, recheck at %s; want %s and the end of the soak", out.annotations[workloadv1alpha1.RevisionAnnotation(k2)], p.RecheckAt, r1)
	}
	out, p = look(out.assignment, deployment("nginx:1.28", 2, out.assignment), now.Add(11*time.Second))
	if out.annotations[workloadv1alpha1.RevisionAnnotation(k2)] != r2 || p.State.Step != 1 || p.Event == "" {
		t.Fatalf("pc1 soaked: pc2 runs %s, state %+v", out.annotations[workloadv1alpha1.RevisionAnnotation(k2)], p.State)
	}
	var stored engine.RolloutState
	if err := json.Unmarshal([]byte(out.annotations[workloadv1alpha1.RolloutAnnotation]), &stored); err != nil || stored.Step != 1 || stored.From != r1 {
		t.Errorf("the state on the object: %+v, %v", stored, err)
	}
}

// annotated picks each target's report from its status annotation in
// annotations, as they are when asked.
func annotated(annotations map[string]string) func(key string) (string, bool) {
	return func(key string) (string, bool) {
		raw, ok := annotations[workloadv1alpha1.StatusAnnotation(key)]
		return raw, ok
	}
}
