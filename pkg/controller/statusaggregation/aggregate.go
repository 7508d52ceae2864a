package statusaggregation

import (
	"fmt"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Aggregate is the status of an object assigned to targets, by key,
// from the status reported for each, missing for those that have not
// reported:
//
//   - an integer field is the sum over the targets, but for
//     observedGeneration: the least, and absent until every target has
//     reported one;
//   - conditions, a list of objects with a type and a status, are merged
//     by type: True where True at every target, False where False at
//     any, Unknown otherwise, with the reason and message of the first
//     target, by key, where it is not True, the message naming it, and
//     the latest transition time;
//   - any other field is the first reporting target's.
func Aggregate(targets []string, reported map[string]map[string]any) map[string]any {
	out := map[string]any{}
	all := true
	var reporting []string
	for _, t := range targets {
		if _, ok := reported[t]; ok {
			reporting = append(reporting, t)
		} else {
			all = false
		}
	}
	for _, t := range reporting {
		for field, v := range reported[t] {
			switch n, isInt := integer(v); {
			case field == "observedGeneration":
			case field == "conditions":
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
	if conditions := mergeConditions(targets, reported); len(conditions) > 0 {
		out["conditions"] = conditions
	}
	return out
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

func hasField(conditions map[string]map[string]any, field string) bool {
	for _, c := range conditions {
		if _, ok := c[field]; ok {
			return true
		}
	}
	return false
}
