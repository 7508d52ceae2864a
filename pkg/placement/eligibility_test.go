package placement

import (
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	placementv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/placement/v1alpha1"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

type (
	reasonsOf = map[string]placementv1alpha1.TargetReason
	sharesOf  = map[string]int32
)

const (
	selected     = placementv1alpha1.ReasonSelected
	notChosen    = placementv1alpha1.ReasonNotChosen
	notPreferred = placementv1alpha1.ReasonNotPreferred
	mismatch     = placementv1alpha1.ReasonLabelMismatch
	constrained  = placementv1alpha1.ReasonConstraint
	tainted      = placementv1alpha1.ReasonTaint
	cordoned     = placementv1alpha1.ReasonCordoned
	notReady     = placementv1alpha1.ReasonNotReady
	noRoom       = placementv1alpha1.ReasonInsufficientCapacity
	notAccepted  = placementv1alpha1.ReasonResourceNotAccepted
)

func duplicate() placementv1alpha1.Strategy {
	return placementv1alpha1.Strategy{Type: placementv1alpha1.StrategyDuplicate}
}

func euOnly() Constraint {
	return Constraint{Cluster: "root:org", PlacementConstraint: &placementv1alpha1.PlacementConstraint{
		ObjectMeta: metav1.ObjectMeta{Name: "eu-only"},
		Spec: placementv1alpha1.PlacementConstraintSpec{AllowedTargets: placementv1alpha1.TargetSelector{
			LabelSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
				{Key: "region", Operator: metav1.LabelSelectorOpIn, Values: []string{"eu"}},
			}},
		}},
	}}
}

// TestEligibility decides one object under a Duplicate placement, which
// takes every eligible target, so that each case shows only which
// targets are eligible and why the others are not.
func TestEligibility(t *testing.T) {
	taint := func(effect corev1.TaintEffect, added time.Time) func(*Target) {
		return func(t *Target) {
			t.Taints = []corev1.Taint{{Key: "maintenance", Value: "yes", Effect: effect, TimeAdded: &metav1.Time{Time: added}}}
		}
	}
	notReadyFor := func(d time.Duration) func(*Target) {
		return func(t *Target) { t.Ready, t.NotReadySince = false, now.Add(-d) }
	}
	grace := &metav1.Duration{Duration: time.Minute}
	for _, tc := range []struct {
		name        string
		spec        placementv1alpha1.PlacementSpec
		constraints []Constraint
		targets     []Target
		object      Object
		want        reasonsOf
		message     string
		recheck     time.Time
	}{{
		name:    "all eligible",
		targets: pcs(),
		object:  object("web", -1, nil),
		want:    reasonsOf{"pc1": selected, "pc2": selected, "pc3": selected},
	}, {
		name:    "label selector",
		spec:    placementv1alpha1.PlacementSpec{Targets: placementv1alpha1.TargetSelection{TargetSelector: placementv1alpha1.TargetSelector{LabelSelector: matchLabels("region=eu")}}},
		targets: pcs(),
		object:  object("web", -1, nil),
		want:    reasonsOf{"pc1": selected, "pc2": selected, "pc3": mismatch},
	}, {
		name:        "residency: the constraint allows eu, the placement selects us",
		spec:        placementv1alpha1.PlacementSpec{Targets: placementv1alpha1.TargetSelection{TargetSelector: placementv1alpha1.TargetSelector{LabelSelector: matchLabels("region=us")}}},
		constraints: []Constraint{euOnly()},
		targets:     pcs(),
		object:      object("web", 6, nil),
		want:        reasonsOf{"pc1": mismatch, "pc2": mismatch, "pc3": constrained},
		message:     "no eligible target: LabelMismatch root/pc1, root/pc2 (labels do not match region=us); Constraint root/pc3 (PlacementConstraint root:org/eu-only does not allow it: labels do not match region in (eu))",
	}, {
		name:        "constraints of every ancestor bind",
		constraints: []Constraint{euOnly(), {Cluster: "root", PlacementConstraint: &placementv1alpha1.PlacementConstraint{ObjectMeta: metav1.ObjectMeta{Name: "not-pc2"}, Spec: placementv1alpha1.PlacementConstraintSpec{AllowedTargets: placementv1alpha1.TargetSelector{Expression: "name != 'pc2'"}}}}},
		targets:     pcs(),
		object:      object("web", -1, nil),
		want:        reasonsOf{"pc1": selected, "pc2": constrained, "pc3": constrained},
	}, {
		name:    "expression over labels and allocatable",
		spec:    placementv1alpha1.PlacementSpec{Targets: placementv1alpha1.TargetSelection{TargetSelector: placementv1alpha1.TargetSelector{Expression: "labels['region'] == 'eu' && allocatable['cpu'].isGreaterThan(quantity('8'))"}}},
		targets: []Target{target("pc1", "region=eu"), with(target("pc2", "region=eu"), func(t *Target) { t.Allocatable[corev1.ResourceCPU] = resource.MustParse("4") }), target("pc3", "region=us")},
		object:  object("web", -1, nil),
		want:    reasonsOf{"pc1": selected, "pc2": mismatch, "pc3": mismatch},
	}, {
		name:    "an expression that fails does not select",
		spec:    placementv1alpha1.PlacementSpec{Targets: placementv1alpha1.TargetSelection{TargetSelector: placementv1alpha1.TargetSelector{Expression: "labels['gpu'] == 'a100'"}}},
		targets: []Target{target("pc1", "gpu=a100"), target("pc2")},
		object:  object("web", -1, nil),
		want:    reasonsOf{"pc1": selected, "pc2": mismatch},
	}, {
		name:    "NoSchedule keeps new objects off",
		targets: []Target{target("pc1"), with(target("pc2"), taint(corev1.TaintEffectNoSchedule, now))},
		object:  object("web", -1, nil),
		want:    reasonsOf{"pc1": selected, "pc2": tainted},
	}, {
		name:    "NoSchedule leaves objects in place",
		targets: []Target{target("pc1"), with(target("pc2"), taint(corev1.TaintEffectNoSchedule, now))},
		object:  object("web", -1, sharesOf{"pc2": 0}),
		want:    reasonsOf{"pc1": selected, "pc2": selected},
	}, {
		name:    "a tolerated NoSchedule taint",
		spec:    placementv1alpha1.PlacementSpec{Tolerations: []corev1.Toleration{{Key: "maintenance", Operator: corev1.TolerationOpExists}}},
		targets: []Target{target("pc1"), with(target("pc2"), taint(corev1.TaintEffectNoSchedule, now))},
		object:  object("web", -1, nil),
		want:    reasonsOf{"pc1": selected, "pc2": selected},
	}, {
		name:    "NoExecute moves objects away",
		targets: []Target{target("pc1"), with(target("pc2"), taint(corev1.TaintEffectNoExecute, now))},
		object:  object("web", -1, sharesOf{"pc2": 0}),
		want:    reasonsOf{"pc1": selected, "pc2": tainted},
	}, {
		name:    "NoExecute tolerated for a while leaves objects until then",
		spec:    placementv1alpha1.PlacementSpec{Tolerations: []corev1.Toleration{{Key: "maintenance", Operator: corev1.TolerationOpEqual, Value: "yes", Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr[int64](300)}}},
		targets: []Target{target("pc1"), with(target("pc2"), taint(corev1.TaintEffectNoExecute, now.Add(-time.Minute)))},
		object:  object("web", -1, sharesOf{"pc2": 0}),
		want:    reasonsOf{"pc1": selected, "pc2": selected},
		recheck: now.Add(4 * time.Minute),
	}, {
		name:    "NoExecute tolerated for a while takes no new object",
		spec:    placementv1alpha1.PlacementSpec{Tolerations: []corev1.Toleration{{Key: "maintenance", Operator: corev1.TolerationOpExists, TolerationSeconds: ptr[int64](300)}}},
		targets: []Target{target("pc1"), with(target("pc2"), taint(corev1.TaintEffectNoExecute, now.Add(-time.Minute)))},
		object:  object("web", -1, nil),
		want:    reasonsOf{"pc1": selected, "pc2": tainted},
		recheck: now.Add(4 * time.Minute),
	}, {
		name:    "NoExecute tolerated until a time past",
		spec:    placementv1alpha1.PlacementSpec{Tolerations: []corev1.Toleration{{Key: "maintenance", Operator: corev1.TolerationOpExists, TolerationSeconds: ptr[int64](300)}}},
		targets: []Target{target("pc1"), with(target("pc2"), taint(corev1.TaintEffectNoExecute, now.Add(-time.Hour)))},
		object:  object("web", -1, sharesOf{"pc2": 0}),
		want:    reasonsOf{"pc1": selected, "pc2": tainted},
	}, {
		name: "the shortest tolerationSeconds of the matching tolerations counts",
		spec: placementv1alpha1.PlacementSpec{Tolerations: []corev1.Toleration{
			{Operator: corev1.TolerationOpExists},
			{Key: "maintenance", Operator: corev1.TolerationOpExists, TolerationSeconds: ptr[int64](30)},
		}},
		targets: []Target{target("pc1"), with(target("pc2"), taint(corev1.TaintEffectNoExecute, now.Add(-time.Minute)))},
		object:  object("web", -1, sharesOf{"pc2": 0}),
		want:    reasonsOf{"pc1": selected, "pc2": tainted},
	}, {
		name:    "NoExecute tolerated for ever",
		spec:    placementv1alpha1.PlacementSpec{Tolerations: []corev1.Toleration{{Operator: corev1.TolerationOpExists}}},
		targets: []Target{target("pc1"), with(target("pc2"), taint(corev1.TaintEffectNoExecute, now))},
		object:  object("web", -1, nil),
		want:    reasonsOf{"pc1": selected, "pc2": selected},
	}, {
		name:    "cordoned takes no new object",
		targets: []Target{target("pc1"), with(target("pc2"), func(t *Target) { t.Unschedulable = true })},
		object:  object("web", -1, nil),
		want:    reasonsOf{"pc1": selected, "pc2": cordoned},
	}, {
		name:    "cordoned keeps its objects",
		targets: []Target{target("pc1"), with(target("pc2"), func(t *Target) { t.Unschedulable = true })},
		object:  object("web", -1, sharesOf{"pc2": 0}),
		want:    reasonsOf{"pc1": selected, "pc2": selected},
	}, {
		name:    "not ready takes no new object",
		spec:    placementv1alpha1.PlacementSpec{Failover: placementv1alpha1.Failover{GracePeriod: grace}},
		targets: []Target{target("pc1"), with(target("pc2"), notReadyFor(10*time.Second))},
		object:  object("web", -1, nil),
		want:    reasonsOf{"pc1": selected, "pc2": notReady},
		recheck: now.Add(50 * time.Second),
	}, {
		name:    "not ready within the grace period keeps its objects",
		spec:    placementv1alpha1.PlacementSpec{Failover: placementv1alpha1.Failover{GracePeriod: grace}},
		targets: []Target{target("pc1"), with(target("pc2"), notReadyFor(10*time.Second))},
		object:  object("web", -1, sharesOf{"pc2": 0}),
		want:    reasonsOf{"pc1": selected, "pc2": selected},
		recheck: now.Add(50 * time.Second),
	}, {
		name:    "not ready beyond the grace period loses its objects",
		spec:    placementv1alpha1.PlacementSpec{Failover: placementv1alpha1.Failover{GracePeriod: grace}},
		targets: []Target{target("pc1"), with(target("pc2"), notReadyFor(2*time.Minute))},
		object:  object("web", -1, sharesOf{"pc2": 0}),
		want:    reasonsOf{"pc1": selected, "pc2": notReady},
	}, {
		name:    "the default grace period is 5m",
		targets: []Target{target("pc1"), with(target("pc2"), notReadyFor(4*time.Minute))},
		object:  object("web", -1, sharesOf{"pc2": 0}),
		want:    reasonsOf{"pc1": selected, "pc2": selected},
		recheck: now.Add(time.Minute),
	}, {
		name:    "without failover a not ready target keeps its objects",
		spec:    placementv1alpha1.PlacementSpec{Failover: placementv1alpha1.Failover{Disabled: true, GracePeriod: grace}},
		targets: []Target{target("pc1"), with(target("pc2"), notReadyFor(time.Hour))},
		object:  object("web", -1, sharesOf{"pc2": 0}),
		want:    reasonsOf{"pc1": selected, "pc2": selected},
	}, {
		name: "an evicted target loses its objects within the grace period",
		spec: placementv1alpha1.PlacementSpec{Failover: placementv1alpha1.Failover{GracePeriod: grace}},
		targets: []Target{target("pc1"), with(target("pc2"), func(t *Target) {
			notReadyFor(10 * time.Second)(t)
			t.Evicted = true
		})},
		object: object("web", -1, sharesOf{"pc2": 0}),
		want:   reasonsOf{"pc1": selected, "pc2": notReady},
	}, {
		name: "an evicted target loses its objects without failover",
		spec: placementv1alpha1.PlacementSpec{Failover: placementv1alpha1.Failover{Disabled: true}},
		targets: []Target{target("pc1"), with(target("pc2"), func(t *Target) {
			notReadyFor(time.Hour)(t)
			t.Evicted = true
		})},
		object: object("web", -1, sharesOf{"pc2": 0}),
		want:   reasonsOf{"pc1": selected, "pc2": notReady},
	}, {
		name:    "a target that does not sync the resource",
		targets: []Target{target("pc1"), with(target("pc2"), func(t *Target) { t.Resources = []workloadv1alpha1.GroupResource{{Resource: "configmaps"}} })},
		object:  object("web", -1, nil),
		want:    reasonsOf{"pc1": selected, "pc2": notAccepted},
	}, {
		name:    "a placement of resources no target syncs",
		spec:    placementv1alpha1.PlacementSpec{Resources: []workloadv1alpha1.GroupResource{{Group: "batch", Resource: "jobs"}}},
		targets: []Target{target("pc1"), with(target("pc2"), func(t *Target) { t.Resources = []workloadv1alpha1.GroupResource{{Group: "batch", Resource: "jobs"}} })},
		object:  object("web", -1, nil),
		want:    reasonsOf{"pc1": notAccepted, "pc2": notAccepted},
		message: "no eligible target: ResourceNotAccepted root/pc1, root/pc2 (syncs none of the placed resources)",
	}, {
		name:    "a target too small for every replica",
		targets: []Target{target("pc1"), with(target("pc2"), func(t *Target) { t.Allocatable[corev1.ResourceCPU] = resource.MustParse("4") })},
		object: func() Object {
			o := object("web", 3, nil)
			o.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("2")}
			return o
		}(),
		want: reasonsOf{"pc1": selected, "pc2": noRoom},
	}, {
		name:    "a target without a resource requested",
		targets: []Target{target("pc1"), with(target("pc2"), func(t *Target) { t.Allocatable[corev1.ResourceName("nvidia.com/gpu")] = resource.MustParse("1") })},
		object: func() Object {
			o := object("web", 1, nil)
			o.Requests = corev1.ResourceList{corev1.ResourceName("nvidia.com/gpu"): resource.MustParse("1")}
			return o
		}(),
		want: reasonsOf{"pc1": noRoom, "pc2": selected},
	}, {
		name:        "constraint before label mismatch before taint before readiness",
		spec:        placementv1alpha1.PlacementSpec{Targets: placementv1alpha1.TargetSelection{TargetSelector: placementv1alpha1.TargetSelector{LabelSelector: matchLabels("tier=gold")}}},
		constraints: []Constraint{euOnly()},
		targets: []Target{
			with(target("a", "region=us"), notReadyFor(time.Hour)),
			with(with(target("b", "region=eu"), notReadyFor(time.Hour)), taint(corev1.TaintEffectNoExecute, now)),
			with(with(target("c", "region=eu", "tier=gold"), notReadyFor(time.Hour)), taint(corev1.TaintEffectNoExecute, now)),
			with(target("d", "region=eu", "tier=gold"), notReadyFor(time.Hour)),
		},
		object: object("web", -1, nil),
		want:   reasonsOf{"a": constrained, "b": mismatch, "c": tainted, "d": notReady},
		message: "no eligible target: Constraint root/a (PlacementConstraint root:org/eu-only does not allow it: labels do not match region in (eu)); " +
			"LabelMismatch root/b (labels do not match tier=gold); Taint root/c (taint maintenance=yes:NoExecute is not tolerated); " +
			"NotReady root/d (not ready for 60m, more than the 5m grace period)",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			tc.spec.Strategy = duplicate()
			p := compile(t, tc.spec, tc.constraints...)
			d := decide(p, tc.targets, tc.object)
			assertReasons(t, d, tc.want)
			if len(d.Targets) != len(tc.want) {
				t.Errorf("%d targets explained, want %d", len(d.Targets), len(tc.want))
			}
			if d.Message != tc.message {
				t.Errorf("message %q, want %q", d.Message, tc.message)
			}
			if !d.RecheckAt.Equal(tc.recheck) {
				t.Errorf("recheck at %s, want %s", d.RecheckAt, tc.recheck)
			}
			for _, st := range d.Targets {
				if st.Reason != selected && st.Message == "" {
					t.Errorf("%s: %s without a message", st.Name, st.Reason)
				}
			}
		})
	}
}

// TestExplainAndCondition checks what a placement's status says of each
// target, apart from any object.
func TestExplainAndCondition(t *testing.T) {
	spec := placementv1alpha1.PlacementSpec{Targets: placementv1alpha1.TargetSelection{TargetSelector: placementv1alpha1.TargetSelector{LabelSelector: matchLabels("region=us")}}}
	e := compile(t, spec, euOnly()).Evaluate(pcs(), now)
	got := map[string]placementv1alpha1.TargetReason{}
	for _, st := range e.Explain() {
		got[st.Name] = st.Reason
		if st.Key != workloadv1alpha1.TargetKey("root", st.Name) || st.Cluster != "root" {
			t.Errorf("%s: cluster %q, key %q", st.Name, st.Cluster, st.Key)
		}
	}
	if want := (reasonsOf{"pc1": mismatch, "pc2": mismatch, "pc3": constrained}); !equalReasons(got, want) {
		t.Errorf("explained %v, want %v", got, want)
	}
	c := e.Condition()
	if c.Status != metav1.ConditionFalse || c.Reason != "NoEligibleTarget" || !strings.Contains(c.Message, "Constraint root/pc3") {
		t.Errorf("condition %+v", c)
	}

	spec.Targets.LabelSelector = nil
	spec.Targets.PreferenceGroups = []placementv1alpha1.PreferenceGroup{
		{Name: "eu", TargetSelector: placementv1alpha1.TargetSelector{LabelSelector: matchLabels("region=eu")}},
		{Name: "any"},
	}
	targets := pcs()
	targets[0].Unschedulable = true
	e = compile(t, spec).Evaluate(targets, now)
	got = map[string]placementv1alpha1.TargetReason{}
	for _, st := range e.Explain() {
		got[st.Name] = st.Reason
	}
	if want := (reasonsOf{"pc1": cordoned, "pc2": placementv1alpha1.ReasonEligible, "pc3": notPreferred}); !equalReasons(got, want) {
		t.Errorf("explained %v, want %v", got, want)
	}
	if c := e.Condition(); c.Status != metav1.ConditionTrue || c.Message != "1 eligible: root/pc2" {
		t.Errorf("condition %+v", c)
	}

	if c := compile(t, spec).Evaluate(nil, now).Condition(); c.Status != metav1.ConditionFalse || !strings.Contains(c.Message, "no SyncTarget") {
		t.Errorf("condition without targets %+v", c)
	}
}

func equalReasons(a, b reasonsOf) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestPreferenceGroups checks that objects go to the first group with an
// eligible target, and stay in the group they are in.
func TestPreferenceGroups(t *testing.T) {
	spec := placementv1alpha1.PlacementSpec{Targets: placementv1alpha1.TargetSelection{PreferenceGroups: []placementv1alpha1.PreferenceGroup{
		{Name: "eu", TargetSelector: placementv1alpha1.TargetSelector{LabelSelector: matchLabels("region=eu")}},
		{Name: "us", TargetSelector: placementv1alpha1.TargetSelector{LabelSelector: matchLabels("region=us")}},
	}}}
	targets := append(pcs(), target("pc4", "region=ap"))
	down := func(names ...string) []Target {
		out := append([]Target(nil), targets...)
		for i := range out {
			for _, n := range names {
				if out[i].Name == n {
					out[i].Ready, out[i].NotReadySince = false, now.Add(-time.Hour)
				}
			}
		}
		return out
	}
	for _, strategy := range []placementv1alpha1.StrategyType{placementv1alpha1.StrategySticky, placementv1alpha1.StrategyDuplicate} {
		t.Run(string(strategy), func(t *testing.T) {
			spec.Strategy.Type = strategy
			p := compile(t, spec)
			d := decide(p, targets, object("web", -1, nil))
			assertReasons(t, d, reasonsOf{"pc3": notPreferred, "pc4": mismatch})
			if got := names(d); len(got) == 0 || strings.Join(got, ",") > "pc2" {
				t.Errorf("selected %v, want eu targets", got)
			}
			// eu down: the next group.
			d = decide(p, down("pc1", "pc2"), object("web", -1, nil))
			assertShares(t, d, sharesOf{"pc3": 0})
			// eu back: the object stays in us, where it is.
			d = decide(p, targets, object("web", -1, sharesOf{"pc3": 0}))
			assertShares(t, d, sharesOf{"pc3": 0})
			assertReasons(t, d, reasonsOf{"pc1": notPreferred, "pc2": notPreferred})
			if msg := messageOf(d, "pc1"); !strings.Contains(msg, "stays in preference group us") {
				t.Errorf("pc1: %q", msg)
			}
		})
	}
}

// TestTargetFrom checks how a stored SyncTarget is read.
func TestTargetFrom(t *testing.T) {
	created := metav1.NewTime(now.Add(-time.Hour))
	st := &workloadv1alpha1.SyncTarget{ObjectMeta: metav1.ObjectMeta{
		Name: "pc1", Labels: map[string]string{"region": "eu"}, CreationTimestamp: created,
	}}
	if _, err := TargetFrom(st); err == nil {
		t.Error("a SyncTarget without its logical cluster read without error")
	}
	st.Annotations = map[string]string{"canopy.dev/cluster": "root:org"}
	got, err := TargetFrom(st)
	if err != nil {
		t.Fatal(err)
	}
	if got.Key != workloadv1alpha1.TargetKey("root:org", "pc1") || got.Cluster != "root:org" || got.Ready || !got.NotReadySince.Equal(created.Time) {
		t.Errorf("never reported: %+v", got)
	}
	since := metav1.NewTime(now.Add(-time.Minute))
	st.Status.Conditions = []metav1.Condition{{Type: workloadv1alpha1.ConditionReady, Status: metav1.ConditionFalse, LastTransitionTime: since}}
	if got, _ := TargetFrom(st); got.Ready || !got.NotReadySince.Equal(since.Time) {
		t.Errorf("not ready: %+v", got)
	}
	st.Status.Conditions[0].Status = metav1.ConditionTrue
	st.Status.Allocatable = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("8")}
	ready, _ := TargetFrom(st)
	if !ready.Ready {
		t.Errorf("ready: %+v", ready)
	}
	// Its CEL variables are made once, here, for every evaluation.
	if ready.vars == nil {
		t.Error("no CEL variables made")
	}
	p := compile(t, placementv1alpha1.PlacementSpec{Targets: placementv1alpha1.TargetSelection{TargetSelector: placementv1alpha1.TargetSelector{
		Expression: "name == 'pc1' && labels['region'] == 'eu' && allocatable['cpu'].isGreaterThan(quantity('4'))",
	}}})
	assertReasons(t, decide(p, []Target{ready}, object("web", 1, nil)), reasonsOf{"pc1": selected})
}

func TestNameList(t *testing.T) {
	var names []string
	for i := range 12 {
		names = append(names, string(rune('a'+i)))
	}
	if got := nameList(names[:2]); got != "a, b" {
		t.Errorf("two names: %q", got)
	}
	if got := nameList(names); got != "a, b, c, d, e, f, g, h, i, j and 2 more" {
		t.Errorf("twelve names: %q", got)
	}
}
