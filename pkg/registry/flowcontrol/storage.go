package flowcontrol

import (
	flowcontrolv1 "k8s.io/api/flowcontrol/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/storage/names"
	"k8s.io/utils/ptr"

	"github.com/canopy-dev/canopy/pkg/registry"
	"github.com/canopy-dev/canopy/pkg/registry/upstream"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/flowcontrol/flowschema"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/flowcontrol/prioritylevelconfiguration"
)

var internalVersion = schema.GroupVersion{Group: flowcontrolv1.GroupName, Version: runtime.APIVersionInternal}

// AddToScheme registers flowcontrol.apiserver.k8s.io/v1, with upstream's
// defaults (pkg/registry/upstream), and the same Go types as its internal
// version.
func AddToScheme(s *runtime.Scheme) error {
	if err := flowcontrolv1.AddToScheme(s); err != nil {
		return err
	}
	s.AddKnownTypes(internalVersion,
		&flowcontrolv1.FlowSchema{}, &flowcontrolv1.FlowSchemaList{},
		&flowcontrolv1.PriorityLevelConfiguration{}, &flowcontrolv1.PriorityLevelConfigurationList{},
	)
	return s.SetVersionPriority(flowcontrolv1.SchemeGroupVersion)
}

// NewStorage returns the flowcontrol.apiserver.k8s.io/v1 resources.
func NewStorage(f *registry.Factory, typer runtime.ObjectTyper) (registry.Group, error) {
	v1 := flowcontrolv1.SchemeGroupVersion.String()
	schemas := registry.Kind[*flowcontrolv1.FlowSchema]{
		ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, APIVersion: v1, ClusterScoped: true,
		Upstream: upstream.For(flowschema.Strategy),
	}
	levels := registry.Kind[*flowcontrolv1.PriorityLevelConfiguration]{
		ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, APIVersion: v1, ClusterScoped: true,
		Upstream: upstream.For(prioritylevelconfiguration.Strategy),
	}
	return f.Build(flowcontrolv1.SchemeGroupVersion,
		registry.Resource{
			Singular: "flowschema", Plural: "flowschemas",
			New:      func() runtime.Object { return &flowcontrolv1.FlowSchema{} },
			NewList:  func() runtime.Object { return &flowcontrolv1.FlowSchemaList{} },
			Strategy: schemas,
			Status:   registry.StatusOf[*flowcontrolv1.FlowSchema]{Kind: schemas, Upstream: upstream.For(flowschema.StatusStrategy)},
			Table:    flowSchemaTable,
		},
		registry.Resource{
			Singular: "prioritylevelconfiguration", Plural: "prioritylevelconfigurations",
			New:      func() runtime.Object { return &flowcontrolv1.PriorityLevelConfiguration{} },
			NewList:  func() runtime.Object { return &flowcontrolv1.PriorityLevelConfigurationList{} },
			Strategy: levels,
			Status:   registry.StatusOf[*flowcontrolv1.PriorityLevelConfiguration]{Kind: levels, Upstream: upstream.For(prioritylevelconfiguration.StatusStrategy)},
			Table:    priorityLevelTable,
		},
	)
}

// The tables are kubectl get's: k8s.io/kubernetes@v1.37.1
// pkg/printers/internalversion/printers.go printFlowSchema and
// printPriorityLevelConfiguration, whose ages come before MissingPL and
// after the queues.
var (
	flowSchemaTable = registry.Table{
		Whole: true,
		Columns: []metav1.TableColumnDefinition{
			{Name: "Name", Type: "string", Format: "name", Description: metav1.ObjectMeta{}.SwaggerDoc()["name"]},
			registry.Column("PriorityLevel", "string", flowcontrolv1.PriorityLevelConfigurationReference{}.SwaggerDoc()["name"]),
			registry.Column("MatchingPrecedence", "string", flowcontrolv1.FlowSchemaSpec{}.SwaggerDoc()["matchingPrecedence"]),
			registry.Column("DistinguisherMethod", "string", flowcontrolv1.FlowSchemaSpec{}.SwaggerDoc()["distinguisherMethod"]),
			registry.Column("Age", "string", metav1.ObjectMeta{}.SwaggerDoc()["creationTimestamp"]),
			registry.Column("MissingPL", "string", "references a broken or non-existent PriorityLevelConfiguration"),
		},
		Cells: func(o runtime.Object) []any {
			fs := o.(*flowcontrolv1.FlowSchema)
			method := "<none>"
			if fs.Spec.DistinguisherMethod != nil {
				method = string(fs.Spec.DistinguisherMethod.Type)
			}
			missing := "?"
			for _, c := range fs.Status.Conditions {
				if c.Type == flowcontrolv1.FlowSchemaConditionDangling {
					missing = string(c.Status)
					break
				}
			}
			return []any{fs.Name, fs.Spec.PriorityLevelConfiguration.Name, int64(fs.Spec.MatchingPrecedence), method, registry.Age(fs.CreationTimestamp), missing}
		},
	}
	priorityLevelTable = registry.Table{
		Whole: true,
		Columns: []metav1.TableColumnDefinition{
			{Name: "Name", Type: "string", Format: "name", Description: metav1.ObjectMeta{}.SwaggerDoc()["name"]},
			registry.Column("Type", "string", flowcontrolv1.PriorityLevelConfigurationSpec{}.SwaggerDoc()["type"]),
			registry.Column("NominalConcurrencyShares", "string", flowcontrolv1.LimitedPriorityLevelConfiguration{}.SwaggerDoc()["nominalConcurrencyShares"]),
			registry.Column("Queues", "string", flowcontrolv1.QueuingConfiguration{}.SwaggerDoc()["queues"]),
			registry.Column("HandSize", "string", flowcontrolv1.QueuingConfiguration{}.SwaggerDoc()["handSize"]),
			registry.Column("QueueLengthLimit", "string", flowcontrolv1.QueuingConfiguration{}.SwaggerDoc()["queueLengthLimit"]),
			registry.Column("Age", "string", metav1.ObjectMeta{}.SwaggerDoc()["creationTimestamp"]),
		},
		Cells: func(o runtime.Object) []any {
			pl := o.(*flowcontrolv1.PriorityLevelConfiguration)
			var shares, queues, handSize, queueLength any = "<none>", "<none>", "<none>", "<none>"
			if l := pl.Spec.Limited; l != nil {
				shares = ptr.Deref(l.NominalConcurrencyShares, 0)
				if q := l.LimitResponse.Queuing; q != nil {
					queues, handSize, queueLength = q.Queues, q.HandSize, q.QueueLengthLimit
				}
			}
			return []any{pl.Name, string(pl.Spec.Type), shares, queues, handSize, queueLength, registry.Age(pl.CreationTimestamp)}
		},
	}
)
