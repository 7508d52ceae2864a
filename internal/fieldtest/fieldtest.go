package fieldtest

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Assert checks that errs are none when want is empty, or that one of
// them says want.
func Assert(t *testing.T, errs field.ErrorList, want string) {
	t.Helper()
	if want == "" {
		if len(errs) != 0 {
			t.Errorf("valid, but got %v", errs)
		}
		return
	}
	for _, err := range errs {
		if strings.Contains(err.Error(), want) {
			return
		}
	}
	t.Errorf("got %v, want an error saying %q", errs, want)
}

// OnlyField checks that errs are one error on field want, or none when
// want is empty: that validation names the field a user must fix.
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

// Fields checks that errs name exactly the fields want, in any order and
// however many errors each, or none when want is empty: upstream's
// validation may report several problems of one mistake.
func Fields(t *testing.T, errs field.ErrorList, want ...string) {
	t.Helper()
	got := sets.New[string]()
	for _, err := range errs {
		got.Insert(err.Field)
	}
	if !got.Equal(sets.New(want...)) {
		t.Errorf("got %v; want errors on exactly %q", errs, want)
	}
}

// With is obj after change, for tables of objects each one change away
// from a valid one.
func With[T any](obj T, change func(T)) T {
	change(obj)
	return obj
}
