package clusterquota

import (
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"
	resourcehelper "k8s.io/component-helpers/resource"

	tenancyv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/tenancy/v1alpha1"
)

// cost is what admitting a adds to the use of its subtree: on create,
// what the object uses (use); on update, what more its workload's
// replicas times its pod template ask for. Only increases are charged at
// admission; a decrease is given back by the recount, which counts what
// the objects stored use (pkg/controller/clusterquota).
//
// The quota helper of this session may give the hub one evaluator of
// workload cost for ResourceQuota and leases alike; this file is the
// lease's until then.
func cost(a admission.Attributes) corev1.ResourceList {
	if a.GetOperation() == admission.Create {
		return Use(a.GetResource().GroupResource(), a.GetObject())
	}
	out := corev1.ResourceList{}
	grown, old := workloadUse(a.GetObject()), workloadUse(a.GetOldObject())
	for name, q := range grown {
		q.Sub(old[name])
		if q.Sign() > 0 {
			out[name] = q
		}
	}
	return out
}

// Use is what an object of resource gr uses of its subtree's leases: one
// of its kind, and what its workload runs. The recount (pkg/controller/
// clusterquota) counts what the objects stored use with it.
func Use(gr schema.GroupResource, obj runtime.Object) corev1.ResourceList {
	out := corev1.ResourceList{countName(gr): resource.MustParse("1")}
	switch gr {
	case tenancyv1alpha1.Resource("logicalclusters"):
		out[tenancyv1alpha1.ResourceLogicalClusters] = resource.MustParse("1")
	case corev1.Resource("namespaces"):
		out[tenancyv1alpha1.ResourceNamespaces] = resource.MustParse("1")
	}
	for name, q := range workloadUse(obj) {
		if q.Sign() > 0 {
			out[name] = q
		}
	}
	return out
}

// Workloads are the resources whose objects use more than their count:
// a counter needs their whole objects, not their metadata alone.
var Workloads = []schema.GroupResource{
	appsv1.Resource("deployments"), appsv1.Resource("statefulsets"), batchv1.Resource("jobs"),
}

// Counted is whether the recount can count resource name from objects of
// the resources in counted, rather than keep what admission charged.
func Counted(name corev1.ResourceName, counted func(schema.GroupResource) bool) bool {
	switch name {
	case tenancyv1alpha1.ResourceLogicalClusters, tenancyv1alpha1.ResourceNamespaces, tenancyv1alpha1.ResourceReplicas,
		corev1.ResourceRequestsCPU, corev1.ResourceRequestsMemory, corev1.ResourceLimitsCPU, corev1.ResourceLimitsMemory:
		return true
	}
	rest, ok := strings.CutPrefix(string(name), "count/")
	return ok && counted(schema.ParseGroupResource(rest))
}

// countName is the object count of gr as ResourceQuota names it.
func countName(gr schema.GroupResource) corev1.ResourceName {
	if gr.Group == "" {
		return corev1.ResourceName("count/" + gr.Resource)
	}
	return corev1.ResourceName("count/" + gr.Resource + "." + gr.Group)
}

// workloadUse is what obj will run once placed: its replicas times the
// requests and limits of its pod template, as kube's scheduler and
// ResourceQuota sum them for one pod (component-helpers). Only the kinds
// users create to run pods count; the ReplicaSets and Pods the hub holds
// are made from those, or reported back by the syncers, and counting them
// too would count twice.
func workloadUse(obj runtime.Object) corev1.ResourceList {
	var replicas int64
	var spec *corev1.PodSpec
	switch o := obj.(type) {
	case *appsv1.Deployment:
		replicas, spec = replicasOf(o.Spec.Replicas), &o.Spec.Template.Spec
	case *appsv1.StatefulSet:
		replicas, spec = replicasOf(o.Spec.Replicas), &o.Spec.Template.Spec
	case *batchv1.Job:
		replicas, spec = replicasOf(o.Spec.Parallelism), &o.Spec.Template.Spec
	default:
		return nil
	}
	pod := &corev1.Pod{Spec: *spec}
	out := corev1.ResourceList{tenancyv1alpha1.ResourceReplicas: *resource.NewQuantity(replicas, resource.DecimalSI)}
	for prefix, list := range map[string]corev1.ResourceList{
		"requests.": resourcehelper.PodRequests(pod, resourcehelper.PodResourcesOptions{}),
		"limits.":   resourcehelper.PodLimits(pod, resourcehelper.PodResourcesOptions{}),
	} {
		for _, name := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
			q, ok := list[name]
			if !ok {
				continue
			}
			total := resource.NewMilliQuantity(q.MilliValue()*replicas, q.Format)
			if name == corev1.ResourceMemory {
				total = resource.NewQuantity(q.Value()*replicas, q.Format)
			}
			out[corev1.ResourceName(prefix+string(name))] = *total
		}
	}
	return out
}

// replicasOf is a replica count, 1 when unset as the API defaults it.
func replicasOf(n *int32) int64 {
	if n == nil {
		return 1
	}
	return int64(*n)
}
