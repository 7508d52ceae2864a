package follow

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
)

// Follow lists r and watches it from there until ctx ends, in the
// background, and returns once the watch was asked for. observe gets
// every change after that first list, deleted telling a deletion; after
// a broken watch, r is listed again, observe gets what the list holds and
// listed gets the names of all of it, so that the caller can tell what
// went meanwhile. A first list that fails fails tb.
func Follow(ctx context.Context, tb testing.TB, r dynamic.ResourceInterface, observe func(u *unstructured.Unstructured, deleted bool), listed func(names map[string]bool)) {
	tb.Helper()
	list, err := r.List(ctx, metav1.ListOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	relist := func() string {
		list, err := r.List(ctx, metav1.ListOptions{})
		if err != nil {
			return ""
		}
		names := map[string]bool{}
		for i := range list.Items {
			names[list.Items[i].GetName()] = true
			observe(&list.Items[i], false)
		}
		listed(names)
		return list.GetResourceVersion()
	}
	rv := list.GetResourceVersion()
	started := make(chan struct{})
	go func() {
		first := true
		for ctx.Err() == nil {
			wi, err := r.Watch(ctx, metav1.ListOptions{ResourceVersion: rv, AllowWatchBookmarks: true})
			if first {
				close(started)
				first = false
			}
			if err != nil {
				logf("watch: %v; relisting", err)
				time.Sleep(100 * time.Millisecond)
				rv = relist()
				continue
			}
			for ev := range wi.ResultChan() {
				if ev.Type == watch.Error {
					if ctx.Err() == nil {
						logf("watch: error event %v; relisting", ev.Object)
						rv = ""
					}
					break
				}
				u, ok := ev.Object.(*unstructured.Unstructured)
				if !ok {
					continue
				}
				rv = u.GetResourceVersion()
				if ev.Type != watch.Bookmark {
					observe(u, ev.Type == watch.Deleted)
				}
			}
			wi.Stop()
			if ctx.Err() == nil && rv == "" {
				rv = relist()
			}
		}
	}()
	<-started
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "%s follow: %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, args...))
}
