package clusterquota

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
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
		h := proc.StartHub(b, bin, pgtest.Start(b).NewDatabase(b), filepath.Join(b.TempDir(), "hub.log"))
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
		quotas := client("root:org").Resource(quotaResource)
		cms := client("root:org:team").Resource(cmResource).Namespace("default")

		var rate, cpu [2]time.Duration // total wall and hub CPU, without and with a lease
		n := 0
		for round := range rounds {
			for mode, leased := range []bool{false, true} {
				if leased {
					lease := &unstructured.Unstructured{Object: map[string]any{
						"apiVersion": "tenancy.canopy.dev/v1alpha1", "kind": "ClusterQuota",
						"metadata": map[string]any{"name": "team"},
						"spec":     map[string]any{"hard": map[string]any{"count/configmaps": "1000000"}},
					}}
					if _, err := quotas.Create(context.Background(), lease, metav1.CreateOptions{}); err != nil {
						b.Fatal(err)
					}
				}
				cpuBefore, err := proc.CPUTime(h.PID())
				if err != nil {
					b.Fatal(err)
				}
				start := time.Now()
				createAll(b, cms, fmt.Sprintf("r%d-m%d", round, mode), creates, workers)
				rate[mode] += time.Since(start)
				cpuAfter, err := proc.CPUTime(h.PID())
				if err != nil {
					b.Fatal(err)
				}
				cpu[mode] += cpuAfter - cpuBefore
				if leased {
					if err := quotas.Delete(context.Background(), "team", metav1.DeleteOptions{}); err != nil {
						b.Fatal(err)
					}
				}
			}
			n += creates
		}
		without, with := float64(n)/rate[0].Seconds(), float64(n)/rate[1].Seconds()
		b.ReportMetric(without, "creates/s-without")
		b.ReportMetric(with, "creates/s-with-lease")
		b.ReportMetric(with/without, "ratio")
		b.ReportMetric(float64(cpu[0].Microseconds())/float64(n), "hub-cpu-µs/create-without")
		b.ReportMetric(float64(cpu[1].Microseconds())/float64(n), "hub-cpu-µs/create-with-lease")
		fmt.Fprintf(os.Stdout, "%d creates each way, %d workers, load average at start %s, at end %s\n", n, workers, loadStart, benchreport.LoadAverage())
	}
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
