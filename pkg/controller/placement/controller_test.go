package placement

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metainternalversion "k8s.io/apimachinery/pkg/apis/meta/internalversion"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"

	"github.com/canopy-dev/canopy/internal/coretest"
	"github.com/canopy-dev/canopy/internal/storepatch"
	placementv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/placement/v1alpha1"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/informer"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/registry/apps"
	"github.com/canopy-dev/canopy/pkg/registry/core"
	placementregistry "github.com/canopy-dev/canopy/pkg/registry/placement"
	"github.com/canopy-dev/canopy/pkg/registry/workload"
	"github.com/canopy-dev/canopy/pkg/shard"
)

// testHub is the stores placement reads and writes, over a real SQLite
// datastore, with the controllers running on them: one, owning every
// logical cluster, unless a test starts several, as replicas sharing the
// shards. Tests write in logical cluster root unless they say otherwise.
type testHub struct {
	t                                                *testing.T
	ctx                                              context.Context
	scheme                                           *runtime.Scheme
	placements, syncTargets, namespaces, deployments *genericregistry.Store
	configMaps, events, constraints                  *genericregistry.Store
	syncTargetStatus, placementStatus                rest.Updater
	resources                                        map[workloadv1alpha1.GroupResource]Resource
	// refusing has the controller's patches refused (storePatcher).
	refusing atomic.Bool
}

// startController is a hub with one controller owning every logical
// cluster.
func startController(t *testing.T) *testHub {
	h := newTestHub(t)
	h.run(shard.All{})
	return h
}

func newTestHub(t *testing.T) *testHub {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	groups, scheme := coretest.OpenGroups(t, []func(*runtime.Scheme) error{core.AddToScheme, apps.AddToScheme, workload.AddToScheme, placementregistry.AddToScheme},
		coretest.Core, apps.NewStorage, workload.NewStorage, placementregistry.NewStorage)
	stores := coretest.ByResource(groups)
	h := &testHub{
		t: t, ctx: ctx, scheme: scheme,
		placements: stores["placements"], syncTargets: stores["synctargets"], namespaces: stores["namespaces"], deployments: stores["deployments"],
		configMaps: stores["configmaps"], events: stores["events"], constraints: stores["placementconstraints"],
		syncTargetStatus: groups[2].Storage["synctargets/status"].(rest.Updater),
		placementStatus:  groups[3].Storage["placements/status"].(rest.Updater),
	}
	h.resources = map[workloadv1alpha1.GroupResource]Resource{
		{Group: "apps", Resource: "deployments"}: {Store: h.deployments, Version: "v1", Status: groups[1].Storage["deployments/status"].(rest.Updater)},
		{Resource: "configmaps"}:                 {Store: h.configMaps, Version: "v1"},
	}
	return h
}

// run runs a controller, with informers of its own, as a hub replica
// owning what ownership says does.
func (h *testHub) run(ownership shard.Ownership) {
	informers := informer.NewFactory()
	c := New(Config{
		Informers:       informers,
		Placements:      h.placements,
		PlacementStatus: h.placementStatus,
		Constraints:     h.constraints,
		SyncTargets:     h.syncTargets,
		Namespaces:      h.namespaces,
		Events:          h.events,
		Resources:       h.resources,
		Client:          storePatcher{resources: h.resources, refusing: &h.refusing},
		Ownership:       ownership,
	})
	ctx, cancel := context.WithCancel(h.ctx)
	informers.Start(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.Run(ctx)
	}()
	h.t.Cleanup(func() {
		cancel()
		<-done
	})
}

// storePatcher applies placement's merge patches to the stores of its
// resources, as the API would after admission, which the hub's e2e tests
// cover (TestControllerWritesThroughAdmission). While refusing is set, it
// refuses those of objects, as an admission policy may.
type storePatcher struct {
	resources map[workloadv1alpha1.GroupResource]Resource
	refusing  *atomic.Bool
}

// refusal is what storePatcher says when it refuses a patch.
const refusal = "ValidatingAdmissionPolicy 'no-eu' with binding 'no-eu' denied request: not in eu"

func (p storePatcher) Patch(ctx context.Context, resource schema.GroupVersionResource, _, name string, pt types.PatchType, data []byte,
	subresources ...string,
) error {
	if p.refusing.Load() && len(subresources) == 0 {
		return apierrors.NewForbidden(resource.GroupResource(), name, errors.New(refusal))
	}
	res := p.resources[workloadv1alpha1.GroupResource{Group: resource.Group, Resource: resource.Resource}]
	var updater rest.Updater = res.Store
	if len(subresources) > 0 {
		updater = res.Status
	}
	return storepatch.Apply(ctx, res.Store, updater, name, pt, data)
}

// euPlacement is Placement eu of resources, selecting the targets of
// region eu.
func euPlacement(resources ...workloadv1alpha1.GroupResource) *placementv1alpha1.Placement {
	return &placementv1alpha1.Placement{
		ObjectMeta: metav1.ObjectMeta{Name: "eu"},
		Spec: placementv1alpha1.PlacementSpec{
			Resources: resources,
			Targets:   placementv1alpha1.TargetSelection{TargetSelector: placementv1alpha1.TargetSelector{LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"region": "eu"}}}},
		},
	}
}

func (h *testHub) in(namespace string) context.Context {
	return h.at(logicalcluster.Root, namespace)
}

func (h *testHub) at(cluster logicalcluster.Name, namespace string) context.Context {
	return logicalcluster.WithCluster(genericapirequest.WithNamespace(h.ctx, namespace), cluster)
}

// create creates obj in root, with the defaults the API would give it.
func (h *testHub) create(store *genericregistry.Store, namespace string, obj runtime.Object) {
	h.t.Helper()
	h.createAt(logicalcluster.Root, store, namespace, obj)
}

// createAt creates obj in cluster, with the defaults the API would give
// it.
func (h *testHub) createAt(cluster logicalcluster.Name, store *genericregistry.Store, namespace string, obj runtime.Object) {
	h.t.Helper()
	h.scheme.Default(obj)
	if _, err := store.Create(h.at(cluster, namespace), obj, rest.ValidateAllObjectFunc, &metav1.CreateOptions{}); err != nil {
		h.t.Fatal(err)
	}
}

// syncTarget registers target name of root in region eu, ready or not
// ready for an hour.
func (h *testHub) syncTarget(name string, ready bool) {
	h.t.Helper()
	h.syncTargetAt(logicalcluster.Root, name, ready)
}

// syncTargetAt registers target name of cluster in region eu, ready or
// not ready for an hour.
func (h *testHub) syncTargetAt(cluster logicalcluster.Name, name string, ready bool) {
	h.t.Helper()
	st := &workloadv1alpha1.SyncTarget{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"region": "eu"}}}
	if _, err := h.syncTargets.Get(h.at(cluster, ""), name, &metav1.GetOptions{}); apierrors.IsNotFound(err) {
		h.createAt(cluster, h.syncTargets, "", st)
	}
	status := metav1.ConditionFalse
	if ready {
		status = metav1.ConditionTrue
	}
	h.retry("SyncTarget "+name, func() error {
		obj, err := h.syncTargets.Get(h.at(cluster, ""), name, &metav1.GetOptions{})
		if err != nil {
			return err
		}
		st := obj.(*workloadv1alpha1.SyncTarget)
		st.Status.LastHeartbeatTime = metav1.Now()
		st.Status.Conditions = []metav1.Condition{{Type: workloadv1alpha1.ConditionReady, Status: status, Reason: "Test",
			LastTransitionTime: metav1.NewTime(time.Now().Add(-time.Hour))}}
		_, _, err = h.syncTargetStatus.Update(h.at(cluster, ""), name, rest.DefaultUpdatedObjectInfo(st), rest.ValidateAllObjectFunc,
			rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{})
		return err
	})
}

// retry does update until it succeeds, failing the test after a while.
func (h *testHub) retry(what string, update func() error) {
	h.t.Helper()
	var err error
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if err = update(); err == nil {
			return
		}
	}
	h.t.Fatalf("updating %s: %v", what, err)
}

// createDeployment creates Deployment name of replicas in namespace app
// of root.
func (h *testHub) createDeployment(name string, replicas int32) {
	h.t.Helper()
	h.createDeploymentAt(logicalcluster.Root, name, replicas)
}

// createDeploymentAt creates Deployment name of replicas in namespace app
// of cluster.
func (h *testHub) createDeploymentAt(cluster logicalcluster.Name, name string, replicas int32) {
	h.t.Helper()
	h.createAt(cluster, h.deployments, "app", &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": name}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": name}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx:1.27"}}},
			},
		},
	})
}

func (h *testHub) deployment(name string) *appsv1.Deployment {
	h.t.Helper()
	obj, err := h.deployments.Get(h.in("app"), name, &metav1.GetOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	return obj.(*appsv1.Deployment)
}

// report makes the object look as the syncer of target key makes it
// when its copy runs replicas, all available.
func (h *testHub) report(name, key string, replicas int32) {
	h.retry("Deployment "+name, func() error {
		d := h.deployment(name)
		d.Finalizers = append(d.Finalizers, workloadv1alpha1.FinalizerPrefix+key)
		d.Annotations[workloadv1alpha1.StatusAnnotation(key)] = fmt.Sprintf(
			`{"observedGeneration":%d,"replicas":%d,"availableReplicas":%d,"conditions":[{"type":"Available","status":"True"}]}`, d.Generation, replicas, replicas)
		_, _, err := h.deployments.Update(h.in("app"), name, rest.DefaultUpdatedObjectInfo(d), rest.ValidateAllObjectFunc,
			rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{})
		return err
	})
}

// shares are the targets name is assigned to, by key, with the replicas
// annotation of each ("" for none), and its LeavingAnnotation.
func (h *testHub) shares(name string) (map[string]string, string) {
	h.t.Helper()
	d := h.deployment(name)
	out := map[string]string{}
	for _, key := range workloadv1alpha1.Targets(d.Labels) {
		out[key] = d.Annotations[workloadv1alpha1.ReplicasAnnotation(key)]
	}
	return out, d.Annotations[workloadv1alpha1.LeavingAnnotation]
}

// waitShares waits until name is assigned as want says, leaving the
// targets of leaving.
func (h *testHub) waitShares(name string, want map[string]string, leaving string) {
	h.t.Helper()
	var got map[string]string
	var gotLeaving string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if got, gotLeaving = h.shares(name); fmt.Sprint(got) == fmt.Sprint(want) && gotLeaving == leaving {
			return
		}
	}
	h.t.Fatalf("%s assigned %v, leaving %q; want %v, leaving %q", name, got, gotLeaving, want, leaving)
}

// A placement deleted while it moves an object off a failed target does
// not leave the object on both targets: the move goes on, make-before-
// break, and the object ends on the target it moved to, with all its
// replicas.
func TestMoveOutlivesItsPlacement(t *testing.T) {
	h := startController(t)
	a, b := h.twoTargets()
	eu := dividing()
	eu.Spec.Failover = placementv1alpha1.Failover{GracePeriod: &metav1.Duration{Duration: time.Minute}}
	h.create(h.placements, "", eu)
	h.createDeployment("web", 6)
	h.waitShares("web", map[string]string{a: "3", b: "3"}, "")
	h.report("web", a, 3)
	h.report("web", b, 3)

	// a has been NotReady for an hour, past the grace period: its share
	// goes to b, and a stays until b runs all 6.
	h.syncTarget("a", false)
	h.waitShares("web", map[string]string{a: "3", b: ""}, a)

	if _, _, err := h.placements.Delete(h.in(""), "eu", rest.ValidateAllObjectFunc, &metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	// Nothing is released before b runs them all.
	time.Sleep(time.Second)
	if got, leaving := h.shares("web"); fmt.Sprint(got) != fmt.Sprint(map[string]string{a: "3", b: ""}) || leaving != a {
		t.Fatalf("web assigned %v, leaving %q, once its placement is gone and before b runs all its replicas", got, leaving)
	}
	h.report("web", b, 6)
	h.waitShares("web", map[string]string{b: ""}, "")
	if placed := h.deployment("web").Annotations[workloadv1alpha1.PlacedAnnotation]; placed != b {
		t.Errorf("web's placed annotation %q, want %q", placed, b)
	}
}

// An object a placement selects but can put on no target says so: a
// Deployment with the Placed condition False and a Warning Event, a
// ConfigMap, whose kind has no status, with the Event alone; each Event
// once, however often the object is placed again for the same reasons.
// Once a target can take them, the condition goes.
//
// The targets are there before the controller starts, so that it places
// the objects knowing them: the informers of SyncTargets and of the
// objects deliver independently, and on a busy machine the objects may
// come first and be reported, rightly for what the controller then knows,
// unplaceable for want of targets, and again once they arrive, each
// verdict with its own Event.
func TestUnplaceableSaysSo(t *testing.T) {
	h := newTestHub(t)
	h.syncTarget("a", false)
	h.syncTarget("b", false)
	h.run(shard.All{})
	h.create(h.namespaces, "", &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "app"}})
	eu := euPlacement(workloadv1alpha1.GroupResource{Group: "apps", Resource: "deployments"}, workloadv1alpha1.GroupResource{Resource: "configmaps"})
	eu.Spec.Failover = placementv1alpha1.Failover{GracePeriod: &metav1.Duration{Duration: time.Minute}}
	h.create(h.placements, "", eu)
	h.createDeployment("web", 2)
	h.create(h.configMaps, "app", &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "web-config"}})

	placed := func() *appsv1.DeploymentCondition {
		for _, c := range h.deployment("web").Status.Conditions {
			if c.Type == ConditionPlaced {
				return &c
			}
		}
		return nil
	}
	h.wait("web's Placed condition False, NotReady", func() bool {
		c := placed()
		return c != nil && c.Status == corev1.ConditionFalse && c.Reason == "NotReady"
	})
	if c := placed(); !strings.Contains(c.Message, "Placement root:eu selects it, but no SyncTarget can take it") || !strings.Contains(c.Message, "root/a, root/b") {
		t.Errorf("web's Placed condition says %q, want the placement and both targets", c.Message)
	}
	h.wait("an Unplaceable Event of web and of web-config", func() bool {
		return len(h.unplaceableEvents("Deployment", "web")) == 1 && len(h.unplaceableEvents("ConfigMap", "web-config")) == 1
	})
	// Placing them again for the same reasons records nothing more.
	h.retry("Deployment web", func() error {
		d := h.deployment("web")
		d.Labels = map[string]string{"touched": "yes"}
		_, _, err := h.deployments.Update(h.in("app"), "web", rest.DefaultUpdatedObjectInfo(d), rest.ValidateAllObjectFunc,
			rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{})
		return err
	})
	time.Sleep(time.Second)
	if n := len(h.unplaceableEvents("Deployment", "web")); n != 1 {
		t.Errorf("%d Unplaceable Events of web after it was placed again for the same reasons, want 1", n)
	}

	// Once a target is Ready the object goes there, and the condition goes.
	h.syncTarget("a", true)
	h.waitShares("web", map[string]string{workloadv1alpha1.TargetKey("root", "a"): ""}, "")
	h.wait("web's Placed condition gone", func() bool { return placed() == nil })
	if n := len(h.unplaceableEvents("Deployment", "web")); n != 1 {
		t.Errorf("%d Unplaceable Events of web once placed, want 1", n)
	}
}

// wait polls cond until it holds, failing the test after a while.
func (h *testHub) wait(what string, cond func() bool) {
	h.t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			h.t.Fatalf("%s: not within 10s", what)
		}
	}
}

// unplaceableEvents are the messages of the Unplaceable Events of the
// object of kind and name in namespace app.
func (h *testHub) unplaceableEvents(kind, name string) []string {
	h.t.Helper()
	return h.warnings(ReasonUnplaceable, kind, name)
}

// warnings are the messages of the Warning Events of reason on object
// name of kind, in namespace app.
func (h *testHub) warnings(reason, kind, name string) []string {
	h.t.Helper()
	list, err := h.events.List(h.in("app"), &metainternalversion.ListOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	var out []string
	for _, e := range list.(*corev1.EventList).Items {
		if e.Reason == reason && e.InvolvedObject.Kind == kind && e.InvolvedObject.Name == name && e.Type == corev1.EventTypeWarning {
			out = append(out, e.Message)
		}
	}
	return out
}

// An assignment the hub refuses, as an admission policy may, is not
// written, and the object says why in one Warning Event however often
// placement tries again; once the hub no longer refuses it, a retry after
// the backoff writes it.
func TestRefusedAssignmentSaysSo(t *testing.T) {
	h := startController(t)
	h.refusing.Store(true)
	a := workloadv1alpha1.TargetKey("root", "a")
	h.syncTarget("a", true)
	h.create(h.namespaces, "", &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "app"}})
	h.create(h.placements, "", euPlacement(workloadv1alpha1.GroupResource{Group: "apps", Resource: "deployments"}))
	h.createDeployment("web", 2)
	h.wait("an AssignmentRefused Event of web", func() bool { return len(h.warnings(ReasonAssignmentRefused, "Deployment", "web")) > 0 })
	// Tried again meanwhile, after 1s and 2s, it is refused for the same
	// reason, which is told once.
	time.Sleep(3500 * time.Millisecond)
	refused := h.warnings(ReasonAssignmentRefused, "Deployment", "web")
	want := "The hub refused placement's assignment of it to SyncTargets [" + a + "]: deployments.apps \"web\" is forbidden: " + refusal
	if len(refused) != 1 || refused[0] != want {
		t.Errorf("AssignmentRefused Events %q, want one saying %q", refused, want)
	}
	if shares, _ := h.shares("web"); len(shares) != 0 {
		t.Errorf("web is assigned %v despite the refusal", shares)
	}
	h.refusing.Store(false)
	h.waitShares("web", map[string]string{a: ""}, "")
}

// A placement made after the objects it selects places them: its change
// places again every object of its logical cluster, in every namespace.
func TestPlacementAfterItsObjects(t *testing.T) {
	h := startController(t)
	a, b := h.twoTargets()
	h.createDeployment("web", 6)
	h.create(h.placements, "", dividing())
	h.waitShares("web", map[string]string{a: "3", b: "3"}, "")
}

// twoTargets registers SyncTargets a and b in root, both Ready, and
// namespace app, and returns the targets' keys.
func (h *testHub) twoTargets() (a, b string) {
	h.syncTarget("a", true)
	h.syncTarget("b", true)
	h.create(h.namespaces, "", &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "app"}})
	return workloadv1alpha1.TargetKey("root", "a"), workloadv1alpha1.TargetKey("root", "b")
}

// dividing is placement eu of Deployments, dividing their replicas among
// its targets.
func dividing() *placementv1alpha1.Placement {
	eu := euPlacement(workloadv1alpha1.GroupResource{Group: "apps", Resource: "deployments"})
	eu.Spec.Strategy = placementv1alpha1.Strategy{Type: placementv1alpha1.StrategyDivide}
	return eu
}
