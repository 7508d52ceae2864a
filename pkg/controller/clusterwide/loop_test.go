package clusterwide

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"

	"github.com/canopy-dev/canopy/internal/coretest"
	"github.com/canopy-dev/canopy/pkg/informer"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/shard"
)

// ownership owns the logical clusters it is told, and hands the shards
// it gains to the loop, as a shard.Manager does.
type ownership struct {
	mu     sync.Mutex
	owned  map[logicalcluster.Name]bool
	gained []func(int)
}

func (o *ownership) Owns(c logicalcluster.Name) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.owned[c]
}

func (o *ownership) OnGain(f func(int)) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.gained = append(o.gained, f)
}

func (o *ownership) gain(c logicalcluster.Name) {
	o.mu.Lock()
	o.owned[c] = true
	gained := o.gained
	o.mu.Unlock()
	for _, f := range gained {
		f(shard.Of(c))
	}
}

func configMaps(t *testing.T) *genericregistry.Store {
	group, _ := coretest.Open(t)
	for _, s := range group.Stores {
		if s.DefaultQualifiedResource.Resource == "configmaps" {
			return s
		}
	}
	t.Fatal("the core stores have no configmaps")
	return nil
}

// TestLoopOwnership shows that a loop works on the logical clusters its
// replica owns only, takes up a logical cluster's objects once it gains
// its shard, and retries failed work until it succeeds.
func TestLoopOwnership(t *testing.T) {
	s := configMaps(t)
	for _, c := range []logicalcluster.Name{"root:a", "root:b"} {
		ctx := logicalcluster.WithCluster(genericapirequest.WithNamespace(context.Background(), "default"), c)
		if _, err := s.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cm", Namespace: "default"}},
			rest.ValidateAllObjectFunc, &metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	owner := &ownership{owned: map[logicalcluster.Name]bool{"root:a": true}}
	done := make(chan logicalcluster.Name, 10)
	var mu sync.Mutex
	tries := map[logicalcluster.Name]int{}
	l := &Loop[logicalcluster.Name]{
		Name:      "test",
		Workers:   2,
		Cluster:   func(c logicalcluster.Name) logicalcluster.Name { return c },
		Ownership: owner,
		Process: func(_ context.Context, c logicalcluster.Name) error {
			mu.Lock()
			tries[c]++
			n := tries[c]
			mu.Unlock()
			if n == 1 {
				return errors.New("the first try fails")
			}
			done <- c
			return nil
		},
	}
	f := informer.NewFactory()
	l.Watch(f.For(s), func(obj runtime.Object, _ bool) []logicalcluster.Name {
		c, err := logicalcluster.FromObject(obj.(*corev1.ConfigMap))
		if err != nil {
			t.Error(err)
		}
		return []logicalcluster.Name{c}
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f.Start(ctx)
	go l.Run(ctx)

	waitDone := func(want logicalcluster.Name) {
		t.Helper()
		select {
		case got := <-done:
			if got != want {
				t.Fatalf("worked on %s, want %s", got, want)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("timed out waiting for the work of %s", want)
		}
	}
	waitDone("root:a")
	select {
	case got := <-done:
		t.Fatalf("worked on %s, which this replica does not own", got)
	case <-time.After(200 * time.Millisecond):
	}
	owner.gain("root:b")
	waitDone("root:b")
	if n := l.q().NumRequeues("root:a"); n != 0 {
		t.Errorf("root:a has %d failures on record after it succeeded, want them forgotten", n)
	}
}
