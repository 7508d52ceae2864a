package spec

import (
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"
)

// TestUpToDate checks that what the server adds downstream is no drift,
// and that a changed, removed or no longer applied field of the syncer's
// is.
func TestUpToDate(t *testing.T) {
	parse := func(s string) *unstructured.Unstructured {
		// As the clients decode objects: integers as int64.
		data, err := yaml.YAMLToJSON([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		u := &unstructured.Unstructured{}
		if err := json.Unmarshal(data, &u.Object); err != nil {
			t.Fatal(err)
		}
		return u
	}
	desired := parse(`
metadata: {name: web, labels: {app: web}}
spec:
  replicas: 3
  template:
    metadata: {creationTimestamp: null}
    spec:
      containers: [{name: web, image: nginx, resources: {}}]
`)
	if err := Stamp(desired); err != nil {
		t.Fatal(err)
	}
	hash := desired.GetAnnotations()[AppliedAnnotation]
	current := func(replicas int, label, image, applied string) *unstructured.Unstructured {
		u := parse(`
metadata: {name: web, uid: x, resourceVersion: "5", annotations: {deployment.kubernetes.io/revision: "1"}}
spec:
  strategy: {type: RollingUpdate}
  template:
    spec:
      restartPolicy: Always
status: {replicas: 3}
`)
		_ = unstructured.SetNestedField(u.Object, int64(replicas), "spec", "replicas")
		_ = unstructured.SetNestedSlice(u.Object, []any{map[string]any{"name": "web", "image": image, "terminationMessagePath": "/dev/termination-log", "resources": map[string]any{}}}, "spec", "template", "spec", "containers")
		if label != "" {
			u.SetLabels(map[string]string{"app": label})
		}
		a := u.GetAnnotations()
		a[AppliedAnnotation] = applied
		u.SetAnnotations(a)
		return u
	}
	for name, tc := range map[string]struct {
		current *unstructured.Unstructured
		want    bool
	}{
		"with the server's additions": {current(3, "web", "nginx", hash), true},
		"scaled downstream":           {current(1, "web", "nginx", hash), false},
		"label changed downstream":    {current(3, "other", "nginx", hash), false},
		"label removed downstream":    {current(3, "", "nginx", hash), false},
		"image changed downstream":    {current(3, "web", "httpd", hash), false},
		"applied from another object": {current(3, "web", "nginx", "0123"), false},
	} {
		if got := UpToDate(desired, tc.current); got != tc.want {
			t.Errorf("%s: upToDate %v, want %v", name, got, tc.want)
		}
	}
}
