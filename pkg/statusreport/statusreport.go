package statusreport

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/informer"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// Reader picks the reports of targets on hub objects from the shared
// informer of every StatusReport.
type Reader struct {
	reports *informer.Informer
}

// NewReader returns a Reader of reports; a nil one reads annotations
// only.
func NewReader(reports *informer.Informer) *Reader { return &Reader{reports: reports} }

// Pick is the report, as JSON, of the target of key on obj, of resource
// gr, in cluster: that of its StatusReport if it has one, or else that of
// its annotation; false when there is neither.
func (r *Reader) Pick(cluster logicalcluster.Name, gr schema.GroupResource, obj metav1.Object, key string) (string, bool) {
	if r != nil && r.reports != nil && obj.GetNamespace() != "" {
		held, ok := r.reports.Get(cluster, obj.GetNamespace(), workloadv1alpha1.StatusReportName(gr.String(), obj.GetName(), key))
		if report, isReport := held.(*workloadv1alpha1.StatusReport); ok && isReport && Of(report, obj, key) {
			return string(report.Spec.Status.Raw), true
		}
	}
	raw, ok := obj.GetAnnotations()[workloadv1alpha1.StatusAnnotation(key)]
	return raw, ok
}

// Picker is Pick for one object: the report of the target of a key.
func (r *Reader) Picker(cluster logicalcluster.Name, gr schema.GroupResource, obj metav1.Object) func(key string) (string, bool) {
	return func(key string) (string, bool) { return r.Pick(cluster, gr, obj, key) }
}

// Of tells whether report is the report of the target of key on obj: its
// label names key and it is owned by obj, of obj's UID.
func Of(report *workloadv1alpha1.StatusReport, obj metav1.Object, key string) bool {
	if report.Labels[workloadv1alpha1.ReportedByLabel] != key || report.Spec.Target != key || report.Spec.Name != obj.GetName() {
		return false
	}
	for _, ref := range report.OwnerReferences {
		if ref.UID == obj.GetUID() {
			return true
		}
	}
	return false
}

// Ref is the object a report is on.
type Ref struct {
	Cluster         logicalcluster.Name
	Resource        schema.GroupResource
	Namespace, Name string
}

// RefOf is the object report obj is on, and false if obj is no report.
func RefOf(obj runtime.Object) (Ref, bool) {
	report, ok := obj.(*workloadv1alpha1.StatusReport)
	if !ok {
		return Ref{}, false
	}
	cluster, err := logicalcluster.FromObject(report)
	if err != nil {
		return Ref{}, false
	}
	return Ref{Cluster: cluster, Resource: schema.ParseGroupResource(report.Spec.Resource), Namespace: report.Namespace, Name: report.Spec.Name}, true
}
