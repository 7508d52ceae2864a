package storagemigration

import (
	"k8s.io/apimachinery/pkg/util/validation/field"
)

func validateMigration(m *migration) field.ErrorList {
	if m.Spec.Resource.Resource == "" {
		return field.ErrorList{field.Required(field.NewPath("spec", "resource", "resource"), "resource is required")}
	}
	return nil
}

func validateMigrationUpdate(m, old *migration) field.ErrorList {
	if m.Spec.Resource != old.Spec.Resource {
		return field.ErrorList{field.Invalid(field.NewPath("spec"), m.Spec, "field is immutable")}
	}
	return nil
}
