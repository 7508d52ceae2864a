package resourcequota

import (
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	quota "k8s.io/apiserver/pkg/quota/v1"
	"k8s.io/apiserver/pkg/quota/v1/generic"
	"k8s.io/utils/ptr"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	hubquota "github.com/canopy-dev/canopy/pkg/quota"
)

func pod(name string, phase corev1.PodPhase, requests, limits corev1.ResourceList) *corev1.Pod {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns"}, Status: corev1.PodStatus{Phase: phase}}
	p.Spec.Containers = []corev1.Container{{Name: "c", Resources: corev1.ResourceRequirements{Requests: requests, Limits: limits}}}
	return p
}

func list(objs ...runtime.Object) generic.ListFuncByNamespace {
	return func(string) ([]runtime.Object, error) { return objs, nil }
}

// TestSyncStatus checks what a quota's status is computed to be from the
// objects of its namespace, as kube's controller computes it.
func TestSyncStatus(t *testing.T) {
	cpu := func(s string) corev1.ResourceList {
		return corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(s)}
	}
	now := time.Now()
	gone := pod("gone", corev1.PodRunning, cpu("4"), nil)
	gone.DeletionTimestamp = &metav1.Time{Time: now.Add(-time.Minute)}
	gone.DeletionGracePeriodSeconds = ptr.To[int64](30)
	registry := generic.NewRegistry([]quota.Evaluator{
		hubquota.NewPodEvaluator(list(
			pod("a", corev1.PodRunning, cpu("100m"), cpu("200m")),
			pod("b", corev1.PodPending, cpu("250m"), nil),
			pod("done", corev1.PodSucceeded, cpu("1"), nil),
			gone,
		), func() time.Time { return now }),
		hubquota.NewServiceEvaluator(list(
			&corev1.Service{Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeNodePort, Ports: []corev1.ServicePort{{Port: 80}, {Port: 81}}}},
			&corev1.Service{Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeLoadBalancer, AllocateLoadBalancerNodePorts: ptr.To(false),
				Ports: []corev1.ServicePort{{Port: 80, NodePort: 30080}, {Port: 81}}}},
		)),
		generic.NewObjectCountEvaluator(corev1.Resource("configmaps"), list(&corev1.ConfigMap{}, &corev1.ConfigMap{}), corev1.ResourceConfigMaps),
	})
	hard := corev1.ResourceList{
		corev1.ResourcePods: resource.MustParse("10"), "count/pods": resource.MustParse("10"),
		corev1.ResourceRequestsCPU: resource.MustParse("2"), corev1.ResourceLimitsCPU: resource.MustParse("2"),
		corev1.ResourceServicesNodePorts: resource.MustParse("5"), corev1.ResourceServicesLoadBalancers: resource.MustParse("1"),
		corev1.ResourceConfigMaps: resource.MustParse("5"), "count/configmaps": resource.MustParse("5"),
		"example.com/unknown": resource.MustParse("1"),
	}
	q := &corev1.ResourceQuota{ObjectMeta: metav1.ObjectMeta{Name: "q", Namespace: "ns"}, Spec: corev1.ResourceQuotaSpec{Hard: hard},
		Status: corev1.ResourceQuotaStatus{Used: corev1.ResourceList{"example.com/unknown": resource.MustParse("1"), "gone": resource.MustParse("1")}}}
	status, dirty, err := syncStatus(q, registry)
	if err != nil || !dirty {
		t.Fatalf("syncStatus: dirty %v, err %v; want a dirty status", dirty, err)
	}
	want := map[corev1.ResourceName]string{
		// Every pod counts as an object; only those neither terminal nor
		// past their grace period count as pods and compute.
		corev1.ResourcePods: "2", "count/pods": "4", corev1.ResourceRequestsCPU: "350m", corev1.ResourceLimitsCPU: "200m",
		corev1.ResourceServicesNodePorts: "3", corev1.ResourceServicesLoadBalancers: "1",
		corev1.ResourceConfigMaps: "2", "count/configmaps": "2",
		// What nothing counts keeps the usage last seen.
		"example.com/unknown": "1",
	}
	if len(status.Used) != len(want) {
		t.Errorf("used is %v; want %v", status.Used, want)
	}
	for name, value := range want {
		if got := status.Used[name]; got.String() != value {
			t.Errorf("used %s is %s; want %s", name, got.String(), value)
		}
	}
	if !quota.Equals(status.Hard, hard) {
		t.Errorf("hard is %v; want the spec's %v", status.Hard, hard)
	}
	q.Status = status
	if _, dirty, _ := syncStatus(q, registry); dirty {
		t.Error("a quota whose status is up to date is dirty")
	}
}

// TestCountChanged checks which updates of an object counted by what it
// holds call for a recount of its namespace: those that change what a
// quota there counts, and not those that change only its status.
func TestCountChanged(t *testing.T) {
	cpu := func(s string) corev1.ResourceList {
		return corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(s)}
	}
	registry := hubquota.NewRegistry([]schema.GroupResource{hubquota.Pods, appsv1.Resource("deployments")},
		func(schema.GroupResource) generic.ListFuncByNamespace { return nil })
	deployment := func(replicas int32, priorityClass string, mutate func(*appsv1.Deployment)) *appsv1.Deployment {
		d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "ns"}, Spec: appsv1.DeploymentSpec{Replicas: ptr.To(replicas)}}
		d.Spec.Template.Spec = pod("", "", cpu("250m"), nil).Spec
		d.Spec.Template.Spec.PriorityClassName = priorityClass
		if mutate != nil {
			mutate(d)
		}
		return d
	}
	plain := &corev1.ResourceQuota{Spec: corev1.ResourceQuotaSpec{Hard: corev1.ResourceList{corev1.ResourceRequestsCPU: resource.MustParse("4")}}}
	scoped := &corev1.ResourceQuota{Spec: corev1.ResourceQuotaSpec{
		Hard: corev1.ResourceList{corev1.ResourcePods: resource.MustParse("4")},
		ScopeSelector: &corev1.ScopeSelector{MatchExpressions: []corev1.ScopedResourceSelectorRequirement{{
			ScopeName: corev1.ResourceQuotaScopePriorityClass, Operator: corev1.ScopeSelectorOpIn, Values: []string{"high"}}}},
	}}
	// What a quota matches is what its status says it limits, which a
	// new quota gets by the recount its creation calls for.
	plain.Status.Hard, scoped.Status.Hard = plain.Spec.Hard, scoped.Spec.Hard
	quotas := []runtime.Object{plain, scoped}
	deleting := pod("a", corev1.PodRunning, cpu("1"), nil)
	deleting.DeletionTimestamp = &metav1.Time{Time: time.Now()}
	deleting.DeletionGracePeriodSeconds = ptr.To[int64](30)
	upsynced := pod("a", corev1.PodRunning, cpu("1"), nil)
	upsynced.Labels = map[string]string{workloadv1alpha1.UpsyncedLabel: "key"}
	for _, c := range []struct {
		name     string
		resource schema.GroupResource
		old, cur runtime.Object
		want     bool
	}{
		{"a Deployment's status", appsv1.Resource("deployments"), deployment(2, "", nil),
			deployment(2, "", func(d *appsv1.Deployment) { d.Status.ReadyReplicas = 2; d.Annotations = map[string]string{"a": "b"} }), false},
		{"a Deployment scaled", appsv1.Resource("deployments"), deployment(2, "", nil), deployment(3, "", nil), true},
		{"a Deployment's requests", appsv1.Resource("deployments"), deployment(2, "", nil),
			deployment(2, "", func(d *appsv1.Deployment) { d.Spec.Template.Spec.Containers[0].Resources.Requests = cpu("1") }), true},
		{"a Deployment moved into a quota's scope", appsv1.Resource("deployments"), deployment(2, "low", nil), deployment(2, "high", nil), true},
		{"a pod's conditions", hubquota.Pods, pod("a", corev1.PodRunning, cpu("1"), nil),
			func() *corev1.Pod {
				p := pod("a", corev1.PodRunning, cpu("1"), nil)
				p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}
				return p
			}(), false},
		{"a pod that ended", hubquota.Pods, pod("a", corev1.PodRunning, cpu("1"), nil), pod("a", corev1.PodSucceeded, cpu("1"), nil), true},
		{"a pod being deleted, whose grace period's end is to be waited for", hubquota.Pods, pod("a", corev1.PodRunning, cpu("1"), nil), deleting, true},
		{"a pod that became an upsynced copy", hubquota.Pods, pod("a", corev1.PodRunning, cpu("1"), nil), upsynced, true},
	} {
		if got := countChanged(registry.Get(c.resource), quotas, c.old, c.cur); got != c.want {
			t.Errorf("%s: countChanged is %v; want %v", c.name, got, c.want)
		}
	}
}
