package garbagecollector

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"

	"github.com/canopy-dev/canopy/internal/coretest"
	"github.com/canopy-dev/canopy/internal/storepatch"
	"github.com/canopy-dev/canopy/pkg/informer"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// hub is the core stores over a real SQLite datastore, with a running
// collector.
type hub struct {
	t          *testing.T
	ctx        context.Context
	stores     map[string]*genericregistry.Store
	namespaces rest.GracefulDeleter
}

func start(t *testing.T) *hub {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	group, scheme := coretest.Open(t)
	stores := group.Stores
	namespaces := group.Storage["namespaces"].(rest.GracefulDeleter)
	informers := informer.NewFactory()
	c, err := New(Config{
		Stores:    stores,
		Typer:     scheme,
		Client:    storeClient{stores: stores, namespaces: namespaces},
		Informers: informers,
	})
	if err != nil {
		t.Fatal(err)
	}
	informers.Start(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.Run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	h := &hub{t: t, ctx: ctx, stores: map[string]*genericregistry.Store{}, namespaces: namespaces}
	for _, s := range stores {
		h.stores[s.DefaultQualifiedResource.Resource] = s
	}
	return h
}

// storeClient deletes and patches through the stores, and deletes
// namespaces through their API storage, as the API would after admission,
// which the hub's e2e tests cover (TestGarbageCollection).
type storeClient struct {
	stores     []*genericregistry.Store
	namespaces rest.GracefulDeleter
}

func (c storeClient) store(gr schema.GroupResource) (*genericregistry.Store, error) {
	i := slices.IndexFunc(c.stores, func(s *genericregistry.Store) bool { return s.DefaultQualifiedResource == gr })
	if i < 0 {
		return nil, fmt.Errorf("no store of %s", gr)
	}
	return c.stores[i], nil
}

func (c storeClient) Delete(ctx context.Context, resource schema.GroupVersionResource, _, name string, opts metav1.DeleteOptions) error {
	var deleter rest.GracefulDeleter = c.namespaces
	if gr := resource.GroupResource(); gr != corev1.Resource("namespaces") {
		s, err := c.store(gr)
		if err != nil {
			return err
		}
		deleter = s
	}
	_, _, err := deleter.Delete(ctx, name, rest.ValidateAllObjectFunc, &opts)
	return err
}

func (c storeClient) Patch(ctx context.Context, resource schema.GroupVersionResource, _, name string, pt types.PatchType, data []byte,
	_ ...string,
) error {
	s, err := c.store(resource.GroupResource())
	if err != nil {
		return err
	}
	return storepatch.Apply(ctx, s, s, name, pt, data)
}

// ref is an ownerReference to the ConfigMap cm.
func ref(cm *corev1.ConfigMap, block bool) metav1.OwnerReference {
	return metav1.OwnerReference{APIVersion: "v1", Kind: "ConfigMap", Name: cm.Name, UID: cm.UID, BlockOwnerDeletion: &block}
}

func (h *hub) configMap(cluster logicalcluster.Name, name string, finalizers []string, owners ...metav1.OwnerReference) *corev1.ConfigMap {
	h.t.Helper()
	obj, err := h.stores["configmaps"].Create(in(h.ctx, cluster, "default"), &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", OwnerReferences: owners, Finalizers: finalizers},
	}, rest.ValidateAllObjectFunc, &metav1.CreateOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	return obj.(*corev1.ConfigMap)
}

// get is the ConfigMap name of cluster, nil once it is gone.
func (h *hub) get(cluster logicalcluster.Name, name string) *corev1.ConfigMap {
	h.t.Helper()
	obj, err := h.stores["configmaps"].Get(in(h.ctx, cluster, "default"), name, &metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		h.t.Fatal(err)
	}
	return obj.(*corev1.ConfigMap)
}

func (h *hub) delete(cluster logicalcluster.Name, name string, policy metav1.DeletionPropagation) {
	h.t.Helper()
	if _, _, err := h.stores["configmaps"].Delete(in(h.ctx, cluster, "default"), name, rest.ValidateAllObjectFunc,
		&metav1.DeleteOptions{PropagationPolicy: &policy}); err != nil {
		h.t.Fatal(err)
	}
}

func (h *hub) setFinalizers(cluster logicalcluster.Name, name string, finalizers ...string) {
	h.t.Helper()
	cm := h.get(cluster, name)
	cm.Finalizers = finalizers
	if _, _, err := h.stores["configmaps"].Update(in(h.ctx, cluster, "default"), name, rest.DefaultUpdatedObjectInfo(cm),
		rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{}); err != nil {
		h.t.Fatal(err)
	}
}

// eventually waits until ok holds.
func (h *hub) eventually(what string, ok func() bool) {
	h.t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !ok(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			h.t.Fatalf("after 10s, still not %s", what)
		}
	}
}

// settle waits until the collector has caught up with what was written
// so far: it collects a fresh ConfigMap whose owner never existed.
func (h *hub) settle(cluster logicalcluster.Name) {
	h.t.Helper()
	h.configMap(cluster, "marker", nil, metav1.OwnerReference{APIVersion: "v1", Kind: "ConfigMap", Name: "never", UID: "never"})
	h.eventually("collected the marker", func() bool { return h.get(cluster, "marker") == nil })
}

func TestBackground(t *testing.T) {
	h := start(t)
	owner := h.configMap("root", "owner", nil)
	dependent := h.configMap("root", "dependent", nil, ref(owner, false))
	// A dependent in another store.
	if _, err := h.stores["secrets"].Create(in(h.ctx, "root", "default"), &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: "dependent", Namespace: "default", OwnerReferences: []metav1.OwnerReference{ref(owner, false)}},
	}, rest.ValidateAllObjectFunc, &metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	h.settle("root")
	if h.get("root", dependent.Name) == nil {
		t.Fatal("a dependent whose owner exists was collected")
	}
	h.delete("root", owner.Name, metav1.DeletePropagationBackground)
	h.eventually("collected the dependent ConfigMap", func() bool { return h.get("root", dependent.Name) == nil })
	h.eventually("collected the dependent Secret", func() bool {
		_, err := h.stores["secrets"].Get(in(h.ctx, "root", "default"), "dependent", &metav1.GetOptions{})
		return apierrors.IsNotFound(err)
	})
}

func TestOrphan(t *testing.T) {
	h := start(t)
	owner := h.configMap("root", "owner", nil)
	h.configMap("root", "dependent", nil, ref(owner, true))
	h.settle("root")
	h.delete("root", owner.Name, metav1.DeletePropagationOrphan)
	h.eventually("deleted the orphaning owner", func() bool { return h.get("root", owner.Name) == nil })
	d := h.get("root", "dependent")
	if d == nil || len(d.OwnerReferences) != 0 {
		t.Fatalf("the orphan is %v; want it kept without ownerReferences", d)
	}
}

func TestForeground(t *testing.T) {
	h := start(t)
	owner := h.configMap("root", "owner", nil)
	// Held by someone else's finalizer, blocking its owner.
	h.configMap("root", "blocking", []string{"example.com/hold"}, ref(owner, true))
	h.configMap("root", "free", nil, ref(owner, false))
	h.settle("root")
	h.delete("root", owner.Name, metav1.DeletePropagationForeground)
	h.eventually("deleted the blocking dependent", func() bool { return h.get("root", "blocking").DeletionTimestamp != nil })
	h.eventually("collected the non-blocking dependent", func() bool { return h.get("root", "free") == nil })
	h.settle("root")
	o := h.get("root", owner.Name)
	if o == nil || o.DeletionTimestamp == nil || !slices.Contains(o.Finalizers, metav1.FinalizerDeleteDependents) {
		t.Fatalf("the owner is %v; want it waiting for its blocking dependent", o)
	}
	h.setFinalizers("root", "blocking")
	h.eventually("deleted the owner once its dependents are gone", func() bool { return h.get("root", owner.Name) == nil })
}

// A foreground deletion goes down a chain of owners: each dependent that
// owns others is deleted in the foreground in turn.
func TestForegroundChain(t *testing.T) {
	h := start(t)
	top := h.configMap("root", "top", nil)
	middle := h.configMap("root", "middle", nil, ref(top, true))
	h.configMap("root", "bottom", []string{"example.com/hold"}, ref(middle, true))
	h.settle("root")
	h.delete("root", top.Name, metav1.DeletePropagationForeground)
	h.eventually("deleted the bottom of the chain", func() bool { return h.get("root", "bottom").DeletionTimestamp != nil })
	h.settle("root")
	if m := h.get("root", "middle"); m == nil || !slices.Contains(m.Finalizers, metav1.FinalizerDeleteDependents) {
		t.Fatalf("the middle of the chain is %v; want it deleted in the foreground, waiting for the bottom", m)
	}
	h.setFinalizers("root", "bottom")
	h.eventually("deleted the whole chain", func() bool { return h.get("root", "middle") == nil && h.get("root", "top") == nil })
}

func TestSelfOwned(t *testing.T) {
	h := start(t)
	self := h.configMap("root", "self", nil)
	self.OwnerReferences = []metav1.OwnerReference{ref(self, true)}
	if _, _, err := h.stores["configmaps"].Update(in(h.ctx, "root", "default"), self.Name, rest.DefaultUpdatedObjectInfo(self),
		rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	h.settle("root")
	if h.get("root", self.Name) == nil {
		t.Fatal("an object owning itself was collected")
	}
	h.delete("root", self.Name, metav1.DeletePropagationForeground)
	h.eventually("deleted the object owning itself in the foreground", func() bool { return h.get("root", self.Name) == nil })
}

func TestSeveralOwners(t *testing.T) {
	h := start(t)
	a := h.configMap("root", "a", nil)
	b := h.configMap("root", "b", nil)
	h.configMap("root", "dependent", nil, ref(a, false), ref(b, false))
	h.delete("root", "a", metav1.DeletePropagationBackground)
	h.eventually("stripped the reference to the deleted owner", func() bool {
		d := h.get("root", "dependent")
		return d != nil && len(d.OwnerReferences) == 1 && d.OwnerReferences[0].UID == b.UID
	})
	h.delete("root", "b", metav1.DeletePropagationBackground)
	h.eventually("collected the dependent of no owner", func() bool { return h.get("root", "dependent") == nil })
}

// An ownerReference means an owner in its dependent's own logical cluster
// and nowhere else.
func TestLogicalClustersAreIsolated(t *testing.T) {
	h := start(t)
	ownerA := h.configMap("root:a", "owner", nil)
	h.configMap("root:a", "dependent", nil, ref(ownerA, false))
	ownerB := h.configMap("root:b", "owner", nil)
	h.configMap("root:b", "dependent", nil, ref(ownerB, false))
	// Named by root:a's owner, which root:b does not hold: no owner.
	h.configMap("root:b", "stray", nil, ref(ownerA, false))
	h.eventually("collected the object of root:b owned from root:a", func() bool { return h.get("root:b", "stray") == nil })

	h.delete("root:a", ownerA.Name, metav1.DeletePropagationBackground)
	h.eventually("collected the dependent in root:a", func() bool { return h.get("root:a", "dependent") == nil })
	h.settle("root:b")
	for _, name := range []string{"owner", "dependent"} {
		if h.get("root:b", name) == nil {
			t.Errorf("configmap %s of root:b went with root:a's owner", name)
		}
	}
}

// References the collector can never resolve leave the object alone.
func TestInvalidReferences(t *testing.T) {
	h := start(t)
	owner := h.configMap("root", "owner", nil)
	h.configMap("root", "unknown-kind", nil, metav1.OwnerReference{APIVersion: "example.com/v1", Kind: "Widget", Name: "w", UID: "w"})
	// A cluster-scoped object cannot be owned by a namespaced one.
	if _, err := h.stores["namespaces"].Create(in(h.ctx, "root", ""), &corev1.Namespace{
		ObjectMeta: metav1.ObjectMeta{Name: "owned", OwnerReferences: []metav1.OwnerReference{ref(owner, false)}},
	}, rest.ValidateAllObjectFunc, &metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	h.delete("root", owner.Name, metav1.DeletePropagationBackground)
	h.settle("root")
	if h.get("root", "unknown-kind") == nil {
		t.Error("an object owned by a kind the hub does not serve was collected")
	}
	if _, err := h.stores["namespaces"].Get(in(h.ctx, "root", ""), "owned", &metav1.GetOptions{}); err != nil {
		t.Errorf("a namespace naming a namespaced owner: %v; want it left alone", err)
	}
}

// Namespaces are deleted as the API deletes them, and keep the
// finalizers a deletion's propagationPolicy asks for while Terminating.
func TestNamespaces(t *testing.T) {
	h := start(t)
	namespace := func(name string, owners ...metav1.OwnerReference) *corev1.Namespace {
		t.Helper()
		obj, err := h.stores["namespaces"].Create(in(h.ctx, "root", ""), &corev1.Namespace{
			ObjectMeta: metav1.ObjectMeta{Name: name, OwnerReferences: owners},
		}, rest.ValidateAllObjectFunc, &metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return obj.(*corev1.Namespace)
	}
	get := func(name string) *corev1.Namespace {
		t.Helper()
		obj, err := h.stores["namespaces"].Get(in(h.ctx, "root", ""), name, &metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return obj.(*corev1.Namespace)
	}
	owner := namespace("owner")
	namespace("orphan", metav1.OwnerReference{APIVersion: "v1", Kind: "Namespace", Name: owner.Name, UID: owner.UID})
	// Its owner never existed: it is collected, which only marks it
	// Terminating, for the namespace controller to empty.
	namespace("garbage", metav1.OwnerReference{APIVersion: "v1", Kind: "Namespace", Name: "never", UID: "never"})
	h.eventually("collected the namespace whose owner never existed", func() bool {
		return get("garbage").Status.Phase == corev1.NamespaceTerminating
	})

	orphan := metav1.DeletePropagationOrphan
	if _, _, err := h.namespaces.Delete(in(h.ctx, "root", ""), owner.Name, rest.ValidateAllObjectFunc,
		&metav1.DeleteOptions{PropagationPolicy: &orphan}); err != nil {
		t.Fatal(err)
	}
	h.eventually("orphaned the owner's dependents", func() bool {
		return len(get("orphan").OwnerReferences) == 0 && len(get(owner.Name).Finalizers) == 0
	})
	if o := get(owner.Name); o.Status.Phase != corev1.NamespaceTerminating || len(o.Spec.Finalizers) == 0 {
		t.Errorf("the orphaning namespace is %s with spec.finalizers %v; want it left Terminating for the namespace controller",
			o.Status.Phase, o.Spec.Finalizers)
	}
}

// The graph indexes dependents by their owners' UIDs within their own
// logical cluster, and tells who to look at again.
func TestGraph(t *testing.T) {
	s := corev1.Resource("configmaps")
	cm := func(cluster logicalcluster.Name, uid types.UID, owners ...types.UID) *corev1.ConfigMap {
		c := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: string(uid), UID: uid}}
		for _, o := range owners {
			c.OwnerReferences = append(c.OwnerReferences, metav1.OwnerReference{UID: o})
		}
		logicalcluster.SetOn(c, cluster)
		return c
	}
	g := newGraph()
	if next := g.observe(s, cm("root:a", "owner")); len(next) != 0 {
		t.Errorf("an ownerless object calls for %v", next)
	}
	if next := g.observe(s, cm("root:a", "dep", "owner")); !slices.Equal(next, []id{{"root:a", "dep"}}) {
		t.Errorf("a new dependent calls for %v", next)
	}
	g.observe(s, cm("root:b", "dep", "owner"))
	if next := g.observe(s, cm("root:a", "dep", "owner")); len(next) != 0 {
		t.Errorf("an unchanged dependent calls for %v", next)
	}
	if next := g.forget(id{"root:a", "owner"}); !slices.Equal(next, []id{{"root:a", "dep"}}) {
		t.Errorf("a deleted owner calls for %v; want its dependent in its own logical cluster only", next)
	}
	if next := g.replace(s, []runtime.Object{cm("root:b", "dep", "owner")}); len(next) != 0 {
		t.Errorf("relisting calls for %v", next)
	}
	if _, ok := g.get(id{"root:a", "dep"}); ok {
		t.Error("an object missing from a relist is still in the graph")
	}
	if len(g.dependents) != 1 || len(g.dependents[id{"root:b", "owner"}]) != 1 {
		t.Errorf("dependents index is %v", g.dependents)
	}
}
