package statusaggregation

import (
	"fmt"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// ConditionSyncTargetsReady is the condition type, on an object
// assigned to several targets, telling whether each of them is Ready and
// so counted in the aggregated status. Its message breaks the object
// down by target, by name: the replicas each runs and has available, and
// for a target that is not counted, why and since when.
const ConditionSyncTargetsReady = "SyncTargetsReady"

// Target is one target an object is assigned to, as aggregation sees it.
type Target struct {
	Key string
	// Name is the SyncTarget's logical cluster and name, as root:pc1;
	// empty for a target that no longer exists.
	Name string
	// Down is why the target is not counted, as "NotReady since …";
	// empty for a Ready one.
	Down string
	// Since is when the target's readiness last changed, zero if
	// unknown.
	Since metav1.Time
	// Share is the replicas the target runs of the object, from its
	// replicas annotation, nil where it runs them all or the object has
	// none.
	Share *int32
}

// Aggregate is the status of an object assigned to targets, from the
// status reported for each, by key, missing for those that have not
// reported. Only targets that are not Down count:
//
//   - an integer field is the sum over the targets, but for
//     observedGeneration: the least, and absent until every target has
//     reported one;
//   - conditions, a list of objects with a type and a status, are merged
//     by type: True where True at every target, False where False at
//     any, Unknown otherwise, with the reason and message of the first
//     target, by key, where it is not True, the message naming it, and
//     the latest transition time; but for SyncFailed, which a syncer
//     sets True while its physical cluster refuses the object: True
//     where True at any target, with the message of each, and absent
//     where True at none;
//   - any other field is the first reporting target's.
//
// Condition SyncTargetsReady is added, False when some target is Down.
func Aggregate(targets []Target, reported map[string]map[string]any) map[string]any {
	out := map[string]any{}
	all := true
	var counted, reporting []string
	for _, t := range targets {
		if t.Down != "" {
			continue
		}
		counted = append(counted, t.Key)
		if _, ok := reported[t.Key]; ok {
			reporting = append(reporting, t.Key)
		} else {
			all = false
		}
	}
	for _, t := range reporting {
		for field, v := range reported[t] {
			switch n, isInt := integer(v); {
			case field == "observedGeneration":
			case field == "conditions":
			case field == workloadv1alpha1.ReportRevisionField:
				// The hub's bookkeeping of a rollout, not the object's.
			case isInt:
				sum, _ := integer(out[field])
				out[field] = sum + n
			default:
				if _, ok := out[field]; !ok {
					out[field] = v
				}
			}
		}
	}
	if g, ok := leastGeneration(reporting, reported); ok && all {
		out["observedGeneration"] = g
	}
	conditions := mergeConditions(counted, reported)
	if len(targets) > 0 {
		ready := targetsReady(targets, reported)
		// Only where the resource's conditions have the field, as a
		// Deployment's do: a typed status would drop it, and the
		// aggregate would never equal what is stored.
		if !updateTimes(conditions) {
			delete(ready, "lastUpdateTime")
		}
		conditions = append(conditions, ready)
	}
	if len(conditions) > 0 {
		out["conditions"] = conditions
	}
	return out
}

// targetsReady is condition SyncTargetsReady of an object assigned to
// targets, reporting reported.
func targetsReady(targets []Target, reported map[string]map[string]any) map[string]any {
	c := map[string]any{"type": ConditionSyncTargetsReady, "status": string(metav1.ConditionTrue), "reason": "AllReady"}
	var down, up []string
	var latest metav1.Time
	for _, t := range targets {
		if latest.Before(&t.Since) {
			latest = t.Since
		}
		name := t.Name
		if name == "" {
			name = "key " + t.Key
		}
		replicas, its := "all replicas", "its replicas"
		if t.Share != nil {
			replicas = fmt.Sprintf("%d replicas", *t.Share)
			its = "its " + replicas
		} else if n, ok := integer(reported[t.Key]["replicas"]); ok {
			replicas = fmt.Sprintf("%d replicas", n)
			its = "its " + replicas
		}
		if t.Down != "" {
			down = append(down, fmt.Sprintf("%s %s: %s are not counted", name, t.Down, its))
			continue
		}
		available, ok := integer(reported[t.Key]["availableReplicas"])
		switch {
		case !ok && reported[t.Key] == nil:
			up = append(up, fmt.Sprintf("%s runs %s, not reported yet", name, replicas))
		case !ok:
			up = append(up, fmt.Sprintf("%s runs %s", name, replicas))
		default:
			up = append(up, fmt.Sprintf("%s runs %s, %d available", name, replicas, available))
		}
	}
	if len(down) > 0 {
		c["status"], c["reason"] = string(metav1.ConditionFalse), "SyncTargetsNotReady"
	}
	c["message"] = strings.Join(append(down, up...), "; ")
	if !latest.IsZero() {
		c["lastTransitionTime"] = latest.UTC().Format("2006-01-02T15:04:05Z")
		c["lastUpdateTime"] = c["lastTransitionTime"]
	}
	return c
}

// integer is v as an integer, whether decoded from JSON (float64 or
// int64) or not.
func integer(v any) (int64, bool) {
	switch n := v.(type) {
	case int64:
		return n, true
	case float64:
		return int64(n), n == float64(int64(n))
	case nil:
		return 0, false
	}
	return 0, false
}

func leastGeneration(targets []string, reported map[string]map[string]any) (int64, bool) {
	var least int64
	for i, t := range targets {
		g, ok := integer(reported[t]["observedGeneration"])
		if !ok {
			return 0, false
		}
		if i == 0 || g < least {
			least = g
		}
	}
	return least, len(targets) > 0
}

// mergeConditions merges the conditions of every target by type, in the
// order types first appear.
func mergeConditions(targets []string, reported map[string]map[string]any) []any {
	var types []string
	byType := map[string]map[string]map[string]any{} // type, target, condition
	for _, t := range targets {
		list, _ := reported[t]["conditions"].([]any)
		for _, item := range list {
			c, ok := item.(map[string]any)
			typ, _ := c["type"].(string)
			if !ok || typ == "" {
				continue
			}
			if _, seen := byType[typ]; !seen {
				types = append(types, typ)
				byType[typ] = map[string]map[string]any{}
			}
			byType[typ][t] = c
		}
	}
	var out []any
	for _, typ := range types {
		if typ == workloadv1alpha1.ConditionSyncFailed {
			if failed, ok := anyTrue(typ, targets, byType[typ]); ok {
				out = append(out, failed)
			}
			continue
		}
		merged := map[string]any{"type": typ, "status": string(metav1.ConditionTrue)}
		var notTrue []string
		var latest string
		for _, t := range targets {
			c, ok := byType[typ][t]
			status, _ := c["status"].(string)
			switch {
			case !ok:
				notTrue = append(notTrue, t+": not reported")
				if merged["status"] == string(metav1.ConditionTrue) {
					merged["status"] = string(metav1.ConditionUnknown)
					merged["reason"] = "NotReported"
				}
				continue
			case status == string(metav1.ConditionFalse):
				if merged["status"] != string(metav1.ConditionFalse) {
					merged["status"], merged["reason"] = status, c["reason"]
				}
			case status != string(metav1.ConditionTrue) && merged["status"] == string(metav1.ConditionTrue):
				merged["status"], merged["reason"] = string(metav1.ConditionUnknown), c["reason"]
			}
			if status != string(metav1.ConditionTrue) {
				notTrue = append(notTrue, fmt.Sprintf("%s: %v", t, c["message"]))
			} else if _, ok := merged["reason"]; !ok {
				merged["reason"], merged["message"] = c["reason"], c["message"]
			}
			for _, f := range []string{"lastTransitionTime", "lastUpdateTime"} {
				if ts, _ := c[f].(string); ts > latest {
					latest = ts
				}
			}
		}
		if len(notTrue) > 0 {
			merged["message"] = "At SyncTarget " + strings.Join(notTrue, "; at SyncTarget ")
		}
		if latest != "" {
			merged["lastTransitionTime"] = latest
			if hasField(byType[typ], "lastUpdateTime") {
				merged["lastUpdateTime"] = latest
			}
		}
		for k, v := range merged {
			if v == nil {
				delete(merged, k)
			}
		}
		out = append(out, merged)
	}
	return out
}

// anyTrue merges byType, the conditions of type typ by target, for a
// condition that says something is wrong where it is True, as
// SyncFailed: True where it is True at any of targets, with the reason
// of the first such target, by key, the messages of each, which name
// their target, and the latest transition time, as mergeConditions
// keeps it; false, for no condition,
// where it is True at none.
func anyTrue(typ string, targets []string, byType map[string]map[string]any) (map[string]any, bool) {
	merged := map[string]any{"type": typ, "status": string(metav1.ConditionTrue)}
	var messages []string
	var latest string
	for _, t := range targets {
		c, ok := byType[t]
		if !ok || c["status"] != string(metav1.ConditionTrue) {
			continue
		}
		if _, ok := merged["reason"]; !ok && c["reason"] != nil {
			merged["reason"] = c["reason"]
		}
		messages = append(messages, fmt.Sprint(c["message"]))
		if ts, _ := c["lastTransitionTime"].(string); ts > latest {
			latest = ts
		}
	}
	if len(messages) == 0 {
		return nil, false
	}
	merged["message"] = strings.Join(messages, "; ")
	if latest != "" {
		merged["lastTransitionTime"] = latest
		if hasField(byType, "lastUpdateTime") {
			merged["lastUpdateTime"] = latest
		}
	}
	return merged, true
}

func updateTimes(conditions []any) bool {
	for _, c := range conditions {
		if _, ok := c.(map[string]any)["lastUpdateTime"]; ok {
			return true
		}
	}
	return false
}

func hasField(conditions map[string]map[string]any, field string) bool {
	for _, c := range conditions {
		if _, ok := c[field]; ok {
			return true
		}
	}
	return false
}
