package quota

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kubequota "k8s.io/apiserver/pkg/quota/v1"
	"k8s.io/apiserver/pkg/quota/v1/generic"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// NewRegistry is quota's evaluators of resources, the one set that both
// this controller, counting a namespace, and the hub's ResourceQuota
// admission (pkg/admission/resourcequota), charging a request, use, so
// that the usage one writes is the usage the other computes: kube's
// evaluators of pods and services, the hub's of workloads (workloads.go),
// and an object count of every other resource. list lists a resource's
// objects in a namespace; admission, which only measures the object of a
// request, passes nil lists.
func NewRegistry(resources []schema.GroupResource, list func(schema.GroupResource) generic.ListFuncByNamespace) kubequota.Registry {
	evaluators := make([]kubequota.Evaluator, 0, len(resources))
	for _, r := range resources {
		l := list(r)
		switch {
		case r == Pods:
			evaluators = append(evaluators, &podEvaluator{list: l, now: time.Now})
		case r == Services:
			evaluators = append(evaluators, &serviceEvaluator{list: l})
		case Workloads[r]:
			evaluators = append(evaluators, newWorkloadEvaluator(r, l))
		default:
			evaluators = append(evaluators, generic.NewObjectCountEvaluator(r, l, aliases[r]))
		}
	}
	return generic.NewRegistry(evaluators)
}

// Upsynced tells an upsynced object: a copy of a pod, or of an Event,
// that a syncer made of what a workload runs in a physical cluster. It
// counts against no quota: the workload it belongs to counts its pods.
func Upsynced(obj runtime.Object) bool {
	if obj == nil {
		return false
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return false
	}
	_, ok := m.GetLabels()[workloadv1alpha1.UpsyncedLabel]
	return ok
}

// aliases are the names quota also counts these resources' objects by,
// as kube's evaluators do for backward compatibility.
var aliases = map[schema.GroupResource]corev1.ResourceName{
	corev1.Resource("configmaps"):             corev1.ResourceConfigMaps,
	corev1.Resource("resourcequotas"):         corev1.ResourceQuotas,
	corev1.Resource("replicationcontrollers"): corev1.ResourceReplicationControllers,
	corev1.Resource("secrets"):                corev1.ResourceSecrets,
}

// NewPodEvaluator is kube's evaluator of pods, listing them with list and
// telling the time with now, for a registry made by hand.
func NewPodEvaluator(list generic.ListFuncByNamespace, now func() time.Time) kubequota.Evaluator {
	return &podEvaluator{list: list, now: now}
}

// NewServiceEvaluator is kube's evaluator of Services, listing them with
// list, for a registry made by hand.
func NewServiceEvaluator(list generic.ListFuncByNamespace) kubequota.Evaluator {
	return &serviceEvaluator{list: list}
}
