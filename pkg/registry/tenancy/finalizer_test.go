package tenancy

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"

	"github.com/canopy-dev/canopy/internal/sqlitetest"
	tenancyv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/tenancy/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/registry"
	"github.com/canopy-dev/canopy/pkg/registry/core"
	"github.com/canopy-dev/canopy/pkg/sqlstorage"
)

// fixedStores are the same stores in every logical cluster.
type fixedStores []*genericregistry.Store

func (f fixedStores) In(context.Context, logicalcluster.Name) ([]*genericregistry.Store, error) {
	return f, nil
}

// guarded is LogicalClusters and Secrets over a real SQLite datastore,
// with the guard on the finalizer watching both.
type guarded struct {
	t        *testing.T
	clusters *Storage
	secrets  *genericregistry.Store
}

func startGuarded(t *testing.T) *guarded {
	return startGuardedOn(t, sqlitetest.Open(t))
}

func startGuardedOn(t *testing.T, backend *sqlstorage.Backend) *guarded {
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{core.AddToScheme, AddToScheme} {
		if err := add(scheme); err != nil {
			t.Fatal(err)
		}
	}
	metav1.AddToGroupVersion(scheme, schema.GroupVersion{Version: "v1"})
	f := &registry.Factory{Backend: backend, Serializer: serializer.NewCodecFactory(scheme)}
	coreGroup, err := core.NewStorage(f, scheme, nil)
	if err != nil {
		t.Fatal(err)
	}
	clusters, err := NewStorage(f, scheme)
	if err != nil {
		t.Fatal(err)
	}
	stores := append(fixedStores{clusters.LogicalClusters}, coreGroup.Stores...)
	for _, s := range stores {
		t.Cleanup(s.DestroyFunc)
	}
	clusters.GuardData(stores)
	g := &guarded{t: t, clusters: clusters}
	for _, s := range coreGroup.Stores {
		if s.DefaultQualifiedResource == corev1.Resource("secrets") {
			g.secrets = s
		}
	}
	return g
}

func at(n logicalcluster.Name, namespace string) context.Context {
	return logicalcluster.WithCluster(genericapirequest.WithNamespace(context.Background(), namespace), n)
}

func (g *guarded) create(parent logicalcluster.Name, name string) error {
	_, err := mainREST{g.clusters.LogicalClusters}.Create(at(parent, ""), lc(name), rest.ValidateAllObjectFunc, &metav1.CreateOptions{})
	return err
}

func (g *guarded) get(parent logicalcluster.Name, name string) *tenancyv1alpha1.LogicalCluster {
	g.t.Helper()
	obj, err := g.clusters.LogicalClusters.Get(at(parent, ""), name, &metav1.GetOptions{})
	if err != nil {
		g.t.Fatal(err)
	}
	return obj.(*tenancyv1alpha1.LogicalCluster)
}

// dropFinalizer removes the hub's finalizer from LogicalCluster name
// through updater, the main resource or its status subresource.
func (g *guarded) dropFinalizer(updater rest.Updater, parent logicalcluster.Name, name string) error {
	obj := g.get(parent, name)
	obj.Finalizers = slices.DeleteFunc(obj.Finalizers, func(f string) bool { return f == tenancyv1alpha1.LogicalClusterFinalizer })
	_, _, err := updater.Update(at(parent, ""), name, rest.DefaultUpdatedObjectInfo(obj),
		rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{})
	return err
}

func (g *guarded) secret(n logicalcluster.Name) *corev1.Secret {
	g.t.Helper()
	obj, err := g.secrets.Create(at(n, "default"), &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "token", Namespace: "default"}},
		rest.ValidateAllObjectFunc, &metav1.CreateOptions{})
	if err != nil {
		g.t.Fatal(err)
	}
	return obj.(*corev1.Secret)
}

func (g *guarded) mustDelete(s *genericregistry.Store, n logicalcluster.Name, namespace, name string) {
	g.t.Helper()
	if _, _, err := s.Delete(at(n, namespace), name, rest.ValidateAllObjectFunc, &metav1.DeleteOptions{}); err != nil {
		g.t.Fatal(err)
	}
}

// wantRefused checks that err is a 422 on metadata.finalizers saying
// what it must.
func wantRefused(t *testing.T, what string, err error, says string) {
	t.Helper()
	if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "metadata.finalizers") || !strings.Contains(err.Error(), says) {
		t.Errorf("%s: %v; want 422 Invalid on metadata.finalizers saying %q", what, err, says)
	}
}

// TestFinalizerOutlivesData removes the finalizer of a LogicalCluster by
// each way the store takes updates, while its logical cluster is live,
// while it holds a Secret, and while it holds a child LogicalCluster:
// every removal is refused until the store holds nothing of it, and its
// name is free only then.
func TestFinalizerOutlivesData(t *testing.T) {
	g := startGuarded(t)
	const parent, big3 = logicalcluster.Root, logicalcluster.Name("root:big3")
	if err := g.create(parent, "big3"); err != nil {
		t.Fatal(err)
	}
	updaters := []struct {
		name    string
		updater rest.Updater
	}{
		{"update", g.clusters.LogicalClusters},
		{"status update", g.clusters.Status},
	}
	requests := 0
	refuseAll := func(state, says string) {
		t.Helper()
		for _, u := range updaters {
			requests++
			wantRefused(t, u.name+" "+state, g.dropFinalizer(u.updater, parent, "big3"), says)
		}
	}
	refuseAll("of a live logical cluster", "is not being deleted")
	entered, err := g.clusters.Enter(at(big3, "default"), big3)
	if err != nil {
		t.Fatal(err)
	}

	secret := g.secret(big3)
	if err := g.create(big3, "child"); err != nil {
		t.Fatal(err)
	}
	g.mustDelete(g.clusters.LogicalClusters, parent, "", "big3")
	refuseAll("while it holds a Secret and a child", "still holds objects (logicalclusters.tenancy.canopy.dev, secrets)")

	requests++
	err = g.create(parent, "big3")
	if !apierrors.IsAlreadyExists(err) || !strings.Contains(err.Error(), "the previous logical cluster root:big3 is still being deleted") {
		t.Errorf("re-create while being deleted: %v; want 409 AlreadyExists saying the previous one is being deleted", err)
	}

	g.mustDelete(g.secrets, big3, "default", secret.Name)
	refuseAll("while it holds a child", "still holds objects (logicalclusters.tenancy.canopy.dev)")

	// The child goes as the hub would remove it: its own objects, none
	// here, then its finalizer.
	g.mustDelete(g.clusters.LogicalClusters, big3, "", "child")
	requests++
	if err := g.dropFinalizer(g.clusters.LogicalClusters, big3, "child"); err != nil {
		t.Fatalf("removing the finalizer of an empty child: %v", err)
	}
	requests++
	if err := g.dropFinalizer(g.clusters.LogicalClusters, parent, "big3"); err != nil {
		t.Fatalf("removing the finalizer of an empty logical cluster: %v", err)
	}
	requests++
	if err := g.create(parent, "big3"); err != nil {
		t.Fatalf("re-creating the name once the data is gone: %v", err)
	}
	if fresh := g.get(parent, "big3"); fresh.DeletionTimestamp != nil || !slices.Contains(fresh.Finalizers, tenancyv1alpha1.LogicalClusterFinalizer) {
		t.Errorf("the re-created LogicalCluster is %+v; want a live one with the finalizer", fresh.ObjectMeta)
	}
	// A request that came into the old logical cluster stores nothing in
	// the new one; one that comes into the new one does.
	// Both are answered at once, though the watch cache may still hold
	// the old LogicalCluster, being deleted: that is confirmed with the
	// database, and the request told what happened.
	if err := g.clusters.StillServed(entered); err == nil || !strings.Contains(err.Error(), "was deleted, and made again") {
		t.Errorf("a request that came into the deleted logical cluster, writing in the one re-created under its name: %v; "+
			"want it refused, saying the logical cluster was made again", err)
	}
	again, err := g.clusters.Enter(at(big3, "default"), big3)
	if err != nil {
		t.Fatalf("a request coming into the re-created logical cluster: %v", err)
	}
	if err := g.clusters.StillServed(again); err != nil {
		t.Errorf("a request that came into the re-created logical cluster: %v", err)
	}
	t.Logf("%d requests", requests)
}

// TestStillServedOnALaggingReplica deletes a logical cluster and makes
// it again through one replica while another, whose watches run behind
// the database, still holds the old LogicalCluster as being deleted: a
// write that came into the old logical cluster there is told that it was
// made again, and a request coming into the new one is let in, both at
// once, not told that the logical cluster is being deleted.
func TestStillServedOnALaggingReplica(t *testing.T) {
	url := "sqlite://" + filepath.Join(t.TempDir(), "canopy.db")
	open := func(pollInterval time.Duration) *sqlstorage.Backend {
		ctx, cancel := context.WithCancel(context.Background())
		backend, err := sqlstorage.Open(ctx, url, sqlstorage.Options{PollInterval: pollInterval})
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		t.Cleanup(func() {
			_ = backend.Close()
			cancel()
		})
		return backend
	}
	// The lagging replica sees the other's writes once every 2s.
	g, lagging := startGuardedOn(t, open(0)), startGuardedOn(t, open(2*time.Second))
	const parent, big3 = logicalcluster.Root, logicalcluster.Name("root:big3")
	if err := g.create(parent, "big3"); err != nil {
		t.Fatal(err)
	}
	entered, err := lagging.clusters.Enter(at(big3, "default"), big3)
	if err != nil {
		t.Fatalf("entering the logical cluster on the lagging replica: %v", err)
	}
	g.mustDelete(g.clusters.LogicalClusters, parent, "", "big3")
	deadline := time.Now().Add(10 * time.Second)
	for {
		obj, err := lagging.clusters.LogicalClusters.Get(at(parent, ""), "big3", &metav1.GetOptions{ResourceVersion: "0"})
		if err == nil && obj.(*tenancyv1alpha1.LogicalCluster).DeletionTimestamp != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the lagging replica's watch cache never held LogicalCluster big3 as being deleted: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := g.dropFinalizer(g.clusters.LogicalClusters, parent, "big3"); err != nil {
		t.Fatalf("removing the finalizer of an empty logical cluster: %v", err)
	}
	if err := g.create(parent, "big3"); err != nil {
		t.Fatalf("re-creating the name: %v", err)
	}
	if err := lagging.clusters.StillServed(entered); err == nil || !strings.Contains(err.Error(), "was deleted, and made again") {
		t.Errorf("a write that came into the deleted logical cluster, on the lagging replica: %v; want it refused, saying the logical cluster was made again", err)
	}
	if _, err := lagging.clusters.Enter(at(big3, "default"), big3); err != nil {
		t.Errorf("a request coming into the re-created logical cluster on the lagging replica: %v", err)
	}
}

// TestFollowEnds checks that a watch following a logical cluster ends
// when the deletion of that logical cluster or of one above it begins,
// and that one let in before, but added after, ends at once.
func TestFollowEnds(t *testing.T) {
	g := startGuarded(t)
	for _, name := range []string{"a", "b"} {
		if err := g.create(logicalcluster.Root, name); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.create("root:a", "child"); err != nil {
		t.Fatal(err)
	}
	follow := func(n logicalcluster.Name) context.Context {
		t.Helper()
		entered, err := g.clusters.Enter(at(n, ""), n)
		if err != nil {
			t.Fatal(err)
		}
		ctx, done := g.clusters.Follow(entered, n)
		t.Cleanup(done)
		return ctx
	}
	a, child, b := follow("root:a"), follow("root:a:child"), follow("root:b")
	entered, err := g.clusters.Enter(at("root:a", ""), "root:a")
	if err != nil {
		t.Fatal(err)
	}
	g.mustDelete(g.clusters.LogicalClusters, logicalcluster.Root, "", "a")
	g.clusters.End("root:a")
	for _, tc := range []struct {
		name  string
		ctx   context.Context
		ended bool
	}{
		{"a watch of the deleted logical cluster", a, true},
		{"a watch of one nested in it", child, true},
		{"a watch of another", b, false},
	} {
		if ended := tc.ctx.Err() != nil; ended != tc.ended {
			t.Errorf("%s: ended %v, want %v", tc.name, ended, tc.ended)
		}
	}
	// The deletion reaches the watch cache a moment after it is stored.
	deadline := time.Now().Add(5 * time.Second)
	for {
		late, done := g.clusters.Follow(entered, "root:a")
		ended := late.Err() != nil
		done()
		if ended {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a watch let in before the deletion and added after End still runs")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
