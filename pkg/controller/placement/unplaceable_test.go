package placement

import (
	"testing"

	placementv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/placement/v1alpha1"
	engine "github.com/canopy-dev/canopy/pkg/placement"
)

// The verdict's reason is the targets' one reason, or NoEligibleTarget
// for several, and its signature changes with a target's reason only,
// not with the messages, which tell durations.
func TestUnplaceable(t *testing.T) {
	id := placementID{"root", "eu"}
	target := func(name string, reason placementv1alpha1.TargetReason, message string) placementv1alpha1.TargetStatus {
		return placementv1alpha1.TargetStatus{Cluster: "root", Name: name, Reason: reason, Message: message}
	}
	for _, tc := range []struct {
		name           string
		targets        []placementv1alpha1.TargetStatus
		reason         string
		sameSignature  []placementv1alpha1.TargetStatus
		otherSignature []placementv1alpha1.TargetStatus
	}{
		{name: "no target", reason: ReasonNoCandidateTarget},
		{
			name:           "one reason",
			targets:        []placementv1alpha1.TargetStatus{target("pc1", placementv1alpha1.ReasonCordoned, ""), target("pc2", placementv1alpha1.ReasonCordoned, "")},
			reason:         "Cordoned",
			sameSignature:  []placementv1alpha1.TargetStatus{target("pc2", placementv1alpha1.ReasonCordoned, "x"), target("pc1", placementv1alpha1.ReasonCordoned, "y")},
			otherSignature: []placementv1alpha1.TargetStatus{target("pc1", placementv1alpha1.ReasonCordoned, ""), target("pc2", placementv1alpha1.ReasonNotReady, "")},
		},
		{
			name:           "several reasons",
			targets:        []placementv1alpha1.TargetStatus{target("pc1", placementv1alpha1.ReasonCordoned, ""), target("pc2", placementv1alpha1.ReasonNotReady, "not ready for 2m")},
			reason:         ReasonNoEligibleTarget,
			sameSignature:  []placementv1alpha1.TargetStatus{target("pc1", placementv1alpha1.ReasonCordoned, ""), target("pc2", placementv1alpha1.ReasonNotReady, "not ready for 5m")},
			otherSignature: []placementv1alpha1.TargetStatus{target("pc1", placementv1alpha1.ReasonTaint, ""), target("pc2", placementv1alpha1.ReasonNotReady, "")},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := unplaceable(id, engine.Decision{Targets: tc.targets, Message: "no eligible target: …"})
			if v.reason != tc.reason {
				t.Errorf("reason %q, want %q", v.reason, tc.reason)
			}
			if want := "Placement root:eu selects it, but no SyncTarget can take it: no eligible target: …"; v.message != want {
				t.Errorf("message %q, want %q", v.message, want)
			}
			if tc.sameSignature != nil {
				if other := unplaceable(id, engine.Decision{Targets: tc.sameSignature}); other.signature != v.signature {
					t.Errorf("signature %q, want %q: only the messages changed", other.signature, v.signature)
				}
			}
			if tc.otherSignature != nil {
				if other := unplaceable(id, engine.Decision{Targets: tc.otherSignature}); other.signature == v.signature {
					t.Errorf("signature %q unchanged, though a target's reason changed", v.signature)
				}
			}
		})
	}
}

// withPlaced sets, replaces or removes the Placed condition, keeps the
// others, and keeps the time a False one turned so.
func TestWithPlaced(t *testing.T) {
	available := map[string]any{"type": "Available", "status": "True"}
	placed := func(reason, at string) map[string]any {
		return map[string]any{"type": ConditionPlaced, "status": "False", "reason": reason, "message": reason, "lastTransitionTime": at}
	}
	status := func(conditions ...any) map[string]any {
		return map[string]any{"status": map[string]any{"conditions": conditions}}
	}
	for _, tc := range []struct {
		name      string
		obj       map[string]any
		condition map[string]any
		want      int
		changed   bool
		at        string
	}{
		{name: "set", obj: status(available), condition: placed("Cordoned", "t1"), want: 2, changed: true, at: "t1"},
		{name: "unchanged", obj: status(available, placed("Cordoned", "t0")), condition: placed("Cordoned", "t1"), want: 2, at: "t0"},
		{name: "another reason keeps the transition", obj: status(placed("Cordoned", "t0")), condition: placed("NotReady", "t1"), want: 1, changed: true, at: "t0"},
		{name: "removed", obj: status(available, placed("Cordoned", "t0")), want: 1, changed: true},
		{name: "nothing to remove", obj: status(available), want: 1},
		{name: "no status", obj: map[string]any{}, condition: placed("Cordoned", "t1"), want: 1, changed: true, at: "t1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, changed := withPlaced(tc.obj, tc.condition)
			if len(got) != tc.want || changed != tc.changed {
				t.Fatalf("%d conditions, changed %t; want %d, %t: %v", len(got), changed, tc.want, tc.changed, got)
			}
			for _, c := range got {
				if c := c.(map[string]any); c["type"] == ConditionPlaced && c["lastTransitionTime"] != tc.at {
					t.Errorf("lastTransitionTime %v, want %s", c["lastTransitionTime"], tc.at)
				}
			}
		})
	}
}
