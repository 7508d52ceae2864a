package placement

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	placementv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/placement/v1alpha1"
)

func TestSticky(t *testing.T) {
	p := compile(t, placementv1alpha1.PlacementSpec{})
	targets := pcs()
	first := decide(p, targets, object("web", 2, nil))
	if len(first.Selected()) != 1 || first.Selected()[0].Replicas != 2 {
		t.Fatalf("selected %+v, want one target with the 2 replicas", first.Selected())
	}
	chosen := first.Selected()[0].Name
	for range 3 {
		if again := decide(p, targets, object("web", 2, nil)); shares(again)[chosen] != 2 {
			t.Fatalf("deciding again chose %v, first %s", shares(again), chosen)
		}
	}
	for _, st := range first.Targets {
		if st.Name != chosen && (st.Reason != notChosen || !strings.Contains(st.Message, "goes to one target, "+chosen)) {
			t.Errorf("%s: %s %q", st.Name, st.Reason, st.Message)
		}
	}

	// The object stays where it is while that stays eligible, whatever
	// its score.
	for _, name := range []string{"pc1", "pc2", "pc3"} {
		d := decide(p, targets, object("web", 2, sharesOf{name: 2}))
		assertShares(t, d, sharesOf{name: 2})
	}
	// Of several current targets, as after a change from Duplicate, it
	// keeps one.
	if d := decide(p, targets, object("web", 2, sharesOf{"pc1": 2, "pc2": 2})); len(d.Selected()) != 1 || d.Selected()[0].Name == "pc3" {
		t.Errorf("from pc1 and pc2 sticky chose %v", shares(d))
	}
	// Its target gone, it moves.
	d := decide(p, targets[1:], object("web", 2, sharesOf{"pc1": 2}))
	if len(d.Selected()) != 1 {
		t.Errorf("target gone: selected %v", shares(d))
	}
}

// TestStickyBalance checks that objects spread evenly over equal targets,
// and that a target added moves only objects to it.
func TestStickyBalance(t *testing.T) {
	p := compile(t, placementv1alpha1.PlacementSpec{})
	var targets []Target
	for i := range 4 {
		targets = append(targets, target(fmt.Sprintf("pc%d", i)))
	}
	const objects = 4000
	e := p.Evaluate(targets, now)
	before := map[string]string{}
	count := map[string]int{}
	for i := range objects {
		name := fmt.Sprintf("web-%d", i)
		chosen := e.Decide(object(name, 1, nil)).Selected()[0].Name
		before[name] = chosen
		count[chosen]++
	}
	for name, n := range count {
		if n < objects/4*8/10 || n > objects/4*12/10 {
			t.Errorf("%s got %d of %d objects over 4 targets", name, n, objects)
		}
	}
	e = p.Evaluate(append(targets, target("pc4")), now)
	moved := 0
	for name, was := range before {
		now := e.Decide(object(name, 1, nil)).Selected()[0].Name
		if now != was {
			moved++
			if now != "pc4" {
				t.Errorf("%s moved from %s to %s, not to the new target", name, was, now)
			}
		}
	}
	if moved < objects/5*8/10 || moved > objects/5*12/10 {
		t.Errorf("%d of %d objects moved to a fifth target", moved, objects)
	}
}

func TestDuplicate(t *testing.T) {
	p := compile(t, placementv1alpha1.PlacementSpec{Strategy: duplicate()})
	assertShares(t, decide(p, pcs(), object("web", 3, nil)), sharesOf{"pc1": 3, "pc2": 3, "pc3": 3})
	assertShares(t, decide(p, pcs(), object("config", -1, nil)), sharesOf{"pc1": 0, "pc2": 0, "pc3": 0})
}

func spreadSpec(key string, targets, maxSkew int32) placementv1alpha1.PlacementSpec {
	return placementv1alpha1.PlacementSpec{Strategy: placementv1alpha1.Strategy{
		Type:   placementv1alpha1.StrategySpread,
		Spread: &placementv1alpha1.SpreadStrategy{TopologyKey: key, Targets: targets, MaxSkew: maxSkew},
	}}
}

// zoned are targets named <zone><n>, n targets in each zone.
func zoned(perZone map[string]int) []Target {
	var out []Target
	for zone, n := range perZone {
		for i := range n {
			out = append(out, target(fmt.Sprintf("%s%d", zone, i), "zone="+zone))
		}
	}
	return out
}

// perZone counts the targets d selects by their zone, the name's first
// letter.
func perZone(d Decision) map[string]int {
	out := map[string]int{}
	for _, t := range d.Selected() {
		out[t.Name[:1]]++
	}
	return out
}

func TestSpread(t *testing.T) {
	for _, tc := range []struct {
		name     string
		zones    map[string]int
		targets  int32
		maxSkew  int32
		current  map[string]int32
		want     map[string]int
		message  string
		selected []string
	}{{
		name: "one per zone", zones: map[string]int{"a": 2, "b": 2, "c": 2}, targets: 3, maxSkew: 1,
		want: map[string]int{"a": 1, "b": 1, "c": 1},
	}, {
		name: "evenly beyond one per zone", zones: map[string]int{"a": 3, "b": 3}, targets: 5, maxSkew: 1,
		want: map[string]int{"a": 3, "b": 2},
	}, {
		name: "a small zone limits the others to maxSkew more", zones: map[string]int{"a": 5, "b": 1}, targets: 5, maxSkew: 1,
		want:    map[string]int{"a": 2, "b": 1},
		message: "spreading over zone with maxSkew 1 allows 3 of the 5 targets asked for",
	}, {
		name: "a larger maxSkew allows more", zones: map[string]int{"a": 5, "b": 1}, targets: 5, maxSkew: 3,
		want: map[string]int{"a": 4, "b": 1},
	}, {
		name: "fewer eligible targets than asked for", zones: map[string]int{"a": 1, "b": 1}, targets: 3, maxSkew: 1,
		want:    map[string]int{"a": 1, "b": 1},
		message: "only 2 of the 3 targets asked for are eligible",
	}, {
		name: "current targets stay within the skew", zones: map[string]int{"a": 3, "b": 3}, targets: 2, maxSkew: 1,
		current:  sharesOf{"a2": 0, "b1": 0},
		want:     map[string]int{"a": 1, "b": 1},
		selected: []string{"a2", "b1"},
	}, {
		name: "current targets beyond the skew are moved", zones: map[string]int{"a": 3, "b": 3}, targets: 2, maxSkew: 1,
		current: sharesOf{"a0": 0, "a1": 0},
		want:    map[string]int{"a": 1, "b": 1},
	}, {
		name: "a larger skew keeps current targets", zones: map[string]int{"a": 3, "b": 3}, targets: 2, maxSkew: 2,
		current:  sharesOf{"a0": 0, "a1": 0},
		want:     map[string]int{"a": 2},
		selected: []string{"a0", "a1"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			p := compile(t, spreadSpec("zone", tc.targets, tc.maxSkew))
			d := decide(p, zoned(tc.zones), object("web", 2, tc.current))
			got := perZone(d)
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("per zone %v, want %v", got, tc.want)
			}
			if d.Message != tc.message {
				t.Errorf("message %q, want %q", d.Message, tc.message)
			}
			if tc.selected != nil && strings.Join(names(d), ",") != strings.Join(tc.selected, ",") {
				t.Errorf("selected %v, want %v", names(d), tc.selected)
			}
			for _, st := range d.Selected() {
				if st.Replicas != 2 {
					t.Errorf("%s runs %d replicas, want the object whole", st.Name, st.Replicas)
				}
			}
		})
	}

	// A target without the topology label is not chosen.
	p := compile(t, spreadSpec("zone", 2, 1))
	d := decide(p, append(zoned(map[string]int{"a": 1}), target("x")), object("web", 1, nil))
	assertReasons(t, d, reasonsOf{"a0": selected, "x": mismatch})
}

func divideSpec(d placementv1alpha1.DivideStrategy) placementv1alpha1.PlacementSpec {
	return placementv1alpha1.PlacementSpec{Strategy: placementv1alpha1.Strategy{Type: placementv1alpha1.StrategyDivide, Divide: &d}}
}

func withCPU(t Target, cpu string) Target {
	return with(t, func(t *Target) { t.Allocatable = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu)} })
}

func TestDivide(t *testing.T) {
	byWeights := func(w ...placementv1alpha1.TargetWeight) placementv1alpha1.PlacementSpec {
		return divideSpec(placementv1alpha1.DivideStrategy{Weights: w})
	}
	capacity := divideSpec(placementv1alpha1.DivideStrategy{By: placementv1alpha1.DivideByCapacity})
	requests := func(o Object, cpu string) Object {
		o.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu)}
		return o
	}
	euTargets := placementv1alpha1.PlacementSpec{Targets: placementv1alpha1.TargetSelection{TargetSelector: placementv1alpha1.TargetSelector{LabelSelector: matchLabels("region=eu")}}}
	euTargets.Strategy = divideSpec(placementv1alpha1.DivideStrategy{}).Strategy
	for _, tc := range []struct {
		name    string
		spec    placementv1alpha1.PlacementSpec
		targets []Target
		object  Object
		want    sharesOf
		// ties are targets whose remainders tie: the one the object
		// ranks first, as a Sticky placement would choose, gets bonus
		// more than want says.
		ties    []string
		bonus   int32
		reasons reasonsOf
		message string
	}{{
		name: "acceptance: 6 replicas across eu", spec: euTargets, targets: pcs(),
		object: object("web", 6, nil), want: sharesOf{"pc1": 3, "pc2": 3},
	}, {
		name: "evenly, the remainder to the first ranked", spec: byWeights(), targets: pcs(),
		object: object("web", 7, nil), want: sharesOf{"pc1": 2, "pc2": 2, "pc3": 2}, ties: []string{"pc1", "pc2", "pc3"}, bonus: 1,
	}, {
		name: "the remainder to current targets first", spec: byWeights(), targets: pcs(),
		object: object("web", 7, sharesOf{"pc1": 3}), want: sharesOf{"pc1": 3, "pc2": 2, "pc3": 2},
	}, {
		name: "static weights", targets: pcs(),
		spec:   byWeights(placementv1alpha1.TargetWeight{LabelSelector: matchLabels("region=eu"), Weight: 2}, placementv1alpha1.TargetWeight{Weight: 1}),
		object: object("web", 10, nil), want: sharesOf{"pc1": 4, "pc2": 4, "pc3": 2},
	}, {
		name: "the first matching weight counts, and 0 gives nothing", targets: pcs(),
		spec:   byWeights(placementv1alpha1.TargetWeight{LabelSelector: matchLabels("region=us"), Weight: 0}, placementv1alpha1.TargetWeight{Weight: 1}),
		object: object("web", 5, nil),
		want:   sharesOf{"pc1": 2, "pc2": 2}, ties: []string{"pc1", "pc2"}, bonus: 1,
		reasons: reasonsOf{"pc3": notChosen},
	}, {
		name: "a target no weight selects gets nothing", targets: pcs(),
		spec:    byWeights(placementv1alpha1.TargetWeight{LabelSelector: matchLabels("region=eu"), Weight: 1}),
		object:  object("web", 4, nil),
		want:    sharesOf{"pc1": 2, "pc2": 2},
		reasons: reasonsOf{"pc3": notChosen},
	}, {
		name: "fewer replicas than targets", spec: byWeights(), targets: pcs(),
		object: object("web", 1, nil), want: sharesOf{}, ties: []string{"pc1", "pc2", "pc3"}, bonus: 1,
	}, {
		name: "zero replicas stay on one target", spec: byWeights(), targets: pcs(),
		object: object("web", 0, nil), want: sharesOf{}, ties: []string{"pc1", "pc2", "pc3"},
	}, {
		name: "zero replicas stay where they are", spec: byWeights(), targets: pcs(),
		object: object("web", 0, sharesOf{"pc1": 2, "pc3": 1}), want: sharesOf{"pc1": 0, "pc3": 0},
	}, {
		name: "an object without replicas goes to every target with a weight", targets: pcs(),
		spec:   byWeights(placementv1alpha1.TargetWeight{LabelSelector: matchLabels("region=eu"), Weight: 1}),
		object: object("config", -1, nil), want: sharesOf{"pc1": 0, "pc2": 0},
	}, {
		name: "by capacity", spec: capacity,
		targets: []Target{withCPU(target("pc1"), "8"), withCPU(target("pc2"), "4"), withCPU(target("pc3"), "4")},
		object:  object("web", 8, nil), want: sharesOf{"pc1": 4, "pc2": 2, "pc3": 2},
	}, {
		name: "by capacity of another resource", spec: divideSpec(placementv1alpha1.DivideStrategy{By: placementv1alpha1.DivideByCapacity, Resource: corev1.ResourceMemory}),
		targets: []Target{
			with(target("pc1"), func(t *Target) { t.Allocatable = corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("3Gi")} }),
			with(target("pc2"), func(t *Target) { t.Allocatable = corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("1Gi")} }),
			withCPU(target("pc3"), "64"),
		},
		object:  object("web", 4, nil),
		want:    sharesOf{"pc1": 3, "pc2": 1},
		reasons: reasonsOf{"pc3": noRoom},
	}, {
		name: "capped by what each target holds", spec: byWeights(),
		targets: []Target{withCPU(target("pc1"), "2"), withCPU(target("pc2"), "16"), withCPU(target("pc3"), "16")},
		object:  requests(object("web", 9, nil), "1"), want: sharesOf{"pc1": 2, "pc2": 3, "pc3": 3}, ties: []string{"pc2", "pc3"}, bonus: 1,
	}, {
		name: "beyond every target's room", spec: byWeights(),
		targets: []Target{withCPU(target("pc1"), "2"), withCPU(target("pc2"), "2")},
		object:  requests(object("web", 6, nil), "1"), want: sharesOf{"pc1": 3, "pc2": 3},
		message: "the targets have room for 4 of the 6 replicas; the other 2 are divided beyond it",
	}, {
		name: "a target without room for one replica", spec: byWeights(),
		targets: []Target{withCPU(target("pc1"), "500m"), withCPU(target("pc2"), "2")},
		object:  requests(object("web", 2, nil), "1"), want: sharesOf{"pc2": 2},
		reasons: reasonsOf{"pc1": noRoom},
	}, {
		name: "a NoSchedule target keeps its share and takes no more", spec: byWeights(),
		targets: []Target{target("pc1"), with(target("pc2"), func(t *Target) { t.Unschedulable = true })},
		object:  object("web", 10, sharesOf{"pc1": 2, "pc2": 2}), want: sharesOf{"pc1": 8, "pc2": 2},
	}, {
		name: "a NoSchedule target gives up replicas", spec: byWeights(),
		targets: []Target{target("pc1"), with(target("pc2"), func(t *Target) { t.Unschedulable = true })},
		object:  object("web", 2, sharesOf{"pc1": 3, "pc2": 3}), want: sharesOf{"pc1": 1, "pc2": 1},
	}, {
		name: "a NoSchedule target with no replicas keeps none", spec: byWeights(),
		targets: []Target{target("pc1"), with(target("pc2"), func(t *Target) { t.Unschedulable = true })},
		object:  object("web", 2, sharesOf{"pc1": 0, "pc2": 0}), want: sharesOf{"pc1": 2},
		reasons: reasonsOf{"pc2": cordoned},
	}, {
		name: "failover: pc1 lost, its share goes to pc2", spec: euTargets,
		targets: []Target{with(target("pc1", "region=eu"), func(t *Target) { t.Ready, t.NotReadySince = false, now.Add(-time.Hour) }), target("pc2", "region=eu"), target("pc3", "region=us")},
		object:  object("web", 6, sharesOf{"pc1": 3, "pc2": 3}), want: sharesOf{"pc2": 6},
		reasons: reasonsOf{"pc1": notReady},
	}, {
		name: "partition: pc1 not ready within the grace period keeps its share", spec: euTargets,
		targets: []Target{with(target("pc1", "region=eu"), func(t *Target) { t.Ready, t.NotReadySince = false, now.Add(-time.Minute) }), target("pc2", "region=eu"), target("pc3", "region=us")},
		object:  object("web", 6, sharesOf{"pc1": 3, "pc2": 3}), want: sharesOf{"pc1": 3, "pc2": 3},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			d := decide(compile(t, tc.spec), tc.targets, tc.object)
			if tc.ties != nil {
				first := firstRanked(t, tc.targets, tc.ties, tc.object)
				tc.want[first] += tc.bonus
				if tc.reasons == nil {
					tc.reasons = reasonsOf{}
				}
				for _, name := range tc.ties {
					if _, ok := tc.want[name]; !ok {
						tc.reasons[name] = notChosen
					}
				}
			}
			assertShares(t, d, tc.want)
			assertReasons(t, d, tc.reasons)
			if d.Message != tc.message {
				t.Errorf("message %q, want %q", d.Message, tc.message)
			}
			if tc.object.Replicas != nil {
				sum := int32(0)
				for _, s := range d.Selected() {
					sum += s.Replicas
				}
				if sum != *tc.object.Replicas {
					t.Errorf("shares sum to %d, want %d", sum, *tc.object.Replicas)
				}
			}
		})
	}
}

// firstRanked is the target among those named that object o ranks
// first: the one a Sticky placement chooses for it.
func firstRanked(t *testing.T, targets []Target, among []string, o Object) string {
	var these []Target
	for _, target := range targets {
		if slices.Contains(among, target.Name) {
			these = append(these, target)
		}
	}
	o.Current = nil
	return decide(compile(t, placementv1alpha1.PlacementSpec{}), these, o).Selected()[0].Name
}

func TestApportion(t *testing.T) {
	for _, tc := range []struct {
		total   int64
		weights []uint64
		caps    []int64
		want    []int64
		left    int64
	}{
		{10, []uint64{1, 1, 1}, nil, []int64{4, 3, 3}, 0},
		{2, []uint64{1, 1, 1}, nil, []int64{1, 1, 0}, 0},
		{10, []uint64{1, 2, 3, 4}, nil, []int64{1, 2, 3, 4}, 0},
		{7, []uint64{5, 0, 5}, nil, []int64{4, 0, 3}, 0},
		{9, []uint64{1, 1, 1}, []int64{1, 100, 100}, []int64{1, 4, 4}, 0},
		{9, []uint64{1, 1, 1}, []int64{1, 2, 100}, []int64{1, 2, 6}, 0},
		{9, []uint64{1, 1, 1}, []int64{1, 2, 3}, []int64{1, 2, 3}, 3},
		{0, []uint64{1, 1}, nil, []int64{0, 0}, 0},
		{3, []uint64{math.MaxUint64, math.MaxUint64, 1}, nil, []int64{2, 1, 0}, 0},
		{math.MaxInt32, []uint64{math.MaxUint64 / 3, math.MaxUint64 / 3, math.MaxUint64 / 3}, nil, []int64{715827883, 715827882, 715827882}, 0},
	} {
		caps := tc.caps
		if caps == nil {
			caps = make([]int64, len(tc.weights))
			for i := range caps {
				caps[i] = math.MaxInt64
			}
		}
		got, left := apportion(tc.total, tc.weights, caps)
		if fmt.Sprint(got) != fmt.Sprint(tc.want) || left != tc.left {
			t.Errorf("apportion(%d, %v, %v) = %v, %d; want %v, %d", tc.total, tc.weights, tc.caps, got, left, tc.want, tc.left)
		}
	}
}

// TestApportionProperties checks, over many divisions, that shares sum
// to the total, respect caps, and are each within one of the exact
// quota when no cap binds.
func TestApportionProperties(t *testing.T) {
	state := uint64(1)
	next := func(n uint64) uint64 {
		state = score(state, 0x9e3779b97f4a7c15)
		return state % n
	}
	for range 2000 {
		n := int(next(8)) + 1
		total := int64(next(1000))
		weights := make([]uint64, n)
		caps := make([]int64, n)
		var sum uint64
		for i := range weights {
			weights[i] = next(100) + 1
			caps[i] = math.MaxInt64
			sum += weights[i]
		}
		shares, left := apportion(total, weights, caps)
		got := int64(0)
		for i, s := range shares {
			got += s
			exact := float64(total) * float64(weights[i]) / float64(sum)
			if float64(s) < math.Floor(exact) || float64(s) > math.Floor(exact)+1 {
				t.Fatalf("apportion(%d, %v): share %d of exact %f", total, weights, s, exact)
			}
		}
		if got != total || left != 0 {
			t.Fatalf("apportion(%d, %v) = %v, left %d", total, weights, shares, left)
		}
		for i := range caps {
			caps[i] = int64(next(uint64(total) + 1))
		}
		shares, left = apportion(total, weights, caps)
		got = 0
		for i, s := range shares {
			if s > caps[i] {
				t.Fatalf("apportion(%d, %v, %v): share %d over its cap", total, weights, caps, s)
			}
			got += s
		}
		if got+left != total {
			t.Fatalf("apportion(%d, %v, %v) = %v, left %d", total, weights, caps, shares, left)
		}
	}
}
