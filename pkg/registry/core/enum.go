package core

import (
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ValidateEnum checks that v is one of allowed, or empty when optional.
func ValidateEnum[T ~string](v T, optional bool, allowed []T, path *field.Path) field.ErrorList {
	if v == "" {
		if optional {
			return nil
		}
		return field.ErrorList{field.Required(path, "")}
	}
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	return field.ErrorList{field.NotSupported(path, v, allowed)}
}
