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

// TestReconcileEviction checks when Evicted turns True and False again.
func TestReconcileEviction(t *testing.T) {
	const timeout, evictAfter = 40 * time.Second, 5 * time.Minute
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	target := func(beat time.Time, conditions ...metav1.Condition) *workloadv1alpha1.SyncTarget {
		return &workloadv1alpha1.SyncTarget{Status: workloadv1alpha1.SyncTargetStatus{LastHeartbeatTime: metav1.NewTime(beat), Conditions: conditions}}
	}
	cond := func(typ string, status metav1.ConditionStatus, reason string, at time.Time) metav1.Condition {
		return metav1.Condition{Type: typ, Status: status, Reason: reason, LastTransitionTime: metav1.NewTime(at)}
	}
	longAgo := now.Add(-time.Hour)
	for _, tc := range []struct {
		name        string
		st          *workloadv1alpha1.SyncTarget
		wantChanged bool
		wantRecheck time.Duration
		wantEvicted metav1.ConditionStatus
	}{
		{"ready", target(now.Add(-time.Second), cond("Ready", "True", "SyncerReporting", longAgo)), false, 39 * time.Second, ""},
		{"not ready for a minute", target(now.Add(-2*time.Minute), cond("Ready", "False", ReasonHeartbeatTimeout, now.Add(-time.Minute))),
			false, 4 * time.Minute, ""},
		{"not ready too long", target(longAgo, cond("Ready", "False", ReasonHeartbeatTimeout, now.Add(-evictAfter))), true, 0, "True"},
		{"evicted", target(longAgo, cond("Ready", "False", ReasonHeartbeatTimeout, longAgo),
			cond("Evicted", "True", workloadv1alpha1.ReasonNotReadyTooLong, longAgo.Add(evictAfter))), false, 0, "True"},
		{"evicted by an admin while ready", target(now, cond("Ready", "True", "SyncerReporting", longAgo),
			cond("Evicted", "True", workloadv1alpha1.ReasonEvictedByAdmin, now.Add(-time.Minute))), false, timeout, "True"},
		{"back after eviction", target(now, cond("Ready", "True", "SyncerReporting", now.Add(-time.Second)),
			cond("Evicted", "True", workloadv1alpha1.ReasonNotReadyTooLong, longAgo)), true, timeout, "False"},
		{"never reported", target(time.Time{}), false, 0, ""},
	} {
		st := tc.st.DeepCopy()
		changed, recheck := reconcile(st, now, timeout, evictAfter)
		evicted := meta.FindStatusCondition(st.Status.Conditions, workloadv1alpha1.ConditionEvicted)
		var got metav1.ConditionStatus
		if evicted != nil {
			got = evicted.Status
		}
		if changed != tc.wantChanged || recheck != tc.wantRecheck || got != tc.wantEvicted {
			t.Errorf("%s: reconcile = %v, %v, Evicted %q; want %v, %v, %q", tc.name, changed, recheck, got, tc.wantChanged, tc.wantRecheck, tc.wantEvicted)
		}
	}
}
