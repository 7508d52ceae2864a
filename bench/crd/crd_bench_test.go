package crd

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"text/tabwriter"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/yaml"

	"github.com/canopy-dev/canopy/bench/internal/knob"
	"github.com/canopy-dev/canopy/bench/internal/proc"
	benchreport "github.com/canopy-dev/canopy/bench/internal/report"
	"github.com/canopy-dev/canopy/internal/pgtest"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// Knobs, all optional.
const (
	envLCs      = "CANOPY_BENCH_LCS"      // logical clusters installing the same definitions (1000)
	envDistinct = "CANOPY_BENCH_DISTINCT" // logical clusters installing definitions of their own (20)
	envWorkers  = "CANOPY_BENCH_WORKERS"  // concurrent clients (16)
	envCreates  = "CANOPY_BENCH_CREATES"  // custom resources created, and as many ConfigMaps (2000)
	envSettle   = "CANOPY_BENCH_SETTLE"   // wait before each memory reading (30s)
	envHub      = "CANOPY_HUB"            // a prebuilt hub binary; unset builds cmd/hub
	envOut      = "CANOPY_BENCH_OUT"      // directory for the hub log and heap profile (a temp dir)
)

const (
	// goalKiBPerInstall is acceptance 6 of issue 7: memory per
	// installation of a definition whose schema is already known.
	goalKiBPerInstall = 50.0
	// warmupLCs install the definitions before the first reading, so
	// that it is of a hub that knows their schemas and has served them.
	warmupLCs = 3
	// compactionInterval is the hub's: the watch caches keep the history
	// back to the last compaction, which a settled reading must not count.
	compactionInterval = 15 * time.Second
	// timeout bounds each wait for the hub.
	timeout = 2 * time.Minute
)

var (
	lcResource  = schema.GroupVersionResource{Group: "tenancy.canopy.dev", Version: "v1alpha1", Resource: "logicalclusters"}
	crdResource = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
)

func BenchmarkCRDs(b *testing.B) {
	n := knob.Int(b, envLCs, 1000)
	distinct := knob.Int(b, envDistinct, 20)
	workers := max(knob.Int(b, envWorkers, 16), 1)
	creates := knob.Int(b, envCreates, 2000)
	settle := knob.Duration(b, envSettle, 2*compactionInterval)
	out := knob.Dir(b, envOut)
	loadStart := benchreport.LoadAverage()
	for range b.N {
		bin := proc.Binary(b, envHub, "github.com/canopy-dev/canopy/cmd/hub")
		dsn := pgtest.Start(b).NewDatabase(b)
		h := proc.StartHub(b, bin, dsn, filepath.Join(out, "hub.log"), "--compaction-interval", compactionInterval.String())
		r := &report{N: n, Distinct: distinct, Workers: workers, Creates: creates, Out: out}
		newBench(b, h, workers, settle).run(r)
		b.ReportMetric(r.KnownHeapKiB, "heap-KiB/install")
		b.ReportMetric(benchreport.MS(r.Create.P99), "cr-create-p99-ms")
		printReport(os.Stdout, r, loadStart)
	}
}

// report holds the figures of one run.
type report struct {
	N, Distinct, Workers, Creates int
	Out                           string

	LCWall, KnownWall, DistinctWall  time.Duration
	MemBefore, MemKnown, MemDistinct proc.Memory
	// Per installation, in KiB: of an already known schema, and of a
	// schema of its own.
	KnownHeapKiB, KnownRSSKiB, DistinctHeapKiB, DistinctRSSKiB float64
	Established, Create, ConfigMap                             benchreport.Latencies
	HeapProfile                                                string
}

// bench is one run against one hub.
type bench struct {
	b       *testing.B
	h       *proc.Hub
	ctx     context.Context
	workers int
	settle  time.Duration
	base    *rest.Config
	http    *http.Client
	clients sync.Map // logical cluster name -> *clients
	crds    *establishedWatch
}

// clients talk to one logical cluster.
type clients struct {
	dynamic dynamic.Interface
	kube    kubernetes.Interface
}

func newBench(b *testing.B, h *proc.Hub, workers int, settle time.Duration) *bench {
	base, err := clientcmd.BuildConfigFromFlags("", h.AdminKubeconfig())
	if err != nil {
		b.Fatal(err)
	}
	base.QPS, base.Burst = 5000, 5000
	base.Timeout = time.Minute
	httpClient, err := rest.HTTPClientFor(base)
	if err != nil {
		b.Fatal(err)
	}
	bn := &bench{b: b, h: h, ctx: context.Background(), workers: workers, settle: settle, base: base, http: httpClient}
	bn.crds = watchEstablished(bn.ctx, b, bn.in(logicalcluster.Wildcard).dynamic.Resource(crdResource))
	b.Cleanup(bn.crds.stop)
	return bn
}

// in is the clients of logical cluster lc, all over one HTTP client.
func (bn *bench) in(lc string) *clients {
	if c, ok := bn.clients.Load(lc); ok {
		return c.(*clients)
	}
	config := rest.CopyConfig(bn.base)
	config.Host = bn.h.URL() + logicalcluster.PathPrefix + lc
	d, err := dynamic.NewForConfigAndClient(config, bn.http)
	if err != nil {
		bn.b.Fatal(err)
	}
	k, err := kubernetes.NewForConfigAndClient(config, bn.http)
	if err != nil {
		bn.b.Fatal(err)
	}
	c, _ := bn.clients.LoadOrStore(lc, &clients{d, k})
	return c.(*clients)
}

// pool runs f for 0..count-1 on the workers, and returns how long each
// took; the first error fails the benchmark.
func (bn *bench) pool(what string, count int, f func(i int) (time.Duration, error)) []time.Duration {
	var next atomic.Int64
	var failed atomic.Bool
	var firstErr error
	var once sync.Once
	durations := make([]time.Duration, count)
	var wg sync.WaitGroup
	for range bn.workers {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < count && !failed.Load(); i = int(next.Add(1) - 1) {
				d, err := f(i)
				if err != nil {
					once.Do(func() { firstErr = err; failed.Store(true) })
					return
				}
				durations[i] = d
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		bn.b.Fatalf("%s: %v\nhub log tail:\n%s", what, firstErr, bn.h.LogTail())
	}
	return durations
}

func (bn *bench) run(r *report) {
	same := func(i int) string { return fmt.Sprintf("lc-%d", i) }
	own := func(i int) string { return fmt.Sprintf("own-%d", i) }
	warm := func(i int) string { return fmt.Sprintf("warm-%d", i) }

	// Every logical cluster exists before the first reading, so that
	// the readings differ by the definitions alone.
	start := time.Now()
	all := make([]string, 0, warmupLCs+r.N+r.Distinct)
	for i := range warmupLCs {
		all = append(all, warm(i))
	}
	for i := range r.N {
		all = append(all, same(i))
	}
	for i := range r.Distinct {
		all = append(all, own(i))
	}
	bn.pool("creating logical clusters", len(all), func(i int) (time.Duration, error) { return 0, bn.createLC(all[i]) })
	r.LCWall = time.Since(start)
	logf("created %d logical clusters in %v", len(all), r.LCWall.Round(time.Millisecond))

	// The warm-up logical clusters install the definitions and create
	// an object of each, so that the hub knows their schemas.
	bn.pool("warming up", warmupLCs, func(i int) (time.Duration, error) {
		for _, d := range definitions {
			if _, err := bn.install(warm(i), d.manifest); err != nil {
				return 0, err
			}
			if _, err := bn.createCR(warm(i), d, "warm"); err != nil {
				return 0, err
			}
		}
		return 0, nil
	})
	r.MemBefore = bn.settled("before")

	// N logical clusters install the same definitions; each installation
	// is then served once (a list), as an operator's first request does.
	start = time.Now()
	established := bn.pool("installing known definitions", r.N*len(definitions), func(i int) (time.Duration, error) {
		lc, d := same(i/len(definitions)), definitions[i%len(definitions)]
		took, err := bn.install(lc, d.manifest)
		if err != nil {
			return 0, err
		}
		return took, bn.list(lc, d)
	})
	r.KnownWall = time.Since(start)
	r.Established = benchreport.Summarize(established)
	r.MemKnown = bn.settled(fmt.Sprintf("%d installations of known definitions", r.N*len(definitions)))
	r.KnownHeapKiB = perInstall(r.MemBefore.HeapInuseKiB, r.MemKnown.HeapInuseKiB, r.N)
	r.KnownRSSKiB = perInstall(r.MemBefore.RSSKiB, r.MemKnown.RSSKiB, r.N)

	// A few logical clusters install definitions of their own: the cost
	// of a schema the hub has not seen.
	start = time.Now()
	bn.pool("installing distinct definitions", r.Distinct*len(definitions), func(i int) (time.Duration, error) {
		lc, d := own(i/len(definitions)), definitions[i%len(definitions)]
		if _, err := bn.install(lc, variant(d.manifest, i/len(definitions))); err != nil {
			return 0, err
		}
		return 0, bn.list(lc, d)
	})
	r.DistinctWall = time.Since(start)
	r.MemDistinct = bn.settled(fmt.Sprintf("%d installations of distinct definitions", r.Distinct*len(definitions)))
	r.DistinctHeapKiB = perInstall(r.MemKnown.HeapInuseKiB, r.MemDistinct.HeapInuseKiB, r.Distinct)
	r.DistinctRSSKiB = perInstall(r.MemKnown.RSSKiB, r.MemDistinct.RSSKiB, r.Distinct)
	r.HeapProfile = filepath.Join(r.Out, "hub-heap.pprof")
	if err := bn.h.FetchTo("/debug/pprof/heap", r.HeapProfile, time.Minute); err != nil {
		logf("heap profile: %v", err)
		r.HeapProfile = ""
	}

	// Creates across the logical clusters, each a custom resource and a
	// ConfigMap alike, under the same load.
	type pair struct{ cr, cm time.Duration }
	pairs := make([]pair, r.Creates)
	bn.pool("creating objects", r.Creates, func(i int) (time.Duration, error) {
		lc, d, name := same(i%r.N), definitions[i%len(definitions)], fmt.Sprintf("bench-%d", i)
		var err error
		// Alternate which goes first, so neither always finds the
		// other's work done.
		if i%2 == 0 {
			if pairs[i].cr, err = bn.createCR(lc, d, name); err == nil {
				pairs[i].cm, err = bn.createConfigMap(lc, name)
			}
		} else if pairs[i].cm, err = bn.createConfigMap(lc, name); err == nil {
			pairs[i].cr, err = bn.createCR(lc, d, name)
		}
		return 0, err
	})
	crs, cms := make([]time.Duration, r.Creates), make([]time.Duration, r.Creates)
	for i, p := range pairs {
		crs[i], cms[i] = p.cr, p.cm
	}
	r.Create, r.ConfigMap = benchreport.Summarize(crs), benchreport.Summarize(cms)
}

// perInstall is the growth from before to after, in KiB, per installation
// of the definitions in each of lcs logical clusters.
func perInstall(before, after int64, lcs int) float64 {
	if before < 0 || after < 0 || lcs == 0 {
		return -1
	}
	return float64(after-before) / float64(lcs*len(definitions))
}

// settled is the hub's memory after a wait of a few compactions and a
// forced GC.
func (bn *bench) settled(what string) proc.Memory {
	time.Sleep(bn.settle)
	m := bn.h.Memory(true, logf)
	logf("%s: %s", what, m)
	return m
}

// createLC creates logical cluster root:<name> and waits until it is
// Ready.
func (bn *bench) createLC(name string) error {
	lcs := bn.in("root").dynamic.Resource(lcResource)
	lc := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "tenancy.canopy.dev/v1alpha1", "kind": "LogicalCluster", "metadata": map[string]any{"name": name},
	}}
	if _, err := lcs.Create(bn.ctx, lc, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("creating LogicalCluster %s: %w", name, err)
	}
	for deadline := time.Now().Add(timeout); ; time.Sleep(20 * time.Millisecond) {
		got, err := lcs.Get(bn.ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if phase, _, _ := unstructured.NestedString(got.Object, "status", "phase"); phase == "Ready" {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("LogicalCluster %s not Ready after %v", name, timeout)
		}
	}
}

// install creates the definition manifest in root:<lc> and returns how
// long it took to be Established.
func (bn *bench) install(lc, manifest string) (time.Duration, error) {
	crd := &unstructured.Unstructured{}
	if err := yaml.Unmarshal([]byte(manifest), &crd.Object); err != nil {
		return 0, err
	}
	established := bn.crds.expect("root:"+lc, crd.GetName())
	start := time.Now()
	if _, err := bn.in("root:"+lc).dynamic.Resource(crdResource).Create(bn.ctx, crd, metav1.CreateOptions{}); err != nil {
		return 0, fmt.Errorf("creating CustomResourceDefinition %s in root:%s: %w", crd.GetName(), lc, err)
	}
	select {
	case <-established:
		return time.Since(start), nil
	case <-time.After(timeout):
		return 0, fmt.Errorf("CustomResourceDefinition %s of root:%s not Established after %v", crd.GetName(), lc, timeout)
	}
}

// resource is the client of d's objects in root:<lc>, in namespace
// default if they are namespaced.
func (bn *bench) resource(lc string, d definition) dynamic.ResourceInterface {
	r := bn.in("root:" + lc).dynamic.Resource(schema.GroupVersionResource{Group: d.group, Version: d.version, Resource: d.resource})
	if d.namespaced {
		return r.Namespace("default")
	}
	return r
}

// list lists d's objects in root:<lc>.
func (bn *bench) list(lc string, d definition) error {
	if _, err := bn.resource(lc, d).List(bn.ctx, metav1.ListOptions{}); err != nil {
		return fmt.Errorf("listing %s in root:%s: %w", d.resource, lc, err)
	}
	return nil
}

// createCR creates an object of d named name in root:<lc>.
func (bn *bench) createCR(lc string, d definition, name string) (time.Duration, error) {
	obj := &unstructured.Unstructured{}
	if err := json.Unmarshal([]byte(d.object), &obj.Object); err != nil {
		return 0, err
	}
	obj.SetName(name)
	start := time.Now()
	if _, err := bn.resource(lc, d).Create(bn.ctx, obj, metav1.CreateOptions{}); err != nil {
		return 0, fmt.Errorf("creating %s %s in root:%s: %w", d.resource, name, lc, err)
	}
	return time.Since(start), nil
}

// createConfigMap creates ConfigMap name in namespace default of
// root:<lc>, of about the size of a custom resource.
func (bn *bench) createConfigMap(lc, name string) (time.Duration, error) {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}, Data: map[string]string{"engine": "postgres", "image": "nginx:1.27", "schedule": "0 3 * * *"}}
	start := time.Now()
	if _, err := bn.in("root:"+lc).kube.CoreV1().ConfigMaps("default").Create(bn.ctx, cm, metav1.CreateOptions{}); err != nil {
		return 0, fmt.Errorf("creating ConfigMap %s in root:%s: %w", name, lc, err)
	}
	return time.Since(start), nil
}

// variant is manifest with a schema of its own, number i: its spec says
// so in its description, which makes it distinct content for the hub.
func variant(manifest string, i int) string {
	return strings.ReplaceAll(manifest, "          spec:\n            type: object\n",
		fmt.Sprintf("          spec:\n            type: object\n            description: variant %d\n", i))
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "%s bench/crd: %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, args...))
}

// printReport prints the figures beside their goals and references.
func printReport(out io.Writer, r *report, loadStart string) {
	ms := benchreport.MS
	bw := bufio.NewWriter(out)
	defer bw.Flush()
	fmt.Fprintf(bw, "\n=== CRD benchmark: %d definitions in each of %d logical clusters (and %d with distinct schemas) on PostgreSQL;\n"+
		"client-go as admin, %d concurrent workers; hub, PostgreSQL and benchmark share %d CPUs (GOMAXPROCS=%d here) ===\n\n",
		len(definitions), r.N, r.Distinct, r.Workers, runtime.NumCPU(), runtime.GOMAXPROCS(0))
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "figure\tvalue\tgoal or reference\tratio\t\t")
	fmt.Fprintf(tw, "logical clusters created (before any reading)\t%d in %v\t\t\t\t\n", warmupLCs+r.N+r.Distinct, r.LCWall.Round(time.Millisecond))
	fmt.Fprintf(tw, "hub before (%d warm-up lcs hold the definitions)\t%s\t\t\t\t\n", warmupLCs, r.MemBefore)
	fmt.Fprintf(tw, "hub after %d known installations\t%s\t\t\t\t\n", r.N*len(definitions), r.MemKnown)
	fmt.Fprintf(tw, "hub after %d distinct installations\t%s\t\t\t\t\n", r.Distinct*len(definitions), r.MemDistinct)
	fmt.Fprintf(tw, "Go heap in use per installation, known schema\t%.1f KiB\t<= %.0f KiB\t%.2f\t%s\t\n",
		r.KnownHeapKiB, goalKiBPerInstall, r.KnownHeapKiB/goalKiBPerInstall, benchreport.PassMiss(r.KnownHeapKiB <= goalKiBPerInstall))
	fmt.Fprintf(tw, "RSS per installation, known schema\t%.1f KiB\t<= %.0f KiB\t%.2f\t%s\t\n",
		r.KnownRSSKiB, goalKiBPerInstall, r.KnownRSSKiB/goalKiBPerInstall, benchreport.PassMiss(r.KnownRSSKiB <= goalKiBPerInstall))
	fmt.Fprintf(tw, "Go heap in use per installation, distinct schema\t%.1f KiB\tknown: %.1f KiB\t%.1fx\t\t\n",
		r.DistinctHeapKiB, r.KnownHeapKiB, r.DistinctHeapKiB/r.KnownHeapKiB)
	fmt.Fprintf(tw, "RSS per installation, distinct schema\t%.1f KiB\tknown: %.1f KiB\t%.1fx\t\t\n",
		r.DistinctRSSKiB, r.KnownRSSKiB, r.DistinctRSSKiB/r.KnownRSSKiB)
	fmt.Fprintf(tw, "known installations, install+list wall\t%v (%.0f/s)\t\t\t\t\n", r.KnownWall.Round(time.Millisecond), float64(r.N*len(definitions))/r.KnownWall.Seconds())
	fmt.Fprintf(tw, "CRD create -> Established p50 / p99 / max\t%.1f / %.1f / %.1f ms (%d)\t\t\t\t\n",
		ms(r.Established.P50), ms(r.Established.P99), ms(r.Established.Max), r.Established.N)
	fmt.Fprintf(tw, "CR create p50 / p99 / max\t%.2f / %.2f / %.2f ms (%d)\tConfigMap: %.2f / %.2f / %.2f ms\tp50 %.2f, p99 %.2f\t\t\n",
		ms(r.Create.P50), ms(r.Create.P99), ms(r.Create.Max), r.Create.N, ms(r.ConfigMap.P50), ms(r.ConfigMap.P99), ms(r.ConfigMap.Max),
		ms(r.Create.P50)/ms(r.ConfigMap.P50), ms(r.Create.P99)/ms(r.ConfigMap.P99))
	tw.Flush()
	fmt.Fprintf(bw, "\nMachine load average (1, 5, 15 min): %s at the start, %s at the end, on %d CPUs.\n", loadStart, benchreport.LoadAverage(), runtime.NumCPU())
	fmt.Fprintf(bw, "Hub heap profile after the installations: %s; hub log %s\n", r.HeapProfile, filepath.Join(r.Out, "hub.log"))
	fmt.Fprintf(bw, "\nGoal (reported, not enforced): memory per installation of an already known schema <= %.0f KiB: Go heap %.1f KiB %s, RSS %.1f KiB %s\n",
		goalKiBPerInstall, r.KnownHeapKiB, benchreport.PassMiss(r.KnownHeapKiB <= goalKiBPerInstall), r.KnownRSSKiB, benchreport.PassMiss(r.KnownRSSKiB <= goalKiBPerInstall))
}
