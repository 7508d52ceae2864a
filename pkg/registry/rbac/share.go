package rbac

import (
	rbacv1 "k8s.io/api/rbac/v1"

	"github.com/canopy-dev/canopy/pkg/registry"
)

// sharedRules makes equal rule lists of different roles one copy in
// memory. Every logical cluster has the same default roles, whose rules
// would otherwise be the bulk of what an idle logical cluster costs.
var sharedRules = registry.NewShared[rbacv1.PolicyRule]()

// shareRules returns the copy of rules the table holds, by their
// encoding, holding rules if it has none.
func shareRules(table *registry.Shared[rbacv1.PolicyRule], rules []rbacv1.PolicyRule) []rbacv1.PolicyRule {
	if len(rules) == 0 {
		return rules
	}
	encoded, err := (&rbacv1.ClusterRole{Rules: rules}).Marshal()
	if err != nil {
		return rules
	}
	return table.Slice(string(encoded), rules)
}
