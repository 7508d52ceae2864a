package flowcontrol

import (
	flowcontrolv1 "k8s.io/api/flowcontrol/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

func validateFlowSchema(fs *flowcontrolv1.FlowSchema) field.ErrorList {
	if fs.Spec.PriorityLevelConfiguration.Name == "" {
		return field.ErrorList{field.Required(field.NewPath("spec", "priorityLevelConfiguration", "name"), "must reference a priority level")}
	}
	return nil
}

func validatePriorityLevel(pl *flowcontrolv1.PriorityLevelConfiguration) field.ErrorList {
	return nil
}

func validatePriorityLevelUpdate(pl, old *flowcontrolv1.PriorityLevelConfiguration) field.ErrorList {
	return nil
}
