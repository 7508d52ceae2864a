package syncer

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/canopy-dev/canopy/bench/internal/fleet"
	"github.com/canopy-dev/canopy/bench/internal/knob"
	"github.com/canopy-dev/canopy/bench/internal/proc"
	benchreport "github.com/canopy-dev/canopy/bench/internal/report"
	"github.com/canopy-dev/canopy/internal/pgtest"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// Knobs, all optional.
const (
	envTargets     = "CANOPY_BENCH_TARGETS"     // physical clusters, each with its syncer (3)
	envLCs         = "CANOPY_BENCH_LCS"         // logical clusters the Deployments spread over (100)
	envDeployments = "CANOPY_BENCH_DEPLOYMENTS" // Deployments applied at the hub (1000)
	envReplicas    = "CANOPY_BENCH_REPLICAS"    // replicas of each (1)
	envRate        = "CANOPY_BENCH_RATE"        // applies per second (10)
	envTimeout     = "CANOPY_BENCH_TIMEOUT"     // wait after the last apply for all to roll out (3m)
	envSettle      = "CANOPY_BENCH_SETTLE"      // wait after that before the idle sampling (15s)
	envIdle        = "CANOPY_BENCH_IDLE"        // the idle sampling (30s)
	envHub         = "CANOPY_HUB"               // a prebuilt hub binary; unset builds cmd/hub
	envSyncer      = "CANOPY_SYNCER"            // a prebuilt syncer binary; unset builds cmd/syncer
	envOut         = "CANOPY_BENCH_OUT"         // directory for the logs and the physical clusters' state
)

// Goals and reference, reported and not enforced.
const (
	goalP99    = 300 * time.Millisecond // each way
	karmadaP99 = 989 * time.Millisecond // Karmada's published pull-mode p99
	// inFlight bounds the applies waiting for the hub; past it the rate
	// slips, and the report says so.
	inFlight = 64
	// podsPerNode is what the physical clusters' nodes are filled to, below
	// the 110 pods kwok gives each.
	podsPerNode = 100
)

type config struct {
	targets, lcs, deployments, replicas int
	rate                                float64
	timeout, settle, idle               time.Duration
	out                                 string
}

func BenchmarkSyncer(b *testing.B) {
	c := config{
		targets:     max(1, knob.Int(b, envTargets, 3)),
		lcs:         max(1, knob.Int(b, envLCs, 100)),
		deployments: knob.Int(b, envDeployments, 1000),
		replicas:    knob.Int(b, envReplicas, 1),
		rate:        knob.Float(b, envRate, 10),
		timeout:     knob.Duration(b, envTimeout, 3*time.Minute),
		settle:      knob.Duration(b, envSettle, 15*time.Second),
		idle:        knob.Duration(b, envIdle, 30*time.Second),
		out:         knob.Dir(b, envOut),
	}
	if c.rate <= 0 {
		b.Fatalf("%s must be above 0", envRate)
	}
	ctx, stop := proc.InterruptContext()
	defer stop()
	loadStart := benchreport.LoadAverage()
	for range b.N {
		r := run(ctx, b, c)
		b.ReportMetric(ms(r.Down.P99), "down-p99-ms")
		b.ReportMetric(ms(r.Up.P99), "up-p99-ms")
		printReport(os.Stdout, c, r, loadStart)
	}
}

// result holds the figures of one run.
type result struct {
	Nodes                   int
	ApplyWall               time.Duration
	ConvergeWall            time.Duration // first apply to the last rolled out at the hub
	Down, DownFromReturn    benchreport.Latencies
	Up, EndToEnd, ApplyCall benchreport.Latencies
	UpNegative              int // hub saw it before this process's downstream watch did
	Missing                 missing
	Syncers                 []syncerFigures
	HubIdle                 idleFigures
	Retries                 []int  // "will retry" lines in each syncer's log
	Times                   string // the CSV of each Deployment's times
	// CPU is what the hub, the syncers and the physical clusters, and the
	// whole machine, used from the first apply to all rolled out.
	CPU cpuUse
}

// missing counts the Deployments that never reached a stage.
type missing struct{ Created, DownRolledOut, HubRolledOut int }

type syncerFigures struct {
	Name        string
	RSSEmptyKiB int64 // ready, nothing assigned
	Idle        idleFigures
	Log         string
}

func run(ctx context.Context, b *testing.B, c config) result {
	var r result
	clusterDir := filepath.Join(c.out, "clusters")
	podsPerCluster := (c.deployments + c.targets - 1) / c.targets * c.replicas
	r.Nodes = max(2, (podsPerCluster+podsPerNode-1)/podsPerNode)
	names := make([]string, c.targets)
	for t := range names {
		names[t] = targetName(t)
	}
	logf("starting %d physical clusters of %d kwok nodes each", c.targets, r.Nodes)
	clusters := fleet.StartClusters(ctx, b, clusterDir, names, r.Nodes)

	hubBin := proc.Binary(b, envHub, "github.com/canopy-dev/canopy/cmd/hub")
	syncerBin := proc.Binary(b, envSyncer, "github.com/canopy-dev/canopy/cmd/syncer")
	h := proc.StartHub(b, hubBin, pgtest.Start(b).NewDatabase(b), filepath.Join(c.out, "hub.log"))
	logf("hub ready at %s (log %s)", h.URL(), h.LogPath)
	admin, err := clientcmd.BuildConfigFromFlags("", h.AdminKubeconfig())
	if err != nil {
		b.Fatal(err)
	}
	admin.QPS, admin.Burst = 5000, 5000
	admin.Timeout = time.Minute
	hub := newHubClients(b, h, admin)
	lcs := hub.createLogicalClusters(ctx, b, c.lcs)
	logf("%d logical clusters with namespace app", len(lcs))

	pcs := clusters.Wait(b)
	logf("%d physical clusters ready", len(pcs))
	syncers := make([]*fleet.Syncer, len(pcs))
	for i, pc := range pcs {
		// The label placement would select it by.
		syncers[i] = fleet.StartSyncer(ctx, b, h, hubBin, syncerBin, pc, c.out, "bench=syncer")
	}
	for _, s := range syncers {
		s.WaitReady(ctx, b)
	}
	logf("%d syncers ready", len(syncers))
	// What a syncer holds with nothing assigned, once its start is over.
	sleep(ctx, b, 5*time.Second)
	for _, s := range syncers {
		r.Syncers = append(r.Syncers, syncerFigures{Name: s.Cluster.Name, RSSEmptyKiB: proc.RSSKiB(s.PID()), Log: s.LogPath})
	}

	obs := observe(ctx, b, hub.wildcard, pcs, c.deployments)
	defer obs.stop()
	var clusterPIDs []int
	for _, pc := range pcs {
		for _, pid := range pc.PIDs {
			clusterPIDs = append(clusterPIDs, pid)
		}
	}
	groups := [][]int{{h.PID()}, nil, clusterPIDs}
	for _, s := range syncers {
		groups[1] = append(groups[1], s.PID())
	}
	cpuStart := cpuSnapshot(groups)
	applyStart := time.Now()
	hub.applyDeployments(ctx, b, c, obs)
	r.ApplyWall = time.Since(applyStart)
	logf("applied %d Deployments in %v (%.1f/s)", c.deployments, r.ApplyWall.Round(time.Millisecond), float64(c.deployments)/r.ApplyWall.Seconds())
	obs.waitRolledOut(ctx, b, c.timeout)
	r.CPU = cpuSnapshot(groups).since(cpuStart)
	r.ConvergeWall = obs.lastHubRolledOut().Sub(applyStart)
	obs.figures(&r)
	r.Times = filepath.Join(c.out, "times.csv")
	if err := obs.writeTimes(r.Times, applyStart); err != nil {
		b.Fatal(err)
	}

	sleep(ctx, b, c.settle)
	pids := []int{h.PID()}
	for _, s := range syncers {
		pids = append(pids, s.PID())
	}
	logf("sampling the idle syncers for %v", c.idle)
	idle := sampleIdle(ctx, b, pids, c.idle)
	r.HubIdle = idle[0]
	for i, s := range syncers {
		r.Syncers[i].Idle = idle[i+1]
		r.Retries = append(r.Retries, strings.Count(s.Log(), "will retry"))
	}
	return r
}

// hubClients reach the hub as its admin.
type hubClients struct {
	base     *rest.Config
	h        *proc.Hub
	root     dynamic.Interface
	wildcard dynamic.Interface

	mu      sync.Mutex
	byPath  map[string]dynamic.Interface
	httpCfg *rest.Config
}

func newHubClients(b *testing.B, h *proc.Hub, admin *rest.Config) *hubClients {
	hc := &hubClients{base: admin, h: h, byPath: map[string]dynamic.Interface{}}
	hc.root = hc.in(b, "root")
	hc.wildcard = hc.in(b, "*")
	return hc
}

// in is a client of logical cluster path, or of all for "*".
func (hc *hubClients) in(b *testing.B, path string) dynamic.Interface {
	hc.mu.Lock()
	defer hc.mu.Unlock()
	if d, ok := hc.byPath[path]; ok {
		return d
	}
	cfg := rest.CopyConfig(hc.base)
	cfg.Host = hc.h.URL() + "/clusters/" + path
	d, err := dynamic.NewForConfig(cfg)
	if err != nil {
		b.Fatal(err)
	}
	hc.byPath[path] = d
	return d
}

var (
	deployments = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	namespaces  = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	lcResource  = schema.GroupVersionResource{Group: "tenancy.canopy.dev", Version: "v1alpha1", Resource: "logicalclusters"}
)

// namespace is where the Deployments are in each logical cluster.
const namespace = "app"

// deployment i: its logical cluster, name and target index.
func deployment(i, lcs, targets int) (cluster, name string, target int) {
	return fmt.Sprintf("root:lc-%d", i%lcs), fmt.Sprintf("web-%d", i), i % targets
}

// applyDeployments server-side applies the Deployments at c.rate,
// recording when each apply started and returned.
func (hc *hubClients) applyDeployments(ctx context.Context, b *testing.B, c config, obs *observer) {
	keys := make([]string, c.targets)
	for t := range keys {
		keys[t] = workloadv1alpha1.TargetKey("root", targetName(t))
	}
	var wg sync.WaitGroup
	var failed atomic.Pointer[error]
	slots := make(chan struct{}, inFlight)
	tick := time.NewTicker(time.Duration(float64(time.Second) / c.rate))
	defer tick.Stop()
	for i := range c.deployments {
		select {
		case <-ctx.Done():
			b.Fatalf("interrupted while applying: %v", ctx.Err())
		case <-tick.C:
		}
		if err := failed.Load(); err != nil {
			b.Fatal(*err)
		}
		slots <- struct{}{}
		cluster, name, target := deployment(i, c.lcs, c.targets)
		client := hc.in(b, cluster).Resource(deployments).Namespace(namespace)
		obj := fleet.Deployment(name, namespace, c.replicas, map[string]any{workloadv1alpha1.StateLabel(keys[target]): workloadv1alpha1.StateSync})
		wg.Go(func() {
			defer func() { <-slots }()
			start := time.Now()
			_, err := client.Apply(ctx, name, obj, metav1.ApplyOptions{FieldManager: "bench", Force: true})
			if err != nil {
				err = fmt.Errorf("applying Deployment %s in %s: %w", name, cluster, err)
				failed.CompareAndSwap(nil, &err)
				return
			}
			obs.applied(key(cluster, namespace, name), start, time.Now())
		})
		if (i+1)%max(1, c.deployments/10) == 0 {
			logf("applied %d/%d; created downstream %d, rolled out at the hub %d", i+1, c.deployments, obs.count(stageCreated), obs.count(stageHubRolledOut))
		}
	}
	wg.Wait()
	if err := failed.Load(); err != nil {
		b.Fatal(*err)
	}
}

// idleFigures are a process's CPU and memory over the idle period.
type idleFigures struct {
	CPUPercent             float64 // of one core
	RSSMinKiB, RSSMaxKiB   int64
	RSSStartKiB, RSSEndKiB int64
}

// sampleIdle reads the CPU time of each of pids at the start and the end
// of d, and its RSS every second in between.
func sampleIdle(ctx context.Context, b *testing.B, pids []int, d time.Duration) []idleFigures {
	figs := make([]idleFigures, len(pids))
	cpu0 := make([]time.Duration, len(pids))
	for i, pid := range pids {
		var err error
		if cpu0[i], err = proc.CPUTime(pid); err != nil {
			b.Fatal(err)
		}
		rss := proc.RSSKiB(pid)
		figs[i] = idleFigures{RSSMinKiB: rss, RSSMaxKiB: rss, RSSStartKiB: rss}
	}
	start := time.Now()
	for time.Since(start) < d {
		sleep(ctx, b, min(time.Second, d-time.Since(start)))
		for i, pid := range pids {
			rss := proc.RSSKiB(pid)
			figs[i].RSSMinKiB, figs[i].RSSMaxKiB, figs[i].RSSEndKiB = min(figs[i].RSSMinKiB, rss), max(figs[i].RSSMaxKiB, rss), rss
		}
	}
	wall := time.Since(start)
	for i, pid := range pids {
		cpu, err := proc.CPUTime(pid)
		if err != nil {
			b.Fatal(err)
		}
		figs[i].CPUPercent = 100 * float64(cpu-cpu0[i]) / float64(wall)
	}
	return figs
}

// cpuUse is CPU time used by groups of processes (the hub, the syncers,
// the physical clusters) and by the whole machine, busy and in all.
type cpuUse struct {
	Groups               []time.Duration
	MachineBusy, Machine time.Duration
}

// cpuSnapshot is the CPU time used so far by each group of pids and by
// the machine; a process that cannot be read counts nothing.
func cpuSnapshot(groups [][]int) cpuUse {
	u := cpuUse{Groups: make([]time.Duration, len(groups))}
	for i, pids := range groups {
		for _, pid := range pids {
			d, err := proc.CPUTime(pid)
			if err != nil {
				logf("CPU time of process %d: %v", pid, err)
			}
			u.Groups[i] += d
		}
	}
	var err error
	if u.MachineBusy, u.Machine, err = proc.MachineCPU(); err != nil {
		logf("the machine's CPU time: %v", err)
	}
	return u
}

// since is what was used from start to u.
func (u cpuUse) since(start cpuUse) cpuUse {
	d := cpuUse{MachineBusy: u.MachineBusy - start.MachineBusy, Machine: u.Machine - start.Machine}
	for i := range u.Groups {
		d.Groups = append(d.Groups, u.Groups[i]-start.Groups[i])
	}
	return d
}

var (
	sleep = proc.Sleep
	logf  = proc.Logger("bench/syncer")
)

var ms = benchreport.MS

// targetName is the SyncTarget and physical cluster of target index t.
func targetName(t int) string { return fmt.Sprintf("pc%d", t+1) }
