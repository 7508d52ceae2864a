package resourcequota

import (
	"sync"
	"time"
)

const (
	// gap is how long a charge waits for one more request to its
	// namespace before it is written: a stream of creates arrives
	// closer than this, and a client alone, or a few in lockstep, cost
	// at most this much more per write.
	gap = time.Millisecond
	// lingerMax bounds how long a charge waits in all, a fraction of
	// what a create costs on a busy hub.
	lingerMax = 5 * time.Millisecond
	// enough requests waiting end the wait: a batch of them amortizes
	// a write well, and more would only wait longer.
	enough = 32
)

// gather is the Evaluator's group commit. The Evaluator checks the
// requests to a namespace in batches, one at a time, and charges each
// batch with one conditional write of the quotas' status; the requests
// that arrive meanwhile make the next batch. On a hub, where that write
// is a quick database round trip, a busy namespace's batches are of one
// or two requests (bench/quota), and each create pays a second write, a
// second watch event on every replica and its decoding by every informer
// of quotas. So when requests to the namespace are already waiting
// behind a batch as it is about to be charged, the charge waits for more
// of them to gather, as long as they keep coming closer than gap apart,
// up to lingerMax or enough of them: the next batch is larger and the
// namespace's writes fewer. The quotas' usage and the conditional write
// are upstream's, unchanged; only when the write starts moves. A
// request alone is charged at once, and a retry after a conflict too.
//
// Its state is per namespace while requests to it are in flight, and
// gone when none are: a quiet namespace costs nothing.
type gather struct {
	// gap, lingerMax and enough are the constants of those names,
	// shorter or longer in tests.
	gap, lingerMax time.Duration
	enough         uint64

	mu    sync.Mutex
	flows map[string]*flow
}

// flow is what gather knows of the requests to one namespace in flight.
type flow struct {
	inflight int
	// arrived counts the requests that came while the flow lived, and
	// taken what it counted when the Evaluator took its last batch:
	// arrived-taken are waiting for the next.
	arrived, taken uint64
	// retry: the last charge conflicted and the Evaluator reads the
	// quotas again for the same batch; again: it did, and charges the
	// batch again, at once.
	retry, again bool
	// more is told of each arrival while a charge waits.
	more chan struct{}
}

func newGather() *gather {
	return &gather{gap: gap, lingerMax: lingerMax, enough: enough, flows: map[string]*flow{}}
}

// arrive counts a request to namespace key in flight until its done is
// called.
func (g *gather) arrive(key string) (done func()) {
	g.mu.Lock()
	defer g.mu.Unlock()
	f := g.flows[key]
	if f == nil {
		f = &flow{}
		g.flows[key] = f
	}
	f.inflight++
	f.arrived++
	if f.more != nil {
		select {
		case f.more <- struct{}{}:
		default:
		}
	}
	return func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		if f.inflight--; f.inflight == 0 {
			delete(g.flows, key)
		}
	}
}

// take marks the requests to key arrived so far as the Evaluator's
// batch, as it reads the quotas to check them, unless it reads them
// again to retry a batch after a conflict.
func (g *gather) take(key string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if f := g.flows[key]; f != nil {
		f.again, f.retry = f.retry, false
		if !f.again {
			f.taken = f.arrived
		}
	}
}

// linger waits, before a batch of key is charged, for the requests to
// key that follow it to gather.
func (g *gather) linger(key string) {
	g.mu.Lock()
	f := g.flows[key]
	if f == nil || f.again || f.arrived == f.taken || f.more != nil {
		g.mu.Unlock()
		return
	}
	more := make(chan struct{}, 1)
	f.more = more
	g.mu.Unlock()
	defer func() {
		g.mu.Lock()
		f.more = nil
		g.mu.Unlock()
	}()
	deadline := time.NewTimer(g.lingerMax)
	defer deadline.Stop()
	pause := time.NewTimer(g.gap)
	defer pause.Stop()
	for {
		g.mu.Lock()
		waiting := f.arrived - f.taken
		g.mu.Unlock()
		if waiting >= g.enough {
			return
		}
		select {
		case <-more:
			if !pause.Stop() {
				<-pause.C
			}
			pause.Reset(g.gap)
		case <-pause.C:
			return
		case <-deadline.C:
			return
		}
	}
}

// conflicted marks that the charge of key's batch failed, and the
// Evaluator retries the batch.
func (g *gather) conflicted(key string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if f := g.flows[key]; f != nil {
		f.retry = true
	}
}
