package statusreport

import (
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// TestName checks that a report's name is a valid name of bounded
// length, one per resource, object and target.
func TestName(t *testing.T) {
	seen := map[string]bool{}
	for _, tc := range [][3]string{
		{"deployments.apps", "web", "k1"}, {"deployments.apps", "web", "k2"}, {"statefulsets.apps", "web", "k1"}, {"deployments.apps", "api", "k1"},
		{"deployments.apps", strings.Repeat("a", 253), "k1"}, {"deployments.apps", strings.Repeat("a.", 120) + "b", "k1"},
	} {
		name := workloadv1alpha1.StatusReportName(tc[0], tc[1], tc[2])
		if errs := validation.IsDNS1123Subdomain(name); len(errs) > 0 {
			t.Errorf("%v: %q is no valid name: %v", tc, name, errs)
		}
		if seen[name] {
			t.Errorf("%v: %q is another's too", tc, name)
		}
		seen[name] = true
	}
}

// TestOf checks which report counts as a target's on an object: its
// label and spec name the target and object, and the object, by UID,
// owns it; RefOf names that object.
func TestOf(t *testing.T) {
	web := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "ns1", UID: "u1"}}
	report := func(change func(r *workloadv1alpha1.StatusReport)) *workloadv1alpha1.StatusReport {
		r := &workloadv1alpha1.StatusReport{
			ObjectMeta: metav1.ObjectMeta{
				Name: workloadv1alpha1.StatusReportName("deployments.apps", "web", "k1"), Namespace: "ns1",
				Labels:          map[string]string{workloadv1alpha1.ReportedByLabel: "k1"},
				Annotations:     map[string]string{logicalcluster.Annotation: "root:a"},
				OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: "u1"}},
			},
			Spec: workloadv1alpha1.StatusReportSpec{Resource: "deployments.apps", Name: "web", Target: "k1", Status: runtime.RawExtension{Raw: []byte(`{}`)}},
		}
		change(r)
		return r
	}
	for _, tc := range []struct {
		name   string
		report *workloadv1alpha1.StatusReport
		want   bool
	}{
		{"its own", report(func(*workloadv1alpha1.StatusReport) {}), true},
		{"of an object made before", report(func(r *workloadv1alpha1.StatusReport) { r.OwnerReferences[0].UID = "u0" }), false},
		{"labelled for another", report(func(r *workloadv1alpha1.StatusReport) { r.Labels[workloadv1alpha1.ReportedByLabel] = "k2" }), false},
		{"of another target", report(func(r *workloadv1alpha1.StatusReport) { r.Spec.Target = "k2" }), false},
		{"of another object", report(func(r *workloadv1alpha1.StatusReport) { r.Spec.Name = "api" }), false},
	} {
		if got := Of(tc.report, web, "k1"); got != tc.want {
			t.Errorf("%s: Of = %v, want %v", tc.name, got, tc.want)
		}
	}
	ref, ok := RefOf(report(func(*workloadv1alpha1.StatusReport) {}))
	want := Ref{Cluster: "root:a", Resource: schema.GroupResource{Group: "apps", Resource: "deployments"}, Namespace: "ns1", Name: "web"}
	if !ok || ref != want {
		t.Errorf("RefOf = %+v, %v, want %+v", ref, ok, want)
	}
	// A nil Reader reads the annotation alone.
	web.Annotations = map[string]string{workloadv1alpha1.StatusAnnotation("k1"): `{"replicas":1}`}
	if raw, ok := NewReader(nil).Pick("root:a", want.Resource, web, "k1"); !ok || raw != `{"replicas":1}` {
		t.Errorf("Pick without reports = %q, %v", raw, ok)
	}
}
