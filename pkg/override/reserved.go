package override

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// ReservedDomain is the domain of the labels and annotations the hub and
// its syncers keep on objects (assignment, origin, status reports), which
// an override may not write.
const ReservedDomain = "workload.canopy.dev"

// Reserved is whether label or annotation key is under ReservedDomain.
func Reserved(key string) bool {
	prefix, _, ok := strings.Cut(key, "/")
	return ok && (prefix == ReservedDomain || strings.HasSuffix(prefix, "."+ReservedDomain))
}

// reserved are obj's labels and annotations under ReservedDomain, each
// key prefixed by "l:" or "a:".
func reserved(obj *unstructured.Unstructured) map[string]string {
	out := map[string]string{}
	for prefix, m := range map[string]map[string]string{"l:": obj.GetLabels(), "a:": obj.GetAnnotations()} {
		for k, v := range m {
			if Reserved(k) {
				out[prefix+k] = v
			}
		}
	}
	return out
}

// Check says what is wrong with override o that can be seen without an
// object: a reserved label or annotation, a JSON patch that does not
// decode or writes what names the object. What only an object shows, as
// a path it lacks, the syncer reports when it applies the override.
func Check(o workloadv1alpha1.ObjectOverride) []string {
	var errs []string
	for what, m := range map[string]map[string]string{"labels": o.Labels, "annotations": o.Annotations} {
		for k := range m {
			if Reserved(k) {
				errs = append(errs, fmt.Sprintf("%s: %s is under %s, which only the hub and its syncers write", what, k, ReservedDomain))
			}
		}
	}
	if o.Replicas != nil && *o.Replicas < 0 {
		errs = append(errs, "replicas: must not be negative")
	}
	for i, op := range o.JSONPatch {
		switch op.Op {
		case "add", "replace", "test":
			if op.Value == nil {
				errs = append(errs, fmt.Sprintf("jsonPatch[%d]: %s needs a value", i, op.Op))
			}
		case "remove":
		case "move", "copy":
			if op.From == "" {
				errs = append(errs, fmt.Sprintf("jsonPatch[%d]: %s needs from", i, op.Op))
			}
		default:
			errs = append(errs, fmt.Sprintf("jsonPatch[%d]: op %q is not one of add, remove, replace, move, copy, test", i, op.Op))
		}
		for _, p := range []string{op.Path, op.From} {
			if p != "" && !strings.HasPrefix(p, "/") {
				errs = append(errs, fmt.Sprintf("jsonPatch[%d]: %q is not a JSON pointer: start it with /", i, p))
			}
			if identityPath(p) {
				errs = append(errs, fmt.Sprintf("jsonPatch[%d]: %s names the object or is the hub's; an override may not change it", i, p))
			}
		}
	}
	return errs
}

// identityPath is whether JSON pointer p is, or holds, what names the
// object: apiVersion, kind, metadata, its name or namespace.
func identityPath(p string) bool {
	switch p {
	case "/apiVersion", "/kind", "/metadata", "/metadata/name", "/metadata/namespace", "/status":
		return true
	}
	return false
}
