package statusaggregation

import (
	"context"
	"sync"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"

	"github.com/canopy-dev/canopy/internal/coretest"
	"github.com/canopy-dev/canopy/internal/storepatch"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/informer"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/registry/apps"
	"github.com/canopy-dev/canopy/pkg/registry/workload"
	"github.com/canopy-dev/canopy/pkg/shard"
)

// testHub is the stores status aggregation reads and writes, over a real
// SQLite datastore, and the controller over them, whose informers run
// but whose loops do not: a test calls process itself, and so knows what
// one pass did. Objects live in namespace app of logical cluster root.
type testHub struct {
	t                *testing.T
	ctx              context.Context
	scheme           *runtime.Scheme
	deployments      *genericregistry.Store
	deploymentStatus rest.Updater
	controller       *Controller
	resource         Resource
	informer         *informer.Informer
	patcher          *racingPatcher
	// k1 and k2 are the keys of SyncTargets pc1 and pc2.
	k1, k2 string
}

// racingPatcher applies the controller's patches to the stores, as the
// API does after admission (storepatch). Before it applies the next one,
// it runs race, if set, once: a write made between the controller's read
// and its write. It keeps the answer to each patch.
type racingPatcher struct {
	store   *genericregistry.Store
	status  rest.Updater
	race    func()
	mu      sync.Mutex
	answers []error
}

func (p *racingPatcher) Patch(ctx context.Context, _ schema.GroupVersionResource, _, name string, pt types.PatchType, data []byte, _ ...string) error {
	if race := p.race; race != nil {
		p.race = nil
		race()
	}
	err := storepatch.Apply(ctx, p.store, p.status, name, pt, data)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.answers = append(p.answers, err)
	return err
}

// writes is how many patches were answered.
func (p *racingPatcher) writes() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.answers)
}

// startController makes the stores, with two Ready SyncTargets, and the
// controller, once it has listed them.
func startController(t *testing.T) *testHub {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	groups, scheme := coretest.OpenGroups(t, []func(*runtime.Scheme) error{apps.AddToScheme, workload.AddToScheme}, apps.NewStorage, workload.NewStorage)
	h := &testHub{t: t, ctx: ctx, scheme: scheme, deploymentStatus: groups[0].Storage["deployments/status"].(rest.Updater)}
	stores := coretest.ByResource(groups)
	h.deployments = stores["deployments"]
	for _, name := range []string{"pc1", "pc2"} {
		h.create(stores["synctargets"], &workloadv1alpha1.SyncTarget{ObjectMeta: metav1.ObjectMeta{Name: name}})
		h.update(groups[1].Storage["synctargets/status"].(rest.Updater), "", name, func(obj runtime.Object) {
			obj.(*workloadv1alpha1.SyncTarget).Status.Conditions = []metav1.Condition{{Type: workloadv1alpha1.ConditionReady,
				Status: metav1.ConditionTrue, Reason: "Heartbeat", LastTransitionTime: metav1.NewTime(time.Now().Add(-time.Hour))}}
		})
	}
	h.k1, h.k2 = workloadv1alpha1.TargetKey("root", "pc1"), workloadv1alpha1.TargetKey("root", "pc2")

	informers := informer.NewFactory()
	h.patcher = &racingPatcher{store: h.deployments, status: h.deploymentStatus}
	h.resource = Resource{Store: h.deployments, Resource: schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}}
	h.controller = New(stores["synctargets"], stores["statusreports"], map[string]Resource{"deployments": h.resource}, h.patcher, informers, shard.All{})
	h.informer = informers.For(h.deployments)
	informers.Start(ctx)
	h.waitFor("the SyncTargets listed", h.controller.targetsListed)
	return h
}

func (h *testHub) in(namespace string) context.Context {
	return logicalcluster.WithCluster(genericapirequest.WithNamespace(h.ctx, namespace), logicalcluster.Root)
}

// create creates obj in namespace app, or in none if it is a
// SyncTarget, with the defaults the API would give it.
func (h *testHub) create(store *genericregistry.Store, obj runtime.Object) {
	h.t.Helper()
	ns := "app"
	if _, ok := obj.(*workloadv1alpha1.SyncTarget); ok {
		ns = ""
	}
	h.scheme.Default(obj)
	if _, err := store.Create(h.in(ns), obj, rest.ValidateAllObjectFunc, &metav1.CreateOptions{}); err != nil {
		h.t.Fatal(err)
	}
}

// update changes the object name of namespace ns through updater.
func (h *testHub) update(updater rest.Updater, ns, name string, change func(obj runtime.Object)) {
	h.t.Helper()
	info := rest.DefaultUpdatedObjectInfo(nil, func(_ context.Context, _, old runtime.Object) (runtime.Object, error) {
		obj := old.DeepCopyObject()
		change(obj)
		return obj, nil
	})
	if _, _, err := updater.Update(h.in(ns), name, info, rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{}); err != nil {
		h.t.Fatal(err)
	}
}

// createShared creates Deployment name, assigned to both targets, one
// replica to pc1 and two to pc2, as both their syncers of an earlier
// release report in its annotations, and waits until the informer holds
// it.
func (h *testHub) createShared(name string) {
	h.t.Helper()
	h.create(h.deployments, &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{
			Name: name,
			Labels: map[string]string{
				workloadv1alpha1.StateLabel(h.k1): workloadv1alpha1.StateSync, workloadv1alpha1.StateLabel(h.k2): workloadv1alpha1.StateSync,
			},
			Annotations: map[string]string{
				workloadv1alpha1.ReplicasAnnotation(h.k1): "1", workloadv1alpha1.ReplicasAnnotation(h.k2): "2",
				workloadv1alpha1.StatusAnnotation(h.k1): report(1), workloadv1alpha1.StatusAnnotation(h.k2): report(2),
			},
		},
		Spec: appsv1.DeploymentSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": name}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": name}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx:1.27"}}},
			},
		},
	})
	h.synced(name)
}

func (h *testHub) deployment(name string) *appsv1.Deployment {
	h.t.Helper()
	obj, err := h.deployments.Get(h.in("app"), name, &metav1.GetOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	return obj.(*appsv1.Deployment)
}

// synced waits until the informer holds Deployment name as stored.
func (h *testHub) synced(name string) {
	h.t.Helper()
	rv := h.deployment(name).ResourceVersion
	h.waitFor("the informer to hold "+name+" at "+rv, func() bool {
		obj, ok := h.informer.Get(logicalcluster.Root, "app", name)
		return ok && obj.(*appsv1.Deployment).ResourceVersion == rv
	})
}

func (h *testHub) waitFor(what string, done func() bool) {
	h.t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !done(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			h.t.Fatalf("waiting for %s", what)
		}
	}
}

// process runs one pass of the controller over Deployment name.
func (h *testHub) process(name string) error {
	return h.controller.process(h.ctx, h.resource, h.informer, key{logicalcluster.Root, "app", name})
}

// TestWriteLandsOnUnrelatedChanges checks that status aggregation's
// write, of three replicas, lands at once, keeping the change, on an
// object changed since it was read in what aggregation does not read:
// placement's annotations of a rollout and the spec. A status written
// meanwhile, or a target's new report, fails the write instead, and the
// pass ends without error, leaving the next try to the change's event
// and not a backoff; the next pass, from the object as changed, lands.
func TestWriteLandsOnUnrelatedChanges(t *testing.T) {
	h := startController(t)

	h.createShared("web")
	h.patcher.race = func() {
		h.update(h.deployments, "app", "web", func(obj runtime.Object) {
			d := obj.(*appsv1.Deployment)
			d.Annotations[workloadv1alpha1.RolloutAnnotation] = `{"to":"2"}`
			d.Spec.Template.Spec.Containers[0].Image = "nginx:1.28"
		})
	}
	if err := h.process("web"); err != nil {
		t.Fatal(err)
	}
	d := h.deployment("web")
	if len(h.patcher.answers) != 1 || h.patcher.answers[0] != nil {
		t.Errorf("the write after placement's and a user's: answered %v, want it to land at once", h.patcher.answers)
	}
	if d.Status.Replicas != 3 || d.Annotations[workloadv1alpha1.RolloutAnnotation] != `{"to":"2"}` || d.Spec.Template.Spec.Containers[0].Image != "nginx:1.28" {
		t.Errorf("after the write: replicas %d, annotations %v, image %s; want 3 and both changes kept",
			d.Status.Replicas, d.Annotations, d.Spec.Template.Spec.Containers[0].Image)
	}

	for _, tc := range []struct {
		name, what string
		race       func(name string)
		want       int32
	}{
		{"status", "a status written meanwhile", func(name string) {
			h.update(h.deploymentStatus, "app", name, func(obj runtime.Object) { obj.(*appsv1.Deployment).Status.Replicas = 9 })
		}, 3},
		{"report", "a target's report", func(name string) {
			h.update(h.deployments, "app", name, func(obj runtime.Object) {
				obj.(*appsv1.Deployment).Annotations[workloadv1alpha1.StatusAnnotation(h.k2)] = report(4)
			})
		}, 5},
	} {
		h.createShared(tc.name)
		h.patcher.answers = nil
		h.patcher.race = func() { tc.race(tc.name) }
		if err := h.process(tc.name); err != nil {
			t.Errorf("the pass that met %s: %v, want it left to the change's event", tc.what, err)
		}
		if len(h.patcher.answers) != 1 || !apierrors.IsInvalid(h.patcher.answers[0]) {
			t.Errorf("the write after %s: answered %v, want the API's 422", tc.what, h.patcher.answers)
		}
		if got := h.deployment(tc.name).Status.Replicas; got == 3 {
			t.Errorf("the write after %s landed the status aggregated before it", tc.what)
		}
		h.synced(tc.name)
		if err := h.process(tc.name); err != nil {
			t.Fatal(err)
		}
		if got := h.deployment(tc.name).Status.Replicas; got != tc.want {
			t.Errorf("the pass after %s: replicas %d, want %d", tc.what, got, tc.want)
		}
	}
}

// TestBurstOfReportsOneWrite checks that reports of an object's targets
// that come together cost one write of its status, not one each: the
// controller, running, meets five reports within far less than its
// delay and writes the status of the last once.
func TestBurstOfReportsOneWrite(t *testing.T) {
	h := startController(t)
	ctx, cancel := context.WithCancel(h.ctx)
	defer cancel()
	go h.controller.Run(ctx)

	h.createShared("web")
	h.waitFor("the first aggregated status", func() bool { return h.deployment("web").Status.Replicas == 3 })
	before := h.patcher.writes()
	start := time.Now()
	for replicas := int32(3); replicas <= 7; replicas++ {
		h.update(h.deployments, "app", "web", func(obj runtime.Object) {
			obj.(*appsv1.Deployment).Annotations[workloadv1alpha1.StatusAnnotation(h.k2)] = report(replicas)
		})
	}
	if took := time.Since(start); took > delay/2 {
		t.Skipf("the five reports took %s, not within half the delay (%s): too slow a machine to tell", took, delay)
	}
	h.waitFor("the status of the last report", func() bool { return h.deployment("web").Status.Replicas == 8 })
	time.Sleep(2 * delay)
	if got := h.patcher.writes() - before; got != 1 {
		t.Errorf("five reports together cost %d writes of the status, want 1: %v", got, h.patcher.answers[before:])
	}
}

// TestSameStatusNoWrite checks that a pass over an object whose status is
// already the aggregate writes nothing, though the aggregate leaves out
// fields the object's type carries, as a condition's lastUpdateTime.
func TestSameStatusNoWrite(t *testing.T) {
	h := startController(t)
	h.createShared("web")
	if err := h.process("web"); err != nil {
		t.Fatal(err)
	}
	h.synced("web")
	if err := h.process("web"); err != nil {
		t.Fatal(err)
	}
	if got := h.patcher.writes(); got != 1 {
		t.Errorf("two passes over an unchanged object wrote %d times, want 1: %v", got, h.patcher.answers)
	}
}
