package proc

import (
	"sync"
	"sync/atomic"
	"time"
)

// Pool runs f(0..count-1) on workers goroutines and returns how long it
// took and how many calls failed; logf is told of the first three
// failures.
func Pool(workers, count int, f func(i int) error, logf func(format string, args ...any)) (time.Duration, int64) {
	var next, failed atomic.Int64
	start := time.Now()
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < count; i = int(next.Add(1) - 1) {
				if err := f(i); err != nil {
					if failed.Add(1) <= 3 {
						logf("%v", err)
					}
				}
			}
		})
	}
	wg.Wait()
	return time.Since(start), failed.Load()
}
