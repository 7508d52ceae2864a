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

// TestAggregate checks the status of a Deployment split over targets a
// and b: counts summed, the least observedGeneration once both report,
// and Available True only where True at both.
func TestAggregate(t *testing.T) {
	a := `{"observedGeneration": 2, "replicas": 3, "readyReplicas": 3, "availableReplicas": 3, "selector": "app=web",
	  "conditions": [
	    {"type": "Available", "status": "True", "reason": "MinimumReplicasAvailable", "message": "ok", "lastTransitionTime": "2026-01-01T00:00:01Z", "lastUpdateTime": "2026-01-01T00:00:01Z"},
	    {"type": "Progressing", "status": "True", "reason": "NewReplicaSetAvailable", "message": "done", "lastTransitionTime": "2026-01-01T00:00:00Z"}]}`
	b := `{"observedGeneration": 1, "replicas": 3, "readyReplicas": 1, "availableReplicas": 1, "selector": "app=other",
	  "conditions": [
	    {"type": "Available", "status": "False", "reason": "MinimumReplicasUnavailable", "message": "1 of 3", "lastTransitionTime": "2026-01-01T00:00:05Z", "lastUpdateTime": "2026-01-01T00:00:05Z"},
	    {"type": "Progressing", "status": "True", "reason": "ReplicaSetUpdated", "message": "going", "lastTransitionTime": "2026-01-01T00:00:02Z"}]}`
	for name, tc := range map[string]struct {
		targets  []string
		reported map[string]string
		want     string
	}{
		"both": {[]string{"a", "b"}, map[string]string{"a": a, "b": b}, `{"observedGeneration": 1, "replicas": 6, "readyReplicas": 4, "availableReplicas": 4, "selector": "app=web",
		  "conditions": [
		    {"type": "Available", "status": "False", "reason": "MinimumReplicasUnavailable", "message": "At SyncTarget b: 1 of 3", "lastTransitionTime": "2026-01-01T00:00:05Z", "lastUpdateTime": "2026-01-01T00:00:05Z"},
		    {"type": "Progressing", "status": "True", "reason": "NewReplicaSetAvailable", "message": "done", "lastTransitionTime": "2026-01-01T00:00:02Z"}]}`},
		"one not reported": {[]string{"a", "b"}, map[string]string{"a": a}, `{"replicas": 3, "readyReplicas": 3, "availableReplicas": 3, "selector": "app=web",
		  "conditions": [
		    {"type": "Available", "status": "Unknown", "reason": "NotReported", "message": "At SyncTarget b: not reported", "lastTransitionTime": "2026-01-01T00:00:01Z", "lastUpdateTime": "2026-01-01T00:00:01Z"},
		    {"type": "Progressing", "status": "Unknown", "reason": "NotReported", "message": "At SyncTarget b: not reported", "lastTransitionTime": "2026-01-01T00:00:00Z"}]}`},
		"none reported": {[]string{"a", "b"}, nil, `{}`},
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
