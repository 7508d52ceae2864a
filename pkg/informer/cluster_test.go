package informer

import (
	"context"
	"testing"

	"k8s.io/apimachinery/pkg/labels"
	corev1listers "k8s.io/client-go/listers/core/v1"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// TestClusterView shows that client-go's listers over a logical cluster's
// view of a shared informer see that cluster's objects only, by
// namespace and by name, and that the view refuses writes.
func TestClusterView(t *testing.T) {
	s := configMaps(t)
	a, b := logicalcluster.Name("root:a"), logicalcluster.Name("root:b")
	create(t, s, a, "default", "same")
	create(t, s, a, "other", "only-a")
	create(t, s, b, "default", "same")

	f := NewFactory()
	i := f.For(s)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f.Start(ctx)
	waitFor(t, "the informers to sync", f.HasSynced)

	view := i.Cluster(a)
	if !view.HasSynced() {
		t.Error("the view of a synced informer has not synced")
	}
	lister := corev1listers.NewConfigMapLister(view.GetIndexer())
	all, err := lister.List(labels.Everything())
	if err != nil || len(all) != 2 {
		t.Errorf("root:a lists %d ConfigMaps (%v), want 2", len(all), err)
	}
	inDefault, err := lister.ConfigMaps("default").List(labels.Everything())
	if err != nil || len(inDefault) != 1 {
		t.Errorf("root:a lists %d ConfigMaps in default (%v), want 1", len(inDefault), err)
	}
	if _, err := lister.ConfigMaps("other").Get("only-a"); err != nil {
		t.Errorf("root:a's only-a: %v", err)
	}
	if _, err := corev1listers.NewConfigMapLister(i.Cluster(b).GetIndexer()).ConfigMaps("other").Get("only-a"); err == nil {
		t.Error("root:b's view finds root:a's only-a")
	}
	if err := view.GetIndexer().Add(all[0]); err == nil {
		t.Error("the view took a write")
	}
}
