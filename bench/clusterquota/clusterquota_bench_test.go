package clusterquota

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/canopy-dev/canopy/bench/internal/knob"
	"github.com/canopy-dev/canopy/bench/internal/proc"
	benchreport "github.com/canopy-dev/canopy/bench/internal/report"
	"github.com/canopy-dev/canopy/internal/pgtest"
)

var (
	lcResource    = schema.GroupVersionResource{Group: "tenancy.canopy.dev", Version: "v1alpha1", Resource: "logicalclusters"}
	quotaResource = schema.GroupVersionResource{Group: "tenancy.canopy.dev", Version: "v1alpha1", Resource: "clusterquotas"}
	cmResource    = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
)

func BenchmarkClusterQuotaCreate(b *testing.B) {
	creates := knob.Int(b, "CANOPY_BENCH_CREATES", 1000)
	workers := knob.Int(b, "CANOPY_BENCH_WORKERS", 32)
	rounds := knob.Int(b, "CANOPY_BENCH_ROUNDS", 3)
	loadStart := benchreport.LoadAverage()
	for range b.N {
		bin := proc.Binary(b, "CANOPY_HUB", "github.com/canopy-dev/canopy/cmd/hub")
		h := start(b, bin, pgtest.Start(b))
		var rate, cpu [2][]float64 // per round, without and with a lease
		for round := range rounds {
			for mode, leased := range []bool{false, true} {
				if leased {
					lease := &unstructured.Unstructured{Object: map[string]any{
						"apiVersion": "tenancy.canopy.dev/v1alpha1", "kind": "ClusterQuota",
						"metadata": map[string]any{"name": "team"},
						"spec":     map[string]any{"hard": map[string]any{"count/configmaps": "1000000"}},
					}}
					if _, err := h.quotas.Create(context.Background(), lease, metav1.CreateOptions{}); err != nil {
						b.Fatal(err)
					}
				}
				r, c := h.round(b, fmt.Sprintf("r%d-m%d", round, mode), creates, workers)
				rate[mode], cpu[mode] = append(rate[mode], r), append(cpu[mode], c)
				if leased {
					if err := h.quotas.Delete(context.Background(), "team", metav1.DeleteOptions{}); err != nil {
						b.Fatal(err)
					}
				}
			}
		}
		without, with := median(rate[0]), median(rate[1])
		b.ReportMetric(without, "creates/s-without")
		b.ReportMetric(with, "creates/s-with-lease")
		b.ReportMetric(with/without, "ratio")
		b.ReportMetric(median(cpu[0]), "hub-cpu-µs/create-without")
		b.ReportMetric(median(cpu[1]), "hub-cpu-µs/create-with-lease")
		fmt.Fprintf(os.Stdout, "medians of %d rounds of %d creates each way, %d workers: creates/s without %v, with %v; load average at start %s, at end %s\n",
			rounds, creates, workers, rate[0], rate[1], loadStart, benchreport.LoadAverage())
	}
}

// BenchmarkClusterQuotaNoLease compares the create path of two hub
// binaries where no lease is in place anywhere: CANOPY_HUB_BASELINE (for
// example main's) against CANOPY_HUB (this tree's unless set), each on its
// own database of one PostgreSQL, in rounds that alternate between them,
// the first of each pair alternating too. Its ratio is what the lookup of
// leases costs a logical cluster under none.
func BenchmarkClusterQuotaNoLease(b *testing.B) {
	baseline := os.Getenv("CANOPY_HUB_BASELINE")
	if baseline == "" {
		b.Skip("CANOPY_HUB_BASELINE names the hub binary to compare with (go build -o hub-main ./cmd/hub in main)")
	}
	creates := knob.Int(b, "CANOPY_BENCH_CREATES", 1000)
	workers := knob.Int(b, "CANOPY_BENCH_WORKERS", 32)
	rounds := knob.Int(b, "CANOPY_BENCH_ROUNDS", 5)
	loadStart := benchreport.LoadAverage()
	for range b.N {
		pg := pgtest.Start(b)
		hubs := [2]*hub{start(b, baseline, pg), start(b, proc.Binary(b, "CANOPY_HUB", "github.com/canopy-dev/canopy/cmd/hub"), pg)}
		var rate, cpu [2][]float64 // per round, baseline and this tree
		for round := range rounds {
			for i := range 2 {
				which := (round + i) % 2
				r, c := hubs[which].round(b, fmt.Sprintf("r%d", round), creates, workers)
				rate[which], cpu[which] = append(rate[which], r), append(cpu[which], c)
			}
		}
		base, this := median(rate[0]), median(rate[1])
		b.ReportMetric(base, "creates/s-baseline")
		b.ReportMetric(this, "creates/s")
		b.ReportMetric(this/base, "ratio")
		b.ReportMetric(median(cpu[0]), "hub-cpu-µs/create-baseline")
		b.ReportMetric(median(cpu[1]), "hub-cpu-µs/create")
		fmt.Fprintf(os.Stdout, "medians of %d rounds of %d creates each, %d workers: creates/s baseline %v, this %v; load average at start %s, at end %s\n",
			rounds, creates, workers, rate[0], rate[1], loadStart, benchreport.LoadAverage())
	}
}

// hub is one hub measured, with root:org:team made in it.
type hub struct {
	proc   *proc.Hub
	quotas dynamic.ResourceInterface // in root:org
	cms    dynamic.ResourceInterface // in root:org:team's default namespace
}

// start runs bin on a new database of pg and makes root:org:team.
func start(b *testing.B, bin string, pg *pgtest.Server) *hub {
	h := proc.StartHub(b, bin, pg.NewDatabase(b), filepath.Join(b.TempDir(), "hub.log"))
	base, err := clientcmd.BuildConfigFromFlags("", h.AdminKubeconfig())
	if err != nil {
		b.Fatal(err)
	}
	base.QPS, base.Burst = -1, 0
	base.Timeout = 60 * time.Second
	client := func(path string) *dynamic.DynamicClient {
		c := rest.CopyConfig(base)
		c.Host = h.URL() + "/clusters/" + path
		d, err := dynamic.NewForConfig(c)
		if err != nil {
			b.Fatal(err)
		}
		return d
	}
	createReady(b, client("root").Resource(lcResource), "org")
	createReady(b, client("root:org").Resource(lcResource), "team")
	return &hub{proc: h, quotas: client("root:org").Resource(quotaResource), cms: client("root:org:team").Resource(cmResource).Namespace("default")}
}

// round creates n ConfigMaps named prefix-<i> with workers clients at
// once, and tells the creates/s and the hub's CPU µs per create.
func (h *hub) round(b *testing.B, prefix string, n, workers int) (float64, float64) {
	before, err := proc.CPUTime(h.proc.PID())
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	createAll(b, h.cms, prefix, n, workers)
	took := time.Since(start)
	after, err := proc.CPUTime(h.proc.PID())
	if err != nil {
		b.Fatal(err)
	}
	return float64(n) / took.Seconds(), float64((after - before).Microseconds()) / float64(n)
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// createAll creates n ConfigMaps named prefix-<i> through cms with
// workers clients at once.
func createAll(b *testing.B, cms dynamic.ResourceInterface, prefix string, n, workers int) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := next.Add(1); i <= int64(n); i = next.Add(1) {
				cm := &unstructured.Unstructured{Object: map[string]any{
					"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": fmt.Sprintf("%s-%d", prefix, i)},
				}}
				if _, err := cms.Create(context.Background(), cm, metav1.CreateOptions{}); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// createReady creates LogicalCluster name through lcs and waits until it
// is Ready.
func createReady(b *testing.B, lcs dynamic.NamespaceableResourceInterface, name string) {
	ctx := context.Background()
	lc := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "tenancy.canopy.dev/v1alpha1", "kind": "LogicalCluster", "metadata": map[string]any{"name": name},
	}}
	if _, err := lcs.Create(ctx, lc, metav1.CreateOptions{}); err != nil {
		b.Fatal(err)
	}
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		got, err := lcs.Get(ctx, name, metav1.GetOptions{})
		if err == nil {
			if phase, _, _ := unstructured.NestedString(got.Object, "status", "phase"); phase == "Ready" {
				return
			}
		}
		if time.Now().After(deadline) {
			b.Fatalf("LogicalCluster %s is not Ready within a minute: %v", name, err)
		}
	}
}
