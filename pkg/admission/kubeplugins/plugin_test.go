package kubeplugins

import (
	"context"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	nodev1 "k8s.io/api/node/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/authentication/user"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"
	restclient "k8s.io/client-go/rest"
	"k8s.io/component-base/compatibility"
	"k8s.io/utils/ptr"

	"github.com/canopy-dev/canopy/internal/coretest"
	"github.com/canopy-dev/canopy/internal/sqlitetest"
	"github.com/canopy-dev/canopy/pkg/informer"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/registry"
	"github.com/canopy-dev/canopy/pkg/registry/node"
	"github.com/canopy-dev/canopy/pkg/registry/scheduling"
)

// stores are the real stores, over SQLite, the plugins' informers read.
type stores struct {
	limitRanges, serviceAccounts, namespaces, pods, priorityClasses, runtimeClasses *genericregistry.Store
}

func openStores(t testing.TB) stores {
	t.Helper()
	core, _ := coretest.Open(t)
	var s stores
	for _, st := range core.Stores {
		switch st.DefaultQualifiedResource.Resource {
		case "limitranges":
			s.limitRanges = st
		case "serviceaccounts":
			s.serviceAccounts = st
		case "namespaces":
			s.namespaces = st
		case "pods":
			s.pods = st
		}
	}
	scheme := runtime.NewScheme()
	if err := scheduling.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	group, err := scheduling.NewStorage(&registry.Factory{Backend: sqlitetest.Open(t), Serializer: serializer.NewCodecFactory(scheme)}, scheme)
	if err != nil {
		t.Fatal(err)
	}
	s.priorityClasses = group.Stores[0]
	t.Cleanup(s.priorityClasses.DestroyFunc)
	if err := node.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	group, err = node.NewStorage(&registry.Factory{Backend: sqlitetest.Open(t), Serializer: serializer.NewCodecFactory(scheme)}, scheme)
	if err != nil {
		t.Fatal(err)
	}
	s.runtimeClasses = group.Stores[0]
	t.Cleanup(s.runtimeClasses.DestroyFunc)
	return s
}

// newPlugin is the plugin over s's informers, started, and a loopback
// config of a server that does not exist: what the informers hold is
// all the plugins may read.
func newPlugin(t testing.TB, s stores) *Plugin {
	t.Helper()
	f := informer.NewFactory()
	p, err := New(Config{
		LimitRanges: f.For(s.limitRanges), ServiceAccounts: f.For(s.serviceAccounts), PriorityClasses: f.For(s.priorityClasses),
		RuntimeClasses: f.For(s.runtimeClasses),
		Namespaces:     f.For(s.namespaces), Pods: f.For(s.pods),
		Loopback: &restclient.Config{Host: "https://127.0.0.1:1"},
		Version:  compatibility.NewEffectiveVersionFromString("1.37.0", "", ""),
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	f.Start(ctx)
	deadline := time.Now().Add(20 * time.Second)
	for !f.HasSynced() {
		if time.Now().After(deadline) {
			t.Fatal("timed out waiting for the informers to list")
		}
		time.Sleep(10 * time.Millisecond)
	}
	return p
}

func create(t testing.TB, s *genericregistry.Store, cluster logicalcluster.Name, obj runtime.Object) {
	t.Helper()
	m := obj.(metav1.Object)
	ctx := logicalcluster.WithCluster(genericapirequest.WithNamespace(context.Background(), m.GetNamespace()), cluster)
	if _, err := s.Create(ctx, obj, rest.ValidateAllObjectFunc, &metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// admitPod runs the mutating and validating plugins on the creation of
// pod in cluster, as the admission chain does.
func admitPod(p *Plugin, cluster logicalcluster.Name, pod *corev1.Pod) error {
	ctx := logicalcluster.WithCluster(context.Background(), cluster)
	a := admission.NewAttributesRecord(pod, nil, corev1.SchemeGroupVersion.WithKind("Pod"), pod.Namespace, pod.Name,
		corev1.SchemeGroupVersion.WithResource("pods"), "", admission.Create, &metav1.CreateOptions{}, false, &user.DefaultInfo{Name: "alice"})
	if err := p.Admit(ctx, a, nil); err != nil {
		return err
	}
	return p.Validate(ctx, a, nil)
}

// TestPodDefaults shows that a pod is given its logical cluster's
// LimitRange defaults, ServiceAccount, PriorityClass's priority and
// RuntimeClass's overhead and node selector, as
// read from the shared informers, and that another logical cluster's
// objects count for nothing.
func TestPodDefaults(t *testing.T) {
	s := openStores(t)
	a, b := logicalcluster.Name("root:a"), logicalcluster.Name("root:b")
	for _, cluster := range []logicalcluster.Name{a, b} {
		create(t, s.namespaces, cluster, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "shop"}})
		create(t, s.serviceAccounts, cluster, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "default", Namespace: "shop"}})
	}
	create(t, s.limitRanges, a, &corev1.LimitRange{ObjectMeta: metav1.ObjectMeta{Name: "defaults", Namespace: "shop"}, Spec: corev1.LimitRangeSpec{
		Limits: []corev1.LimitRangeItem{{Type: corev1.LimitTypeContainer, DefaultRequest: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m")}}},
	}})
	// b's LimitRange sets no defaults, but spares LimitRanger the live
	// lookup it makes in a namespace without one.
	create(t, s.limitRanges, b, &corev1.LimitRange{ObjectMeta: metav1.ObjectMeta{Name: "max", Namespace: "shop"}, Spec: corev1.LimitRangeSpec{
		Limits: []corev1.LimitRangeItem{{Type: corev1.LimitTypeContainer, Max: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("2")}}},
	}})
	create(t, s.priorityClasses, a, &schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: "high"}, Value: 1000})
	create(t, s.runtimeClasses, a, &nodev1.RuntimeClass{ObjectMeta: metav1.ObjectMeta{Name: "gvisor"}, Handler: "runsc",
		Overhead:   &nodev1.Overhead{PodFixed: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("64Mi")}},
		Scheduling: &nodev1.Scheduling{NodeSelector: map[string]string{"sandbox": "gvisor"}},
	})
	p := newPlugin(t, s)

	pod := func() *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop"}, Spec: corev1.PodSpec{
			PriorityClassName: "high", RuntimeClassName: ptr.To("gvisor"), Containers: []corev1.Container{{Name: "web", Image: "nginx"}},
		}}
	}
	inA := pod()
	if err := admitPod(p, a, inA); err != nil {
		t.Fatal(err)
	}
	if got := inA.Spec.ServiceAccountName; got != "default" {
		t.Errorf("service account %q, want default", got)
	}
	if got := inA.Spec.Priority; got == nil || *got != 1000 {
		t.Errorf("priority %v, want 1000", got)
	}
	if got := inA.Spec.Containers[0].Resources.Requests.Cpu().String(); got != "100m" {
		t.Errorf("cpu request %s, want the LimitRange's 100m", got)
	}
	if got := len(inA.Spec.Tolerations); got != 2 {
		t.Errorf("%d tolerations, want those of not-ready and unreachable nodes", got)
	}
	if got := inA.Spec.Overhead.Memory().String(); got != "64Mi" {
		t.Errorf("memory overhead %s, want the RuntimeClass's 64Mi", got)
	}
	if got := inA.Spec.NodeSelector["sandbox"]; got != "gvisor" {
		t.Errorf("node selector %v, want the RuntimeClass's sandbox=gvisor", inA.Spec.NodeSelector)
	}
	if err := admitPod(p, b, pod()); err == nil || err.Error() != `pods "web" is forbidden: no PriorityClass with name high was found` {
		t.Errorf("a pod of logical cluster b naming a's PriorityClass: %v", err)
	}
}

// BenchmarkLogicalClusterPlugins measures what a logical cluster's
// plugins cost once made, which the plugin keeps for the last
// maxClusters logical clusters admitted.
func BenchmarkLogicalClusterPlugins(b *testing.B) {
	p := newPlugin(b, openStores(b))
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := p.newChain(logicalcluster.Name("root:c" + string(rune('a'+i%26)))); err != nil {
			b.Fatal(err)
		}
	}
}

// TestJobKeepsSharedLabels shows that admission keeps a Job's labels the
// map of its template's labels, as defaulting makes them when the Job has
// none, so that upstream's strategy adds the selector's labels to both,
// as in kube-apiserver.
func TestJobKeepsSharedLabels(t *testing.T) {
	s := openStores(t)
	cluster := logicalcluster.Name("root:a")
	create(t, s.namespaces, cluster, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "shop"}})
	p := newPlugin(t, s)
	labels := map[string]string{"app": "web"}
	job := &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop", Labels: labels}, Spec: batchv1.JobSpec{
		Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels}, Spec: corev1.PodSpec{
			RestartPolicy: corev1.RestartPolicyNever, Containers: []corev1.Container{{Name: "web", Image: "nginx"}},
		}},
	}}
	ctx := logicalcluster.WithCluster(context.Background(), cluster)
	a := admission.NewAttributesRecord(job, nil, batchv1.SchemeGroupVersion.WithKind("Job"), job.Namespace, job.Name,
		batchv1.SchemeGroupVersion.WithResource("jobs"), "", admission.Create, &metav1.CreateOptions{}, false, &user.DefaultInfo{Name: "alice"})
	if err := p.Admit(ctx, a, nil); err != nil {
		t.Fatal(err)
	}
	job.Spec.Template.Labels["job-name"] = "web"
	if got := job.Labels["job-name"]; got != "web" {
		t.Errorf("after admission, the Job's labels are %v, no longer its template's labels %v", job.Labels, job.Spec.Template.Labels)
	}
}

// TestTemplateLimitRanges shows that a workload's pod template is given
// its logical cluster's LimitRange defaults, and refused past its bounds,
// as a pod of it would be, and that a namespace without LimitRanges
// costs no lookup (the plugin's loopback answers nothing).
func TestTemplateLimitRanges(t *testing.T) {
	s := openStores(t)
	a, b := logicalcluster.Name("root:a"), logicalcluster.Name("root:b")
	for _, cluster := range []logicalcluster.Name{a, b} {
		create(t, s.namespaces, cluster, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "shop"}})
	}
	create(t, s.limitRanges, a, &corev1.LimitRange{ObjectMeta: metav1.ObjectMeta{Name: "defaults", Namespace: "shop"}, Spec: corev1.LimitRangeSpec{
		Limits: []corev1.LimitRangeItem{{Type: corev1.LimitTypeContainer, DefaultRequest: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m")},
			Max: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")}}},
	}})
	p := newPlugin(t, s)
	admit := func(cluster logicalcluster.Name, d *appsv1.Deployment) error {
		ctx := logicalcluster.WithCluster(context.Background(), cluster)
		attrs := admission.NewAttributesRecord(d, nil, appsv1.SchemeGroupVersion.WithKind("Deployment"), d.Namespace, d.Name,
			appsv1.SchemeGroupVersion.WithResource("deployments"), "", admission.Create, &metav1.CreateOptions{}, false, &user.DefaultInfo{Name: "alice"})
		if err := p.Admit(ctx, attrs, nil); err != nil {
			return err
		}
		return p.Validate(ctx, attrs, nil)
	}
	deployment := func(limits corev1.ResourceList) *appsv1.Deployment {
		return &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop"}, Spec: appsv1.DeploymentSpec{
			Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx",
				Resources: corev1.ResourceRequirements{Limits: limits}}}}},
		}}
	}
	inA := deployment(nil)
	if err := admit(a, inA); err != nil {
		t.Fatal(err)
	}
	if got := inA.Spec.Template.Spec.Containers[0].Resources.Requests.Cpu().String(); got != "100m" {
		t.Errorf("the template's cpu request is %s, want the LimitRange's 100m", got)
	}
	if got := inA.Spec.Template.Annotations["kubernetes.io/limit-ranger"]; got != "LimitRanger plugin set: cpu request for container web; cpu limit for container web" {
		t.Errorf("the template's limit-ranger annotation is %q, want the request set and the limit, its max, as defaults", got)
	}
	want := `deployments.apps "web" is forbidden: maximum cpu usage per Container is 1, but limit is 2`
	if err := admit(a, deployment(corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("2")})); err == nil || err.Error() != want {
		t.Errorf("a template past the LimitRange's max: %v, want %q", err, want)
	}
	inB := deployment(nil)
	if err := admit(b, inB); err != nil {
		t.Fatal(err)
	}
	if got := inB.Spec.Template.Spec.Containers[0].Resources.Requests; len(got) != 0 {
		t.Errorf("in logical cluster b, without LimitRanges, the template requests %v", got)
	}
}
