package crd

import (
	"context"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"

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
	list, err := crds.List(ctx, metav1.ListOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	rv := list.GetResourceVersion()
	go func() {
		for ctx.Err() == nil {
			wi, err := crds.Watch(ctx, metav1.ListOptions{ResourceVersion: rv, AllowWatchBookmarks: true})
			if err != nil {
				logf("watch of CustomResourceDefinitions: %v; relisting", err)
				time.Sleep(100 * time.Millisecond)
				rv = w.relist(ctx, crds)
				continue
			}
			for ev := range wi.ResultChan() {
				if ev.Type == watch.Error {
					if ctx.Err() != nil {
						break
					}
					logf("watch of CustomResourceDefinitions: %v; relisting", ev.Object)
					rv = w.relist(ctx, crds)
					break
				}
				u, ok := ev.Object.(*unstructured.Unstructured)
				if !ok {
					continue
				}
				rv = u.GetResourceVersion()
				if ev.Type != watch.Bookmark && ev.Type != watch.Deleted {
					w.observe(u)
				}
			}
			wi.Stop()
		}
	}()
	return w
}

// relist observes every definition, after a watch that broke.
func (w *establishedWatch) relist(ctx context.Context, crds dynamic.ResourceInterface) string {
	list, err := crds.List(ctx, metav1.ListOptions{})
	if err != nil {
		return ""
	}
	for i := range list.Items {
		w.observe(&list.Items[i])
	}
	return list.GetResourceVersion()
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
