// Package validationtest checks, in the registries' unit tests, that
// validation names the field a user must fix.
package validationtest

import (
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// OnlyField fails t unless errs is one error on field want, or none when
// want is empty.
func OnlyField(t *testing.T, errs field.ErrorList, want string) {
	t.Helper()
	if want == "" {
		if len(errs) > 0 {
			t.Errorf("valid object refused: %v", errs)
		}
		return
	}
	if len(errs) != 1 || errs[0].Field != want {
		t.Errorf("got %v; want one error on %s", errs, want)
	}
}
