package statusaggregation

import (
	"encoding/json"
	"reflect"
	"testing"
)

func decode(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// ready is condition SyncTargetsReady, as JSON.
func ready(status, reason, message string) string {
	return `{"type": "SyncTargetsReady", "status": "` + status + `", "reason": "` + reason + `", "message": "` + message + `"}`
}

// refused is the status target t reports of an object its physical
// cluster refused, as JSON.
func refused(t string) string {
	return `{"conditions": [{"type": "SyncFailed", "status": "True", "reason": "Forbidden", "message": "SyncTarget root:` + t +
		`: refused", "lastTransitionTime": "2026-01-01T00:00:09Z", "lastUpdateTime": null}]}`
}

// TestAggregate checks the status of a Deployment split over targets a
// and b: counts summed, the least observedGeneration once both report,
// and Available True only where True at both.
func TestAggregate(t *testing.T) {
	three := int32(3)
	a := `{"observedGeneration": 2, "replicas": 3, "readyReplicas": 3, "availableReplicas": 3, "selector": "app=web",
	  "conditions": [
	    {"type": "Available", "status": "True", "reason": "MinimumReplicasAvailable", "message": "ok", "lastTransitionTime": "2026-01-01T00:00:01Z", "lastUpdateTime": "2026-01-01T00:00:01Z"},
	    {"type": "Progressing", "status": "True", "reason": "NewReplicaSetAvailable", "message": "done", "lastTransitionTime": "2026-01-01T00:00:00Z"}]}`
	b := `{"observedGeneration": 1, "replicas": 3, "readyReplicas": 1, "availableReplicas": 1, "selector": "app=other",
	  "conditions": [
	    {"type": "Available", "status": "False", "reason": "MinimumReplicasUnavailable", "message": "1 of 3", "lastTransitionTime": "2026-01-01T00:00:05Z", "lastUpdateTime": "2026-01-01T00:00:05Z"},
	    {"type": "Progressing", "status": "True", "reason": "ReplicaSetUpdated", "message": "going", "lastTransitionTime": "2026-01-01T00:00:02Z"}]}`
	up := []Target{{Key: "a", Name: "root:a"}, {Key: "b", Name: "root:b"}}
	for name, tc := range map[string]struct {
		targets  []Target
		reported map[string]string
		want     string
	}{
		"both": {up, map[string]string{"a": a, "b": b}, `{"observedGeneration": 1, "replicas": 6, "readyReplicas": 4, "availableReplicas": 4, "selector": "app=web",
		  "conditions": [
		    {"type": "Available", "status": "False", "reason": "MinimumReplicasUnavailable", "message": "At SyncTarget b: 1 of 3", "lastTransitionTime": "2026-01-01T00:00:05Z", "lastUpdateTime": "2026-01-01T00:00:05Z"},
		    {"type": "Progressing", "status": "True", "reason": "NewReplicaSetAvailable", "message": "done", "lastTransitionTime": "2026-01-01T00:00:02Z"},
		    ` + ready("True", "AllReady", "root:a runs 3 replicas, 3 available; root:b runs 3 replicas, 1 available") + `]}`},
		"one not reported": {up, map[string]string{"a": a}, `{"replicas": 3, "readyReplicas": 3, "availableReplicas": 3, "selector": "app=web",
		  "conditions": [
		    {"type": "Available", "status": "Unknown", "reason": "NotReported", "message": "At SyncTarget b: not reported", "lastTransitionTime": "2026-01-01T00:00:01Z", "lastUpdateTime": "2026-01-01T00:00:01Z"},
		    {"type": "Progressing", "status": "Unknown", "reason": "NotReported", "message": "At SyncTarget b: not reported", "lastTransitionTime": "2026-01-01T00:00:00Z"},
		    ` + ready("True", "AllReady", "root:a runs 3 replicas, 3 available; root:b runs all replicas, not reported yet") + `]}`},
		// b's syncer stopped reporting: what it last reported, 3 of its
		// 3 replicas available, is not counted, and a condition says so.
		"one not ready": {[]Target{{Key: "a", Name: "root:a"}, {Key: "b", Name: "root:b", Down: "is NotReady since 2026-01-01T00:01:00Z (HeartbeatTimeout)", Share: &three}},
			map[string]string{"a": a, "b": a}, `{"observedGeneration": 2, "replicas": 3, "readyReplicas": 3, "availableReplicas": 3, "selector": "app=web",
		  "conditions": [
		    {"type": "Available", "status": "True", "reason": "MinimumReplicasAvailable", "message": "ok", "lastTransitionTime": "2026-01-01T00:00:01Z", "lastUpdateTime": "2026-01-01T00:00:01Z"},
		    {"type": "Progressing", "status": "True", "reason": "NewReplicaSetAvailable", "message": "done", "lastTransitionTime": "2026-01-01T00:00:00Z"},
		    ` + ready("False", "SyncTargetsNotReady", "root:b is NotReady since 2026-01-01T00:01:00Z (HeartbeatTimeout): its 3 replicas are not counted; root:a runs 3 replicas, 3 available") + `]}`},
		"one deleted": {[]Target{{Key: "a", Name: "root:a"}, {Key: "b", Down: "is deleted"}},
			map[string]string{"a": a}, `{"observedGeneration": 2, "replicas": 3, "readyReplicas": 3, "availableReplicas": 3, "selector": "app=web",
		  "conditions": [
		    {"type": "Available", "status": "True", "reason": "MinimumReplicasAvailable", "message": "ok", "lastTransitionTime": "2026-01-01T00:00:01Z", "lastUpdateTime": "2026-01-01T00:00:01Z"},
		    {"type": "Progressing", "status": "True", "reason": "NewReplicaSetAvailable", "message": "done", "lastTransitionTime": "2026-01-01T00:00:00Z"},
		    ` + ready("False", "SyncTargetsNotReady", "key b is deleted: its replicas are not counted; root:a runs 3 replicas, 3 available") + `]}`},
		// The physical cluster of b refused the object, and a's lets its
		// earlier version run: SyncFailed is True, saying why at b, and
		// not every target observed the generation.
		"one refused": {up, map[string]string{"a": a, "b": refused("b")}, `{"replicas": 3, "readyReplicas": 3, "availableReplicas": 3, "selector": "app=web",
		  "conditions": [
		    {"type": "Available", "status": "Unknown", "reason": "NotReported", "message": "At SyncTarget b: not reported", "lastTransitionTime": "2026-01-01T00:00:01Z", "lastUpdateTime": "2026-01-01T00:00:01Z"},
		    {"type": "Progressing", "status": "Unknown", "reason": "NotReported", "message": "At SyncTarget b: not reported", "lastTransitionTime": "2026-01-01T00:00:00Z"},
		    {"type": "SyncFailed", "status": "True", "reason": "Forbidden", "message": "SyncTarget root:b: refused", "lastTransitionTime": "2026-01-01T00:00:09Z", "lastUpdateTime": "2026-01-01T00:00:09Z"},
		    ` + ready("True", "AllReady", "root:a runs 3 replicas, 3 available; root:b runs all replicas") + `]}`},
		// Where both refused it, the condition says why at each; where
		// one that refused it now runs it, it is gone.
		"both refused": {up, map[string]string{"a": refused("a"), "b": refused("b")}, `{
		  "conditions": [
		    {"type": "SyncFailed", "status": "True", "reason": "Forbidden", "message": "SyncTarget root:a: refused; SyncTarget root:b: refused", "lastTransitionTime": "2026-01-01T00:00:09Z", "lastUpdateTime": "2026-01-01T00:00:09Z"},
		    ` + ready("True", "AllReady", "root:a runs all replicas; root:b runs all replicas") + `]}`},
		"none reported": {up, nil, `{"conditions": [` + ready("True", "AllReady", "root:a runs all replicas, not reported yet; root:b runs all replicas, not reported yet") + `]}`},
	} {
		reported := map[string]map[string]any{}
		for k, v := range tc.reported {
			reported[k] = decode(t, v)
		}
		got, err := roundTrip(Aggregate(tc.targets, reported))
		if err != nil {
			t.Fatal(err)
		}
		if want := decode(t, tc.want); !reflect.DeepEqual(got, any(want)) {
			gotJSON, _ := json.Marshal(got)
			t.Errorf("%s: aggregated\n%s\nwant\n%s", name, gotJSON, tc.want)
		}
	}
}

// roundTrip is v as JSON decodes it, as the wanted statuses are.
func roundTrip(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	return out, json.Unmarshal(b, &out)
}
