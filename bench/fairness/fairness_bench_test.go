package fairness

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/canopy-dev/canopy/bench/internal/knob"
	"github.com/canopy-dev/canopy/bench/internal/proc"
	benchreport "github.com/canopy-dev/canopy/bench/internal/report"
	"github.com/canopy-dev/canopy/internal/pgtest"
	tenancyv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/tenancy/v1alpha1"
)

// Knobs, all optional.
const (
	envClients  = "CANOPY_BENCH_CLIENTS"  // clients flooding the hub (64)
	envDuration = "CANOPY_BENCH_DURATION" // how long each phase measures the steady client (30s)
	envSeats    = "CANOPY_BENCH_SEATS"    // the hub's --max-requests-inflight (4)
	envChunk    = "CANOPY_BENCH_LIST"     // ConfigMaps a flood list asks for at most (500)
	envHub      = "CANOPY_HUB"            // a prebuilt hub binary; unset builds cmd/hub
	envOut      = "CANOPY_BENCH_OUT"      // directory for the hubs' logs (a temp dir)
)

const (
	steadyRate = 10 // the steady client's requests a second
	goalRatio  = 2  // its p99 under the flood over its p99 when idle, at most
)

// result is the figures of one run, with or without fairness.
type result struct {
	Fairness          bool
	Idle, Flood       benchreport.Latencies
	IdleErr, FloodErr int64
	FloodOps          float64
	FloodErrors       int64
}

func (r result) ratio() float64 { return float64(r.Flood.P99) / float64(r.Idle.P99) }

func BenchmarkFairness(b *testing.B) {
	clients := knob.Int(b, envClients, 64)
	duration := knob.Duration(b, envDuration, 30*time.Second)
	seats := knob.Int(b, envSeats, 4)
	chunk := knob.Int(b, envChunk, 500)
	out := knob.Dir(b, envOut)
	loadStart := benchreport.LoadAverage()
	bin := proc.Binary(b, envHub, "github.com/canopy-dev/canopy/cmd/hub")
	pg := pgtest.Start(b)
	tokens := filepath.Join(b.TempDir(), "tokens.csv")
	if err := os.WriteFile(tokens, []byte("flood-token,flooder,1\nsteady-token,steady,2\n"), 0o600); err != nil {
		b.Fatal(err)
	}
	var results []result
	for _, on := range []bool{true, false} {
		b.Run(fmt.Sprintf("fairness=%v", on), func(b *testing.B) {
			h := proc.StartHub(b, bin, pg.NewDatabase(b), filepath.Join(out, fmt.Sprintf("hub-fairness-%v.log", on)),
				"--token-auth-file", tokens, "--enable-priority-and-fairness="+strconv.FormatBool(on), "--max-requests-inflight", strconv.Itoa(seats))
			r := run(b, h, on, clients, chunk, duration)
			b.ReportMetric(benchreport.MS(r.Flood.P99), "flood-p99-ms")
			b.ReportMetric(r.ratio(), "p99-ratio")
			results = append(results, r)
		})
	}
	fmt.Printf("\nFairness between logical clusters: %d clients flooding root:flood (lists of %d and creates), one client in root:steady at %d requests/s for %v per phase, %d seats (--max-requests-inflight)\n",
		clients, chunk, steadyRate, duration, seats)
	fmt.Printf("load average at start: %s, at end: %s\n\n", loadStart, benchreport.LoadAverage())
	fmt.Printf("%-10s %14s %14s %14s %14s %8s %12s %s\n", "fairness", "idle p50 ms", "idle p99 ms", "flood p50 ms", "flood p99 ms", "ratio", "flood ops/s", "steady errors (idle/flood)")
	for _, r := range results {
		fmt.Printf("%-10v %14.1f %14.1f %14.1f %14.1f %8.2f %12.0f %d/%d\n", r.Fairness, benchreport.MS(r.Idle.P50), benchreport.MS(r.Idle.P99),
			benchreport.MS(r.Flood.P50), benchreport.MS(r.Flood.P99), r.ratio(), r.FloodOps, r.IdleErr, r.FloodErr)
	}
	for _, r := range results {
		if r.Fairness {
			fmt.Printf("\ngoal: steady p99 under the flood at most %d× its idle p99 with fairness: %.2f× %s\n", goalRatio, r.ratio(), benchreport.PassMiss(r.ratio() <= goalRatio))
		}
	}
}

func logf(format string, args ...any) { proc.Logger("BenchmarkFairness")(format, args...) }

// run makes root:flood and root:steady on h, each administered by its
// user, then measures the steady client idle and under the flood.
func run(b *testing.B, h *proc.Hub, on bool, clients, chunk int, duration time.Duration) result {
	ctx := context.Background()
	admin, err := clientcmd.BuildConfigFromFlags("", h.AdminKubeconfig())
	if err != nil {
		b.Fatal(err)
	}
	// The kubeconfig's server is root's; the clients below name their
	// logical cluster themselves.
	admin.Host = h.URL()
	admin.QPS, admin.Burst = -1, 0
	for _, lc := range []struct{ name, user string }{{"flood", "flooder"}, {"steady", "steady"}} {
		makeLogicalCluster(b, admin, lc.name, lc.user)
	}
	steady := kubeFor(b, admin, "steady", "steady-token")
	flood := kubeFor(b, admin, "flood", "flood-token")
	cms := steady.CoreV1().ConfigMaps(metav1.NamespaceDefault)
	for i := range 5 {
		if _, err := cms.Create(ctx, configMap(fmt.Sprintf("steady-%d", i)), metav1.CreateOptions{}); err != nil {
			b.Fatalf("creating ConfigMaps in root:steady: %v", err)
		}
	}
	r := result{Fairness: on}
	r.Idle, r.IdleErr = measureSteady(ctx, cms, duration)
	logf("fairness=%v idle: p50 %.1f ms p99 %.1f ms", on, benchreport.MS(r.Idle.P50), benchreport.MS(r.Idle.P99))

	floodCtx, stop := context.WithCancel(ctx)
	var ops, failed atomic.Int64
	var wg sync.WaitGroup
	fcms := flood.CoreV1().ConfigMaps(metav1.NamespaceDefault)
	for c := range clients {
		wg.Go(func() {
			for i := 0; floodCtx.Err() == nil; i++ {
				var err error
				if i%2 == 0 {
					_, err = fcms.List(floodCtx, metav1.ListOptions{Limit: int64(chunk)})
				} else {
					_, err = fcms.Create(floodCtx, configMap(fmt.Sprintf("flood-%d-%d", c, i)), metav1.CreateOptions{})
				}
				if floodCtx.Err() != nil {
					return
				}
				ops.Add(1)
				if err != nil && failed.Add(1) <= 3 {
					logf("flood: %v", err)
				}
			}
		})
	}
	// The flood fills its queues before the steady client is measured.
	time.Sleep(3 * time.Second)
	start, before := time.Now(), ops.Load()
	r.Flood, r.FloodErr = measureSteady(ctx, cms, duration)
	r.FloodOps = float64(ops.Load()-before) / time.Since(start).Seconds()
	stop()
	wg.Wait()
	r.FloodErrors = failed.Load()
	logf("fairness=%v flood: p50 %.1f ms p99 %.1f ms, %.0f flood ops/s (%d errors)", on, benchreport.MS(r.Flood.P50), benchreport.MS(r.Flood.P99), r.FloodOps, r.FloodErrors)
	return r
}

// measureSteady sends steadyRate requests a second for duration, each
// on time whatever the previous one took, alternately a get and a list,
// and returns their latencies and how many failed.
func measureSteady(ctx context.Context, cms interface {
	Get(context.Context, string, metav1.GetOptions) (*corev1.ConfigMap, error)
	List(context.Context, metav1.ListOptions) (*corev1.ConfigMapList, error)
}, duration time.Duration,
) (benchreport.Latencies, int64) {
	n := int(duration.Seconds() * steadyRate)
	took := make([]time.Duration, n)
	var failed atomic.Int64
	var wg sync.WaitGroup
	tick := time.NewTicker(time.Second / steadyRate)
	defer tick.Stop()
	for i := range n {
		<-tick.C
		wg.Go(func() {
			start := time.Now()
			var err error
			if i%2 == 0 {
				_, err = cms.Get(ctx, "steady-0", metav1.GetOptions{})
			} else {
				_, err = cms.List(ctx, metav1.ListOptions{})
			}
			took[i] = time.Since(start)
			if err != nil && failed.Add(1) <= 3 {
				logf("steady: %v", err)
			}
		})
	}
	wg.Wait()
	return benchreport.Summarize(took), failed.Load()
}

// makeLogicalCluster creates root:name with user as its admin and waits
// until it is served.
func makeLogicalCluster(b *testing.B, admin *rest.Config, name, user string) {
	ctx := context.Background()
	cfg := rest.CopyConfig(admin)
	cfg.Host += "/clusters/root"
	d, err := dynamic.NewForConfig(cfg)
	if err != nil {
		b.Fatal(err)
	}
	lc := &tenancyv1alpha1.LogicalCluster{
		TypeMeta:   metav1.TypeMeta{APIVersion: tenancyv1alpha1.SchemeGroupVersion.String(), Kind: "LogicalCluster"},
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec:       tenancyv1alpha1.LogicalClusterSpec{Admins: []rbacv1.Subject{{Kind: rbacv1.UserKind, APIGroup: rbacv1.GroupName, Name: user}}},
	}
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(lc)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := d.Resource(tenancyv1alpha1.SchemeGroupVersion.WithResource("logicalclusters")).Create(ctx, &unstructured.Unstructured{Object: u}, metav1.CreateOptions{}); err != nil {
		b.Fatalf("creating root:%s: %v", name, err)
	}
	cs := kubeFor(b, admin, name, "")
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(200 * time.Millisecond) {
		_, err := cs.CoreV1().Namespaces().Get(ctx, metav1.NamespaceDefault, metav1.GetOptions{})
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			b.Fatalf("root:%s is not served after a minute: %v", name, err)
		}
	}
}

// kubeFor is a clientset in root:name, as the admin when token is empty,
// else as the token's user, with no client-side rate limit.
func kubeFor(b *testing.B, admin *rest.Config, name, token string) *kubernetes.Clientset {
	cfg := rest.CopyConfig(admin)
	cfg.Host += "/clusters/root:" + name
	if token != "" {
		cfg = rest.AnonymousClientConfig(cfg)
		cfg.BearerToken = token
	}
	cfg.QPS, cfg.Burst = -1, 0
	cfg.Timeout = 2 * time.Minute
	// HTTP/1.1, so that the flood's requests take connections of their
	// own, as many clients' would.
	cfg.NextProtos = []string{"http/1.1"}
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		b.Fatal(err)
	}
	return cs
}

func configMap(name string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}, Data: map[string]string{"data": strings.Repeat("x", 256)}}
}
