package core

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validateDataKeys checks the keys of a ConfigMap's or Secret's data
// maps, which become file names when mounted, and their total size, which
// Kubernetes caps at MaxSecretSize for both kinds.
func validateDataKeys(maps ...dataMap) field.ErrorList {
	var errs field.ErrorList
	seen := map[string]*field.Path{}
	total := 0
	for _, m := range maps {
		for key, size := range m.sizes {
			p := m.path.Key(key)
			for _, msg := range validation.IsConfigMapKey(key) {
				errs = append(errs, field.Invalid(p, key, msg))
			}
			if other, dup := seen[key]; dup {
				errs = append(errs, field.Invalid(p, key, fmt.Sprintf("duplicate of key %q in %s", key, other)))
			}
			seen[key] = m.path
			total += size
		}
	}
	if total > corev1.MaxSecretSize {
		errs = append(errs, field.TooLong(maps[0].path, "", corev1.MaxSecretSize))
	}
	return errs
}

// dataMap is one data map of an object: its field and the size of each
// value.
type dataMap struct {
	path  *field.Path
	sizes map[string]int
}

func stringSizes(path string, m map[string]string) dataMap {
	sizes := make(map[string]int, len(m))
	for k, v := range m {
		sizes[k] = len(v)
	}
	return dataMap{field.NewPath(path), sizes}
}

func byteSizes(path string, m map[string][]byte) dataMap {
	sizes := make(map[string]int, len(m))
	for k, v := range m {
		sizes[k] = len(v)
	}
	return dataMap{field.NewPath(path), sizes}
}

// validateImmutable refuses to unset immutable or change data once an
// object was made immutable, which is what lets kubelets stop watching it.
func validateImmutable(was, is *bool, oldData, newData any) field.ErrorList {
	if was == nil || !*was {
		return nil
	}
	var errs field.ErrorList
	if is == nil || !*is {
		errs = append(errs, field.Forbidden(field.NewPath("immutable"), "field is immutable when `immutable` is set"))
	}
	if !equality.Semantic.DeepEqual(oldData, newData) {
		errs = append(errs, field.Forbidden(field.NewPath("data"), "field is immutable when `immutable` is set"))
	}
	return errs
}
