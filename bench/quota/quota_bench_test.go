package quota

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/canopy-dev/canopy/bench/internal/knob"
	"github.com/canopy-dev/canopy/bench/internal/proc"
	benchreport "github.com/canopy-dev/canopy/bench/internal/report"
	"github.com/canopy-dev/canopy/e2e/pcluster"
	"github.com/canopy-dev/canopy/internal/pgtest"
)

// Knobs, all optional.
const (
	envClients = "CANOPY_BENCH_CLIENTS" // concurrent clients (32)
	envCreates = "CANOPY_BENCH_CREATES" // ConfigMaps created in each namespace (3000)
	envRounds  = "CANOPY_BENCH_ROUNDS"  // rounds the creates are spread over (5)
	envKube    = "CANOPY_BENCH_KUBE"    // 1: measure kube-apiserver too, in the same rounds
	envProfile = "CANOPY_BENCH_PROFILE" // a duration: a CPU profile of the hub per namespace
	envHub     = "CANOPY_HUB"           // a prebuilt hub binary; unset builds cmd/hub
	envOut     = "CANOPY_BENCH_OUT"     // directory for logs and profiles (a temp dir)
)

// goal is the least ratio of creates/s under a quota to creates/s without.
const goal = 0.9

// server is an API server measured, the hub or kube-apiserver, with the
// processes whose CPU time its creates cost.
type server struct {
	name       string
	kube       kubernetes.Interface
	pid, store int
	// storeTree: store is PostgreSQL's postmaster, whose backends are
	// its children; etcd is one process.
	storeTree  bool
	namespaces []*namespace
	// hub reads the hub's metrics; nil for kube-apiserver.
	hub *proc.Hub
}

// namespace is one namespace measured, and the quota it has.
type namespace struct {
	name, about string
	hard        corev1.ResourceList
	// rates are the creates/s of each round.
	rates           []float64
	took, cpu, sCPU time.Duration
	created         int
	failed          int64
	// batches are the quota admission queue's batches, on the hub.
	batches int64
	// before is what the namespace held, and its quota counted, before
	// the benchmark: kube-apiserver's controllers put a ConfigMap of
	// their own in every namespace.
	before, usedBefore int64
}

func newNamespaces() []*namespace {
	return []*namespace{
		{name: "free", about: "no quota"},
		{name: "counted", about: "a quota of count/configmaps", hard: corev1.ResourceList{"count/configmaps": resource.MustParse("1000000")}},
		{name: "other", about: "a quota of requests.cpu", hard: corev1.ResourceList{corev1.ResourceRequestsCPU: resource.MustParse("100")}},
	}
}

func BenchmarkQuota(b *testing.B) {
	clients := knob.Int(b, envClients, 32)
	creates := knob.Int(b, envCreates, 3000)
	rounds := max(knob.Int(b, envRounds, 5), 1)
	profile := knob.Duration(b, envProfile, 0)
	out := knob.Dir(b, envOut)
	loadStart := benchreport.LoadAverage()
	ctx := context.Background()

	var kubeStarted *pcluster.Cluster
	kubeErr := make(chan error, 1)
	if os.Getenv(envKube) == "1" {
		dir := filepath.Join(b.TempDir(), "pclusters")
		go func() {
			c, err := pcluster.Create(ctx, dir, "quota", pcluster.Options{})
			kubeStarted = c
			kubeErr <- err
		}()
		b.Cleanup(func() {
			stopCtx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			if err := pcluster.Stop(stopCtx, dir, "quota"); err != nil {
				b.Errorf("stopping the physical cluster: %v", err)
			}
		})
	} else {
		kubeErr <- nil
	}

	bin := proc.Binary(b, envHub, "github.com/canopy-dev/canopy/cmd/hub")
	pg := pgtest.Start(b)
	h := proc.StartHub(b, bin, pg.NewDatabase(b), out+"/hub.log")
	cfg, err := clientcmd.BuildConfigFromFlags("", h.AdminKubeconfig())
	if err != nil {
		b.Fatal(err)
	}
	cfg.Host = h.URL() + "/clusters/root"
	hub := &server{name: "hub", kube: client(b, cfg), pid: h.PID(), store: postmaster(b), storeTree: true, namespaces: newNamespaces(), hub: h}
	servers := []*server{hub}
	if err := <-kubeErr; err != nil {
		b.Fatalf("starting kube-apiserver: %v", err)
	}
	if kubeStarted != nil {
		servers = append(servers, &server{name: "kube-apiserver", kube: client(b, kubeStarted.Config),
			pid: kubeStarted.PIDs["kube-apiserver"], store: kubeStarted.PIDs["etcd"], namespaces: newNamespaces()})
	}
	for _, s := range servers {
		s.setUp(b)
	}

	data := map[string]string{"data": strings.Repeat("x", 256)}
	perRound := creates / rounds
	for round := range rounds {
		for _, s := range servers {
			for j := range s.namespaces {
				ns := s.namespaces[(round+j)%len(s.namespaces)]
				cms := s.kube.CoreV1().ConfigMaps(ns.name)
				cpuBefore, storeBefore := s.cpu()
				batchesBefore := s.batches()
				took, failed := proc.Pool(clients, perRound, func(i int) error {
					name := fmt.Sprintf("cm-%d-%d", round, i)
					_, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}, Data: data}, metav1.CreateOptions{})
					return err
				}, logf)
				cpuAfter, storeAfter := s.cpu()
				ns.batches += s.batches() - batchesBefore
				ns.took += took
				ns.cpu += cpuAfter - cpuBefore
				ns.sCPU += storeAfter - storeBefore
				ns.created += perRound - int(failed)
				ns.failed += failed
				ns.rates = append(ns.rates, float64(perRound-int(failed))/took.Seconds())
				logf("round %d, %s, %s: %.0f creates/s", round+1, s.name, ns.about, ns.rates[round])
			}
		}
	}
	for _, s := range servers {
		s.namespaces[1].checkUsed(b, s)
	}

	fmt.Fprintf(os.Stdout, "\nQuota on the create path: %d ConfigMaps in each namespace, %d clients, %d rounds side by side\n", perRound*rounds, clients, rounds)
	fmt.Fprintf(os.Stdout, "load average at start %s, at end %s (2 cores)\n", loadStart, benchreport.LoadAverage())
	for _, s := range servers {
		s.report(b)
	}
	if profile > 0 {
		profileHub(b, h, hub, clients, profile, out, data)
	}
}

// client is a clientset of cfg that does not throttle the benchmark.
func client(b *testing.B, cfg *rest.Config) kubernetes.Interface {
	cfg = rest.CopyConfig(cfg)
	cfg.QPS, cfg.Burst, cfg.Timeout = 5000, 5000, time.Minute
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		b.Fatal(err)
	}
	return kube
}

// postmaster is the pid of the PostgreSQL server pgtest started as this
// process's child.
func postmaster(b *testing.B) int {
	pids := proc.Named(proc.Children(os.Getpid()), "postgres")
	if len(pids) != 1 {
		b.Fatalf("found %d postgres processes started by this benchmark, want the one postmaster", len(pids))
	}
	return pids[0]
}

// setUp makes s's namespaces and their quotas.
func (s *server) setUp(b *testing.B) {
	ctx := context.Background()
	for _, ns := range s.namespaces {
		if _, err := s.kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns.name}}, metav1.CreateOptions{}); err != nil {
			b.Fatal(err)
		}
		if ns.hard != nil {
			q := &corev1.ResourceQuota{ObjectMeta: metav1.ObjectMeta{Name: "q"}, Spec: corev1.ResourceQuotaSpec{Hard: ns.hard}}
			if _, err := s.kube.CoreV1().ResourceQuotas(ns.name).Create(ctx, q, metav1.CreateOptions{}); err != nil {
				b.Fatal(err)
			}
			waitForStatus(b, s.kube, ns.name)
		}
		ns.before, ns.usedBefore = counts(b, s.kube, ns.name)
	}
}

// cpu is the CPU time s and its store have used so far; one that cannot
// be read counts nothing.
func (s *server) cpu() (server, store time.Duration) {
	server, err := proc.CPUTime(s.pid)
	if err != nil {
		logf("CPU time of %s: %v", s.name, err)
	}
	if s.storeTree {
		store, err = proc.TreeCPUTime(s.store)
	} else {
		store, err = proc.CPUTime(s.store)
	}
	if err != nil {
		logf("CPU time of the store of %s: %v", s.name, err)
	}
	return server, store
}

// batchesMetric counts the batches upstream's quota Evaluator has
// checked, each charged with at most one write per quota.
const batchesMetric = `workqueue_adds_total{name="admission_quota_controller"} `

// batches is how many batches the hub's quota admission has checked so
// far; 0 for kube-apiserver, or when the metrics cannot be read.
func (s *server) batches() int64 {
	if s.hub == nil {
		return 0
	}
	body, err := s.hub.Get("/metrics", time.Minute)
	if err != nil {
		logf("the hub's metrics: %v", err)
		return 0
	}
	for line := range strings.Lines(string(body)) {
		if v, ok := strings.CutPrefix(line, batchesMetric); ok {
			n, _ := strconv.ParseFloat(strings.TrimSpace(v), 64)
			return int64(n)
		}
	}
	return 0
}

// report prints s's table: the median of creates/s over the rounds, and
// of the ratios to the namespace without a quota in the same round, with
// their least and greatest, and CPU-milliseconds per create of the
// server and of its store.
func (s *server) report(b *testing.B) {
	base := s.namespaces[0]
	fmt.Fprintf(os.Stdout, "\n%s\n%-30s %10s %18s %11s %12s %16s %7s\n", s.name, "namespace", "creates/s", "ratio (min-max)", "CPU ms/op", "store ms/op", "creates/batch", "errors")
	for _, ns := range s.namespaces {
		ratios := ns.ratios(base)
		perBatch := "-"
		if ns.batches > 0 {
			perBatch = fmt.Sprintf("%.1f", float64(ns.created)/float64(ns.batches))
		}
		fmt.Fprintf(os.Stdout, "%-30s %10.0f %6.2f (%.2f-%.2f) %11.2f %12.2f %16s %7d\n", ns.about, median(ns.rates),
			median(ratios), slices.Min(ratios), slices.Max(ratios), perOp(ns.cpu, ns.created), perOp(ns.sCPU, ns.created), perBatch, ns.failed)
	}
	for _, ns := range s.namespaces[1:] {
		ratio := median(ns.ratios(base))
		fmt.Fprintf(os.Stdout, "%s: creates/s with %s at least %.1f of without (median of rounds): %.2f %s\n", s.name, ns.about, goal, ratio, benchreport.PassMiss(ratio >= goal))
		b.ReportMetric(ratio, s.name+"-"+ns.name+"-ratio")
	}
}

// ratios are ns's creates/s in each round over base's in the same round.
func (ns *namespace) ratios(base *namespace) []float64 {
	r := make([]float64, len(ns.rates))
	for i := range ns.rates {
		r[i] = ns.rates[i] / base.rates[i]
	}
	return r
}

func median(v []float64) float64 {
	s := slices.Sorted(slices.Values(v))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func perOp(d time.Duration, n int) float64 {
	return float64(d.Microseconds()) / 1000 / float64(max(n, 1))
}

// profileHub takes a CPU profile of the hub for d while clients create
// ConfigMaps in each of its namespaces in turn, into out/hub-<ns>.pprof.
func profileHub(b *testing.B, h *proc.Hub, s *server, clients int, d time.Duration, out string, data map[string]string) {
	ctx := context.Background()
	for _, ns := range s.namespaces {
		file := filepath.Join(out, "hub-"+ns.name+".pprof")
		cms := s.kube.CoreV1().ConfigMaps(ns.name)
		deadline := time.Now().Add(d)
		var made atomic.Int64
		var wg sync.WaitGroup
		for c := range clients {
			wg.Go(func() {
				for i := 0; time.Now().Before(deadline); i++ {
					name := fmt.Sprintf("prof-%d-%d", c, i)
					if _, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}, Data: data}, metav1.CreateOptions{}); err != nil {
						logf("profiling %s: %v", ns.name, err)
						return
					}
					made.Add(1)
				}
			})
		}
		if err := h.FetchTo(fmt.Sprintf("/debug/pprof/profile?seconds=%d", int(d.Seconds())), file, d+time.Minute); err != nil {
			b.Errorf("CPU profile during creates in %s: %v", ns.name, err)
		}
		wg.Wait()
		fmt.Fprintf(os.Stdout, "CPU profile of the hub during %d creates in %s (%s): %s\n", made.Load(), ns.name, ns.about, file)
	}
	if err := h.FetchTo("/metrics", filepath.Join(out, "hub-metrics.txt"), time.Minute); err != nil {
		b.Errorf("the hub's metrics: %v", err)
	}
}

func logf(format string, args ...any) { proc.Logger("BenchmarkQuota")(format, args...) }

// waitForStatus waits for the quota of namespace ns to have its first
// status, before which admission lets nothing in that it counts.
func waitForStatus(b *testing.B, kube kubernetes.Interface, ns string) {
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(200 * time.Millisecond) {
		q, err := kube.CoreV1().ResourceQuotas(ns).Get(context.Background(), "q", metav1.GetOptions{})
		if err == nil && q.Status.Used != nil {
			return
		}
		if time.Now().After(deadline) {
			b.Fatalf("quota q of namespace %s has no status after a minute: %v", ns, err)
		}
	}
}

// counts are the ConfigMaps namespace ns holds and how many its quota
// counts (0 without a quota).
func counts(b *testing.B, kube kubernetes.Interface, ns string) (held, used int64) {
	ctx := context.Background()
	list, err := kube.CoreV1().ConfigMaps(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		b.Fatal(err)
	}
	q, err := kube.CoreV1().ResourceQuotas(ns).Get(ctx, "q", metav1.GetOptions{})
	if err == nil {
		u := q.Status.Used["count/configmaps"]
		used = u.Value()
	}
	return int64(len(list.Items)), used
}

// checkUsed fails b unless the quota of ns counts, within a minute, as
// many more ConfigMaps as the namespace holds more than before.
func (ns *namespace) checkUsed(b *testing.B, s *server) {
	var last string
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(time.Second) {
		held, used := counts(b, s.kube, ns.name)
		if used-ns.usedBefore == held-ns.before {
			logf("quota q of %s on %s counts the %d ConfigMaps created there", ns.name, s.name, held-ns.before)
			return
		}
		last = fmt.Sprintf("counts %d more, holds %d more", used-ns.usedBefore, held-ns.before)
	}
	b.Fatalf("quota q of namespace %s on %s: %s", ns.name, s.name, last)
}
