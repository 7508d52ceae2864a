package shard

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	metainternalversion "k8s.io/apimachinery/pkg/apis/meta/internalversion"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apiserver/pkg/registry/rest"

	"github.com/canopy-dev/canopy/internal/pgtest"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/registry"
	"github.com/canopy-dev/canopy/pkg/registry/coordination"
	"github.com/canopy-dev/canopy/pkg/sqlstorage"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// fast are timings that let a test see handovers within seconds.
var fast = Config{LeaseDuration: 2 * time.Second, RenewDeadline: 1400 * time.Millisecond, RetryPeriod: 200 * time.Millisecond}

// datastores are the databases the Managers share leases in. Each
// returns a function that opens the Lease store of one more replica:
// for PostgreSQL a backend of its own, as another hub process has; for
// SQLite, which one process owns, the same store.
var datastores = []struct {
	name string
	open func(tb testing.TB) func() Leases
}{
	{"sqlite", func(tb testing.TB) func() Leases {
		leases := leaseStore(tb, "sqlite://"+filepath.Join(tb.TempDir(), "canopy.db"))
		return func() Leases { return leases }
	}},
	{"postgres", func(tb testing.TB) func() Leases {
		url := pgtest.Shared(tb).NewDatabase(tb)
		return func() Leases { return leaseStore(tb, url) }
	}},
}

// eachDatastore runs fn once per database, as parallel subtests, since
// they mostly wait for leases to expire.
func eachDatastore(t *testing.T, fn func(t *testing.T, open func() Leases)) {
	for _, ds := range datastores {
		t.Run(ds.name, func(t *testing.T) {
			t.Parallel()
			fn(t, ds.open(t))
		})
	}
}

// leaseStore is the hub's registry store of Leases over the datastore at
// url, on a backend of its own.
func leaseStore(tb testing.TB, url string) Leases {
	tb.Helper()
	backend, err := sqlstorage.Open(context.Background(), url, sqlstorage.Options{CompactInterval: -1})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = backend.Close() })
	scheme := runtime.NewScheme()
	if err := coordination.AddToScheme(scheme); err != nil {
		tb.Fatal(err)
	}
	metav1.AddToGroupVersion(scheme, schema.GroupVersion{Version: "v1"})
	group, err := coordination.NewStorage(&registry.Factory{Backend: backend, Serializer: serializer.NewCodecFactory(scheme)}, scheme)
	if err != nil {
		tb.Fatal(err)
	}
	store := group.Stores[0]
	tb.Cleanup(store.DestroyFunc)
	return store
}

// errCut is what a replica cut off from the database gets.
var errCut = errors.New("cut off from the database")

// severable is a replica's Lease store, which the test can cut off as a
// kill -9 or a network partition cuts off a replica, and which counts the
// writes the replica asks of it.
type severable struct {
	Leases
	cut    atomic.Bool
	writes atomic.Int64
}

func (s *severable) List(ctx context.Context, o *metainternalversion.ListOptions) (runtime.Object, error) {
	if s.cut.Load() {
		return nil, errCut
	}
	return s.Leases.List(ctx, o)
}

func (s *severable) Create(ctx context.Context, obj runtime.Object, v rest.ValidateObjectFunc, o *metav1.CreateOptions) (runtime.Object, error) {
	if s.cut.Load() {
		return nil, errCut
	}
	s.writes.Add(1)
	return s.Leases.Create(ctx, obj, v, o)
}

func (s *severable) Update(ctx context.Context, name string, info rest.UpdatedObjectInfo, cv rest.ValidateObjectFunc,
	uv rest.ValidateObjectUpdateFunc, force bool, o *metav1.UpdateOptions,
) (runtime.Object, bool, error) {
	if s.cut.Load() {
		return nil, false, errCut
	}
	s.writes.Add(1)
	return s.Leases.Update(ctx, name, info, cv, uv, force, o)
}

func (s *severable) Delete(ctx context.Context, name string, v rest.ValidateObjectFunc, o *metav1.DeleteOptions) (runtime.Object, bool, error) {
	if s.cut.Load() {
		return nil, false, errCut
	}
	s.writes.Add(1)
	return s.Leases.Delete(ctx, name, v, o)
}

// clusters holds a logical cluster of each shard, to ask Owns about.
var clusters = func() [Count]logicalcluster.Name {
	var names [Count]logicalcluster.Name
	for i, found := 0, 0; found < Count; i++ {
		n := logicalcluster.Name(fmt.Sprintf("root:team-%d", i))
		if names[Of(n)] == "" {
			names[Of(n)] = n
			found++
		}
	}
	return names
}()

// replica is a running Manager.
type replica struct {
	*Manager
	store  *severable
	cancel context.CancelFunc
	done   chan struct{}

	mu     sync.Mutex
	gained map[int]int // how often OnGain told of each shard
}

// start runs a Manager on leases with the timings of timing.
func start(t testing.TB, leases Leases, timing Config) *replica {
	t.Helper()
	r := &replica{store: &severable{Leases: leases}, done: make(chan struct{}), gained: map[int]int{}}
	cfg := timing
	cfg.Leases, cfg.Identity = r.store, NewIdentity()
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r.Manager = m
	m.OnGain(func(s int) {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.gained[s]++
	})
	var ctx context.Context
	ctx, r.cancel = context.WithCancel(context.Background())
	go func() {
		defer close(r.done)
		m.Run(ctx)
	}()
	t.Cleanup(r.stop)
	return r
}

// stop shuts the replica down gracefully, releasing its shards.
func (r *replica) stop() {
	r.cancel()
	<-r.done
}

// cut cuts the replica off from the database without stopping it, as a
// partition does; a kill -9 is the same to the others.
func (r *replica) cut() { r.store.cut.Store(true) }

// owned is the shards the replica owns now.
func (r *replica) owned() []int {
	var shards []int
	for s, n := range clusters {
		if r.Owns(n) {
			shards = append(shards, s)
		}
	}
	return shards
}

// toldOf tells whether OnGain has told the replica of each of shards.
func (r *replica) toldOf(shards []int) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range shards {
		if r.gained[s] == 0 {
			return false
		}
	}
	return true
}

// watchExclusive samples Owns of every replica in replicas() until the
// test ends, and fails it if two ever own one shard at once. Each shard
// is asked of the replicas in order and then in reverse: two replicas
// that say yes both times owned the shard at the same instant, the
// second one asked in between the first one's two answers.
func watchExclusive(t *testing.T, replicas func() []*replica) {
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		for {
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
			}
			rs := replicas()
			for s, n := range clusters {
				first := make([]bool, len(rs))
				for i, r := range rs {
					first[i] = r.Owns(n)
				}
				var both []string
				for i := len(rs) - 1; i >= 0; i-- {
					if rs[i].Owns(n) && first[i] {
						both = append(both, rs[i].Identity())
					}
				}
				if len(both) > 1 {
					t.Errorf("shard %d is owned by %s at once", s, strings.Join(both, " and "))
				}
			}
		}
	}()
	t.Cleanup(func() {
		close(done)
		<-stopped
	})
}

// group is the replicas of a test, as the sampler sees them.
type group struct {
	mu       sync.Mutex
	replicas []*replica
}

func (g *group) list() []*replica {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.replicas)
}

func (g *group) add(r *replica) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.replicas = append(g.replicas, r)
}

func (g *group) remove(r *replica) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.replicas = slices.DeleteFunc(g.replicas, func(x *replica) bool { return x == r })
}

// balanced tells whether the replicas own every shard between them, each
// its fair share rounded down or up, and were told of gaining each.
func balanced(rs []*replica) (bool, string) {
	total, counts := 0, []int{}
	ok := true
	for _, r := range rs {
		owned := r.owned()
		counts = append(counts, len(owned))
		total += len(owned)
		if n := len(owned); n != Count/len(rs) && n != (Count+len(rs)-1)/len(rs) || !r.toldOf(owned) {
			ok = false
		}
	}
	return ok && total == Count, fmt.Sprintf("shards owned per replica %v", counts)
}

// eventually waits up to timeout until ok holds, and says what it waited
// for if it does not.
func eventually(t testing.TB, timeout time.Duration, what string, ok func() (bool, string)) time.Duration {
	t.Helper()
	began := time.Now()
	for {
		done, state := ok()
		if done {
			return time.Since(began)
		}
		if time.Since(began) > timeout {
			t.Fatalf("after %s, still not %s: %s", timeout, what, state)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestShardsSpreadAndMove starts one replica, then a second and a third,
// then stops one gracefully and cuts one off: each time every shard is
// owned, each replica owning its fair share give or take one and told
// of what it gained, and never a shard by two at once.
func TestShardsSpreadAndMove(t *testing.T) {
	eachDatastore(t, func(t *testing.T, open func() Leases) {
		var g group
		watchExclusive(t, g.list)
		settle := func(what string) {
			t.Helper()
			eventually(t, 30*time.Second, what, func() (bool, string) { return balanced(g.list()) })
		}
		for n := 1; n <= 3; n++ {
			g.add(start(t, open(), fast))
			settle(fmt.Sprintf("balanced over %d replicas", n))
		}
		leaving := g.list()[0]
		g.remove(leaving)
		leaving.stop()
		if owned := leaving.owned(); len(owned) > 0 {
			t.Errorf("a stopped replica still owns shards %v", owned)
		}
		settle("balanced over 2 replicas after one stopped")
		g.add(start(t, open(), fast))
		settle("balanced over 3 replicas after one came")
		cut := g.list()[1]
		cut.cut()
		// The cut replica stays in the sampler's view: it must stop
		// owning its shards before the others take them.
		eventually(t, 30*time.Second, "balanced over the 2 replicas left after one was cut off", func() (bool, string) {
			rs := g.list()
			return balanced(slices.DeleteFunc(rs, func(r *replica) bool { return r == cut }))
		})
		if owned := cut.owned(); len(owned) > 0 {
			t.Errorf("a replica cut off from the database still owns shards %v", owned)
		}
	})
}

// TestHoldLapses cuts a replica off from the database for less than the
// lease duration, longer than the renew deadline, so that it stops
// owning its shards though no one takes them, and then for longer, so
// that the others take them: each time it comes back it owns its fair
// share again, told of it anew, and never a shard that another owns.
func TestHoldLapses(t *testing.T) {
	eachDatastore(t, func(t *testing.T, open func() Leases) {
		var g group
		watchExclusive(t, g.list)
		for range 3 {
			g.add(start(t, open(), fast))
		}
		settle := func(what string) {
			t.Helper()
			eventually(t, 30*time.Second, what, func() (bool, string) { return balanced(g.list()) })
		}
		settle("balanced over 3 replicas")
		back := g.list()[0]
		for _, away := range []time.Duration{(fast.RenewDeadline + fast.LeaseDuration) / 2, 2 * fast.LeaseDuration} {
			// balanced asks that it be told anew of what it owns.
			back.mu.Lock()
			clear(back.gained)
			back.mu.Unlock()
			back.cut()
			eventually(t, 30*time.Second, "the cut off replica owning nothing", func() (bool, string) {
				return len(back.owned()) == 0, fmt.Sprintf("it owns %v", back.owned())
			})
			time.Sleep(away - fast.RenewDeadline)
			back.store.cut.Store(false)
			settle(fmt.Sprintf("balanced over 3 replicas after one was cut off for %s", away))
		}
	})
}

// TestTakeoverAfterKill kills one of three replicas with the default
// timings, and waits for the other two to own every shard within the
// bound doc.go documents, with room for a loaded machine.
func TestTakeoverAfterKill(t *testing.T) {
	eachDatastore(t, func(t *testing.T, open func() Leases) {
		var g group
		watchExclusive(t, g.list)
		for range 3 {
			g.add(start(t, open(), Config{}))
		}
		eventually(t, 60*time.Second, "balanced over 3 replicas", func() (bool, string) { return balanced(g.list()) })
		killed := g.list()[0]
		killed.cut()
		survivors := g.list()[1:]
		const bound = DefaultLeaseDuration + 3*DefaultRetryPeriod
		took := eventually(t, 3*bound, "balanced over the 2 replicas left after a kill", func() (bool, string) { return balanced(survivors) })
		t.Logf("the survivors owned every shard %s after the kill", took.Round(100*time.Millisecond))
	})
}

// BenchmarkTakeover reports how long after a kill -9 of one of two
// replicas on one PostgreSQL database the other owns every shard, with
// the default timings.
func BenchmarkTakeover(b *testing.B) {
	var total time.Duration
	for range b.N {
		open := datastores[1].open(b)
		survivor, killed := start(b, open(), Config{}), start(b, open(), Config{})
		rs := []*replica{survivor, killed}
		eventually(b, time.Minute, "balanced over 2 replicas", func() (bool, string) { return balanced(rs) })
		killed.cut()
		total += eventually(b, time.Minute, "all shards owned by the survivor", func() (bool, string) { return balanced(rs[:1]) })
		survivor.stop()
		killed.stop()
	}
	b.ReportMetric(total.Seconds()/float64(b.N), "s/takeover")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkIdleWrites reports how many Lease writes a second 1 and 3
// replicas sharing one SQLite database make between them once the
// shards are spread and nothing changes, with the default timings.
func BenchmarkIdleWrites(b *testing.B) {
	for _, n := range []int{1, 3} {
		b.Run(fmt.Sprintf("replicas=%d", n), func(b *testing.B) {
			open := datastores[0].open(b)
			var rs []*replica
			for range n {
				rs = append(rs, start(b, open(), Config{}))
			}
			eventually(b, time.Minute, fmt.Sprintf("balanced over %d replicas", n), func() (bool, string) { return balanced(rs) })
			writes := func() (total int64) {
				for _, r := range rs {
					total += r.store.writes.Load()
				}
				return total
			}
			// Let the writes of the spreading settle before counting.
			time.Sleep(2 * DefaultRetryPeriod)
			before, began := writes(), time.Now()
			b.ResetTimer()
			for range b.N {
				time.Sleep(5 * DefaultRetryPeriod)
			}
			b.StopTimer()
			b.ReportMetric(float64(writes()-before)/time.Since(began).Seconds(), "writes/s")
			b.ReportMetric(0, "ns/op")
		})
	}
}
