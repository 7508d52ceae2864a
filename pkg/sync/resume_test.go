package sync

import (
	"context"
	"errors"
	"net/http"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"
	"k8s.io/component-base/metrics/testutil"
	"k8s.io/utils/ptr"

	"github.com/canopy-dev/canopy/pkg/sync/telemetry"
)

// TestResumable checks that a hub watch whose stream broke ends without
// the error that would make the reflector list again, that an error the
// hub sent reaches the reflector, and that lists after the first count
// as relists, a watch sending its initial events included.
func TestResumable(t *testing.T) {
	telemetry.Register()
	var watches []*watch.FakeWatcher
	lw := resumable("test", &cache.ListWatch{
		ListWithContextFunc: func(context.Context, metav1.ListOptions) (runtime.Object, error) {
			return &unstructured.UnstructuredList{}, nil
		},
		WatchFuncWithContext: func(context.Context, metav1.ListOptions) (watch.Interface, error) {
			w := watch.NewFakeWithChanSize(2, false)
			watches = append(watches, w)
			return w, nil
		},
	})
	relists := func() float64 {
		t.Helper()
		n, err := testutil.GetCounterMetricValue(telemetry.HubRelists)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := relists()
	ctx := context.Background()

	broken, err := lw.WatchFuncWithContext(ctx, metav1.ListOptions{ResourceVersion: "7"})
	if err != nil {
		t.Fatal(err)
	}
	reporter := apierrors.NewClientErrorReporter(http.StatusInternalServerError, "GET", clientWatchDecoding)
	watches[0].Error(reporter.AsObject(errors.New("unable to decode an event from the watch stream: http2: client connection lost")))
	watches[0].Stop()
	if e, ok := <-broken.ResultChan(); ok {
		t.Errorf("a broken watch sent %v, want it to end", e)
	}

	gone, err := lw.WatchFuncWithContext(ctx, metav1.ListOptions{ResourceVersion: "7"})
	if err != nil {
		t.Fatal(err)
	}
	watches[1].Error(&apierrors.NewResourceExpired("too old resource version: 7 (9)").ErrStatus)
	if e := <-gone.ResultChan(); e.Type != watch.Error || !apierrors.IsResourceExpired(apierrors.FromObject(e.Object)) {
		t.Errorf("a watch the hub ended with 410 Gone sent %v, want the error", e)
	}
	gone.Stop()
	if n := relists() - before; n != 0 {
		t.Errorf("%v relists after watches from a resourceVersion, want 0", n)
	}

	if _, err := lw.WatchFuncWithContext(ctx, metav1.ListOptions{SendInitialEvents: ptr.To(true)}); err != nil {
		t.Fatal(err)
	}
	if _, err := lw.ListWithContextFunc(ctx, metav1.ListOptions{}); err != nil {
		t.Fatal(err)
	}
	if n := relists() - before; n != 1 {
		t.Errorf("%v relists after a streamed list and a list, want 1", n)
	}
}
