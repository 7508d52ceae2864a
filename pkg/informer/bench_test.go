package informer

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// benchObjects is how many ConfigMaps, of about 1 KiB of data each,
// BenchmarkInformerHeap holds, across benchClusters logical clusters.
const (
	benchObjects  = 2000
	benchClusters = 20
)

// BenchmarkInformerHeap reports what an informer of whole objects and
// one of metadata only add to the heap, per object, beyond the watch
// cache that already holds the objects: once listed, and once every
// object has changed since, so that the informer holds what the watch
// sent.
func BenchmarkInformerHeap(b *testing.B) {
	for _, mode := range []string{"whole", "metadata"} {
		b.Run(mode, func(b *testing.B) {
			for range b.N {
				// A store of its own, whose watch cache has seen as many
				// changes before as the informer will, so that what the
				// cache keeps of its history grows no more meanwhile.
				s := configMaps(b)
				fill(b, s)
				changeAll(b, s, "before")
				listed, watched := heapOf(b, s, mode == "metadata")
				b.ReportMetric(listed/benchObjects, "listed-B/object")
				b.ReportMetric(watched/benchObjects, "watched-B/object")
			}
		})
	}
}

// fill creates the ConfigMaps of the benchmark in s.
func fill(b *testing.B, s *genericregistry.Store) {
	data := map[string]string{"k": strings.Repeat("x", 1024)}
	for n := range benchObjects {
		cluster := logicalcluster.Name(fmt.Sprintf("root:c%d", n%benchClusters))
		ctx := logicalcluster.WithCluster(genericapirequest.WithNamespace(context.Background(), "default"), cluster)
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("cm%d", n), Namespace: "default"}, Data: data}
		if _, err := s.Create(ctx, cm, rest.ValidateAllObjectFunc, &metav1.CreateOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// changeAll sets label changed=value on every ConfigMap of s.
func changeAll(b *testing.B, s *genericregistry.Store, value string) {
	for n := range benchObjects {
		cluster := logicalcluster.Name(fmt.Sprintf("root:c%d", n%benchClusters))
		ctx := logicalcluster.WithCluster(genericapirequest.WithNamespace(context.Background(), "default"), cluster)
		if _, _, err := s.Update(ctx, fmt.Sprintf("cm%d", n), rest.DefaultUpdatedObjectInfo(nil, func(_ context.Context, _, old k8sruntime.Object) (k8sruntime.Object, error) {
			cm := old.(*corev1.ConfigMap).DeepCopy()
			cm.Labels = map[string]string{"changed": value}
			return cm, nil
		}), rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// heapOf is how much the heap grows with an informer of s once it has
// listed, and once every object has changed since.
func heapOf(b *testing.B, s *genericregistry.Store, metadataOnly bool) (listed, watched float64) {
	before := heapInUse()
	f := NewFactory()
	i := f.For(s)
	if metadataOnly {
		i = f.Metadata(s)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f.Start(ctx)
	waitFor(b, "the informer to hold every object", func() bool { return len(i.All()) == benchObjects })
	listed = heapInUse() - before
	changeAll(b, s, "after")
	waitFor(b, "the informer to hold every object changed", func() bool {
		for _, obj := range i.All() {
			if obj.(metav1.Object).GetLabels()["changed"] != "after" {
				return false
			}
		}
		return true
	})
	watched = heapInUse() - before
	runtime.KeepAlive(i)
	return listed, watched
}

func heapInUse() float64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return float64(m.HeapInuse)
}
