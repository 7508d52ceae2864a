package kubeplugins

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/admission"
	corev1listers "k8s.io/client-go/listers/core/v1"

	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/apps"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/batch"
	api "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/core"
	"github.com/canopy-dev/canopy/third_party/kubernetes/plugin/pkg/admission/limitranger"
)

// newTemplateLimitRanger is LimitRanger with templateActions over
// limitRanges, the LimitRanges of one logical cluster: a Canopy extension
// of kube's. Kube applies a namespace's LimitRanges to pods as they are
// made; the hub makes no pods, its workloads' pods are made downstream,
// so it applies them to the pod templates of workloads, with upstream's
// own functions: a template's containers get the defaults a pod of it
// would get (with kube's kubernetes.io/limit-ranger annotation), and a
// template a pod of which would be refused is refused with the same
// message. The template then says what each of its pods requests, which
// quota counts (replicas × template), and the pods made from it
// downstream are as kube would have made them here.
func newTemplateLimitRanger(limitRanges corev1listers.LimitRangeLister) (admission.Interface, error) {
	return limitranger.NewLimitRanger(templateActions{limitRanges})
}

// templateActions are LimitRanger's actions on the pod template of a
// workload, as upstream's DefaultLimitRangerActions act on a pod.
type templateActions struct {
	limitRanges corev1listers.LimitRangeLister
}

var _ limitranger.LimitRangerActions = templateActions{}

// SupportsAttributes is a create or update of a workload, whose template
// may change on either, unlike a pod's containers, in a namespace with
// LimitRanges. LimitRanger looks a namespace without any up again through
// the API, in case its informer lags, which kube does for each new pod;
// the shared informers the hub's views show are synced before it serves,
// and a workload's create is not made to pay for that lookup.
func (t templateActions) SupportsAttributes(a admission.Attributes) bool {
	if a.GetSubresource() != "" || podTemplate(a.GetObject()) == nil {
		return false
	}
	items, err := t.limitRanges.LimitRanges(a.GetNamespace()).List(labels.Everything())
	return err != nil || len(items) > 0
}

func (templateActions) SupportsLimit(*corev1.LimitRange) bool { return true }

func (templateActions) MutateLimit(limitRange *corev1.LimitRange, _ string, obj runtime.Object) error {
	return asPod(obj, func(pod *api.Pod) error { return limitranger.PodMutateLimitFunc(limitRange, pod) })
}

func (templateActions) ValidateLimit(limitRange *corev1.LimitRange, _ string, obj runtime.Object) error {
	return asPod(obj, func(pod *api.Pod) error { return limitranger.PodValidateLimitFunc(limitRange, pod) })
}

// asPod calls f with a pod of obj's template, and keeps what f makes of
// the pod as the template.
func asPod(obj runtime.Object, f func(*api.Pod) error) error {
	t := podTemplate(obj)
	if t == nil {
		return nil
	}
	pod := &api.Pod{ObjectMeta: t.ObjectMeta, Spec: t.Spec}
	if err := f(pod); err != nil {
		return err
	}
	t.ObjectMeta, t.Spec = pod.ObjectMeta, pod.Spec
	return nil
}

// podTemplate is the pod template of obj, a workload at upstream's
// internal version, or nil.
func podTemplate(obj runtime.Object) *api.PodTemplateSpec {
	switch o := obj.(type) {
	case *apps.Deployment:
		return &o.Spec.Template
	case *apps.ReplicaSet:
		return &o.Spec.Template
	case *apps.StatefulSet:
		return &o.Spec.Template
	case *apps.DaemonSet:
		return &o.Spec.Template
	case *api.ReplicationController:
		return o.Spec.Template
	case *batch.Job:
		return &o.Spec.Template
	case *batch.CronJob:
		return &o.Spec.JobTemplate.Spec.Template
	}
	return nil
}
