package hub

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/canopy-dev/canopy/bench/internal/follow"
	"github.com/canopy-dev/canopy/bench/internal/knob"
	"github.com/canopy-dev/canopy/bench/internal/proc"
	benchreport "github.com/canopy-dev/canopy/bench/internal/report"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/canopy-dev/canopy/internal/pgtest"
)

// Knobs, all optional.
const (
	envLCs     = "CANOPY_BENCH_LCS"     // logical clusters to create (10000)
	envWorkers = "CANOPY_BENCH_WORKERS" // concurrent clients creating and deleting (48)
	envDelete  = "CANOPY_BENCH_DELETE"  // logical clusters to delete at the end (1000, at most N)
	envGets    = "CANOPY_BENCH_GETS"    // GETs per latency run (2000)
	envSettle  = "CANOPY_BENCH_SETTLE"  // wait before the settled memory reading (60s)
	envHub     = "CANOPY_HUB"           // a prebuilt hub binary; unset builds cmd/hub
	envOut     = "CANOPY_BENCH_OUT"     // directory for profiles and the hub log (a temp dir)
)

// Goals, reported and not enforced.
const (
	goalRate      = 200.0                 // logical clusters/s, at least
	goalKiBPerLC  = 150.0                 // hub RSS per idle logical cluster, at most
	goalGetP99    = 10 * time.Millisecond // GET p99 with all logical clusters existing, at most
	configMaps    = 5
	configMapSize = 1024
	warmupLCs     = 20
	// compactionInterval is the hub's: the watch caches keep snapshots
	// of the history back to the last compaction, which idle logical
	// clusters no longer need once it has passed.
	compactionInterval = 15 * time.Second
)

var lcResource = schema.GroupVersionResource{Group: "tenancy.canopy.dev", Version: "v1alpha1", Resource: "logicalclusters"}

func BenchmarkLogicalClusters(b *testing.B) {
	n := knob.Int(b, envLCs, 10000)
	workers := knob.Int(b, envWorkers, 48)
	nDelete := min(knob.Int(b, envDelete, 1000), n)
	nGets := knob.Int(b, envGets, 2000)
	settle := knob.Duration(b, envSettle, 4*compactionInterval)
	out := knob.Dir(b, envOut)
	loadStart := benchreport.LoadAverage()

	for range b.N {
		bin := proc.Binary(b, envHub, "github.com/canopy-dev/canopy/cmd/hub")
		dsn := pgtest.Start(b).NewDatabase(b)
		// The short compaction interval lets the settled reading be what
		// idle logical clusters cost.
		h := &hubProcess{proc.StartHub(b, bin, dsn, filepath.Join(out, "hub.log"), "--compaction-interval", compactionInterval.String())}
		r := &report{N: n, Workers: workers, Out: out}
		run(b, h, r, n, workers, nDelete, nGets, settle)
		b.ReportMetric(r.Rate, "lcs/s")
		b.ReportMetric(r.KiBPerLC, "KiB/lc")
		b.ReportMetric(ms(r.GetOne.P99), "get-p99-ms")
		printReport(os.Stdout, r, loadStart)
	}
}

// report holds the figures of one run.
type report struct {
	N, Workers, Deleted int
	Out                 string

	Wall, ReadyP50, ReadyP99, ReadyMax     time.Duration
	Rate                                   float64
	NSRetries                              int64
	Deciles                                []float64 // logical clusters/s in each tenth of the creation
	MemBefore, MemAfter, MemSettled        proc.Memory
	KiBPerLC, HeapKiBPerLC                 float64
	GetOne, GetRandom                      benchreport.Latencies
	DeleteWall, DeleteP50, DeleteP99       time.Duration
	MemAfterDelete                         proc.Memory
	CPUProfile, HeapProfile, GoroutineDump string
}

func run(b *testing.B, h *hubProcess, r *report, n, workers, nDelete, nGets int, settle time.Duration) {
	ctx := context.Background()
	base, err := clientcmd.BuildConfigFromFlags("", h.AdminKubeconfig())
	if err != nil {
		b.Fatal(err)
	}
	base.QPS, base.Burst = 5000, 5000
	base.Timeout = 60 * time.Second
	httpClient, err := rest.HTTPClientFor(base)
	if err != nil {
		b.Fatal(err)
	}
	cluster := func(path string) *rest.Config {
		c := rest.CopyConfig(base)
		c.Host = h.URL() + "/clusters/" + path
		return c
	}
	root, err := dynamic.NewForConfigAndClient(cluster("root"), httpClient)
	if err != nil {
		b.Fatal(err)
	}
	lcs := root.Resource(lcResource)
	kube := func(name string) *kubernetes.Clientset {
		cs, err := kubernetes.NewForConfigAndClient(cluster("root:"+name), httpClient)
		if err != nil {
			b.Fatal(err)
		}
		return cs
	}

	w := newLCWatcher(ctx, b, lcs)
	defer w.stop()

	data := strings.Repeat("x", configMapSize)
	var nsRetries atomic.Int64
	// create makes one logical cluster and populates it; it returns the
	// create -> Ready latency.
	create := func(name string) (time.Duration, error) {
		ready, _ := w.expect(name)
		start := time.Now()
		lc := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "tenancy.canopy.dev/v1alpha1", "kind": "LogicalCluster",
			"metadata": map[string]any{"name": name},
		}}
		if _, err := lcs.Create(ctx, lc, metav1.CreateOptions{}); err != nil {
			return 0, fmt.Errorf("creating LogicalCluster %s: %w", name, err)
		}
		select {
		case <-ready:
		case <-time.After(2 * time.Minute):
			return 0, fmt.Errorf("LogicalCluster %s not Ready after 2m", name)
		}
		readyAfter := time.Since(start)
		cs := kube(name)
		for {
			_, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "app"}}, metav1.CreateOptions{})
			if err == nil {
				break
			}
			if !apierrors.IsNotFound(err) && !apierrors.IsForbidden(err) || time.Since(start) > 2*time.Minute {
				return 0, fmt.Errorf("creating namespace app in root:%s: %w", name, err)
			}
			nsRetries.Add(1)
			time.Sleep(10 * time.Millisecond)
		}
		for i := range configMaps {
			cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("cm-%d", i)}, Data: map[string]string{"data": data}}
			if _, err := cs.CoreV1().ConfigMaps("app").Create(ctx, cm, metav1.CreateOptions{}); err != nil {
				return 0, fmt.Errorf("creating configmap in root:%s: %w", name, err)
			}
		}
		return readyAfter, nil
	}
	// pool runs f for 0..count-1 on the workers and returns the durations
	// f returned; onDone is called after every completion.
	pool := func(count int, f func(i int) (time.Duration, error), onDone func(done int)) []time.Duration {
		var next, done atomic.Int64
		durations := make([]time.Duration, count)
		var wg sync.WaitGroup
		var firstErr error
		var errOnce sync.Once
		var failed atomic.Bool
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					i := int(next.Add(1) - 1)
					if i >= count || failed.Load() {
						return
					}
					d, err := f(i)
					if err != nil {
						errOnce.Do(func() { firstErr = err; failed.Store(true) })
						return
					}
					durations[i] = d
					if onDone != nil {
						onDone(int(done.Add(1)))
					}
				}
			}()
		}
		wg.Wait()
		if firstErr != nil {
			b.Fatalf("%v\nhub log tail:\n%s", firstErr, h.LogTail())
		}
		return durations
	}

	// Warm-up: a few logical clusters, not counted, so that "before" is a
	// hub that has served the whole path once.
	pool(warmupLCs, func(i int) (time.Duration, error) { return create(fmt.Sprintf("warm-%d", i)) }, nil)
	r.MemBefore = h.Memory(true, logf)
	logf("before: %s", r.MemBefore)

	// Creation, with a CPU profile of the hub over its first 30s (or less).
	profSecs := 30
	r.CPUProfile = filepath.Join(r.Out, "hub-cpu-create.pprof")
	profDone := make(chan struct{})
	go func() {
		defer close(profDone)
		if err := h.FetchTo(fmt.Sprintf("/debug/pprof/profile?seconds=%d", profSecs), r.CPUProfile, time.Duration(profSecs+30)*time.Second); err != nil {
			logf("CPU profile: %v", err)
			r.CPUProfile = ""
		}
	}()
	start := time.Now()
	var mu sync.Mutex
	marks := []time.Duration{}
	step := max(1, n/10)
	ready := pool(n, func(i int) (time.Duration, error) { return create(fmt.Sprintf("lc-%d", i)) }, func(done int) {
		if done%step == 0 || done == n {
			el := time.Since(start)
			mu.Lock()
			marks = append(marks, el)
			mu.Unlock()
			logf("created %d/%d in %v (%.0f/s overall), hub RSS %d MiB", done, n, el.Round(time.Millisecond), float64(done)/el.Seconds(), h.rssKiB()/1024)
		}
	})
	r.Wall = time.Since(start)
	r.Rate = float64(n) / r.Wall.Seconds()
	r.NSRetries = nsRetries.Load()
	rd := benchreport.Summarize(ready)
	r.ReadyP50, r.ReadyP99, r.ReadyMax = rd.P50, rd.P99, rd.Max
	slices.Sort(marks)
	var prev time.Duration
	for _, m := range marks {
		if len(r.Deciles) == 10 {
			break
		}
		r.Deciles = append(r.Deciles, float64(step)/(m-prev).Seconds())
		prev = m
	}
	<-profDone

	r.MemAfter = h.Memory(false, logf)
	logf("after creating %d: %s", n, r.MemAfter)
	time.Sleep(settle)
	r.MemSettled = h.Memory(true, logf)
	logf("settled (GC, %v): %s", settle, r.MemSettled)
	r.KiBPerLC = float64(r.MemSettled.RSSKiB-r.MemBefore.RSSKiB) / float64(n)
	if r.MemSettled.HeapKiB >= 0 && r.MemBefore.HeapKiB >= 0 {
		r.HeapKiBPerLC = float64(r.MemSettled.HeapKiB-r.MemBefore.HeapKiB) / float64(n)
	}
	r.HeapProfile = filepath.Join(r.Out, "hub-heap.pprof")
	if err := h.FetchTo("/debug/pprof/heap", r.HeapProfile, time.Minute); err != nil {
		logf("heap profile: %v", err)
		r.HeapProfile = ""
	}
	r.GoroutineDump = filepath.Join(r.Out, "hub-goroutines.txt")
	if err := h.FetchTo("/debug/pprof/goroutine?debug=1", r.GoroutineDump, time.Minute); err != nil {
		r.GoroutineDump = ""
	}

	// GETs while all logical clusters exist: one ConfigMap in one logical
	// cluster, then in random ones, sequentially.
	one := kube(fmt.Sprintf("lc-%d", n/2))
	get := func(cs *kubernetes.Clientset) time.Duration {
		t0 := time.Now()
		if _, err := cs.CoreV1().ConfigMaps("app").Get(ctx, "cm-0", metav1.GetOptions{}); err != nil {
			b.Fatal(err)
		}
		return time.Since(t0)
	}
	for range 50 {
		get(one)
	}
	d := make([]time.Duration, nGets)
	for i := range d {
		d[i] = get(one)
	}
	r.GetOne = benchreport.Summarize(d)
	clients := make([]*kubernetes.Clientset, n)
	d = make([]time.Duration, nGets)
	for i := range d {
		j := rand.IntN(n)
		if clients[j] == nil {
			clients[j] = kube(fmt.Sprintf("lc-%d", j))
		}
		d[i] = get(clients[j])
	}
	r.GetRandom = benchreport.Summarize(d)
	logf("GET one cluster: p50 %.2f ms p99 %.2f ms; random clusters: p50 %.2f ms p99 %.2f ms",
		ms(r.GetOne.P50), ms(r.GetOne.P99), ms(r.GetRandom.P50), ms(r.GetRandom.P99))

	// Deletion of nDelete logical clusters, until each is gone.
	r.Deleted = nDelete
	start = time.Now()
	gone := pool(nDelete, func(i int) (time.Duration, error) {
		name := fmt.Sprintf("lc-%d", i)
		_, goneCh := w.expect(name)
		t0 := time.Now()
		if err := lcs.Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
			return 0, fmt.Errorf("deleting LogicalCluster %s: %w", name, err)
		}
		select {
		case <-goneCh:
		case <-time.After(5 * time.Minute):
			return 0, fmt.Errorf("LogicalCluster %s not gone 5m after its deletion", name)
		}
		return time.Since(t0), nil
	}, nil)
	r.DeleteWall = time.Since(start)
	dd := benchreport.Summarize(gone)
	r.DeleteP50, r.DeleteP99 = dd.P50, dd.P99
	// Every one is gone for the API too.
	for i := range nDelete {
		if _, err := lcs.Get(ctx, fmt.Sprintf("lc-%d", i), metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			b.Fatalf("LogicalCluster lc-%d after its deletion: %v", i, err)
		}
	}
	r.MemAfterDelete = h.Memory(true, logf)
	if err := h.FetchTo("/debug/pprof/goroutine?debug=1", filepath.Join(r.Out, "hub-goroutines-after-delete.txt"), time.Minute); err != nil {
		logf("goroutine dump: %v", err)
	}
	logf("deleted %d in %v; %s", nDelete, r.DeleteWall.Round(time.Millisecond), r.MemAfterDelete)
}

// lcWatcher follows root's LogicalClusters and tells workers when theirs
// is Ready and when it is gone.
type lcWatcher struct {
	mu    sync.Mutex
	ready map[string]chan struct{}
	gone  map[string]chan struct{}
	stop  context.CancelFunc
}

func newLCWatcher(ctx context.Context, tb testing.TB, lcs dynamic.ResourceInterface) *lcWatcher {
	ctx, cancel := context.WithCancel(ctx)
	w := &lcWatcher{ready: map[string]chan struct{}{}, gone: map[string]chan struct{}{}, stop: cancel}
	follow.Follow(ctx, tb, lcs, w.observe, w.listed)
	return w
}

// listed closes the gone channels of the names a list no longer holds.
func (w *lcWatcher) listed(present map[string]bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for name, ch := range w.gone {
		if !present[name] {
			closeOnce(ch)
		}
	}
}

func (w *lcWatcher) observe(u *unstructured.Unstructured, deleted bool) {
	phase, _, _ := unstructured.NestedString(u.Object, "status", "phase")
	w.mu.Lock()
	defer w.mu.Unlock()
	name := u.GetName()
	if deleted {
		if ch, ok := w.gone[name]; ok {
			closeOnce(ch)
		}
		return
	}
	if phase == "Ready" {
		if ch, ok := w.ready[name]; ok {
			closeOnce(ch)
		}
	}
}

// expect returns the channels closed when name is Ready and when it is
// gone; call it before the request that causes either.
func (w *lcWatcher) expect(name string) (ready, gone <-chan struct{}) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.ready[name] == nil {
		w.ready[name] = make(chan struct{})
	}
	w.gone[name] = make(chan struct{})
	return w.ready[name], w.gone[name]
}

func closeOnce(ch chan struct{}) {
	select {
	case <-ch:
	default:
		close(ch)
	}
}

// hubProcess is the hub the benchmark started.
type hubProcess struct{ *proc.Hub }

func (h *hubProcess) rssKiB() int64 { return proc.RSSKiB(h.PID()) }

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "%s bench/hub: %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, args...))
}

var ms = benchreport.MS

// printReport prints the figures, the goals and the reference.
func printReport(out io.Writer, r *report, loadStart string) {
	bw := bufio.NewWriter(out)
	defer bw.Flush()
	fmt.Fprintf(bw, "\n=== Hub benchmark: %d logical clusters on PostgreSQL (fsync on), each with namespace app and %d ConfigMaps of ~%d B;\n"+
		"client-go as admin, %d concurrent workers; hub, PostgreSQL and benchmark share %d CPUs (GOMAXPROCS=%d here) ===\n\n",
		r.N, configMaps, configMapSize, r.Workers, runtime.NumCPU(), runtime.GOMAXPROCS(0))
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "figure\tvalue\tgoal\t\treference (kcp)\t")
	rateOK := r.Rate >= goalRate
	fmt.Fprintf(tw, "creation rate (fully populated)\t%.1f lcs/s (%d in %v)\t>= %.0f/s\t%s\t2-8/s\t\n",
		r.Rate, r.N, r.Wall.Round(time.Millisecond), goalRate, benchreport.PassMiss(rateOK))
	dec := make([]string, len(r.Deciles))
	for i, v := range r.Deciles {
		dec[i] = fmt.Sprintf("%.0f", v)
	}
	fmt.Fprintf(tw, "  rate per tenth of the run\t%s /s\t\t\t\t\n", strings.Join(dec, " "))
	fmt.Fprintf(tw, "  create -> Ready p50 / p99 / max\t%.1f / %.1f / %.1f ms\t\t\t\t\n", ms(r.ReadyP50), ms(r.ReadyP99), ms(r.ReadyMax))
	fmt.Fprintf(tw, "  namespace creates retried (not served yet)\t%d\t\t\t\t\n", r.NSRetries)
	fmt.Fprintf(tw, "hub RSS before (after %d warm-up lcs)\t%.1f MiB\t\t\t\t\n", warmupLCs, float64(r.MemBefore.RSSKiB)/1024)
	fmt.Fprintf(tw, "hub RSS right after creating\t%.1f MiB\t\t\t\t\n", float64(r.MemAfter.RSSKiB)/1024)
	fmt.Fprintf(tw, "hub RSS settled (GC + wait)\t%.1f MiB\t\t\t\t\n", float64(r.MemSettled.RSSKiB)/1024)
	kibOK := r.KiBPerLC <= goalKiBPerLC
	fmt.Fprintf(tw, "hub RSS per idle logical cluster\t%.1f KiB\t<= %.0f KiB\t%s\t7-10 MiB\t\n", r.KiBPerLC, goalKiBPerLC, benchreport.PassMiss(kibOK))
	if r.MemBefore.HeapKiB >= 0 {
		fmt.Fprintf(tw, "  Go heap before / settled\t%.1f / %.1f MiB (%.1f KiB per lc)\t\t\t\t\n",
			float64(r.MemBefore.HeapKiB)/1024, float64(r.MemSettled.HeapKiB)/1024, r.HeapKiBPerLC)
	}
	if r.MemBefore.Goroutines >= 0 {
		fmt.Fprintf(tw, "  goroutines before / after / settled\t%d / %d / %d\t\t\t\t\n",
			r.MemBefore.Goroutines, r.MemAfter.Goroutines, r.MemSettled.Goroutines)
	}
	getOK := r.GetOne.P99 <= goalGetP99
	fmt.Fprintf(tw, "GET ConfigMap, one lc, p50 / p99 / max\t%.2f / %.2f / %.2f ms (%d GETs)\tp99 <= %v\t%s\t\t\n",
		ms(r.GetOne.P50), ms(r.GetOne.P99), ms(r.GetOne.Max), r.GetOne.N, goalGetP99, benchreport.PassMiss(getOK))
	fmt.Fprintf(tw, "GET ConfigMap, random lcs, p50 / p99 / max\t%.2f / %.2f / %.2f ms (%d GETs)\t\t\t\t\n",
		ms(r.GetRandom.P50), ms(r.GetRandom.P99), ms(r.GetRandom.Max), r.GetRandom.N)
	fmt.Fprintf(tw, "delete %d lcs until all gone\t%v (%.1f lcs/s)\t\t\t\t\n", r.Deleted, r.DeleteWall.Round(time.Millisecond), float64(r.Deleted)/r.DeleteWall.Seconds())
	fmt.Fprintf(tw, "  delete -> gone p50 / p99\t%.1f / %.1f ms\t\t\t\t\n", ms(r.DeleteP50), ms(r.DeleteP99))
	fmt.Fprintf(tw, "hub after the deletions (GC)\t%s\t\t\t\t\n", r.MemAfterDelete)
	tw.Flush()
	fmt.Fprintf(bw, "\nMachine load average (1, 5, 15 min): %s at the start, %s at the end, on %d CPUs.\n", loadStart, benchreport.LoadAverage(), runtime.NumCPU())
	fmt.Fprintf(bw, "Hub profiles: CPU during creation %s; heap after creation %s; goroutines %s (and hub-goroutines-after-delete.txt); hub log %s\n",
		orDash(r.CPUProfile), orDash(r.HeapProfile), orDash(r.GoroutineDump), filepath.Join(r.Out, "hub.log"))
	fmt.Fprintf(bw, "\nGoals (reported, not enforced):\n")
	fmt.Fprintf(bw, "  creation rate >= %.0f logical clusters/s: %.1f  %s\n", goalRate, r.Rate, benchreport.PassMiss(rateOK))
	fmt.Fprintf(bw, "  hub RSS per idle logical cluster <= %.0f KiB: %.1f KiB  %s\n", goalKiBPerLC, r.KiBPerLC, benchreport.PassMiss(kibOK))
	fmt.Fprintf(bw, "  GET p99 with all %d logical clusters existing <= %v: %.2f ms  %s\n", r.N, goalGetP99, ms(r.GetOne.P99), benchreport.PassMiss(getOK))
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
