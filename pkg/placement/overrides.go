package placement

import (
	"fmt"

	placementv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/placement/v1alpha1"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// override is a compiled override rule of a placement.
type override struct {
	name string
	selector
	action workloadv1alpha1.ObjectOverride
}

// compileOverrides compiles the override rules of the placement named
// name.
func (p *Policy) compileOverrides(name string, rules []placementv1alpha1.Override) error {
	for _, r := range rules {
		s, err := compileSelector(r.Targets)
		if err != nil {
			return fmt.Errorf("placement %s: override %s: targets: %w", name, r.Name, err)
		}
		p.overrides = append(p.overrides, override{name: r.Name, selector: s, action: r.ObjectOverride})
	}
	return nil
}

// Overrides are the names and actions of p's override rules that
// select target t, in their order: what the object t receives differs
// by from the hub object. A rule whose expression fails for t, as by
// reading a missing label, does not select it.
func (p *Policy) Overrides(t *Target) (names []string, actions []workloadv1alpha1.ObjectOverride) {
	lazyVars := t.lazyVars()
	for _, o := range p.overrides {
		if ok, _ := o.matches(t, lazyVars); ok {
			names = append(names, o.name)
			actions = append(actions, o.action)
		}
	}
	return names, actions
}
