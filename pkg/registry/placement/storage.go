package placement

import (
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/storage/names"

	placementv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/placement/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/registry"
)

var internalVersion = schema.GroupVersion{Group: placementv1alpha1.GroupName, Version: runtime.APIVersionInternal}

// AddToScheme registers placement.canopy.dev/v1alpha1 and the same Go
// types as its internal version.
func AddToScheme(s *runtime.Scheme) error {
	if err := placementv1alpha1.AddToScheme(s); err != nil {
		return err
	}
	s.AddKnownTypes(internalVersion,
		&placementv1alpha1.Placement{}, &placementv1alpha1.PlacementList{},
		&placementv1alpha1.PlacementConstraint{}, &placementv1alpha1.PlacementConstraintList{},
	)
	return s.SetVersionPriority(placementv1alpha1.SchemeGroupVersion)
}

// NewStorage returns the placement.canopy.dev/v1alpha1 resources.
func NewStorage(f *registry.Factory, typer runtime.ObjectTyper) (registry.Group, error) {
	jsonFactory := *f
	jsonFactory.StorageMediaType = runtime.ContentTypeJSON
	apiVersion := placementv1alpha1.SchemeGroupVersion.String()
	placements := registry.Kind[*placementv1alpha1.Placement]{
		ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator,
		APIVersion: apiVersion, ClusterScoped: true,
		Check:    validatePlacement,
		OnCreate: func(p *placementv1alpha1.Placement) { placementv1alpha1.SetDefaults(&p.Spec) },
		OnUpdate: func(p, _ *placementv1alpha1.Placement) { placementv1alpha1.SetDefaults(&p.Spec) },
	}
	constraints := registry.Kind[*placementv1alpha1.PlacementConstraint]{
		ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator,
		APIVersion: apiVersion, ClusterScoped: true,
		Check: validateConstraint,
	}
	return jsonFactory.Build(placementv1alpha1.SchemeGroupVersion, registry.Resource{
		Singular: "placement", Plural: "placements", ShortNames: []string{"pl"},
		New:      func() runtime.Object { return &placementv1alpha1.Placement{} },
		NewList:  func() runtime.Object { return &placementv1alpha1.PlacementList{} },
		Strategy: placements,
		Status:   registry.StatusOf[*placementv1alpha1.Placement]{Kind: placements},
		Table: registry.Table{
			Columns: []metav1.TableColumnDefinition{
				registry.Column("Strategy", "string", "How objects are shared among the eligible targets"),
				registry.Column("Schedulable", "string", "Whether any target is eligible for new objects"),
				registry.Column("Eligible", "string", "Targets eligible for new objects, of the candidates"),
			},
			Cells: func(o runtime.Object) []any {
				p := o.(*placementv1alpha1.Placement)
				return []any{strategyCell(p.Spec.Strategy), conditionCell(p.Status.Conditions, placementv1alpha1.ConditionSchedulable), eligibleCell(p.Status.Targets)}
			},
			Wide: []metav1.TableColumnDefinition{
				registry.Column("Priority", "integer", "Which of the placements selecting an object places it: the highest"),
				registry.Column("Inheritance", "string", "Whether descendants without placements of their own use this one"),
				registry.Column("Reason", "string", "Why targets are eligible or not"),
			},
			WideCells: func(o runtime.Object) []any {
				p := o.(*placementv1alpha1.Placement)
				reason := ""
				if c := meta.FindStatusCondition(p.Status.Conditions, placementv1alpha1.ConditionSchedulable); c != nil {
					reason = c.Message
				}
				return []any{p.Spec.Priority, string(p.Spec.Inheritance), reason}
			},
		},
	}, registry.Resource{
		Singular: "placementconstraint", Plural: "placementconstraints", ShortNames: []string{"plc"},
		New:      func() runtime.Object { return &placementv1alpha1.PlacementConstraint{} },
		NewList:  func() runtime.Object { return &placementv1alpha1.PlacementConstraintList{} },
		Strategy: constraints,
		Table: registry.Table{
			Columns: []metav1.TableColumnDefinition{
				registry.Column("Allowed Targets", "string", "The only targets placements here and below may choose"),
			},
			Cells: func(o runtime.Object) []any {
				return []any{selectorCell(o.(*placementv1alpha1.PlacementConstraint).Spec.AllowedTargets)}
			},
		},
	})
}

// strategyCell is a strategy in a few words: Spread(zone, 3) or
// Divide(Capacity).
func strategyCell(s placementv1alpha1.Strategy) string {
	switch {
	case s.Type == placementv1alpha1.StrategySpread && s.Spread != nil:
		return string(s.Type) + "(" + s.Spread.TopologyKey + ", " + registry.Count(int(s.Spread.Targets)) + ")"
	case s.Type == placementv1alpha1.StrategyDivide && s.Divide != nil:
		return string(s.Type) + "(" + string(s.Divide.By) + ")"
	}
	return string(s.Type)
}

// conditionCell is the status of condition type, Unknown until set.
func conditionCell(conditions []metav1.Condition, typ string) string {
	if c := meta.FindStatusCondition(conditions, typ); c != nil {
		return string(c.Status)
	}
	return string(metav1.ConditionUnknown)
}

// eligibleCell is "<eligible>/<candidates>".
func eligibleCell(targets []placementv1alpha1.TargetStatus) string {
	eligible := 0
	for _, t := range targets {
		if t.Reason == placementv1alpha1.ReasonEligible {
			eligible++
		}
	}
	return registry.Count(eligible) + "/" + registry.Count(len(targets))
}

// selectorCell is a target selector as one condition.
func selectorCell(s placementv1alpha1.TargetSelector) string {
	var parts []string
	if s.LabelSelector != nil {
		parts = append(parts, metav1.FormatLabelSelector(s.LabelSelector))
	}
	if s.Expression != "" {
		parts = append(parts, s.Expression)
	}
	return strings.Join(parts, " && ")
}
