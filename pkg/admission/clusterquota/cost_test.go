package clusterquota

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime/schema"

	tenancyv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/tenancy/v1alpha1"
)

// TestUse checks what an object counts against a lease: one of its
// resource, by kube's count/ name, and a workload's replicas times the
// requests and limits of its pod template, init containers as the
// scheduler counts them.
func TestUse(t *testing.T) {
	replicas := int32(3)
	d := &appsv1.Deployment{Spec: appsv1.DeploymentSpec{Replicas: &replicas, Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
		InitContainers: []corev1.Container{{Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("2")}}}},
		Containers: []corev1.Container{
			{Resources: corev1.ResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m"), corev1.ResourceMemory: resource.MustParse("64Mi")},
				Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("128Mi")},
			}},
			{Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("250m")}}},
		},
	}}}}
	got := Use(schema.GroupResource{Group: "apps", Resource: "deployments"}, d)
	want := map[corev1.ResourceName]string{
		"count/deployments.apps":         "1",
		tenancyv1alpha1.ResourceReplicas: "3",
		// The init container's 2 CPUs exceed the containers' 750m.
		corev1.ResourceRequestsCPU:    "6",
		corev1.ResourceRequestsMemory: "192Mi",
		corev1.ResourceLimitsMemory:   "384Mi",
	}
	if len(got) != len(want) {
		t.Errorf("use is %v, want %v", got, want)
	}
	for name, q := range want {
		if g, ok := got[name]; !ok || g.Cmp(resource.MustParse(q)) != 0 {
			t.Errorf("%s: %s, want %s", name, g.String(), q)
		}
	}
	if got := Use(tenancyv1alpha1.Resource("logicalclusters"), &tenancyv1alpha1.LogicalCluster{}); got.Name(tenancyv1alpha1.ResourceLogicalClusters, resource.DecimalSI).Value() != 1 ||
		got.Name("count/logicalclusters.tenancy.canopy.dev", resource.DecimalSI).Value() != 1 || len(got) != 2 {
		t.Errorf("a LogicalCluster uses %v", got)
	}
}
