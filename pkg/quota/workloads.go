package quota

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"
	kubequota "k8s.io/apiserver/pkg/quota/v1"
	"k8s.io/apiserver/pkg/quota/v1/generic"
	resourcehelper "k8s.io/component-helpers/resource"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// Workloads are the resources whose objects count, besides themselves,
// the pods they run: replicas × their pod template. A DaemonSet is not
// among them: how many pods it runs is how many nodes its physical
// clusters have, which the hub does not know when it admits one, so it
// counts as an object only; nor is a CronJob, whose Jobs count when
// they are made.
var Workloads = map[schema.GroupResource]bool{
	appsv1.Resource("deployments"):            true,
	appsv1.Resource("replicasets"):            true,
	appsv1.Resource("statefulsets"):           true,
	corev1.Resource("replicationcontrollers"): true,
	batchv1.Resource("jobs"):                  true,
}

// workloadEvaluator is quota's evaluator of a workload resource: each
// object counts as count/<resource> (and its legacy alias), and the pods
// it runs as replicas × the usage kube's pod evaluator gives a pod of its
// template: pods, cpu, memory, ephemeral storage and hugepages requests
// and limits. A quota's scopes and scope selectors match a workload as
// they would match a pod of its template.
type workloadEvaluator struct {
	resource schema.GroupResource
	// names are count/<resource> and its legacy alias, if any.
	names []corev1.ResourceName
	pods  *podEvaluator
	list  generic.ListFuncByNamespace
}

var _ kubequota.Evaluator = &workloadEvaluator{}

func newWorkloadEvaluator(r schema.GroupResource, list generic.ListFuncByNamespace) *workloadEvaluator {
	names := []corev1.ResourceName{generic.ObjectCountQuotaResourceNameFor(r)}
	if alias, ok := aliases[r]; ok {
		names = append(names, alias)
	}
	return &workloadEvaluator{resource: r, names: names, pods: &podEvaluator{}, list: list}
}

// template is a pod of obj's template, and how many such pods obj runs.
// A revision record of the hub (a Deployment's ReplicaSet) runs none of
// its own: its Deployment's count covers them. A Job runs its
// parallelism, no more than its completions, until it is suspended or
// finished.
func template(obj runtime.Object) (*corev1.Pod, int64, error) {
	var spec *corev1.PodTemplateSpec
	var replicas int64
	switch o := obj.(type) {
	case *appsv1.Deployment:
		spec, replicas = &o.Spec.Template, ptrOr(o.Spec.Replicas, 1)
	case *appsv1.ReplicaSet:
		spec, replicas = &o.Spec.Template, ptrOr(o.Spec.Replicas, 1)
		if o.Labels[workloadv1alpha1.RevisionRecordLabel] == "true" {
			replicas = 0
		}
	case *appsv1.StatefulSet:
		spec, replicas = &o.Spec.Template, ptrOr(o.Spec.Replicas, 1)
	case *corev1.ReplicationController:
		spec, replicas = o.Spec.Template, ptrOr(o.Spec.Replicas, 1)
	case *batchv1.Job:
		spec, replicas = &o.Spec.Template, ptrOr(o.Spec.Parallelism, 1)
		if o.Spec.Completions != nil && int64(*o.Spec.Completions) < replicas {
			replicas = int64(*o.Spec.Completions)
		}
		if (o.Spec.Suspend != nil && *o.Spec.Suspend) || jobFinished(o) {
			replicas = 0
		}
	default:
		return nil, 0, fmt.Errorf("expect a workload with a pod template, got %T", obj)
	}
	pod := &corev1.Pod{}
	if spec != nil {
		pod.ObjectMeta, pod.Spec = spec.ObjectMeta, spec.Spec
	}
	return pod, replicas, nil
}

func ptrOr(p *int32, or int64) int64 {
	if p == nil {
		return or
	}
	return int64(*p)
}

func jobFinished(j *batchv1.Job) bool {
	for _, c := range j.Status.Conditions {
		if (c.Type == batchv1.JobComplete || c.Type == batchv1.JobFailed) && c.Status == corev1.ConditionTrue {
			return true
		}
	}
	return false
}

// Constraints asks a workload's template what kube asks a pod: that its
// containers set the requests and limits a quota limits. A workload that
// runs no pods, such as the hub's record of a Deployment's revision, is
// asked nothing.
func (w *workloadEvaluator) Constraints(required []corev1.ResourceName, item runtime.Object) error {
	pod, replicas, err := template(item)
	if err != nil || replicas == 0 {
		return err
	}
	return w.pods.Constraints(required, pod)
}

func (w *workloadEvaluator) GroupResource() schema.GroupResource { return w.resource }

// Handles is a workload's create, and an update that changes what it
// uses, of replicas or template: not the many updates that change
// neither, a controller's label or finalizer, which a quota created after
// the workload must not refuse for a template it would not admit now, as
// kube's pod evaluator leaves a pod's updates alone. A change of replicas
// through the scale subresource carries no template and is not counted
// at admission; the controller counts it once the workload is stored.
func (w *workloadEvaluator) Handles(a admission.Attributes) bool {
	if a.GetSubresource() != "" {
		return false
	}
	switch a.GetOperation() {
	case admission.Create:
		return true
	case admission.Update:
		before, err1 := w.Usage(a.GetOldObject())
		after, err2 := w.Usage(a.GetObject())
		return err1 != nil || err2 != nil || !kubequota.Equals(before, after)
	}
	return false
}

func (w *workloadEvaluator) Matches(q *corev1.ResourceQuota, item runtime.Object) (bool, error) {
	return generic.Matches(q, item, w.MatchingResources, w.matchesScope)
}

// MatchingResources is what a workload counts of input: its object
// count, and what a pod counts but count/pods.
func (w *workloadEvaluator) MatchingResources(input []corev1.ResourceName) []corev1.ResourceName {
	result := kubequota.Intersection(input, w.names)
	for _, r := range w.pods.MatchingResources(input) {
		if r != podObjectCountName {
			result = append(result, r)
		}
	}
	return result
}

func (w *workloadEvaluator) matchesScope(selector corev1.ScopedResourceSelectorRequirement, obj runtime.Object) (bool, error) {
	pod, _, err := template(obj)
	if err != nil {
		return false, err
	}
	return podMatchesScopeFunc(selector, pod)
}

func (w *workloadEvaluator) MatchingScopes(item runtime.Object, selectors []corev1.ScopedResourceSelectorRequirement) ([]corev1.ScopedResourceSelectorRequirement, error) {
	pod, _, err := template(item)
	if err != nil {
		return nil, err
	}
	return w.pods.MatchingScopes(pod, selectors)
}

func (w *workloadEvaluator) UncoveredQuotaScopes(limited, matched []corev1.ScopedResourceSelectorRequirement) ([]corev1.ScopedResourceSelectorRequirement, error) {
	return w.pods.UncoveredQuotaScopes(limited, matched)
}

// Usage is the workload as an object, and replicas × what a pod of its
// template would use.
func (w *workloadEvaluator) Usage(item runtime.Object) (corev1.ResourceList, error) {
	pod, replicas, err := template(item)
	if err != nil {
		return corev1.ResourceList{}, err
	}
	result := corev1.ResourceList{}
	for _, name := range w.names {
		result[name] = *resource.NewQuantity(1, resource.DecimalSI)
	}
	if replicas <= 0 {
		return result, nil
	}
	one := podComputeUsageHelper(resourcehelper.PodRequests(pod, resourcehelper.PodResourcesOptions{}), resourcehelper.PodLimits(pod, resourcehelper.PodResourcesOptions{}))
	for name, q := range one {
		q = q.DeepCopy()
		q.Mul(replicas)
		result[name] = q
	}
	return result, nil
}

func (w *workloadEvaluator) UsageStats(options kubequota.UsageStatsOptions) (kubequota.UsageStats, error) {
	return generic.CalculateUsageStats(options, w.list, w.matchesScope, w.Usage)
}
