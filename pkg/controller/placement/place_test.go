package placement

import (
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apiserver/pkg/registry/rest"

	"github.com/canopy-dev/canopy/internal/storepatch"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/loopback"
)

func TestAssignmentPatchSetsOnlyWhatDiffers(t *testing.T) {
	m := &metav1.ObjectMeta{
		UID: "u1", Generation: 3, ResourceVersion: "42",
		Labels:      map[string]string{"app": "web"},
		Annotations: map[string]string{"note": "kept"},
	}
	to := assignment{labels: map[string]string{"app": "web", "state.workload.canopy.dev/new": "Sync"}, annotations: m.Annotations}
	data, err := assignmentPatch(m, to)
	if err != nil {
		t.Fatal(err)
	}
	var ops []loopback.PatchOp
	if err := json.Unmarshal(data, &ops); err != nil {
		t.Fatal(err)
	}
	// The tests of what the decision read, the spec by its generation
	// and not by resourceVersion, then the labels alone: the annotations
	// do not change.
	var tested, set []string
	for _, op := range ops {
		switch op.Op {
		case "test":
			tested = append(tested, op.Path)
		case "add":
			set = append(set, op.Path)
		}
	}
	wantTested := []string{"/metadata/uid", "/metadata/generation", "/metadata/labels", "/metadata/annotations", "/metadata/finalizers", "/metadata/deletionTimestamp"}
	if !slices.Equal(tested, wantTested) || !slices.Equal(set, []string{"/metadata/labels"}) {
		t.Errorf("patch %s tests %v and sets %v, want %v and [/metadata/labels]", data, tested, set, wantTested)
	}
}

// Placement's write lands on an object whose status changed since it was
// read, as status aggregation writes it on the same reports, and fails on
// one whose labels, annotations, finalizers or spec changed, as the API
// answers a JSON patch whose test fails; stale tells the one from the
// other, and from a refusal of the object as read. A ConfigMap, without
// generation, fails on any change.
func TestAssignmentPatchPrecondition(t *testing.T) {
	h := newTestHub(t)
	c := &Controller{cfg: Config{Resources: h.resources}}
	deployments := workloadv1alpha1.GroupResource{Group: "apps", Resource: "deployments"}
	ref := objectRef{resource: deployments, cluster: "root", namespace: "app", name: "web"}
	h.createDeployment("web", 2)
	assign := func(read runtime.Object) error {
		m := read.(metav1.Object)
		labels := map[string]string{}
		maps.Copy(labels, m.GetLabels())
		labels[workloadv1alpha1.StateLabel("k1")] = workloadv1alpha1.StateSync
		patch, err := assignmentPatch(m, assignment{labels: labels, annotations: m.GetAnnotations()})
		if err != nil {
			t.Fatal(err)
		}
		res := h.resources[deployments]
		if _, isConfigMap := read.(*corev1.ConfigMap); isConfigMap {
			res = h.resources[workloadv1alpha1.GroupResource{Resource: "configmaps"}]
		}
		return storepatch.Apply(h.in("app"), res.Store, res.Store, m.GetName(), types.JSONPatchType, patch)
	}
	update := func(change func(d *appsv1.Deployment), status bool) {
		t.Helper()
		d := h.deployment("web")
		change(d)
		var updater rest.Updater = h.deployments
		if status {
			updater = h.resources[deployments].Status
		}
		if _, _, err := updater.Update(h.in("app"), "web", rest.DefaultUpdatedObjectInfo(d), rest.ValidateAllObjectFunc,
			rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
	}

	read := h.deployment("web")
	update(func(d *appsv1.Deployment) { d.Status.Replicas, d.Status.ObservedGeneration = 2, d.Generation }, true)
	refusal := apierrors.NewForbidden(schema.GroupResource{Group: "apps", Resource: "deployments"}, "web", errors.New("denied"))
	if stale, err := c.stale(h.in("app"), ref, read, refusal); err != nil || stale {
		t.Fatalf("a refusal after a status write: stale %v, %v; want the refusal as such", stale, err)
	}
	if err := assign(read); err != nil {
		t.Fatalf("the assignment after a status write: %v", err)
	}
	if got := h.deployment("web"); got.Labels[workloadv1alpha1.StateLabel("k1")] != workloadv1alpha1.StateSync || got.Status.Replicas != 2 {
		t.Fatalf("after the assignment: labels %v, status %+v; want both writes", got.Labels, got.Status)
	}

	for what, change := range map[string]func(d *appsv1.Deployment){
		"labels":      func(d *appsv1.Deployment) { d.Labels = map[string]string{"tier": "front"} },
		"annotations": func(d *appsv1.Deployment) { d.Annotations = map[string]string{"note": "new"} },
		"finalizers":  func(d *appsv1.Deployment) { d.Finalizers = append(d.Finalizers, workloadv1alpha1.FinalizerPrefix+"k1") },
		"spec":        func(d *appsv1.Deployment) { d.Spec.Template.Spec.Containers[0].Image = "nginx:1.28" },
	} {
		read := h.deployment("web")
		update(change, false)
		err := assign(read)
		if !apierrors.IsInvalid(err) {
			t.Errorf("the assignment after a change of its %s: %v, want the API's 422", what, err)
		}
		if stale, serr := c.stale(h.in("app"), ref, read, err); serr != nil || !stale {
			t.Errorf("the 422 after a change of its %s: stale %v, %v; want stale", what, stale, serr)
		}
	}

	h.create(h.configMaps, "app", &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "conf"}, Data: map[string]string{"a": "1"}})
	cm, err := h.configMaps.Get(h.in("app"), "conf", &metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	changed := cm.DeepCopyObject().(*corev1.ConfigMap)
	changed.Data["a"] = "2"
	if _, _, err := h.configMaps.Update(h.in("app"), "conf", rest.DefaultUpdatedObjectInfo(changed), rest.ValidateAllObjectFunc,
		rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := assign(cm); !apierrors.IsInvalid(err) {
		t.Errorf("the assignment of a ConfigMap changed since: %v, want the API's 422", err)
	}
}
