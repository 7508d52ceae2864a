package fairness

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/canopy-dev/canopy/bench/internal/knob"
	"github.com/canopy-dev/canopy/bench/internal/proc"
	benchreport "github.com/canopy-dev/canopy/bench/internal/report"
	"github.com/canopy-dev/canopy/e2e/pcluster"
	"github.com/canopy-dev/canopy/internal/pgtest"
	tenancyv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/tenancy/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/fairness"
)

// Knobs, all optional.
const (
	envClients  = "CANOPY_BENCH_CLIENTS"  // clients flooding the hub (64)
	envDuration = "CANOPY_BENCH_DURATION" // how long each phase measures the steady client (15s)
	envRounds   = "CANOPY_BENCH_ROUNDS"   // rounds of all phases, interleaved (3)
	envNice     = "CANOPY_BENCH_NICE"     // the flood's and the burner's CPU priorities, a list ("0,19")
	envSeats    = "CANOPY_BENCH_SEATS"    // the hubs' --max-requests-inflight, a list ("4,600")
	envShare    = "CANOPY_BENCH_SHARE"    // the hubs' --max-seats-per-cluster-percent, a list ("50,100")
	envChunk    = "CANOPY_BENCH_LIST"     // ConfigMaps a flood list asks for at most (500)
	envHub      = "CANOPY_HUB"            // a prebuilt hub binary; unset builds cmd/hub
	envOut      = "CANOPY_BENCH_OUT"      // directory for the hubs' logs and profiles (a temp dir)
	envProfile  = "CANOPY_BENCH_PROFILE"  // 1: a 10 s CPU profile of the server under each first-round flood
	envKube     = "CANOPY_BENCH_KUBE"     // 1: kube-apiserver (e2e/pcluster) too, flooded in a namespace
)

const (
	steadyRate = 10 // the steady client's requests a second
	goalRatio  = 2  // its p99 under the flood over its p99 when idle, at most
	warmUp     = 3 * time.Second
)

// phase is one way of loading the machine while the steady client is
// measured: nothing, the burner, or the flood with fairness on or off;
// the burner and the flood at a CPU priority.
type phase struct {
	name   string
	load   string // "", "burn" or "flood"
	target *target
	nice   int
	base   int  // the phase, idle, whose p99 this one's is compared with
	goal   bool // the goal applies
	config hubConfig
}

// hubConfig is how a hub the benchmark measures is started.
type hubConfig struct {
	fairness bool
	seats    int
	share    int // percent of the tenants' seats one logical cluster may hold
}

// sample is what one phase measured in one round.
type sample struct {
	steady    benchreport.Latencies
	steadyErr int64
	floodOps  float64
	floodErr  int64
	loadCPU   time.Duration // the flood's or burner's CPU time
	hubCPU    time.Duration
	elapsed   time.Duration
	hub       hubFigures
	idleP99   time.Duration // the same round's idle p99
}

func BenchmarkFairness(b *testing.B) {
	clients := knob.Int(b, envClients, 64)
	duration := knob.Duration(b, envDuration, 15*time.Second)
	rounds := knob.Int(b, envRounds, 3)
	seats := intList(b, envSeats, "4,600", 1, 100000)
	shares := intList(b, envShare, "50,100", 1, 100)
	chunk := knob.Int(b, envChunk, 500)
	nices := intList(b, envNice, "0,19", 0, 19)
	profile := os.Getenv(envProfile) == "1"
	out := knob.Dir(b, envOut)
	loadStart := benchreport.LoadAverage()
	bin := proc.Binary(b, envHub, "github.com/canopy-dev/canopy/cmd/hub")
	pg := pgtest.Start(b)
	tokens := filepath.Join(b.TempDir(), "tokens.csv")
	if err := os.WriteFile(tokens, []byte("flood-token,flooder,1\nsteady-token,steady,2\n"), 0o600); err != nil {
		b.Fatal(err)
	}
	// The hubs, each with fairness at some seats and share and one
	// without at the first seats, are all up for the whole run, so that
	// every round measures every phase on the same hubs.
	configs := []hubConfig{}
	for _, n := range seats {
		for _, p := range shares {
			configs = append(configs, hubConfig{fairness: true, seats: n, share: p})
		}
	}
	configs = append(configs, hubConfig{fairness: false, seats: seats[0], share: 100})
	hubs := map[hubConfig]*target{}
	for _, c := range configs {
		h := proc.StartHub(b, bin, pg.NewDatabase(b), filepath.Join(out, fmt.Sprintf("hub-fairness-%v-seats-%d-share-%d.log", c.fairness, c.seats, c.share)),
			"--token-auth-file", tokens, "--enable-priority-and-fairness="+strconv.FormatBool(c.fairness),
			"--max-requests-inflight", strconv.Itoa(c.seats), "--max-seats-per-cluster-percent", strconv.Itoa(c.share))
		hubs[c] = setUp(b, h)
	}
	// The idle hub and the burner's floor are measured on the first; every
	// hub phase is compared with the idle first hub of the same round.
	first := hubs[configs[0]]
	phases := []phase{{name: "idle", target: first}}
	for _, n := range nices {
		phases = append(phases, phase{name: fmt.Sprintf("burn nice %d", n), load: "burn", target: first, nice: n})
	}
	for _, n := range nices {
		for _, c := range configs {
			phases = append(phases, phase{name: fmt.Sprintf("flood nice %d fairness=%v seats=%d share=%d", n, c.fairness, c.seats, c.share),
				load: "flood", target: hubs[c], nice: n, goal: c.fairness, config: c})
		}
	}
	if os.Getenv(envKube) == "1" {
		// kube-apiserver, as the oracle, compared with itself idle.
		kube := setUpKube(b)
		base := len(phases)
		phases = append(phases, phase{name: "kube idle", target: kube, base: base})
		for _, n := range nices {
			phases = append(phases, phase{name: fmt.Sprintf("kube flood nice %d", n), load: "flood", target: kube, nice: n, base: base})
		}
	}
	samples := make([][]sample, len(phases))
	for round := range rounds {
		for i, p := range phases {
			var prof string
			if profile && round == 0 && p.load == "flood" {
				prof = filepath.Join(out, fmt.Sprintf("cpu-%s.pprof", strings.ReplaceAll(p.name, " ", "-")))
			}
			s := measure(b, p, clients, chunk, duration, prof)
			if i == p.base {
				s.idleP99 = s.steady.P99
			} else {
				s.idleP99 = samples[p.base][round].steady.P99
			}
			samples[i] = append(samples[i], s)
			logf("round %d %s: steady p50 %.1f ms p99 %.1f ms (%d errors), %.2f× idle; %s", round+1, p.name,
				benchreport.MS(s.steady.P50), benchreport.MS(s.steady.P99), s.steadyErr, ratio(s), s.summary())
		}
	}
	fmt.Printf("\nFairness between logical clusters: %d clients flooding root:flood (lists of %d and creates) from a process of their own, one client in root:steady at %d requests/s, %v per phase, %d rounds interleaved, seats (--max-requests-inflight) %v, shares (--max-seats-per-cluster-percent) %v, GOMAXPROCS %d\n",
		clients, chunk, steadyRate, duration, rounds, seats, shares, runtime.GOMAXPROCS(0))
	fmt.Printf("load average at start: %s, at end: %s\n", loadStart, benchreport.LoadAverage())
	fmt.Printf("medians over the rounds; ratio is the phase's p99 over the same round's idle p99\n\n")
	fmt.Printf("%-40s %9s %9s %8s %s\n", "phase", "p50 ms", "p99 ms", "ratio", "per round: p99 ms (ratio)")
	for i, p := range phases {
		var rounds []string
		for _, s := range samples[i] {
			rounds = append(rounds, fmt.Sprintf("%.1f (%.2f×)", benchreport.MS(s.steady.P99), ratio(s)))
		}
		fmt.Printf("%-40s %9.1f %9.1f %8.2f %s\n", p.name, median(samples[i], func(s sample) float64 { return benchreport.MS(s.steady.P50) }),
			median(samples[i], func(s sample) float64 { return benchreport.MS(s.steady.P99) }), median(samples[i], ratio), strings.Join(rounds, ", "))
	}
	fmt.Printf("\n%-40s %s\n", "phase", "the round of the median ratio: flood ops/s, CPU of the server and of the load (cores), the server's APF and Go figures")
	for i, p := range phases {
		if p.load != "" {
			byRatio := slices.Clone(samples[i])
			slices.SortFunc(byRatio, func(a, b sample) int { return cmp.Compare(ratio(a), ratio(b)) })
			fmt.Printf("%-40s %s\n", p.name, byRatio[len(byRatio)/2].summary())
		}
	}
	fmt.Println()
	sideBySide(phases, samples, nices)
	fmt.Println()
	for i, p := range phases {
		if p.goal {
			r := median(samples[i], ratio)
			floor := median(samples[1+slices.Index(nices, p.nice)], ratio)
			fmt.Printf("goal, %s: steady p99 under the flood at most %d× its idle p99: %.2f× %s (the floor, an idle hub beside the burner at nice %d: %.2f×)\n",
				p.name, goalRatio, r, benchreport.PassMiss(r <= goalRatio), p.nice, floor)
			b.ReportMetric(r, "p99-ratio-"+strings.ReplaceAll(p.name, " ", "-"))
		}
	}
}

// sideBySide prints, for each CPU priority of the flood and each seat
// count, the median ratios of the floor, the flood with each share and
// the flood without fairness on one line, as the goal compares
// them.
func sideBySide(phases []phase, samples [][]sample, nices []int) {
	for _, n := range nices {
		floor := median(samples[1+slices.Index(nices, n)], ratio)
		var seats []int
		for _, p := range phases {
			if p.load == "flood" && p.config.fairness && p.nice == n && !slices.Contains(seats, p.config.seats) {
				seats = append(seats, p.config.seats)
			}
		}
		for _, s := range seats {
			line := fmt.Sprintf("side by side, flood at nice %d, %d seats: floor %.2f×", n, s, floor)
			for i, p := range phases {
				if p.load != "flood" || p.nice != n || p.config.seats == 0 || (p.config.fairness && p.config.seats != s) {
					continue
				}
				what := "fairness off"
				switch {
				case p.config.fairness && p.config.share < 100:
					what = fmt.Sprintf("share %d%%", p.config.share)
				case p.config.fairness:
					what = "share off"
				}
				line += fmt.Sprintf(", %s %.2f×", what, median(samples[i], ratio))
			}
			fmt.Println(line)
		}
	}
}

func ratio(s sample) float64 {
	if s.idleP99 == 0 {
		return 0
	}
	return float64(s.steady.P99) / float64(s.idleP99)
}

// median is the median of f over samples.
func median(samples []sample, f func(sample) float64) float64 {
	v := make([]float64, len(samples))
	for i, s := range samples {
		v[i] = f(s)
	}
	slices.Sort(v)
	if len(v) == 0 {
		return 0
	}
	return v[len(v)/2]
}

// intList is the comma-separated numbers from lo to hi in environment
// variable name, def when it is unset.
func intList(b *testing.B, name, def string, lo, hi int) []int {
	v := os.Getenv(name)
	if v == "" {
		v = def
	}
	var list []int
	for _, f := range strings.Split(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < lo || n > hi {
			b.Fatalf("%s=%q is not a list of numbers from %d to %d", name, v, lo, hi)
		}
		list = append(list, n)
	}
	return list
}

func logf(format string, args ...any) { proc.Logger("BenchmarkFairness")(format, args...) }

// target is a server the steady client measures: a hub with root:flood
// and root:steady, each administered by its user, or kube-apiserver with
// namespaces flood and steady.
type target struct {
	steady typedConfigMaps
	// floodArgs tell a flood process where to send, as whom.
	floodArgs []string
	pid       int
	// level is the priority level the tenants' requests land in.
	level string
	get   func(path string) ([]byte, error)
}

type typedConfigMaps interface {
	Get(context.Context, string, metav1.GetOptions) (*corev1.ConfigMap, error)
	List(context.Context, metav1.ListOptions) (*corev1.ConfigMapList, error)
}

func setUp(b *testing.B, h *proc.Hub) *target {
	admin := adminConfig(b, h)
	for _, lc := range []struct{ name, user string }{{"flood", "flooder"}, {"steady", "steady"}} {
		makeLogicalCluster(b, admin, lc.name, lc.user)
	}
	steady, err := kubeFor(admin, "steady", "steady-token")
	if err != nil {
		b.Fatal(err)
	}
	cms := steady.CoreV1().ConfigMaps(metav1.NamespaceDefault)
	steadyConfigMaps(b, cms)
	return &target{
		steady:    cms,
		floodArgs: []string{"-fairness.kubeconfig=" + h.AdminKubeconfig(), "-fairness.server=" + h.URL() + "/clusters/root:flood", "-fairness.token=flood-token"},
		pid:       h.PID(),
		level:     fairness.LevelWorkload,
		get:       func(path string) ([]byte, error) { return h.Get(path, time.Minute) },
	}
}

// setUpKube is a kube-apiserver of the harness with its default priority
// and fairness, where users flooder and steady may edit namespaces flood
// and steady; the admin impersonates them, which flow control sees as
// the users themselves.
func setUpKube(b *testing.B) *target {
	ctx := context.Background()
	c := pcluster.Start(b, "oracle", pcluster.Options{})
	for _, ns := range []struct{ name, user string }{{"flood", "flooder"}, {"steady", "steady"}} {
		if _, err := c.Client.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns.name}}, metav1.CreateOptions{}); err != nil {
			b.Fatal(err)
		}
		rb := &rbacv1.RoleBinding{
			ObjectMeta: metav1.ObjectMeta{Name: ns.user},
			RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "edit"},
			Subjects:   []rbacv1.Subject{{Kind: rbacv1.UserKind, APIGroup: rbacv1.GroupName, Name: ns.user}},
		}
		if _, err := c.Client.RbacV1().RoleBindings(ns.name).Create(ctx, rb, metav1.CreateOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	steady, err := clientFor(c.Config, c.Config.Host, "", "steady")
	if err != nil {
		b.Fatal(err)
	}
	cms := steady.CoreV1().ConfigMaps("steady")
	steadyConfigMaps(b, cms)
	admin, err := clientFor(c.Config, c.Config.Host, "", "")
	if err != nil {
		b.Fatal(err)
	}
	return &target{
		steady:    cms,
		floodArgs: []string{"-fairness.kubeconfig=" + c.Kubeconfig, "-fairness.server=" + c.Config.Host, "-fairness.as=flooder", "-fairness.namespace=flood"},
		pid:       c.PIDs["kube-apiserver"],
		level:     "global-default",
		get: func(path string) ([]byte, error) {
			return admin.CoreV1().RESTClient().Get().AbsPath(path).Timeout(time.Minute).DoRaw(context.Background())
		},
	}
}

// steadyConfigMaps makes the ConfigMaps the steady client reads, waiting
// for its user's role in a new logical cluster or namespace to be served.
func steadyConfigMaps(b *testing.B, cms interface {
	Create(context.Context, *corev1.ConfigMap, metav1.CreateOptions) (*corev1.ConfigMap, error)
},
) {
	for i := range 5 {
		for deadline := time.Now().Add(time.Minute); ; time.Sleep(200 * time.Millisecond) {
			_, err := cms.Create(context.Background(), configMap(fmt.Sprintf("steady-%d", i)), metav1.CreateOptions{})
			if err == nil {
				break
			}
			if !apierrors.IsForbidden(err) || time.Now().After(deadline) {
				b.Fatalf("creating the steady client's ConfigMaps: %v", err)
			}
		}
	}
}

// adminConfig is the hub's admin, with no client-side rate limit. The
// kubeconfig's server is root's; the clients name their logical cluster
// themselves.
func adminConfig(b *testing.B, h *proc.Hub) *rest.Config {
	admin, err := clientcmd.BuildConfigFromFlags("", h.AdminKubeconfig())
	if err != nil {
		b.Fatal(err)
	}
	admin.Host = h.URL()
	admin.QPS, admin.Burst = -1, 0
	return admin
}

// measure measures the steady client on t for duration while phase p's
// load runs, which starts warmUp before.
func measure(b *testing.B, p phase, clients, chunk int, duration time.Duration, profile string) sample {
	t := p.target
	var l *loader
	switch p.load {
	case "burn":
		l = startLoader(b, "burn", p.nice)
	case "flood":
		l = startLoader(b, "flood", p.nice, append([]string{"-fairness.clients=" + strconv.Itoa(clients), "-fairness.chunk=" + strconv.Itoa(chunk)}, t.floodArgs...)...)
	}
	if l != nil {
		// The flood fills its queues before the steady client is measured.
		time.Sleep(warmUp)
	}
	before := scrape(b, t)
	hubCPU, _ := proc.CPUTime(t.pid)
	start := time.Now()
	var profiled sync.WaitGroup
	if profile != "" {
		profiled.Go(func() {
			body, err := t.get("/debug/pprof/profile?seconds=10")
			if err == nil {
				err = os.WriteFile(profile, body, 0o644)
			}
			if err != nil {
				logf("profiling the server: %v", err)
			}
		})
	}
	var s sample
	s.steady, s.steadyErr = measureSteady(context.Background(), t.steady, duration)
	s.elapsed = time.Since(start)
	cpu, _ := proc.CPUTime(t.pid)
	s.hubCPU = cpu - hubCPU
	s.hub = scrape(b, t).since(before, t.level)
	if l != nil {
		s.floodOps, s.floodErr, s.loadCPU = l.stop(b)
		if p.load == "burn" {
			s.floodOps = 0
		}
	}
	profiled.Wait()
	return s
}

// measureSteady sends steadyRate requests a second for duration, each
// on time whatever the previous one took, alternately a get and a list,
// and returns their latencies and how many failed.
func measureSteady(ctx context.Context, cms typedConfigMaps, duration time.Duration) (benchreport.Latencies, int64) {
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
	u, err := kruntime.DefaultUnstructuredConverter.ToUnstructured(lc)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := d.Resource(tenancyv1alpha1.SchemeGroupVersion.WithResource("logicalclusters")).Create(ctx, &unstructured.Unstructured{Object: u}, metav1.CreateOptions{}); err != nil {
		b.Fatalf("creating root:%s: %v", name, err)
	}
	cs, err := kubeFor(admin, name, "")
	if err != nil {
		b.Fatal(err)
	}
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
func kubeFor(admin *rest.Config, name, token string) (*kubernetes.Clientset, error) {
	return clientFor(admin, admin.Host+"/clusters/root:"+name, token, "")
}

// clientFor is a clientset of host with admin's certificates, as the
// admin, or as token's user, or impersonating user as, with no
// client-side rate limit.
func clientFor(admin *rest.Config, host, token, as string) (*kubernetes.Clientset, error) {
	cfg := rest.CopyConfig(admin)
	cfg.Host = host
	if token != "" {
		cfg = rest.AnonymousClientConfig(cfg)
		cfg.BearerToken = token
	}
	if as != "" {
		cfg.Impersonate = rest.ImpersonationConfig{UserName: as, Groups: []string{user.AllAuthenticated}}
	}
	cfg.QPS, cfg.Burst = -1, 0
	cfg.Timeout = 2 * time.Minute
	// HTTP/1.1, so that the flood's requests take connections of their
	// own, as many clients' would.
	cfg.NextProtos = []string{"http/1.1"}
	return kubernetes.NewForConfig(cfg)
}

func configMap(name string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}, Data: map[string]string{"data": strings.Repeat("x", 256)}}
}
