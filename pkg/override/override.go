package override

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utiljson "k8s.io/apimachinery/pkg/util/json"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/podspec"
)

// Decode is the overrides annotation value raw holds; none when raw is
// empty.
func Decode(raw string) ([]workloadv1alpha1.ObjectOverride, error) {
	if raw == "" {
		return nil, nil
	}
	var out []workloadv1alpha1.ObjectOverride
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		return nil, fmt.Errorf("the overrides annotation is not a JSON list of overrides: %w", err)
	}
	return out, nil
}

// Encode is the overrides annotation value of overrides; empty for none.
func Encode(overrides []workloadv1alpha1.ObjectOverride) (string, error) {
	if len(overrides) == 0 {
		return "", nil
	}
	data, err := json.Marshal(overrides)
	return string(data), err
}

// ApplyAnnotation applies to obj the overrides of annotation value raw.
func ApplyAnnotation(obj *unstructured.Unstructured, raw string) error {
	overrides, err := Decode(raw)
	if err != nil {
		return err
	}
	return Apply(obj, overrides)
}

// Apply applies overrides to obj, in order, each to the result of the
// ones before. On error obj may be partly changed: the caller sends
// nothing of it.
func Apply(obj *unstructured.Unstructured, overrides []workloadv1alpha1.ObjectOverride) error {
	if len(overrides) == 0 {
		return nil
	}
	identity := []string{obj.GetAPIVersion(), obj.GetKind(), obj.GetNamespace(), obj.GetName()}
	before := reserved(obj)
	for i, o := range overrides {
		if err := apply(obj, o); err != nil {
			return fmt.Errorf("override %d: %w", i, err)
		}
	}
	if slices.Compare(identity, []string{obj.GetAPIVersion(), obj.GetKind(), obj.GetNamespace(), obj.GetName()}) != 0 {
		return fmt.Errorf("the overrides change the object's apiVersion, kind, namespace or name, which they may not")
	}
	if !maps.Equal(before, reserved(obj)) {
		return fmt.Errorf("the overrides change a label or annotation under %s, which only the hub and its syncers write", ReservedDomain)
	}
	return nil
}

func apply(obj *unstructured.Unstructured, o workloadv1alpha1.ObjectOverride) error {
	if o.Image != nil {
		if err := rewriteImages(obj, *o.Image); err != nil {
			return err
		}
	}
	if o.Replicas != nil {
		if _, ok, _ := unstructured.NestedFieldNoCopy(obj.Object, "spec", "replicas"); !ok && !hasReplicas(obj) {
			return fmt.Errorf("replicas: a %s has no spec.replicas", obj.GetKind())
		}
		if err := unstructured.SetNestedField(obj.Object, int64(*o.Replicas), "spec", "replicas"); err != nil {
			return fmt.Errorf("replicas: %w", err)
		}
	}
	for _, r := range o.Resources {
		if err := setResources(obj, r); err != nil {
			return err
		}
	}
	if len(o.Labels) > 0 {
		obj.SetLabels(merge(obj.GetLabels(), o.Labels))
	}
	if len(o.Annotations) > 0 {
		obj.SetAnnotations(merge(obj.GetAnnotations(), o.Annotations))
	}
	if len(o.JSONPatch) > 0 {
		return patch(obj, o.JSONPatch)
	}
	return nil
}

// hasReplicas is whether obj's kind has spec.replicas, set or not: the
// kinds that run pods but DaemonSets, Jobs and CronJobs.
func hasReplicas(obj *unstructured.Unstructured) bool {
	switch obj.GetKind() {
	case "Deployment", "ReplicaSet", "StatefulSet", "ReplicationController":
		return true
	}
	return false
}

// merge is m with set applied: an empty value removes its key.
func merge(m, set map[string]string) map[string]string {
	if m == nil {
		m = map[string]string{}
	}
	for k, v := range set {
		if v == "" {
			delete(m, k)
		} else {
			m[k] = v
		}
	}
	return m
}

// containerLists are the lists of containers of a pod spec that
// overrides change.
var containerLists = []string{"initContainers", "containers"}

// eachContainer calls f with every container of obj's pod template.
func eachContainer(obj *unstructured.Unstructured, f func(c map[string]any) error) error {
	for _, path := range podspec.Paths {
		for _, list := range containerLists {
			p := append(slices.Clone(path), list)
			containers, ok, _ := unstructured.NestedSlice(obj.Object, p...)
			if !ok {
				continue
			}
			for _, c := range containers {
				m, ok := c.(map[string]any)
				if !ok {
					continue
				}
				if err := f(m); err != nil {
					return err
				}
			}
			if err := unstructured.SetNestedSlice(obj.Object, containers, p...); err != nil {
				return err
			}
		}
	}
	return nil
}

func rewriteImages(obj *unstructured.Unstructured, o workloadv1alpha1.ImageOverride) error {
	return eachContainer(obj, func(c map[string]any) error {
		image, _ := c["image"].(string)
		if image == "" {
			return nil
		}
		c["image"] = RewriteImage(image, o)
		return nil
	})
}

// RewriteImage is image with o's registry and tag.
func RewriteImage(image string, o workloadv1alpha1.ImageOverride) string {
	registry, repository, tag, digest := splitImage(image)
	if o.Registry != "" {
		registry = o.Registry
	}
	if o.Tag != "" {
		tag = o.Tag
	}
	out := repository
	if registry != "" {
		out = registry + "/" + out
	}
	if tag != "" {
		out += ":" + tag
	}
	if digest != "" {
		out += "@" + digest
	}
	return out
}

// splitImage splits an image reference as the container runtimes read
// it: the first path component is a registry only if it has a dot or a
// port, or is localhost.
func splitImage(image string) (registry, repository, tag, digest string) {
	name := image
	if i := strings.Index(name, "@"); i >= 0 {
		name, digest = name[:i], name[i+1:]
	}
	if i := strings.LastIndex(name, ":"); i >= 0 && !strings.Contains(name[i+1:], "/") {
		name, tag = name[:i], name[i+1:]
	}
	if first, rest, ok := strings.Cut(name, "/"); ok && (strings.ContainsAny(first, ".:") || first == "localhost") {
		return first, rest, tag, digest
	}
	return "", name, tag, digest
}

func setResources(obj *unstructured.Unstructured, r workloadv1alpha1.ContainerResourcesOverride) error {
	found := false
	err := eachContainer(obj, func(c map[string]any) error {
		if r.Container != "" && c["name"] != r.Container {
			return nil
		}
		found = true
		for field, list := range map[string]map[string]string{"requests": quantities(r.Requests), "limits": quantities(r.Limits)} {
			for name, q := range list {
				if err := unstructured.SetNestedField(c, q, "resources", field, name); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err == nil && !found {
		if r.Container == "" {
			return fmt.Errorf("resources: a %s has no containers", obj.GetKind())
		}
		return fmt.Errorf("resources: the %s has no container %s", obj.GetKind(), r.Container)
	}
	return err
}

// quantities is l in unstructured form.
func quantities(l corev1.ResourceList) map[string]string {
	out := make(map[string]string, len(l))
	for k, q := range l {
		out[string(k)] = q.String()
	}
	return out
}

// patch applies the JSON patch ops to obj.
func patch(obj *unstructured.Unstructured, ops []workloadv1alpha1.JSONPatchOperation) error {
	raw, err := json.Marshal(ops)
	if err != nil {
		return err
	}
	p, err := jsonpatch.DecodePatch(raw)
	if err != nil {
		return fmt.Errorf("jsonPatch: %w", err)
	}
	doc, err := json.Marshal(obj.Object)
	if err != nil {
		return err
	}
	if doc, err = p.Apply(doc); err != nil {
		return fmt.Errorf("jsonPatch: %w", err)
	}
	out := map[string]any{}
	// As the hub decodes objects: whole numbers as int64.
	if err := utiljson.Unmarshal(doc, &out); err != nil {
		return fmt.Errorf("jsonPatch: %w", err)
	}
	obj.Object = out
	return nil
}
