package informer

import (
	"context"
	"time"

	"k8s.io/client-go/tools/cache"
)

// WaitForSync waits until each of synced is true, for timeout at most,
// and tells whether all are; err is ctx's, should it end first. Once all
// are it costs a call each, so a request may call it every time: an
// admission plugin that must not judge from a partial list refuses
// requests until its informers' handlers have had their first list.
func WaitForSync(ctx context.Context, timeout time.Duration, synced ...cache.InformerSynced) (bool, error) {
	done := true
	for _, s := range synced {
		done = done && s()
	}
	if done {
		return true, nil
	}
	wait, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if cache.WaitForCacheSync(wait.Done(), synced...) {
		return true, nil
	}
	return false, ctx.Err()
}
