package synctarget

import (
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

func TestCheck(t *testing.T) {
	const timeout = 40 * time.Second
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	target := func(beat time.Time, ready metav1.ConditionStatus, reason string) *workloadv1alpha1.SyncTarget {
		st := &workloadv1alpha1.SyncTarget{Status: workloadv1alpha1.SyncTargetStatus{LastHeartbeatTime: metav1.NewTime(beat)}}
		if ready != "" {
			st.Status.Conditions = []metav1.Condition{{Type: workloadv1alpha1.ConditionReady, Status: ready, Reason: reason}}
		}
		return st
	}
	for _, tc := range []struct {
		name        string
		st          *workloadv1alpha1.SyncTarget
		wantExpired bool
		wantRecheck time.Duration
	}{
		{"never reported", target(time.Time{}, "", ""), false, 0},
		{"fresh", target(now.Add(-10*time.Second), metav1.ConditionTrue, "SyncerReporting"), false, 30 * time.Second},
		{"expiring now", target(now.Add(-timeout), metav1.ConditionTrue, "SyncerReporting"), true, 0},
		{"expired", target(now.Add(-time.Hour), metav1.ConditionTrue, "SyncerReporting"), true, 0},
		{"expired without a condition", target(now.Add(-time.Hour), "", ""), true, 0},
		{"expired and False for another reason", target(now.Add(-time.Hour), metav1.ConditionFalse, "ClusterUnreachable"), true, 0},
		{"expired and marked", target(now.Add(-time.Hour), metav1.ConditionFalse, ReasonHeartbeatTimeout), false, 0},
		{"fresh after being marked", target(now.Add(-time.Second), metav1.ConditionFalse, ReasonHeartbeatTimeout), false, 39 * time.Second},
	} {
		expired, recheck := check(tc.st, now, timeout)
		if expired != tc.wantExpired || recheck != tc.wantRecheck {
			t.Errorf("%s: check = %v, %v; want %v, %v", tc.name, expired, recheck, tc.wantExpired, tc.wantRecheck)
		}
	}
}

func TestMarkTimedOut(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	beat := now.Add(-time.Minute)
	st := &workloadv1alpha1.SyncTarget{
		ObjectMeta: metav1.ObjectMeta{Generation: 3},
		Status: workloadv1alpha1.SyncTargetStatus{
			LastHeartbeatTime: metav1.NewTime(beat),
			Conditions:        []metav1.Condition{{Type: workloadv1alpha1.ConditionReady, Status: metav1.ConditionTrue, Reason: "SyncerReporting", LastTransitionTime: metav1.NewTime(beat)}},
		},
	}
	markTimedOut(st, now, 40*time.Second)
	ready := meta.FindStatusCondition(st.Status.Conditions, workloadv1alpha1.ConditionReady)
	if len(st.Status.Conditions) != 1 || ready.Status != metav1.ConditionFalse || ready.Reason != ReasonHeartbeatTimeout ||
		!ready.LastTransitionTime.Time.Equal(now) || ready.ObservedGeneration != 3 {
		t.Fatalf("conditions after a timeout: %+v", st.Status.Conditions)
	}
	if expired, _ := check(st, now, 40*time.Second); expired {
		t.Error("a marked SyncTarget is to be marked again")
	}
}
