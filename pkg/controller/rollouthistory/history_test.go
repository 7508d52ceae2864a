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

// TestComputeHash checks the hash against what
// k8s.io/kubernetes@v1.37.1's controller.ComputeHash returns for the
// same template, with and without a collision count.
func TestComputeHash(t *testing.T) {
	template := corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx:1.27"}}},
	}
	for _, tc := range []struct {
		count *int32
		want  string
	}{{nil, "654f7dcc79"}, {ptr.To[int32](1), "5b4dc95698"}} {
		if got := ComputeHash(&template, tc.count); got != tc.want {
			t.Errorf("ComputeHash(count %v) = %s, want %s", tc.count, got, tc.want)
		}
	}
}

func deployment(image string, generation int64, status appsv1.DeploymentStatus) *appsv1.Deployment {
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop", UID: types.UID("d-uid"), Generation: generation,
			Annotations: map[string]string{
				"kubernetes.io/change-cause":            "set " + image,
				corev1.LastAppliedConfigAnnotation:      "{}",
				workloadv1alpha1.PlacedAnnotation:       "k1",
				workloadv1alpha1.StatusAnnotation("k1"): "{}",
				RevisionAnnotation:                      "7",
			}},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To[int32](4), RevisionHistoryLimit: ptr.To[int32](2),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: image}}},
			},
		},
		Status: status,
	}
}

// history makes the ReplicaSets Reconcile wants for images one after
// the other, each stored with a UID as the controller would, and
// returns the last deployment's wanted and stale ones.
func history(t *testing.T, images ...string) (d *appsv1.Deployment, want, stale []*appsv1.ReplicaSet) {
	t.Helper()
	var owned []*appsv1.ReplicaSet
	for i, image := range images {
		d = deployment(image, int64(i+1), appsv1.DeploymentStatus{ObservedGeneration: int64(i + 1), Replicas: 4, UpdatedReplicas: 4, ReadyReplicas: 4, AvailableReplicas: 4})
		want, stale = Reconcile(d, owned, ComputeHash(&d.Spec.Template, nil))
		owned = nil
		for _, rs := range want {
			if rs.UID == "" {
				rs.UID = types.UID("rs-" + image)
			}
			owned = append(owned, rs)
		}
	}
	return d, want, stale
}

// summary is each ReplicaSet's image, revision and replicas, oldest
// revision first as Reconcile returns them.
func summary(rss []*appsv1.ReplicaSet) string {
	var out []string
	for _, rs := range rss {
		out = append(out, fmt.Sprintf("%s:r%d:%d/%d", rs.Spec.Template.Spec.Containers[0].Image, Revision(rs), *rs.Spec.Replicas, rs.Status.ReadyReplicas))
	}
	return strings.Join(out, " ")
}

// TestReconcile checks the revisions kept through a sequence of
// templates: new ones numbered next, one that comes back renumbered as
// the newest, the oldest beyond the history limit deleted.
func TestReconcile(t *testing.T) {
	for _, tc := range []struct {
		images []string
		want   string
		stale  string
	}{
		{[]string{"a"}, "a:r1:4/4", ""},
		{[]string{"a", "b"}, "a:r1:0/0 b:r2:4/4", ""},
		{[]string{"a", "b", "b"}, "a:r1:0/0 b:r2:4/4", ""},
		{[]string{"a", "b", "a"}, "b:r2:0/0 a:r3:4/4", ""},
		{[]string{"a", "b", "c", "d"}, "b:r2:0/0 c:r3:0/0 d:r4:4/4", "a:r1:0/0"},
	} {
		t.Run(strings.Join(tc.images, ","), func(t *testing.T) {
			_, want, stale := history(t, tc.images...)
			if got := summary(want); got != tc.want {
				t.Errorf("want %q, got %q", tc.want, got)
			}
			if got := summary(stale); got != tc.stale {
				t.Errorf("stale %q, got %q", tc.stale, got)
			}
		})
	}
}

// TestNewReplicaSet checks what kubectl and Helm read of a new
// ReplicaSet: its owner, hash label and selector, template, and
// annotations.
func TestNewReplicaSet(t *testing.T) {
	d, want, _ := history(t, "a")
	rs := want[0]
	hash := ComputeHash(&d.Spec.Template, nil)
	if rs.Name != "web-"+hash || rs.Labels[appsv1.DefaultDeploymentUniqueLabelKey] != hash || rs.Spec.Selector.MatchLabels[appsv1.DefaultDeploymentUniqueLabelKey] != hash ||
		rs.Spec.Template.Labels[appsv1.DefaultDeploymentUniqueLabelKey] != hash || rs.Labels[workloadv1alpha1.RevisionRecordLabel] != "true" {
		t.Errorf("name, labels or selector: %s %v %v", rs.Name, rs.Labels, rs.Spec.Selector)
	}
	if !metav1.IsControlledBy(rs, d) || !EqualIgnoreHash(&rs.Spec.Template, &d.Spec.Template) {
		t.Errorf("not controlled by the Deployment, or not its template: %v", rs.OwnerReferences)
	}
	for k, v := range map[string]string{"kubernetes.io/change-cause": "set a", RevisionAnnotation: "1", workloadv1alpha1.PlacedAnnotation: "k1"} {
		if rs.Annotations[k] != v {
			t.Errorf("annotation %s = %q, want %q", k, rs.Annotations[k], v)
		}
	}
	for _, k := range []string{corev1.LastAppliedConfigAnnotation, workloadv1alpha1.StatusAnnotation("k1")} {
		if _, ok := rs.Annotations[k]; ok {
			t.Errorf("annotation %s copied", k)
		}
	}
}

// TestSplitStatus checks how the Deployment's replicas divide between
// its current revision and the one before during and after a rollout.
func TestSplitStatus(t *testing.T) {
	for _, tc := range []struct {
		name              string
		observed          int64
		status            appsv1.DeploymentStatus
		current, previous string
	}{
		{"not observed yet", 1, appsv1.DeploymentStatus{Replicas: 4, UpdatedReplicas: 4, ReadyReplicas: 4, AvailableReplicas: 4}, "0 0 0", "4 4 4"},
		{"half way", 2, appsv1.DeploymentStatus{Replicas: 5, UpdatedReplicas: 2, ReadyReplicas: 4, AvailableReplicas: 3}, "2 2 2", "3 2 1"},
		{"done", 2, appsv1.DeploymentStatus{Replicas: 4, UpdatedReplicas: 4, ReadyReplicas: 4, AvailableReplicas: 4}, "4 4 4", "0 0 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.status.ObservedGeneration = tc.observed
			d := deployment("b", 2, tc.status)
			current, previous := &appsv1.ReplicaSet{}, &appsv1.ReplicaSet{}
			splitStatus(d, current, previous)
			show := func(s appsv1.ReplicaSetStatus) string {
				return fmt.Sprintf("%d %d %d", s.Replicas, s.ReadyReplicas, s.AvailableReplicas)
			}
			if got := show(current.Status); got != tc.current {
				t.Errorf("current %q, want %q", got, tc.current)
			}
			if got := show(previous.Status); got != tc.previous {
				t.Errorf("previous %q, want %q", got, tc.previous)
			}
		})
	}
}
