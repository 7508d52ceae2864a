package placement

import (
	"fmt"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	placementv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/placement/v1alpha1"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// The goal for the p99 latency of a decision, and the figure
// Karmada publishes for its scheduler.
const (
	goalP99    = 50 * time.Millisecond
	karmadaP99 = 32 * time.Millisecond
)

const (
	benchTargets   = 100
	benchWorkloads = 10000
)

// benchTargetSet are 100 simulated SyncTargets, read as the controller
// reads them: 5 regions of 4 zones of 5 targets, of various sizes, a few
// tainted, cordoned or not ready.
func benchTargetSet(b *testing.B) []Target {
	regions := []string{"eu-west", "eu-central", "us-east", "us-west", "ap-south"}
	targets := make([]Target, benchTargets)
	for i := range targets {
		region := regions[i/20]
		ready := metav1.ConditionTrue
		if i%37 == 36 {
			ready = metav1.ConditionFalse
		}
		st := &workloadv1alpha1.SyncTarget{
			ObjectMeta: metav1.ObjectMeta{
				Name:        fmt.Sprintf("pc%03d", i),
				Annotations: map[string]string{logicalcluster.Annotation: "root:platform"},
				Labels: map[string]string{
					"region": region, "zone": fmt.Sprintf("%s-%d", region, i/5%4),
					"tier": []string{"gold", "silver", "bronze"}[i%3],
				},
			},
			Spec: workloadv1alpha1.SyncTargetSpec{Unschedulable: i%41 == 40},
			Status: workloadv1alpha1.SyncTargetStatus{
				Conditions: []metav1.Condition{{Type: workloadv1alpha1.ConditionReady, Status: ready, LastTransitionTime: metav1.NewTime(now.Add(-time.Duration(i) * time.Minute))}},
				Allocatable: corev1.ResourceList{
					corev1.ResourceCPU:    *resource.NewQuantity(int64(16*(1+i%8)), resource.DecimalSI),
					corev1.ResourceMemory: *resource.NewQuantity(int64(64<<30)*int64(1+i%8), resource.BinarySI),
				},
			},
		}
		if i%23 == 22 {
			st.Spec.Taints = []corev1.Taint{{Key: "maintenance", Effect: corev1.TaintEffectNoSchedule}}
		}
		t, err := TargetFrom(st)
		if err != nil {
			b.Fatal(err)
		}
		targets[i] = t
	}
	return targets
}

// benchPolicies are one placement of each strategy, bound by a
// residency constraint at root:org and an expression one at root.
func benchPolicies(b *testing.B) []*Policy {
	constraints := []Constraint{
		{Cluster: "root:org", PlacementConstraint: &placementv1alpha1.PlacementConstraint{
			ObjectMeta: metav1.ObjectMeta{Name: "residency"},
			Spec: placementv1alpha1.PlacementConstraintSpec{AllowedTargets: placementv1alpha1.TargetSelector{
				LabelSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
					{Key: "region", Operator: metav1.LabelSelectorOpNotIn, Values: []string{"ap-south"}},
				}},
			}},
		}},
		{Cluster: "root", PlacementConstraint: &placementv1alpha1.PlacementConstraint{
			ObjectMeta: metav1.ObjectMeta{Name: "sized"},
			Spec: placementv1alpha1.PlacementConstraintSpec{AllowedTargets: placementv1alpha1.TargetSelector{
				Expression: "allocatable['cpu'].isGreaterThan(quantity('8'))",
			}},
		}},
	}
	tolerate := []corev1.Toleration{{Key: "maintenance", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule}}
	specs := []placementv1alpha1.PlacementSpec{{
		Targets: placementv1alpha1.TargetSelection{TargetSelector: placementv1alpha1.TargetSelector{
			Expression: "labels['tier'] == 'gold' || allocatable['memory'].isGreaterThan(quantity('256Gi'))",
		}},
	}, {
		Targets:     placementv1alpha1.TargetSelection{TargetSelector: placementv1alpha1.TargetSelector{LabelSelector: matchLabels("region=eu-west")}},
		Tolerations: tolerate,
		Strategy:    placementv1alpha1.Strategy{Type: placementv1alpha1.StrategyDuplicate},
	}, {
		Strategy: placementv1alpha1.Strategy{Type: placementv1alpha1.StrategySpread, Spread: &placementv1alpha1.SpreadStrategy{TopologyKey: "zone", Targets: 3}},
	}, {
		Targets: placementv1alpha1.TargetSelection{PreferenceGroups: []placementv1alpha1.PreferenceGroup{
			{Name: "eu", TargetSelector: placementv1alpha1.TargetSelector{Expression: "labels['region'].startsWith('eu-')"}},
			{Name: "any"},
		}},
		Strategy: placementv1alpha1.Strategy{Type: placementv1alpha1.StrategyDivide, Divide: &placementv1alpha1.DivideStrategy{
			Weights: []placementv1alpha1.TargetWeight{{LabelSelector: matchLabels("tier=gold"), Weight: 3}, {Weight: 1}},
		}},
	}, {
		Strategy: placementv1alpha1.Strategy{Type: placementv1alpha1.StrategyDivide, Divide: &placementv1alpha1.DivideStrategy{By: placementv1alpha1.DivideByCapacity}},
	}}
	policies := make([]*Policy, len(specs))
	for i, spec := range specs {
		p, err := Compile(&placementv1alpha1.Placement{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("p%d", i)}, Spec: spec}, constraints)
		if err != nil {
			b.Fatal(err)
		}
		policies[i] = p
	}
	return policies
}

// benchWorkloadSet are 10,000 deployments across 100 logical clusters,
// with 1 to 20 replicas requesting some CPU; every fourth is placed
// already, on some target, as after a first pass.
func benchWorkloadSet(targets []Target) []Object {
	objects := make([]Object, benchWorkloads)
	for i := range objects {
		replicas := int32(1 + i%20)
		o := Object{
			Cluster:   logicalcluster.Name(fmt.Sprintf("root:org:team%02d", i%100)),
			Namespace: "default", Name: fmt.Sprintf("web-%d", i), Resource: deployments,
			Replicas: &replicas,
			Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("250m")},
		}
		if i%4 == 0 {
			o.Current = map[string]int32{targets[i%len(targets)].Key: replicas}
		}
		objects[i] = o
	}
	return objects
}

// BenchmarkDecisions decides where 10,000 workloads go across 100
// SyncTargets per iteration, and reports the throughput and the p99
// latency of one decision against the goal and Karmada's figure.
//
// Uncached evaluates every target anew for each decision, as a
// controller would after every change of targets; cached evaluates them
// once per placement per pass, as it can while they do not change.
func BenchmarkDecisions(b *testing.B) {
	targets := benchTargetSet(b)
	policies := benchPolicies(b)
	objects := benchWorkloadSet(targets)
	for _, cached := range []bool{false, true} {
		name := "uncached"
		if cached {
			name = "cached"
		}
		b.Run(name, func(b *testing.B) {
			latencies := make([]time.Duration, 0, benchWorkloads)
			evaluations := make([]*Evaluation, len(policies))
			var elapsed time.Duration
			selected := 0
			for b.Loop() {
				if cached {
					for i, p := range policies {
						evaluations[i] = p.Evaluate(targets, now)
					}
				}
				for i := range objects {
					start := time.Now()
					e := evaluations[i%len(policies)]
					if !cached {
						e = policies[i%len(policies)].Evaluate(targets, now)
					}
					d := e.Decide(objects[i])
					took := time.Since(start)
					elapsed += took
					latencies = append(latencies, took)
					selected += len(d.Selected())
				}
			}
			if selected == 0 {
				b.Fatal("no workload was placed")
			}
			slices.Sort(latencies)
			p99 := latencies[len(latencies)*99/100]
			b.ReportMetric(float64(len(latencies))/elapsed.Seconds(), "decisions/s")
			b.ReportMetric(float64(p99)/float64(time.Millisecond), "p99-ms")
			b.ReportMetric(float64(p99)/float64(goalP99), "p99/goal")
			b.ReportMetric(float64(p99)/float64(karmadaP99), "p99/karmada")
			b.Logf("%s: %d decisions, %d workloads x %d targets: p99 %s; goal %s (ratio %.4f); Karmada %s (ratio %.4f)",
				name, len(latencies), benchWorkloads, benchTargets, p99, goalP99, float64(p99)/float64(goalP99), karmadaP99, float64(p99)/float64(karmadaP99))
		})
	}
}
