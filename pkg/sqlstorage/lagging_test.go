package sqlstorage

import (
	"context"
	"slices"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/apiserver/pkg/apis/example"
	"k8s.io/apiserver/pkg/storage"
)

// A process whose poller is behind a compaction made by another process
// must not hand its watchers a stream with holes in it.
func TestLaggingProcessAfterRemoteCompaction(t *testing.T) {
	eachDatastore(t, func(t *testing.T, url string) {
		ctx := context.Background()
		a := newPodStore(openBackend(t, url))
		// b polls only when it writes itself: its poller lags, as a hub cut
		// off from the database for a while would. It must not listen
		// either, or an announced commit may bring it up to date before
		// the compaction.
		opts := testOptions
		opts.PollInterval, opts.ProgressInterval = time.Hour, time.Hour
		opts.deaf = true
		bb, err := Open(ctx, url, opts)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = bb.Close() })
		b := newPodStore(bb)

		start := ordCurrentRV(t, a)
		w := ordWatchFrom(t, b, start) // caught up: served from b's memory

		pod := func(name string) *example.Pod {
			return &example.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name}}
		}
		update := func(name string) {
			out := &example.Pod{}
			if err := a.GuaranteedUpdate(ctx, "/pods/ns/"+name, out, false, nil, func(in runtime.Object, _ storage.ResponseMeta) (runtime.Object, *uint64, error) {
				p := in.(*example.Pod).DeepCopy()
				p.Labels = map[string]string{"v": p.ResourceVersion + "x"}
				return p, nil, nil
			}, nil); err != nil {
				t.Fatal(err)
			}
		}
		if err := a.Create(ctx, "/pods/ns/x", pod("x"), &example.Pod{}, 0); err != nil { // start+1, stays current
			t.Fatal(err)
		}
		if err := a.Create(ctx, "/pods/ns/y", pod("y"), &example.Pod{}, 0); err != nil { // start+2
			t.Fatal(err)
		}
		update("y") // start+3
		update("y") // start+4
		// a compacts to start+4: y's versions at start+2 and start+3 go.
		if err := a.b.Compact(ctx, start+4); err != nil {
			t.Fatal(err)
		}
		// A write through b kicks b's poller, which now reads (start, start+5].
		if err := b.Create(ctx, "/pods/ns/z", pod("z"), &example.Pod{}, 0); err != nil { // start+5
			t.Fatal(err)
		}

		var got []int64
		timeout := time.After(5 * time.Second)
		for {
			select {
			case ev, ok := <-w.ResultChan():
				if !ok {
					t.Fatalf("closed after %v", got)
				}
				if ev.Type == watch.Error {
					if st, ok := ev.Object.(*metav1.Status); !ok || st.Reason != metav1.StatusReasonExpired {
						t.Fatalf("after %v the watch ended with %#v, want 410 Expired", got, ev.Object)
					}
					return
				}
				rv := ordParseRV(t, ev.Object)
				got = append(got, rv)
				if rv == start+5 {
					if want := []int64{start + 1, start + 2, start + 3, start + 4, start + 5}; !slices.Equal(got, want) {
						t.Fatalf("watch from %d on the lagging process got revisions %v, want %v or a 410 error", start, got, want)
					}
					return
				}
			case <-timeout:
				t.Fatalf("no event or error; got %v", got)
			}
		}
	})
}
