package rollouthistory

import (
	"fmt"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// TestHashRevision checks the hash against what k8s.io/kubernetes@v1.37.1's
// history.HashControllerRevision returns for the same data.
func TestHashRevision(t *testing.T) {
	data := []byte(`{"spec":{"template":{"$patch":"replace","metadata":{"creationTimestamp":null,"labels":{"app":"db"}},"spec":{"containers":[{"image":"nginx:1.27","name":"c","resources":{}}]}}}}`)
	for _, tc := range []struct {
		probe *int32
		want  string
	}{{nil, "7b44948754"}, {ptr.To[int32](1), "78758db4bc"}} {
		if got := HashRevision(data, tc.probe); got != tc.want {
			t.Errorf("HashRevision(probe %v) = %s, want %s", tc.probe, got, tc.want)
		}
	}
}

func template(image string) corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "db"}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: image}}},
	}
}

// TestPatch checks that a revision's data replaces the whole template,
// as kubectl rollout undo applies it, and has the template's JSON.
func TestPatch(t *testing.T) {
	tmpl := template("nginx:1.27")
	got, err := Patch(&tmpl)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`{"spec":{"template":{"$patch":"replace",`, `"labels":{"app":"db"}`, `"image":"nginx:1.27"`} {
		if !strings.Contains(string(got), want) {
			t.Errorf("Patch = %s, lacks %s", got, want)
		}
	}
}

// TestReconcileRevisions checks the revisions a StatefulSet and a
// DaemonSet keep through a sequence of templates, and how each kind names
// and labels them.
func TestReconcileRevisions(t *testing.T) {
	for _, kind := range []string{"StatefulSet", "DaemonSet"} {
		for _, tc := range []struct {
			images []string
			want   string
			stale  string
		}{
			{[]string{"a"}, "a:1", ""},
			{[]string{"a", "b"}, "a:1 b:2", ""},
			{[]string{"a", "b", "a"}, "b:2 a:3", ""},
			{[]string{"a", "b", "c", "d"}, "b:2 c:3 d:4", "a:1"},
		} {
			t.Run(kind+"/"+strings.Join(tc.images, ","), func(t *testing.T) {
				var owned, want, stale []*appsv1.ControllerRevision
				var w workload
				for _, image := range tc.images {
					w = workloadFor(kind, image)
					var err error
					if want, stale, err = ReconcileRevisions(w, owned, nil); err != nil {
						t.Fatal(err)
					}
					owned = want
				}
				if got := revisionSummary(want); got != tc.want {
					t.Errorf("want %q, got %q", tc.want, got)
				}
				if got := revisionSummary(stale); got != tc.stale {
					t.Errorf("stale %q, got %q", tc.stale, got)
				}
				cr := want[len(want)-1]
				hash, label := HashRevision(cr.Data.Raw, nil), revisionHashLabel
				if kind == "DaemonSet" {
					hash, label = ComputeHash(w.template, nil), appsv1.DefaultDaemonSetUniqueLabelKey
				}
				if cr.Name != "db-"+hash || cr.Labels[label] != hash || cr.Labels["app"] != "db" || cr.Labels[workloadv1alpha1.RevisionRecordLabel] != "true" ||
					!metav1.IsControlledBy(cr, w.obj) {
					t.Errorf("the current revision is named %s, labelled %v, owned by %v", cr.Name, cr.Labels, cr.OwnerReferences)
				}
			})
		}
	}
}

func workloadFor(kind, image string) workload {
	meta := metav1.ObjectMeta{Name: "db", Namespace: "ns", UID: types.UID("uid"), Annotations: map[string]string{workloadv1alpha1.PlacedAnnotation: "k1"}}
	if kind == "DaemonSet" {
		w, _ := workloadOf(&appsv1.DaemonSet{ObjectMeta: meta, Spec: appsv1.DaemonSetSpec{Template: template(image), RevisionHistoryLimit: ptr.To[int32](2)}})
		return w
	}
	w, _ := workloadOf(&appsv1.StatefulSet{ObjectMeta: meta, Spec: appsv1.StatefulSetSpec{Template: template(image), RevisionHistoryLimit: ptr.To[int32](2)}})
	return w
}

// revisionSummary is each revision's image and number.
func revisionSummary(crs []*appsv1.ControllerRevision) string {
	var out []string
	for _, cr := range crs {
		image := strings.SplitN(strings.SplitN(string(cr.Data.Raw), `"image":"`, 2)[1], `"`, 2)[0]
		out = append(out, fmt.Sprintf("%s:%d", image, cr.Revision))
	}
	return strings.Join(out, " ")
}
