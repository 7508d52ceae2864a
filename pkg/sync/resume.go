package sync

import (
	"context"
	"errors"
	"sync/atomic"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/canopy-dev/canopy/pkg/sync/telemetry"
)

// clientWatchDecoding is the cause type of the error client-go's watch
// ends with when it cannot read the stream any more.
const clientWatchDecoding = "ClientWatchDecoding"

// resumable is lw, of hub informer name, whose watches resume where they
// were when their connection breaks, and which counts and logs each list
// after the first.
//
// A watch whose connection closes, as when the hub replica serving it
// dies, ends, and the reflector watches again from its last
// resourceVersion, at whichever replica takes the connection: every
// replica serves the one store, and its resourceVersions. But a
// connection that breaks otherwise, as HTTP/2 "client connection lost"
// once its pings go unanswered, ends the watch with an error event, on
// which the reflector lists everything again. That list writes nothing
// downstream where nothing changed, but costs the hub and the syncer a
// full read for nothing: resumable drops the error, so that the watch
// just ends. An error the hub sends, as 410 Gone once the
// resourceVersion is compacted away, still makes the reflector list.
func resumable(name string, lw *cache.ListWatch) *cache.ListWatch {
	var lists atomic.Int64
	listed := func() {
		if lists.Add(1) > 1 {
			telemetry.HubRelists.Inc()
			klog.InfoS("Listed the hub again: a watch could not resume from its resourceVersion", "informer", name)
		}
	}
	return &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
			list, err := lw.ListWithContextFunc(ctx, o)
			if err == nil {
				listed()
			}
			return list, err
		},
		WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			w, err := lw.WatchFuncWithContext(ctx, o)
			if err != nil {
				return w, err
			}
			// A watch sending the initial events is the reflector's
			// list, streamed.
			if o.SendInitialEvents != nil && *o.SendInitialEvents {
				listed()
			}
			return watch.Filter(w, func(e watch.Event) (watch.Event, bool) {
				return e, !brokenStream(e)
			}), nil
		},
	}
}

// brokenStream is whether e is the error of a watch whose stream the
// client could not read further, rather than one the hub sent.
func brokenStream(e watch.Event) bool {
	if e.Type != watch.Error {
		return false
	}
	var status apierrors.APIStatus
	if !errors.As(apierrors.FromObject(e.Object), &status) || status.Status().Details == nil {
		return false
	}
	for _, c := range status.Status().Details.Causes {
		if c.Type == clientWatchDecoding {
			return true
		}
	}
	return false
}
