package loopback

import (
	"context"

	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/registry/rest"
)

// PatchOp is one operation of a JSON patch (RFC 6902).
type PatchOp struct {
	Op    string `json:"op"`
	Path  string `json:"path"`
	Value any    `json:"value"`
}

// Test is the JSON patch operation that holds while the field at path is
// value. The API's patch library (gopkg.in/evanphx/json-patch.v4, as
// k8s.io/apiserver uses it) lets a test of nil hold where the field is
// absent, as the API encodes an empty map or list, but only where the
// field's parent is there: a test of a key of an absent map fails.
// Values compare as JSON, strings and integers byte for byte as
// encoding/json writes them, which is how the API encodes objects.
func Test(path string, value any) PatchOp {
	return PatchOp{Op: "test", Path: path, Value: value}
}

// Stale reports whether err, the hub's answer to a controller's write of
// an object conditional on what it read of it (was), says that the
// object changed since then or is gone. The watch event of that change,
// and not a backoff, then brings the next try, from the object as it is.
//
// A conflict or a missing object says so. A JSON patch conditional on
// tests (Test) says so by a refusal: the API answers a patch whose test
// fails as it does any patch that does not apply, 422 with no more said,
// which Refused counts as a refusal. So on a refusal Stale reads the
// object again from store, as stored, and compares the tests that tests
// makes of it with those it makes of was. Where they differ, the refusal
// is a test's, or an admission policy's refusal of what the change made
// of the object, and either way the change's event decides again. Where
// they are the same, the hub refused the write itself.
func Stale(ctx context.Context, err error, store rest.Getter, name string, was runtime.Object,
	tests func(obj runtime.Object) ([]PatchOp, error),
) (bool, error) {
	switch {
	case apierrors.IsConflict(err) || apierrors.IsNotFound(err):
		return true, nil
	case !Refused(err):
		return false, nil
	}
	now, err := store.Get(ctx, name, &metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	before, err := tests(was)
	if err != nil {
		return false, err
	}
	after, err := tests(now)
	if err != nil {
		return false, err
	}
	return !equality.Semantic.DeepEqual(before, after), nil
}
