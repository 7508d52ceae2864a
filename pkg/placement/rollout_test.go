package placement

import (
	"fmt"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	placementv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/placement/v1alpha1"
)

// rolloutPolicy is a placement with rollout strategy r, defaulted.
func rolloutPolicy(t *testing.T, r placementv1alpha1.RolloutStrategy) *Policy {
	t.Helper()
	p, err := Compile(placement(placementv1alpha1.PlacementSpec{Rollout: &r}), nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRolloutSteps(t *testing.T) {
	two := intstr.FromInt32(2)
	half := intstr.FromString("50%")
	var targets []Target
	for i := range 6 {
		region := "eu"
		if i >= 3 {
			region = "us"
		}
		targets = append(targets, target(fmt.Sprintf("pc%d", i+1), "region="+region))
	}
	name := func(key string) string {
		for _, t := range targets {
			if t.Key == key {
				return t.Name
			}
		}
		return key
	}
	show := func(steps []Step) string {
		var out []string
		for _, s := range steps {
			var names []string
			for _, k := range s.Keys {
				names = append(names, name(k))
			}
			out = append(out, s.Wave+":"+strings.Join(names, ","))
		}
		return strings.Join(out, " ")
	}
	for _, tc := range []struct {
		waves []placementv1alpha1.RolloutWave
		want  string
	}{{
		waves: []placementv1alpha1.RolloutWave{
			{Name: "canary", Targets: placementv1alpha1.TargetSelector{Expression: "name == 'pc4'"}},
			{Name: "eu", Targets: placementv1alpha1.TargetSelector{LabelSelector: matchLabels("region=eu")}, MaxTargets: &two},
		},
		want: "canary:pc4 eu:pc1,pc2 eu:pc3 rest:pc5,pc6",
	}, {
		waves: []placementv1alpha1.RolloutWave{{Name: "all", MaxTargets: &half}},
		want:  "all:pc1,pc2,pc3 all:pc4,pc5,pc6",
	}} {
		if got := show(rolloutPolicy(t, placementv1alpha1.RolloutStrategy{Waves: tc.waves}).RolloutSteps(targets)); got != tc.want {
			t.Errorf("steps %s, want %s", got, tc.want)
		}
	}
	if steps := rolloutPolicy(t, placementv1alpha1.RolloutStrategy{}).RolloutSteps(nil); len(steps) != 0 {
		t.Errorf("steps of no targets: %v", steps)
	}
}

func TestHealthy(t *testing.T) {
	p := rolloutPolicy(t, placementv1alpha1.RolloutStrategy{HealthChecks: []placementv1alpha1.HealthCheck{
		{Name: "ready", Expression: "status.readyReplicas >= 2"},
	}})
	report := func(revision, status string) Report {
		r, err := ReportFrom(strings.Replace(status, "{", `{"canopyRevision":"`+revision+`",`, 1))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, tc := range []struct {
		report Report
		want   string
	}{
		{report("r1", `{"observedGeneration":4,"updatedReplicas":3,"availableReplicas":3,"readyReplicas":3}`), "runs revision \"r1\""},
		{report("r2", `{"observedGeneration":3,"updatedReplicas":3,"availableReplicas":3,"readyReplicas":3}`), "not observed generation 4"},
		{report("r2", `{"observedGeneration":4,"replicas":4,"updatedReplicas":1,"availableReplicas":3,"readyReplicas":3}`), "1 of 4 replicas updated"},
		{report("r2", `{"observedGeneration":4,"updatedReplicas":3,"availableReplicas":3,"readyReplicas":1}`), "health check ready"},
		{report("r2", `{"observedGeneration":4,"updatedReplicas":3,"availableReplicas":3,"readyReplicas":3,"conditions":[{"type":"Available","status":"False"}]}`), "Available is False"},
		{report("r2", `{"observedGeneration":4,"updatedReplicas":3,"availableReplicas":3,"readyReplicas":3}`), ""},
	} {
		ok, why := p.Healthy(tc.report, "r2", 4)
		if ok != (tc.want == "") || !strings.Contains(why, tc.want) {
			t.Errorf("%+v: healthy %v, %q; want %q", tc.report, ok, why, tc.want)
		}
	}
}

// TestAdvance walks a rollout of waves [pc1], [pc2, pc3] with a soak of
// 10 s: pc1 first, the next wave only after pc1 soaked, then complete;
// and a bad one that pauses, or rolls back, at the deadline, never
// reaching pc2 and pc3.
func TestAdvance(t *testing.T) {
	strategy := func(onFailure placementv1alpha1.RolloutFailurePolicy) placementv1alpha1.RolloutStrategy {
		return placementv1alpha1.RolloutStrategy{
			Waves:            []placementv1alpha1.RolloutWave{{Name: "canary", Targets: placementv1alpha1.TargetSelector{Expression: "name == 'pc1'"}}},
			SoakTime:         &metav1.Duration{Duration: 10 * time.Second},
			ProgressDeadline: &metav1.Duration{Duration: time.Minute},
			OnFailure:        onFailure,
		}
	}
	p := rolloutPolicy(t, strategy(placementv1alpha1.RolloutPause))
	targets := pcs()
	steps := p.RolloutSteps(targets)
	k1, k2 := targets[0].Key, targets[1].Key
	healthy := map[string]bool{}
	health := func(key string) (bool, string) { return healthy[key], "not yet" }
	s := RolloutState{From: "r1", To: "r2", Phase: PhaseProgressing, Since: now}

	pr := p.Advance(s, steps, health, now)
	if pr.Revisions[k1] != "r2" || pr.Revisions[k2] != "r1" || pr.State.Step != 0 || !pr.RecheckAt.Equal(now.Add(time.Minute)) {
		t.Fatalf("start: %+v", pr)
	}
	healthy[k1] = true
	pr = p.Advance(pr.State, steps, health, now.Add(time.Second))
	if pr.Revisions[k2] != "r1" || !pr.RecheckAt.Equal(now.Add(11*time.Second)) {
		t.Fatalf("pc1 healthy, soaking: %+v", pr)
	}
	pr = p.Advance(pr.State, steps, health, now.Add(11*time.Second))
	if pr.State.Step != 1 || pr.Revisions[k2] != "r2" || !strings.Contains(pr.Event, "wave canary (step 1 of 2) healthy") {
		t.Fatalf("pc1 soaked: %+v", pr)
	}
	healthy[k2], healthy[targets[2].Key] = true, true
	pr = p.Advance(pr.State, steps, health, now.Add(12*time.Second))
	pr = p.Advance(pr.State, steps, health, now.Add(22*time.Second))
	if pr.State.Phase != PhaseComplete || pr.Revisions[k2] != "r2" {
		t.Fatalf("complete: %+v", pr)
	}

	for _, tc := range []struct {
		onFailure placementv1alpha1.RolloutFailurePolicy
		phase     Phase
		pc1       string
	}{{placementv1alpha1.RolloutPause, PhaseFailed, "r2"}, {placementv1alpha1.RolloutRollback, PhaseRolledBack, "r1"}} {
		p := rolloutPolicy(t, strategy(tc.onFailure))
		healthy := func(string) (bool, string) { return false, "0 of 3 replicas available" }
		pr := p.Advance(s, steps, healthy, now.Add(time.Minute))
		if pr.State.Phase != tc.phase || pr.Revisions[k1] != tc.pc1 || pr.Revisions[k2] != "r1" || !pr.Warning ||
			!strings.Contains(pr.Event, "not healthy within 1m0s") {
			t.Errorf("%s: %+v", tc.onFailure, pr)
		}
		// Stopped, it moves nothing.
		if again := p.Advance(pr.State, steps, healthy, now.Add(time.Hour)); again.State != pr.State || again.Event != "" {
			t.Errorf("%s, later: %+v", tc.onFailure, again)
		}
	}
}

// TestAdvanceWaitsQuiet checks that what a wave waits for is written as
// the wave starts and then held for waitsQuiet, however often its
// targets' reports change it, with a look due once it is up; that a
// wave turning unhealthy again while soaking says so at once; and that
// a later step, or a wave still waiting past waitsQuiet, brings the
// message up to date.
func TestAdvanceWaitsQuiet(t *testing.T) {
	p := rolloutPolicy(t, placementv1alpha1.RolloutStrategy{
		Waves:            []placementv1alpha1.RolloutWave{{Name: "canary", Targets: placementv1alpha1.TargetSelector{Expression: "name == 'pc1'"}}},
		SoakTime:         &metav1.Duration{Duration: 10 * time.Second},
		ProgressDeadline: &metav1.Duration{Duration: time.Minute},
	})
	steps := p.RolloutSteps(pcs())
	reason := "not reported"
	healthy := false
	health := func(string) (bool, string) { return healthy, reason }
	start := p.Advance(RolloutState{From: "r1", To: "r2", Phase: PhaseProgressing, Since: now}, steps, health, now)
	if !strings.HasSuffix(start.State.Message, "waits: target "+pcs()[0].Key+": not reported") {
		t.Fatalf("start: %+v", start)
	}
	reason = "0 of 1 replicas updated"
	held := p.Advance(start.State, steps, health, now.Add(2*time.Second))
	if held.State != start.State || !held.RecheckAt.Equal(now.Add(waitsQuiet)) {
		t.Errorf("a changed reason within waitsQuiet: %+v; want the state as the step started, a look at %s", held, now.Add(waitsQuiet))
	}
	later := p.Advance(held.State, steps, health, now.Add(waitsQuiet))
	if !strings.HasSuffix(later.State.Message, reason) || !later.RecheckAt.Equal(now.Add(time.Minute)) {
		t.Errorf("still waiting after waitsQuiet: %+v", later)
	}

	healthy = true
	soaking := p.Advance(start.State, steps, health, now.Add(time.Second))
	healthy, reason = false, "0 of 1 replicas available"
	again := p.Advance(soaking.State, steps, health, now.Add(2*time.Second))
	if !strings.HasSuffix(again.State.Message, reason) || !again.State.HealthySince.IsZero() {
		t.Errorf("unhealthy again while soaking: %+v", again)
	}

	healthy = true
	soaked := p.Advance(soaking.State, steps, health, now.Add(11*time.Second))
	if soaked.State.Step != 1 || soaked.State.Message == start.State.Message {
		t.Errorf("the next step: %+v", soaked)
	}
}
