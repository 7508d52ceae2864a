package rbac

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// Aggregate returns the rules each ClusterRole with an aggregationRule
// among roles should have: those of every other role its selectors pick,
// in name order, without repeats. An aggregated role may itself be
// picked, as edit is by admin, so this repeats until nothing changes.
func Aggregate(roles []*rbacv1.ClusterRole) (map[string][]rbacv1.PolicyRule, error) {
	sorted := append([]*rbacv1.ClusterRole(nil), roles...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	rules := make(map[string][]rbacv1.PolicyRule, len(sorted))
	selectors := map[string][]labels.Selector{}
	for _, r := range sorted {
		rules[r.Name] = r.Rules
		if r.AggregationRule == nil {
			continue
		}
		for _, s := range r.AggregationRule.ClusterRoleSelectors {
			sel, err := metav1.LabelSelectorAsSelector(&s)
			if err != nil {
				return nil, fmt.Errorf("ClusterRole %s: %w", r.Name, err)
			}
			selectors[r.Name] = append(selectors[r.Name], sel)
		}
		rules[r.Name] = nil
	}
	// Each pass settles at least one more level of nesting, so as many
	// passes as roles always suffice, even for cycles.
	for range len(sorted) + 1 {
		changed := false
		for _, r := range sorted {
			if r.AggregationRule == nil {
				continue
			}
			var union []rbacv1.PolicyRule
			seen := map[string]bool{}
			for _, other := range sorted {
				if other.Name == r.Name || !matchesAny(selectors[r.Name], other.Labels) {
					continue
				}
				for _, rule := range rules[other.Name] {
					if k := ruleKey(rule); !seen[k] {
						seen[k] = true
						union = append(union, rule)
					}
				}
			}
			if !SameRules(union, rules[r.Name]) {
				rules[r.Name], changed = union, true
			}
		}
		if !changed {
			break
		}
	}
	out := map[string][]rbacv1.PolicyRule{}
	for _, r := range sorted {
		if r.AggregationRule != nil {
			out[r.Name] = rules[r.Name]
		}
	}
	return out, nil
}

func matchesAny(selectors []labels.Selector, l map[string]string) bool {
	for _, s := range selectors {
		if s.Matches(labels.Set(l)) {
			return true
		}
	}
	return false
}

// SameRules tells whether a and b are the same rules in the same order.
func SameRules(a, b []rbacv1.PolicyRule) bool {
	return slices.EqualFunc(a, b, func(x, y rbacv1.PolicyRule) bool { return ruleKey(x) == ruleKey(y) })
}

// ruleKey is equal for equal rules and differs otherwise, since each
// value is prefixed with its length.
func ruleKey(r rbacv1.PolicyRule) string {
	var b strings.Builder
	for _, field := range [][]string{r.Verbs, r.APIGroups, r.Resources, r.ResourceNames, r.NonResourceURLs} {
		for _, v := range field {
			b.WriteString(strconv.Itoa(len(v)))
			b.WriteByte(':')
			b.WriteString(v)
		}
		b.WriteByte(';')
	}
	return b.String()
}
