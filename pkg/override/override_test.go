package override

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

func TestRewriteImage(t *testing.T) {
	for _, tc := range []struct {
		image string
		o     workloadv1alpha1.ImageOverride
		want  string
	}{
		{"nginx:1.27", workloadv1alpha1.ImageOverride{Registry: "us.example.com"}, "us.example.com/nginx:1.27"},
		{"library/nginx", workloadv1alpha1.ImageOverride{Registry: "us.example.com", Tag: "1.28"}, "us.example.com/library/nginx:1.28"},
		{"eu.example.com:5000/team/app:1.2", workloadv1alpha1.ImageOverride{Registry: "us.example.com"}, "us.example.com/team/app:1.2"},
		{"localhost/app", workloadv1alpha1.ImageOverride{Tag: "v2"}, "localhost/app:v2"},
		{"reg.io/app:1@sha256:abc", workloadv1alpha1.ImageOverride{Registry: "us.io"}, "us.io/app:1@sha256:abc"},
		{"app", workloadv1alpha1.ImageOverride{}, "app"},
	} {
		if got := RewriteImage(tc.image, tc.o); got != tc.want {
			t.Errorf("RewriteImage(%q, %+v) = %q, want %q", tc.image, tc.o, got, tc.want)
		}
	}
}

func deployment() *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": "shop", "labels": map[string]any{"app": "web"}},
		"spec": map[string]any{
			"replicas": int64(3),
			"template": map[string]any{"spec": map[string]any{
				"initContainers": []any{map[string]any{"name": "init", "image": "busybox"}},
				"containers":     []any{map[string]any{"name": "c", "image": "nginx:1.27"}, map[string]any{"name": "side", "image": "reg.io/side:1"}},
			}},
		},
	}}
}

func TestApply(t *testing.T) {
	one := int32(1)
	obj := deployment()
	err := Apply(obj, []workloadv1alpha1.ObjectOverride{
		{Image: &workloadv1alpha1.ImageOverride{Registry: "us.example.com"}},
		{
			Replicas:    &one,
			Resources:   []workloadv1alpha1.ContainerResourcesOverride{{Container: "c", Limits: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("256Mi")}}},
			Labels:      map[string]string{"tier": "canary", "app": ""},
			Annotations: map[string]string{"lb.example.com/internal": "true"},
			JSONPatch: []workloadv1alpha1.JSONPatchOperation{
				{Op: "add", Path: "/spec/template/spec/priorityClassName", Value: &apiextensionsv1.JSON{Raw: []byte(`"high"`)}},
			},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	containers, _, _ := unstructured.NestedSlice(obj.Object, "spec", "template", "spec", "containers")
	inits, _, _ := unstructured.NestedSlice(obj.Object, "spec", "template", "spec", "initContainers")
	got := []any{
		inits[0].(map[string]any)["image"], containers[0].(map[string]any)["image"], containers[1].(map[string]any)["image"],
	}
	want := []any{"us.example.com/busybox", "us.example.com/nginx:1.27", "us.example.com/side:1"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("image %d: %v, want %v", i, got[i], want[i])
		}
	}
	if r, _, _ := unstructured.NestedInt64(obj.Object, "spec", "replicas"); r != 1 {
		t.Errorf("replicas %d, want 1", r)
	}
	if m, _, _ := unstructured.NestedString(containers[0].(map[string]any), "resources", "limits", "memory"); m != "256Mi" {
		t.Errorf("c's memory limit %q", m)
	}
	if _, ok := containers[1].(map[string]any)["resources"]; ok {
		t.Errorf("side got resources: %v", containers[1])
	}
	if l := obj.GetLabels(); l["tier"] != "canary" || l["app"] != "" {
		t.Errorf("labels %v", l)
	}
	if a := obj.GetAnnotations(); a["lb.example.com/internal"] != "true" {
		t.Errorf("annotations %v", a)
	}
	if p, _, _ := unstructured.NestedString(obj.Object, "spec", "template", "spec", "priorityClassName"); p != "high" {
		t.Errorf("priorityClassName %q", p)
	}
}

func TestApplyRefuses(t *testing.T) {
	for name, tc := range map[string]struct {
		o    workloadv1alpha1.ObjectOverride
		want string
	}{
		"a path the object lacks": {workloadv1alpha1.ObjectOverride{JSONPatch: []workloadv1alpha1.JSONPatchOperation{{Op: "remove", Path: "/spec/nothing"}}}, "jsonPatch"},
		"a rename":                {workloadv1alpha1.ObjectOverride{JSONPatch: []workloadv1alpha1.JSONPatchOperation{{Op: "replace", Path: "/metadata", Value: &apiextensionsv1.JSON{Raw: []byte(`{"name":"other"}`)}}}}, "name"},
		"a reserved label":        {workloadv1alpha1.ObjectOverride{JSONPatch: []workloadv1alpha1.JSONPatchOperation{{Op: "add", Path: "/metadata/labels/state.workload.canopy.dev~1k", Value: &apiextensionsv1.JSON{Raw: []byte(`"Sync"`)}}}}, ReservedDomain},
		"a missing container":     {workloadv1alpha1.ObjectOverride{Resources: []workloadv1alpha1.ContainerResourcesOverride{{Container: "x"}}}, "no container x"},
	} {
		t.Run(name, func(t *testing.T) {
			err := Apply(deployment(), []workloadv1alpha1.ObjectOverride{tc.o})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}

func TestCheck(t *testing.T) {
	bad := workloadv1alpha1.ObjectOverride{
		Labels:    map[string]string{"state.workload.canopy.dev/x": "Sync"},
		JSONPatch: []workloadv1alpha1.JSONPatchOperation{{Op: "replace", Path: "/metadata/name"}, {Op: "frob", Path: "spec"}},
	}
	errs := strings.Join(Check(bad), "\n")
	for _, want := range []string{"labels: state.workload.canopy.dev/x", "replace needs a value", "/metadata/name names the object", `op "frob"`, `"spec" is not a JSON pointer`} {
		if !strings.Contains(errs, want) {
			t.Errorf("Check does not say %q:\n%s", want, errs)
		}
	}
	if errs := Check(workloadv1alpha1.ObjectOverride{Labels: map[string]string{"tier": "x"}}); len(errs) > 0 {
		t.Errorf("Check of a good override: %v", errs)
	}
}
