package spec

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// AppliedAnnotation holds, on each downstream object, the hash of what the
// syncer last applied to it. A field the hub dropped leaves no trace in
// the next object to apply, so comparing fields alone would never remove
// it downstream; a changed hash does.
const AppliedAnnotation = "workload.canopy.dev/applied"

// Stamp records on desired, about to be applied, the hash of itself.
func Stamp(desired *unstructured.Unstructured) error {
	annotations := desired.GetAnnotations()
	if annotations == nil {
		annotations = map[string]string{}
	}
	delete(annotations, AppliedAnnotation)
	desired.SetAnnotations(annotations)
	// encoding/json sorts map keys: equal objects hash equally.
	data, err := json.Marshal(desired.Object)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(data)
	annotations[AppliedAnnotation] = hex.EncodeToString(sum[:16])
	desired.SetAnnotations(annotations)
	return nil
}

// UpToDate tells whether current, downstream, already holds everything in
// desired, stamped: then applying it would write nothing, and skipping the
// request keeps a restart or a status change free of writes. Anything
// someone changed downstream in the syncer's fields, drift, makes it
// false, and the next apply, forced, restores the hub's values. Fields
// that others set, such as defaults, are ignored.
func UpToDate(desired, current *unstructured.Unstructured) bool {
	if current.GetAnnotations()[AppliedAnnotation] != desired.GetAnnotations()[AppliedAnnotation] {
		return false
	}
	return Contains(current.Object, desired.Object)
}

// Contains tells whether have holds every value of want: maps key by key,
// lists element by element, so that the server's defaults inside list
// elements, such as a container's terminationMessagePath, do not count as
// differences.
func Contains(have, want any) bool {
	switch w := want.(type) {
	case map[string]any:
		h, ok := have.(map[string]any)
		if !ok {
			return have == nil && empty(w)
		}
		for k, wv := range w {
			hv, present := h[k]
			if !present {
				// A null or empty value the server does not keep is no
				// difference.
				if !empty(wv) {
					return false
				}
				continue
			}
			if !Contains(hv, wv) {
				return false
			}
		}
		return true
	case []any:
		h, ok := have.([]any)
		if !ok {
			return have == nil && len(w) == 0
		}
		if len(h) != len(w) {
			return false
		}
		for i := range w {
			if !Contains(h[i], w[i]) {
				return false
			}
		}
		return true
	default:
		return equality.Semantic.DeepEqual(have, want)
	}
}

// empty is a null, a map of empty values only or an empty list.
func empty(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case map[string]any:
		for _, e := range v {
			if !empty(e) {
				return false
			}
		}
		return true
	case []any:
		return len(v) == 0
	}
	return false
}
