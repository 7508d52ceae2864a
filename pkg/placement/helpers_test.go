package placement

import (
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	placementv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/placement/v1alpha1"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// now is the instant the tests decide at.
var now = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

var deployments = workloadv1alpha1.GroupResource{Group: "apps", Resource: "deployments"}

// target is a ready target in root named name with labels "k=v" pairs.
func target(name string, kv ...string) Target {
	return Target{
		Cluster: logicalcluster.Root, Name: name, Key: workloadv1alpha1.TargetKey("root", name),
		Labels: labelMap(kv...), Ready: true,
		Allocatable: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("16"), corev1.ResourceMemory: resource.MustParse("64Gi")},
	}
}

// with is t after change.
func with(t Target, change func(*Target)) Target {
	change(&t)
	return t
}

// pcs are the acceptance test's targets: pc1 and pc2 in eu, pc3 in us.
func pcs() []Target {
	return []Target{target("pc1", "region=eu"), target("pc2", "region=eu"), target("pc3", "region=us")}
}

// placement is a placement named p with spec.
func placement(spec placementv1alpha1.PlacementSpec) *placementv1alpha1.Placement {
	return &placementv1alpha1.Placement{ObjectMeta: metav1.ObjectMeta{Name: "p"}, Spec: spec}
}

// labelMap is the labels of "k=v" pairs.
func labelMap(kv ...string) map[string]string {
	labels := map[string]string{}
	for _, pair := range kv {
		k, v, _ := strings.Cut(pair, "=")
		labels[k] = v
	}
	return labels
}

// matchLabels selects the labels of "k=v" pairs.
func matchLabels(kv ...string) *metav1.LabelSelector {
	return &metav1.LabelSelector{MatchLabels: labelMap(kv...)}
}

// compile compiles spec under constraints, failing t on an error.
func compile(t *testing.T, spec placementv1alpha1.PlacementSpec, constraints ...Constraint) *Policy {
	t.Helper()
	p, err := Compile(placement(spec), constraints)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// object is a deployment in root:org:team with replicas, or none if
// replicas is negative, currently on the targets named in current with
// their shares.
func object(name string, replicas int32, current map[string]int32) Object {
	o := Object{Cluster: "root:org:team", Namespace: "default", Name: name, Resource: deployments}
	if replicas >= 0 {
		o.Replicas = &replicas
	}
	if current != nil {
		o.Current = map[string]int32{}
		for n, share := range current {
			o.Current[workloadv1alpha1.TargetKey("root", n)] = share
		}
	}
	return o
}

// decide decides o under p over targets at now.
func decide(p *Policy, targets []Target, o Object) Decision {
	return p.Evaluate(targets, now).Decide(o)
}

// shares are the targets d selects, by name, with their replicas.
func shares(d Decision) map[string]int32 {
	out := map[string]int32{}
	for _, t := range d.Selected() {
		out[t.Name] = t.Replicas
	}
	return out
}

// reasons are the reasons of d's targets by name.
func reasons(d Decision) map[string]placementv1alpha1.TargetReason {
	out := map[string]placementv1alpha1.TargetReason{}
	for _, t := range d.Targets {
		out[t.Name] = t.Reason
	}
	return out
}

// messageOf is the message of d's target name.
func messageOf(d Decision, name string) string {
	for _, t := range d.Targets {
		if t.Name == name {
			return t.Message
		}
	}
	return ""
}

func assertShares(t *testing.T, d Decision, want map[string]int32) {
	t.Helper()
	if got := shares(d); !maps.Equal(got, want) {
		t.Errorf("shares %v, want %v; targets %+v", got, want, d.Targets)
	}
}

func assertReasons(t *testing.T, d Decision, want map[string]placementv1alpha1.TargetReason) {
	t.Helper()
	got := reasons(d)
	for name, reason := range want {
		if got[name] != reason {
			t.Errorf("%s: reason %s (%s), want %s", name, got[name], messageOf(d, name), reason)
		}
	}
}

// names are the names of the targets d selects, sorted.
func names(d Decision) []string {
	var out []string
	for _, t := range d.Selected() {
		out = append(out, t.Name)
	}
	slices.Sort(out)
	return out
}

func ptr[T any](v T) *T { return &v }
