package crd

import (
	"context"
	"sync"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"

	"github.com/canopy-dev/canopy/bench/internal/follow"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// installation names a definition in a logical cluster.
type installation struct{ cluster, name string }

// establishedWatch follows the definitions of every logical cluster, on
// one watch through /clusters/*, and tells when one is Established.
type establishedWatch struct {
	mu      sync.Mutex
	waiting map[installation]chan struct{}
	stop    context.CancelFunc
}

func watchEstablished(ctx context.Context, tb testing.TB, crds dynamic.ResourceInterface) *establishedWatch {
	ctx, cancel := context.WithCancel(ctx)
	w := &establishedWatch{waiting: map[installation]chan struct{}{}, stop: cancel}
	follow.Follow(ctx, tb, crds, func(u *unstructured.Unstructured, deleted bool) {
		if !deleted {
			w.observe(u)
		}
	}, func(map[string]bool) {})
	return w
}

func (w *establishedWatch) observe(u *unstructured.Unstructured) {
	conditions, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, c := range conditions {
		if c, ok := c.(map[string]any); ok && c["type"] == "Established" && c["status"] == "True" {
			w.mu.Lock()
			key := installation{u.GetAnnotations()[logicalcluster.Annotation], u.GetName()}
			if ch, ok := w.waiting[key]; ok {
				close(ch)
				delete(w.waiting, key)
			}
			w.mu.Unlock()
			return
		}
	}
}

// expect returns a channel closed once definition name of cluster is
// Established; call it before creating the definition.
func (w *establishedWatch) expect(cluster, name string) <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	ch := make(chan struct{})
	w.waiting[installation{cluster, name}] = ch
	return ch
}
