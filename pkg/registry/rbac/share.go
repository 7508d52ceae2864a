package rbac

import (
	"runtime"
	"sync"
	"unsafe"
	"weak"

	rbacv1 "k8s.io/api/rbac/v1"
)

// sharedRules makes equal rule lists of different roles one copy in
// memory. Every logical cluster has the same default roles, whose rules
// would otherwise be the bulk of what an idle logical cluster costs.
var sharedRules = &ruleTable{lists: map[string]sharedList{}}

// ruleTable holds each distinct rule list weakly, by its encoding: a list
// no role holds any more is forgotten.
type ruleTable struct {
	mu    sync.Mutex
	lists map[string]sharedList
}

// sharedList is a rule list by its first element, which keeps the whole
// backing array alive.
type sharedList struct {
	first weak.Pointer[rbacv1.PolicyRule]
	n     int
}

// share returns the copy of rules the table holds, holding rules if it
// has none.
func (t *ruleTable) share(rules []rbacv1.PolicyRule) []rbacv1.PolicyRule {
	if len(rules) == 0 {
		return rules
	}
	list := rbacv1.ClusterRole{Rules: rules}
	encoded, err := list.Marshal()
	if err != nil {
		return rules
	}
	key := string(encoded)
	t.mu.Lock()
	defer t.mu.Unlock()
	if held, ok := t.lists[key]; ok {
		if first := held.first.Value(); first != nil {
			return unsafe.Slice(first, held.n)
		}
	}
	rules = rules[:len(rules):len(rules)]
	t.lists[key] = sharedList{first: weak.Make(&rules[0]), n: len(rules)}
	runtime.AddCleanup(&rules[0], t.forget, key)
	return rules
}

// forget drops key once its list is gone, unless a new list took its
// place meanwhile.
func (t *ruleTable) forget(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if held, ok := t.lists[key]; ok && held.first.Value() == nil {
		delete(t.lists, key)
	}
}
