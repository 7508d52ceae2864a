package ha

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/canopy-dev/canopy/bench/internal/follow"
	"github.com/canopy-dev/canopy/bench/internal/knob"
	"github.com/canopy-dev/canopy/bench/internal/proc"
	benchreport "github.com/canopy-dev/canopy/bench/internal/report"
	"github.com/canopy-dev/canopy/internal/pgtest"
	"github.com/canopy-dev/canopy/internal/tcpbalancer"
	tenancyv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/tenancy/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/shard"
)

// Knobs, all optional.
const (
	envCounts  = "CANOPY_BENCH_REPLICA_COUNTS" // replica counts to run, comma-separated (1,2,3)
	envRounds  = "CANOPY_BENCH_ROUNDS"         // rounds, each of every count in turn (3)
	envClients = "CANOPY_BENCH_CLIENTS"        // concurrent clients through the balancer (64)
	envCreates = "CANOPY_BENCH_CREATES"        // ConfigMaps created for creates/s (4000)
	envWatch   = "CANOPY_BENCH_WATCH_WRITES"   // writes timed for watch delivery (300; 0: no watch phase)
	envLCs     = "CANOPY_BENCH_LCS"            // LogicalClusters created for controller throughput (400; 0: no LogicalCluster or takeover phase)
	envParents = "CANOPY_BENCH_PARENTS"        // parent logical clusters they are spread over (16)
	envHub     = "CANOPY_HUB"                  // a prebuilt hub binary; unset builds cmd/hub
	envOut     = "CANOPY_BENCH_OUT"            // directory for the replicas' logs (a temp dir)
	envIdle    = "CANOPY_BENCH_IDLE"           // how long each replica's idle CPU is measured (5s)
	envProfile = "CANOPY_BENCH_PROFILE"        // seconds of CPU profile of each replica from the first create, and from the first LogicalCluster (0: none)
	envShare   = "CANOPY_BENCH_SHARE_CORES"    // 1: each replica's GOMAXPROCS is the machine's cores divided among the replicas (0: Go's default, every core)
)

// Goals, reported and not enforced.
const (
	goalCrossExtra = 20 * time.Millisecond // cross-replica watch p99 above same-replica p99, at most
	goalTakeover   = 15 * time.Second      // kill -9 to a live replica holding the shard, at most
	readyTimeout   = 5 * time.Minute
)

// result is the figures of one replica count in one round.
type result struct {
	Replicas int
	// Load is the load average as the round of this count started.
	Load          string
	Creates       int
	CreateErrors  int64
	CreatesPerSec float64
	// CreatesPerCommit is how many creates shared a transaction, on
	// average: the group commits' size.
	CreatesPerCommit float64
	// FollowCPU is, with two replicas or more, what the replicas but the
	// first used while every create went through the first: the cost of
	// following writes made through another replica, which every replica
	// pays for every write of the others.
	FollowCPU            cpuUse
	Follows              int
	FollowTook           time.Duration
	Same, Cross          benchreport.Latencies
	LCs                  int
	LCsPerSec            float64
	Takeover, TakeoverLC time.Duration
	// IdleMSPerSec is each replica's CPU milliseconds per second with no
	// request, then PostgreSQL's; CreatesCPU and LCsCPU what the creates
	// and the LogicalClusters used.
	IdleMSPerSec       []float64
	CreatesCPU, LCsCPU cpuUse
}

// settings are the knobs of one run.
type settings struct {
	bin                                         string
	out                                         string
	clients, creates, watchWrites, lcs, parents int
	idle                                        time.Duration
	profileSecs                                 int
	shareCores                                  bool
}

func BenchmarkReplicas(b *testing.B) {
	counts := replicaCounts(b)
	rounds := max(knob.Int(b, envRounds, 3), 1)
	s := settings{
		clients:     knob.Int(b, envClients, 64),
		creates:     knob.Int(b, envCreates, 4000),
		watchWrites: knob.Int(b, envWatch, 300),
		lcs:         knob.Int(b, envLCs, 400),
		parents:     max(knob.Int(b, envParents, 16), 1),
		out:         knob.Dir(b, envOut),
		idle:        knob.Duration(b, envIdle, 5*time.Second),
		profileSecs: knob.Int(b, envProfile, 0),
		shareCores:  knob.Int(b, envShare, 0) == 1,
	}
	loadStart := benchreport.LoadAverage()

	s.bin = proc.Binary(b, envHub, "github.com/canopy-dev/canopy/cmd/hub")
	pg := pgtest.Start(b)
	// Every count runs once a round, in turn, each on fresh replicas and a
	// fresh database: a slow spell of the machine, which other work keeps
	// busy, then hits every count alike, and the report takes medians.
	var results [][]result // by round, then by count
	for round := 1; round <= rounds; round++ {
		var byCount []result
		for _, n := range counts {
			b.Run(fmt.Sprintf("round=%d/replicas=%d", round, n), func(b *testing.B) {
				r := measureCount(b, s, pg.NewDatabase(b), n, fmt.Sprintf("round-%d", round))
				b.ReportMetric(r.CreatesPerSec, "creates/s")
				b.ReportMetric(r.LCsPerSec, "lcs/s")
				byCount = append(byCount, r)
			})
		}
		results = append(results, byCount)
	}
	printReport(os.Stdout, results, s.clients, loadStart)
}

// measureCount starts n replicas on dsn and takes every figure of one
// round; tag names the round in the replicas' log files.
func measureCount(b *testing.B, s settings, dsn string, n int, tag string) result {
	r := result{Replicas: n, Creates: s.creates, LCs: s.lcs, Load: benchreport.LoadAverage(), Takeover: -1, TakeoverLC: -1}
	c := startReplicas(b, s.bin, dsn, n, s.clients, s.out, tag, s.shareCores)
	c.postgres = postmaster(b)
	logf("%d replica(s) serving, load average %s", n, r.Load)
	r.IdleMSPerSec = measureIdle(c, s.idle)
	logf("idle CPU, ms per second of each replica and of PostgreSQL: %.1f", r.IdleMSPerSec)
	cpu0 := cpuSnapshot(c)
	profiled := profile(c, s.out, tag+"-creates", s.profileSecs)
	r.CreatesPerSec, r.CreateErrors = measureCreates(b, c, s.clients, s.creates)
	r.CreatesCPU = cpuSnapshot(c).since(cpu0)
	r.CreatesPerCommit = createsPerCommit(b, dsn)
	logf("creates: %.0f/s (%d errors), %.1f a transaction; CPU: replicas %v, PostgreSQL %v, bench %v, machine busy %v of %v",
		r.CreatesPerSec, r.CreateErrors, r.CreatesPerCommit, r.CreatesCPU.Hubs, r.CreatesCPU.Postgres, r.CreatesCPU.Bench, r.CreatesCPU.MachineBusy, r.CreatesCPU.Machine)
	profiled()
	if n > 1 {
		r.Follows = s.creates / 2
		r.FollowCPU, r.FollowTook = measureFollow(b, c, s, r.Follows, tag)
	}
	if s.watchWrites > 0 {
		r.Same, r.Cross = measureWatch(b, c, s.watchWrites)
		logf("watch delivery: same replica p50 %.1f ms p99 %.1f ms; cross-replica p50 %.1f ms p99 %.1f ms",
			benchreport.MS(r.Same.P50), benchreport.MS(r.Same.P99), benchreport.MS(r.Cross.P50), benchreport.MS(r.Cross.P99))
	}
	if s.lcs == 0 {
		return r
	}
	r.LCsPerSec, r.LCsCPU = measureLogicalClusters(b, c, s.clients, s.lcs, s.parents, func() func() { return profile(c, s.out, tag+"-logicalclusters", s.profileSecs) })
	logf("LogicalClusters: %.1f Ready/s; CPU: replicas %v, PostgreSQL %v, machine busy %v of %v",
		r.LCsPerSec, r.LCsCPU.Hubs, r.LCsCPU.Postgres, r.LCsCPU.MachineBusy, r.LCsCPU.Machine)
	if n > 1 {
		if r.Takeover, r.TakeoverLC = measureTakeover(b, c); r.Takeover >= 0 {
			logf("takeover: Lease %v, LogicalCluster Ready %v after the kill", r.Takeover, r.TakeoverLC)
		}
	}
	return r
}

// replicaCounts is the counts in envCounts, 1,2,3 when unset.
func replicaCounts(tb testing.TB) []int {
	v := os.Getenv(envCounts)
	if v == "" {
		return []int{1, 2, 3}
	}
	var counts []int
	for f := range strings.SplitSeq(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			tb.Fatalf("%s=%q is not a list of replica counts such as 1,2,3", envCounts, v)
		}
		counts = append(counts, n)
	}
	return counts
}

func logf(format string, args ...any) { proc.Logger("BenchmarkReplicas")(format, args...) }

// replicas are the hub replicas of one count, behind a balancer.
type replicas struct {
	hubs []*proc.Hub
	lb   *tcpbalancer.Balancer
	// base is a rest.Config of the admin, for HTTP/1.1.
	base *rest.Config
	// postgres is the pid of the postmaster, whose tree is PostgreSQL.
	postgres int
}

// startReplicas runs hub init on dsn and starts n replicas with its
// identity key, their logs in out named with tag, and a balancer in front
// of them, for clients at once. With shareCores, each replica's GOMAXPROCS
// is its share of the machine's cores, as a CPU limit would make it.
func startReplicas(b *testing.B, bin, dsn string, n, clients int, out, tag string, shareCores bool) *replicas {
	b.Helper()
	key := filepath.Join(b.TempDir(), "identity.key")
	if o, err := exec.Command(bin, "init", "--datastore", dsn, "--identity-key-file", key, "--data-dir", b.TempDir()).CombinedOutput(); err != nil {
		b.Fatalf("hub init: %v\n%s", err, o)
	}
	c := &replicas{}
	addrs := make([]string, n)
	if shareCores {
		// The replicas inherit it; this process's own was set as it started.
		b.Setenv("GOMAXPROCS", strconv.Itoa(max(1, runtime.NumCPU()/n)))
	}
	for i := range n {
		h := proc.StartHub(b, bin, dsn, filepath.Join(out, fmt.Sprintf("%s-hub-%d-of-%d.log", tag, i+1, n)), "--identity-key-file", key)
		c.hubs = append(c.hubs, h)
		addrs[i] = strings.TrimPrefix(h.URL(), "https://")
	}
	lb, err := tcpbalancer.Start(addrs...)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(lb.Close)
	c.lb = lb
	base, err := clientcmd.BuildConfigFromFlags("", c.hubs[0].AdminKubeconfig())
	if err != nil {
		b.Fatal(err)
	}
	base.QPS, base.Burst = 5000, 5000
	base.Timeout = time.Minute
	// HTTP/1.1, so that concurrent requests take connections of their
	// own, which the balancer spreads over the replicas. client-go keeps
	// 25 idle connections a host, and closes the others: with more
	// clients than that, connections would come and go, each with a TLS
	// handshake that the replicas pay for, which clients that each keep
	// their connection do not make. So the transport keeps one for each.
	tlsConfig, err := rest.TLSConfigFor(base)
	if err != nil {
		b.Fatal(err)
	}
	tlsConfig.NextProtos = []string{"http/1.1"}
	base.TLSClientConfig = rest.TLSClientConfig{}
	base.Transport = &http.Transport{
		TLSClientConfig:     tlsConfig,
		MaxIdleConnsPerHost: clients + 16, // and the watches'
		IdleConnTimeout:     time.Minute,
		TLSHandshakeTimeout: 10 * time.Second,
	}
	c.base = base
	return c
}

// config is the admin's rest.Config for the logical cluster at path,
// through the balancer when hub is negative, else through replica hub.
func (c *replicas) config(hub int, path string) *rest.Config {
	cfg := rest.CopyConfig(c.base)
	cfg.Host = "https://" + c.lb.Addr()
	if hub >= 0 {
		cfg.Host = c.hubs[hub].URL()
	}
	cfg.Host += "/clusters/" + path
	return cfg
}

func (c *replicas) kube(b *testing.B, hub int, path string) *kubernetes.Clientset {
	cs, err := kubernetes.NewForConfig(c.config(hub, path))
	if err != nil {
		b.Fatal(err)
	}
	return cs
}

func (c *replicas) dynamic(b *testing.B, hub int, path string) *dynamic.DynamicClient {
	d, err := dynamic.NewForConfig(c.config(hub, path))
	if err != nil {
		b.Fatal(err)
	}
	return d
}

// measureCreates creates count ConfigMaps in root through the balancer
// with clients at once, and returns the successful creates per second.
func measureCreates(b *testing.B, c *replicas, clients, count int) (float64, int64) {
	cms := c.kube(b, -1, "root").CoreV1().ConfigMaps(metav1.NamespaceDefault)
	took, failed := createConfigMaps(cms, clients, count, "create")
	return float64(int64(count)-failed) / took.Seconds(), failed
}

// createConfigMaps creates count ConfigMaps named prefix-<i> through cms
// with clients at once, and returns how long that took and how many
// failed.
func createConfigMaps(cms typedcorev1.ConfigMapInterface, clients, count int, prefix string) (time.Duration, int64) {
	ctx := context.Background()
	data := map[string]string{"data": strings.Repeat("x", 256)}
	return proc.Pool(clients, count, func(i int) error {
		_, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("%s-%d", prefix, i)}, Data: data}, metav1.CreateOptions{})
		return err
	}, logf)
}

// measureFollow creates count ConfigMaps through the first replica alone,
// with the clients, and returns the CPU the replicas used meanwhile: the
// others' is what following another replica's writes costs, with a CPU
// profile of each if profiles are asked for. It returns how long the
// creates took too.
func measureFollow(b *testing.B, c *replicas, s settings, count int, tag string) (cpuUse, time.Duration) {
	cms := c.kube(b, 0, "root").CoreV1().ConfigMaps(metav1.NamespaceDefault)
	cpu0 := cpuSnapshot(c)
	profiled := profile(c, s.out, tag+"-follow", s.profileSecs)
	took, failed := createConfigMaps(cms, s.clients, count, "follow")
	used := cpuSnapshot(c).since(cpu0)
	profiled()
	logf("follow: %d creates through replica 1 at %.0f/s (%d failed); CPU: replicas %v, PostgreSQL %v",
		count, float64(int64(count)-failed)/took.Seconds(), failed, used.Hubs, used.Postgres)
	return used, took
}

// createsPerCommit is how many of measureCreates' ConfigMaps each
// transaction that wrote them created, on average. A row's xmin names the
// transaction that wrote it, and these rows are never rewritten.
func createsPerCommit(b *testing.B, dsn string) float64 {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close(ctx)
	var rows, commits int64
	if err := conn.QueryRow(ctx, `SELECT count(*), count(DISTINCT xmin::text) FROM canopy_revisions WHERE key LIKE '%/default/create-%'`).Scan(&rows, &commits); err != nil {
		b.Fatal(err)
	}
	return float64(rows) / float64(max(commits, 1))
}

// measureWatch creates ConfigMaps one at a time through replica 0 and
// times their events on watches on replica 0 and, with two replicas or
// more, on replica 1.
func measureWatch(b *testing.B, c *replicas, writes int) (same, cross benchreport.Latencies) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const namespace = "watch"
	writer := c.kube(b, 0, "root")
	if _, err := writer.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}}, metav1.CreateOptions{}); err != nil {
		b.Fatal(err)
	}
	sent := make([]time.Time, writes)
	seen := func(hub int) func() []time.Duration {
		w, err := c.kube(b, hub, "root").CoreV1().ConfigMaps(namespace).Watch(ctx, metav1.ListOptions{})
		if err != nil {
			b.Fatal(err)
		}
		var mu sync.Mutex
		at := map[string]time.Time{}
		go func() {
			for ev := range w.ResultChan() {
				// Only the writes timed count: the namespace's
				// kube-root-ca.crt is Added too.
				if ev.Type != watch.Added || !strings.HasPrefix(ev.Object.(*corev1.ConfigMap).Name, "w-") {
					continue
				}
				now := time.Now()
				mu.Lock()
				at[ev.Object.(*corev1.ConfigMap).Name] = now
				mu.Unlock()
			}
		}()
		// latencies waits up to 30 s for every write's event, and returns
		// the delays of those seen.
		return func() []time.Duration {
			for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
				mu.Lock()
				n := len(at)
				mu.Unlock()
				if n == writes {
					break
				}
			}
			mu.Lock()
			defer mu.Unlock()
			var d []time.Duration
			for i, t := range sent {
				if got, ok := at[fmt.Sprintf("w-%d", i)]; ok {
					d = append(d, got.Sub(t))
				}
			}
			if len(d) < writes {
				logf("replica %d's watch saw %d of %d writes within 30 s", hub+1, len(d), writes)
			}
			return d
		}
	}
	onSame := seen(0)
	var onOther func() []time.Duration
	if len(c.hubs) > 1 {
		onOther = seen(1)
	}
	for i := range writes {
		sent[i] = time.Now()
		if _, err := writer.CoreV1().ConfigMaps(namespace).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("w-%d", i)}}, metav1.CreateOptions{}); err != nil {
			b.Fatal(err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	same = benchreport.Summarize(onSame())
	if onOther != nil {
		cross = benchreport.Summarize(onOther())
	}
	return same, cross
}

// lcReady follows the LogicalClusters of every logical cluster and tells
// when each, by cluster path, is Ready.
type lcReady struct {
	mu    sync.Mutex
	ready map[logicalcluster.Name]time.Time
}

func followReady(ctx context.Context, b *testing.B, c *replicas, hub int) *lcReady {
	r := &lcReady{ready: map[logicalcluster.Name]time.Time{}}
	lcs := c.dynamic(b, hub, "*").Resource(tenancyv1alpha1.SchemeGroupVersion.WithResource("logicalclusters"))
	follow.Follow(ctx, b, lcs, func(u *unstructured.Unstructured, deleted bool) {
		phase, _, _ := unstructured.NestedString(u.Object, "status", "phase")
		if deleted || phase != string(tenancyv1alpha1.LogicalClusterReady) {
			return
		}
		path := logicalcluster.Name(u.GetAnnotations()[logicalcluster.Annotation] + ":" + u.GetName())
		r.mu.Lock()
		if _, ok := r.ready[path]; !ok {
			r.ready[path] = time.Now()
		}
		r.mu.Unlock()
	}, func(map[string]bool) {})
	return r
}

// wait waits until every one of paths is Ready and returns when the last
// became so.
func (r *lcReady) wait(b *testing.B, paths []logicalcluster.Name) time.Time {
	for deadline := time.Now().Add(readyTimeout); ; time.Sleep(50 * time.Millisecond) {
		r.mu.Lock()
		var last time.Time
		missing := 0
		for _, p := range paths {
			t, ok := r.ready[p]
			if !ok {
				missing++
			} else if t.After(last) {
				last = t
			}
		}
		r.mu.Unlock()
		if missing == 0 {
			return last
		}
		if time.Now().After(deadline) {
			b.Fatalf("%d of %d LogicalClusters not Ready after %v", missing, len(paths), readyTimeout)
		}
	}
}

// createLC creates LogicalCluster name in the logical cluster at parent
// through the balancer.
func (c *replicas) createLC(ctx context.Context, b *testing.B, parent logicalcluster.Name, name string) error {
	lc := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": tenancyv1alpha1.SchemeGroupVersion.String(), "kind": "LogicalCluster",
		"metadata": map[string]any{"name": name},
	}}
	_, err := c.dynamic(b, -1, parent.String()).Resource(tenancyv1alpha1.SchemeGroupVersion.WithResource("logicalclusters")).Create(ctx, lc, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("creating LogicalCluster %s in %s: %w", name, parent, err)
	}
	return nil
}

// parent is the i-th parent logical cluster of measureLogicalClusters.
func parent(i int) logicalcluster.Name { return logicalcluster.Name(fmt.Sprintf("root:p-%d", i)) }

// measureLogicalClusters creates parents, waits until they are Ready,
// then creates count LogicalClusters in them through the balancer with
// clients at once, and returns how many became Ready per second and the
// CPU used from the first create to the last Ready.
// startProfile starts profiling with the first create and returns what
// waits for the profiles.
func measureLogicalClusters(b *testing.B, c *replicas, clients, count, parents int, startProfile func() func()) (float64, cpuUse) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := followReady(ctx, b, c, 0)
	var ps []logicalcluster.Name
	for i := range parents {
		if err := c.createLC(ctx, b, logicalcluster.Root, parent(i).Base()); err != nil {
			b.Fatal(err)
		}
		ps = append(ps, parent(i))
	}
	r.wait(b, ps)
	paths := make([]logicalcluster.Name, count)
	for i := range paths {
		paths[i] = logicalcluster.Name(fmt.Sprintf("%s:lc-%d", parent(i%parents), i))
	}
	cpu0 := cpuSnapshot(c)
	profiled := startProfile()
	defer profiled()
	start := time.Now()
	if _, failed := proc.Pool(clients, count, func(i int) error {
		p, _ := paths[i].Parent()
		return c.createLC(ctx, b, p, paths[i].Base())
	}, logf); failed > 0 {
		b.Fatalf("%d LogicalCluster creates failed", failed)
	}
	last := r.wait(b, paths)
	return float64(count) / last.Sub(start).Seconds(), cpuSnapshot(c).since(cpu0)
}

// memberLine is what a replica's shard Manager (pkg/shard) logs when it
// starts, naming the member identity its Leases hold.
var memberLine = regexp.MustCompile(`"Taking part in the shards of logical clusters" member="([^"]+)"`)

// measureTakeover kills the replica owning the shard of the first parent
// and returns how long until a live replica holds the shard's Lease, and
// until a LogicalCluster created in that parent right after the kill is
// Ready; -1 for both when no replica holds the Lease.
func measureTakeover(b *testing.B, c *replicas) (lease, ready time.Duration) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	leaseName := fmt.Sprintf("canopy-shard-%02d", shard.Of(parent(0)))
	members := map[string]int{}
	for i, h := range c.hubs {
		if m := memberLine.FindStringSubmatch(h.Log()); m != nil {
			members[m[1]] = i
		}
	}
	holder := func(hub int) string {
		l, err := c.kube(b, hub, "root").CoordinationV1().Leases(metav1.NamespaceSystem).Get(ctx, leaseName, metav1.GetOptions{})
		if err != nil || l.Spec.HolderIdentity == nil {
			return ""
		}
		return *l.Spec.HolderIdentity
	}
	victimID := holder(0)
	victim, ok := members[victimID]
	if !ok {
		logf("Lease %s names %q, none of the replicas' members %v: a hub without pkg/shard's Manager has no takeover to time", leaseName, victimID, members)
		return -1, -1
	}
	survivor := (victim + 1) % len(c.hubs)
	r := followReady(ctx, b, c, survivor)
	_ = c.hubs[victim].Cmd.Process.Kill()
	_ = c.hubs[victim].Cmd.Wait()
	killed := time.Now()
	after := logicalcluster.Name(parent(0).String() + ":after-kill")
	for err := c.createLC(ctx, b, parent(0), after.Base()); err != nil && !apierrors.IsAlreadyExists(err); err = c.createLC(ctx, b, parent(0), after.Base()) {
		// An answer lost with the killed replica: the create is tried
		// again, through the balancer that now skips it, and found done
		// if it was.
		if time.Since(killed) > time.Minute {
			b.Fatal("no LogicalCluster create succeeded within a minute of the kill")
		}
		time.Sleep(100 * time.Millisecond)
	}
	for {
		if id := holder(survivor); id != victimID {
			if _, live := members[id]; live {
				lease = time.Since(killed)
				break
			}
		}
		if time.Since(killed) > readyTimeout {
			b.Fatalf("no live replica holds Lease %s %v after the kill", leaseName, readyTimeout)
		}
		time.Sleep(100 * time.Millisecond)
	}
	return lease, r.wait(b, []logicalcluster.Name{after}).Sub(killed)
}
