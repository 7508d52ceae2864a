package heartbeat

import (
	"context"
	"errors"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

func node(cpu string) corev1.Node {
	return corev1.Node{Status: corev1.NodeStatus{Allocatable: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu)}}}
}

// TestStatus checks what a heartbeat reports: the key, Ready, the sum of
// the nodes' allocatable resources, and a condition per accepted
// resource, dropping those of resources no longer accepted and keeping
// the hub's own; and that a physical cluster that does not answer makes
// Ready False and keeps what was allocatable.
func TestStatus(t *testing.T) {
	ready := metav1.Condition{Type: workloadv1alpha1.ConditionReady, Status: metav1.ConditionTrue, Reason: "Syncing"}
	compatible := metav1.Condition{Type: "deployments.apps" + CompatibleSuffix, Status: metav1.ConditionTrue, Reason: "Served"}
	target := &workloadv1alpha1.SyncTarget{ObjectMeta: metav1.ObjectMeta{Generation: 3}}
	target.Status.Conditions = []metav1.Condition{
		{Type: "cronjobs.batch" + CompatibleSuffix, Status: metav1.ConditionFalse, Reason: "NotServed"},
		{Type: "HeartbeatTimeout", Status: metav1.ConditionFalse, Reason: "Beating"},
	}
	Status(target, Report{Key: "k", Ready: ready, Compatibility: []metav1.Condition{compatible},
		Nodes: []corev1.Node{node("2"), node("1500m")}, Now: metav1.Now()})
	if target.Status.Key != "k" || target.Status.LastHeartbeatTime.IsZero() {
		t.Errorf("key %q, heartbeat %v", target.Status.Key, target.Status.LastHeartbeatTime)
	}
	if cpu := target.Status.Allocatable[corev1.ResourceCPU]; cpu.String() != "3500m" {
		t.Errorf("allocatable CPU %s, want 3500m", cpu.String())
	}
	if c := meta.FindStatusCondition(target.Status.Conditions, workloadv1alpha1.ConditionReady); c == nil || c.Status != metav1.ConditionTrue || c.ObservedGeneration != 3 {
		t.Errorf("Ready %+v", c)
	}
	if meta.FindStatusCondition(target.Status.Conditions, "cronjobs.batch"+CompatibleSuffix) != nil {
		t.Error("the condition of a resource no longer accepted stays")
	}
	if meta.FindStatusCondition(target.Status.Conditions, compatible.Type) == nil || meta.FindStatusCondition(target.Status.Conditions, "HeartbeatTimeout") == nil {
		t.Errorf("conditions %+v", target.Status.Conditions)
	}

	Status(target, Report{Key: "k", Ready: ready, Compatibility: []metav1.Condition{compatible}, NodesErr: errors.New("connection refused"), Now: metav1.Now()})
	if c := meta.FindStatusCondition(target.Status.Conditions, workloadv1alpha1.ConditionReady); c == nil || c.Status != metav1.ConditionFalse || c.Reason != ReasonClusterUnreachable {
		t.Errorf("Ready with the physical cluster away %+v", c)
	}
	if cpu := target.Status.Allocatable[corev1.ResourceCPU]; cpu.String() != "3500m" {
		t.Errorf("allocatable CPU %s after a failed list, want the last reported 3500m", cpu.String())
	}
}

// TestBeatRetriesAConflict checks that a heartbeat written over a newer
// SyncTarget, as the hub's heartbeat timeout writes, reads it again and
// reports at once.
func TestBeatRetriesAConflict(t *testing.T) {
	var reads, writes int
	observed := 0
	c := &Controller{
		Read: func(context.Context) (*workloadv1alpha1.SyncTarget, error) {
			reads++
			return &workloadv1alpha1.SyncTarget{ObjectMeta: metav1.ObjectMeta{ResourceVersion: "1"}}, nil
		},
		Observe: func(*workloadv1alpha1.SyncTarget) { observed++ },
		Know: func() Report {
			return Report{Key: "k", Ready: metav1.Condition{Type: workloadv1alpha1.ConditionReady, Status: metav1.ConditionTrue, Reason: "Syncing"}}
		},
		Nodes: func(context.Context) ([]corev1.Node, error) { return []corev1.Node{node("1")}, nil },
		Write: func(_ context.Context, target *workloadv1alpha1.SyncTarget) error {
			if writes++; writes == 1 {
				return apierrors.NewConflict(schema.GroupResource{Group: workloadv1alpha1.SchemeGroupVersion.Group, Resource: "synctargets"}, "pc1", errors.New("modified"))
			}
			if target.Status.Key != "k" {
				t.Errorf("wrote key %q", target.Status.Key)
			}
			return nil
		},
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// Run reports once before it looks at ctx.
	c.Run(ctx)
	if reads != 2 || writes != 2 || observed != 2 {
		t.Errorf("%d reads, %d writes, %d observed; want the conflict read and written again", reads, writes, observed)
	}
}
