package rbac

import (
	"runtime"
	"testing"
	"time"

	rbacv1 "k8s.io/api/rbac/v1"

	"github.com/canopy-dev/canopy/pkg/registry"
)

func TestShareRules(t *testing.T) {
	table := registry.NewShared[rbacv1.PolicyRule]()
	rules := func(resource string) []rbacv1.PolicyRule {
		return []rbacv1.PolicyRule{{Verbs: []string{"get"}, APIGroups: []string{""}, Resources: []string{resource}}}
	}
	a := shareRules(table, rules("pods"))
	b := shareRules(table, rules("pods"))
	c := shareRules(table, rules("services"))
	if &a[0] != &b[0] {
		t.Error("equal rule lists were not shared")
	}
	if &a[0] == &c[0] || c[0].Resources[0] != "services" {
		t.Error("different rule lists were shared")
	}
	if got := shareRules(table, nil); got != nil {
		t.Errorf("an empty list became %v", got)
	}

	// Once no role holds a list, the table forgets it: a, b and c are
	// not used past this point.
	deadline := time.Now().Add(5 * time.Second)
	for {
		runtime.GC()
		n := table.Len()
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the table still holds %d lists no one uses", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
