package informer

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"

	"github.com/canopy-dev/canopy/internal/coretest"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/shard"
)

// configMaps is the ConfigMaps' store over a real SQLite datastore.
func configMaps(t testing.TB) *genericregistry.Store {
	group, _ := coretest.Open(t)
	for _, s := range group.Stores {
		if s.DefaultQualifiedResource.Resource == "configmaps" {
			return s
		}
	}
	t.Fatal("no store of configmaps")
	return nil
}

func create(t testing.TB, s *genericregistry.Store, cluster logicalcluster.Name, ns, name string) {
	t.Helper()
	ctx := logicalcluster.WithCluster(genericapirequest.WithNamespace(context.Background(), ns), cluster)
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}, Data: map[string]string{"k": "v"}}
	if _, err := s.Create(ctx, cm, rest.ValidateAllObjectFunc, &metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// waitFor polls cond until it holds, for what says.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestInformerAcrossClusters shows that objects of the same namespace and
// name in two logical clusters are two objects to an informer, found by
// each index, and that every reader of a resource shares one informer.
func TestInformerAcrossClusters(t *testing.T) {
	s := configMaps(t)
	a, b := logicalcluster.Name("root:a"), logicalcluster.Name("root:b")
	create(t, s, a, "default", "same")

	f := NewFactory()
	i := f.For(s)
	if f.Metadata(s) != i {
		t.Fatal("a second reader of configmaps got an informer of its own")
	}
	seen := make(chan string, 10)
	if _, err := i.AddHandler(func(obj runtime.Object, cluster logicalcluster.Name, deleted bool) {
		cm := obj.(*corev1.ConfigMap)
		seen <- fmt.Sprintf("%s %s/%s deleted=%t", cluster, cm.Namespace, cm.Name, deleted)
	}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f.Start(ctx)
	waitFor(t, "the informers to sync", f.HasSynced)
	if got, want := <-seen, "root:a default/same deleted=false"; got != want {
		t.Errorf("first event %q, want %q", got, want)
	}

	create(t, s, b, "default", "same")
	if got, want := <-seen, "root:b default/same deleted=false"; got != want {
		t.Errorf("watched event %q, want %q", got, want)
	}
	for _, c := range []logicalcluster.Name{a, b} {
		obj, ok := i.Get(c, "default", "same")
		if !ok || obj.(*corev1.ConfigMap).Annotations[logicalcluster.Annotation] != string(c) {
			t.Errorf("Get in %s: %v, %t", c, obj, ok)
		}
		if n := len(i.InCluster(c)); n != 1 {
			t.Errorf("%d objects in %s, want 1", n, c)
		}
		if n := len(i.InNamespace(c, "default")); n != 1 {
			t.Errorf("%d objects in %s/default, want 1", n, c)
		}
	}
	if n := len(i.All()); n != 2 {
		t.Errorf("%d objects in all, want 2", n)
	}
	inShards := 0
	for sh := range shard.Count {
		inShards += len(i.InShard(sh))
	}
	if inShards != 2 || len(i.InShard(shard.Of(a))) == 0 {
		t.Errorf("%d objects by shard, want 2, one in shard %d of %s", inShards, shard.Of(a), a)
	}

	ctxA := logicalcluster.WithCluster(genericapirequest.WithNamespace(context.Background(), "default"), a)
	if _, _, err := s.Delete(ctxA, "same", rest.ValidateAllObjectFunc, &metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if got, want := <-seen, "root:a default/same deleted=true"; got != want {
		t.Errorf("deletion %q, want %q", got, want)
	}
	if _, ok := i.Get(b, "default", "same"); !ok {
		t.Error("deleting the object of root:a lost that of root:b")
	}
}

// TestMetadataInformer shows that an informer nobody asks whole objects
// of keeps their metadata only, and that one asked for later, after the
// start, runs at once.
func TestMetadataInformer(t *testing.T) {
	s := configMaps(t)
	create(t, s, "root:a", "default", "one")
	f := NewFactory()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f.Start(ctx)
	i := f.Metadata(s)
	// The watch cache the informer lists may trail the create by a
	// moment; the watch brings it then.
	var obj runtime.Object
	waitFor(t, "the metadata informer to hold root:a default/one", func() bool {
		var ok bool
		obj, ok = i.Get("root:a", "default", "one")
		return ok
	})
	pom, ok := obj.(*metav1.PartialObjectMetadata)
	if !ok || pom.Name != "one" || pom.UID == "" || pom.Annotations[logicalcluster.Annotation] != "root:a" {
		t.Fatalf("got %T %v, want the object's metadata", obj, obj)
	}
}
