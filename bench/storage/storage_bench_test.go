package storage

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"text/tabwriter"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/kubernetes"
	"go.uber.org/zap"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/watch"
	apistorage "k8s.io/apiserver/pkg/storage"
	"k8s.io/apiserver/pkg/storage/etcd3"
	"k8s.io/apiserver/pkg/storage/value/encrypt/identity"
	"k8s.io/utils/clock"

	"github.com/canopy-dev/canopy/bench/internal/report"
	"github.com/canopy-dev/canopy/internal/pgtest"
	"github.com/canopy-dev/canopy/pkg/sqlstorage"
)

// Knobs, all optional. bench/storage.sh sets CANOPY_ETCD.
const (
	// envEtcd names the etcd server binary; unset skips the etcd rows.
	envEtcd = "CANOPY_ETCD"
	// envObjects is the number of objects created per run with c > 1.
	envObjects = "CANOPY_BENCH_OBJECTS"
	// envObjectsSerial is the number of objects created per run with c = 1.
	envObjectsSerial = "CANOPY_BENCH_OBJECTS_C1"
	// envConcurrency lists the writer counts, e.g. "1,16,64".
	envConcurrency = "CANOPY_BENCH_CONCURRENCY"
	// envCrossConcurrency lists the writer counts of the cross-process runs.
	envCrossConcurrency = "CANOPY_BENCH_CROSS_CONCURRENCY"
	// envRounds is how many times every run is repeated, interleaved; the
	// table shows the median and the range over the rounds.
	envRounds = "CANOPY_BENCH_ROUNDS"
	// envChild is set, to a JSON childConfig, in the re-executed writer process.
	envChild = "CANOPY_BENCH_CHILD"
)

const (
	defaultObjects       = 5000
	defaultObjectsSerial = 1000
	defaultRounds        = 5

	resourcePrefix  = "/configmaps"
	benchNamespace  = "bench"
	warmupNamespace = "warmup"
	markerName      = "ready"
	// startAnnotation carries the wall-clock time (Unix ns) at which the
	// object's Create call started, so that a watcher in another process can
	// compute the delivery latency.
	startAnnotation = "bench.canopy.dev/create-start-unix-nano"
	payloadBytes    = 1024

	// Goals, printed next to the figures; missing one does not fail the run.
	goalThroughputRatio = 1.0 // postgres writes/s at c=64 over etcd's, at least
	goalThroughputC     = 64
	goalP99Ratio        = 1.5                    // watch p99 over etcd's, at most
	goalCrossP99        = 100 * time.Millisecond // cross-process watch p99, at most

	watchTimeout = 2 * time.Minute
)

var (
	scheme = k8sruntime.NewScheme()
	codecs = serializer.NewCodecFactory(scheme)
	// codec is the storage codec of every backend: protobuf, core/v1, as
	// the API server stores ConfigMaps.
	codec         k8sruntime.Codec
	groupResource = schema.GroupResource{Resource: "configmaps"}
)

func init() {
	utilruntime.Must(corev1.AddToScheme(scheme))
	info, ok := k8sruntime.SerializerInfoForMediaType(codecs.SupportedMediaTypes(), k8sruntime.ContentTypeProtobuf)
	if !ok {
		panic("no protobuf serializer")
	}
	codec = codecs.CodecForVersions(info.Serializer, codecs.UniversalDeserializer(),
		corev1.SchemeGroupVersion, corev1.SchemeGroupVersion)
}

func TestMain(m *testing.M) {
	if cfg := os.Getenv(envChild); cfg != "" {
		os.Exit(childMain(cfg))
	}
	os.Exit(m.Run())
}

// result is one run's figures.
type result struct {
	Backend string
	C, N    int
	// WritesPerSec is N over the time from the first Create's start to the
	// last one's return.
	WritesPerSec float64
	// Watch delivery latency: Create start to ADDED event received.
	WatchP50, WatchP99 time.Duration
	// Create call latency.
	CreateP50, CreateP99 time.Duration
	// Delivery after the Create call returned: watch latency minus create
	// latency, object by object (negative when the event came first).
	DeliverP50, DeliverP99 time.Duration
}

func newResult(backend string, c, n int, elapsed time.Duration, watchLat, createLat []time.Duration) result {
	deliver := make([]time.Duration, len(watchLat))
	for i := range watchLat {
		deliver[i] = watchLat[i] - createLat[i]
	}
	return result{
		Backend: backend, C: c, N: n,
		WritesPerSec: float64(n) / elapsed.Seconds(),
		WatchP50:     percentile(watchLat, 0.50), WatchP99: percentile(watchLat, 0.99),
		CreateP50: percentile(createLat, 0.50), CreateP99: percentile(createLat, 0.99),
		DeliverP50: percentile(deliver, 0.50), DeliverP99: percentile(deliver, 0.99),
	}
}

const (
	rowSQLite   = "sqlite"
	rowPostgres = "postgres"
	rowEtcd     = "etcd"
	rowCross    = "postgres 2-proc"
)

// results keeps each sub-benchmark's figures. A sub-benchmark's function
// may be called again with a larger b.N when -benchtime is not 1x; the
// workload is fixed, so later calls only report the first call's figures.
var results struct {
	sync.Mutex
	byName map[string]result
	order  []string
	failed []string
}

func runOnce(b *testing.B, run func(b *testing.B) result) {
	results.Lock()
	r, done := results.byName[b.Name()]
	results.Unlock()
	if !done {
		r = run(b)
		results.Lock()
		if results.byName == nil {
			results.byName = map[string]result{}
		}
		results.byName[b.Name()] = r
		results.order = append(results.order, b.Name())
		results.Unlock()
	}
	b.ReportMetric(0, "ns/op") // one op is the whole fixed workload: meaningless
	b.ReportMetric(r.WritesPerSec, "writes/s")
	b.ReportMetric(ms(r.WatchP50), "p50-ms")
	b.ReportMetric(ms(r.WatchP99), "p99-ms")
	b.ReportMetric(ms(r.CreateP99), "create-p99-ms")
}

// BenchmarkStorage is the whole comparison; see the package documentation.
// Run it with -benchtime=1x.
func BenchmarkStorage(b *testing.B) {
	if f := benchtimeFlag(); f != "1x" {
		fmt.Printf("note: -test.benchtime=%s; each run is a fixed workload, so -benchtime=1x is what is meant\n", f)
	}
	loadAtStart = report.LoadAverage()
	etcdBin := os.Getenv(envEtcd)
	if etcdBin == "" {
		fmt.Printf("etcd rows skipped: %s is unset (bench/storage.sh builds etcd and sets it)\n", envEtcd)
	} else if _, err := os.Stat(etcdBin); err != nil {
		b.Fatalf("%s=%s: %v", envEtcd, etcdBin, err)
	}
	concurrency := intList(b, envConcurrency, []int{1, 16, 64})
	crossConcurrency := intList(b, envCrossConcurrency, []int{16, 64})
	rounds := intEnv(b, envRounds, defaultRounds)
	pg := pgtest.Start(b)

	// run is b.Run, noting the runs that fail for the table.
	run := func(name string, f func(b *testing.B)) {
		if !b.Run(name, f) {
			results.Lock()
			results.failed = append(results.failed, name)
			results.Unlock()
		}
	}

	// Rounds are interleaved, so that a slow spell of the machine hits every
	// backend alike rather than one backend's whole series.
	for round := 1; round <= rounds; round++ {
		for _, c := range concurrency {
			n := objects(b, c)
			run(fmt.Sprintf("round=%d/c=%d/%s", round, c, rowSQLite), func(b *testing.B) {
				runOnce(b, func(b *testing.B) result {
					s := openSQL(b, "sqlite://"+filepath.Join(b.TempDir(), "canopy.db"))
					return runInProcess(b, rowSQLite, s, c, n)
				})
			})
			run(fmt.Sprintf("round=%d/c=%d/%s", round, c, rowPostgres), func(b *testing.B) {
				runOnce(b, func(b *testing.B) result {
					s := openSQL(b, pg.NewDatabase(b))
					return runInProcess(b, rowPostgres, s, c, n)
				})
			})
			run(fmt.Sprintf("round=%d/c=%d/%s", round, c, rowEtcd), func(b *testing.B) {
				if etcdBin == "" {
					b.Skipf("%s is unset", envEtcd)
				}
				runOnce(b, func(b *testing.B) result {
					s := openEtcd(b, startEtcd(b, etcdBin))
					return runInProcess(b, rowEtcd, s, c, n)
				})
			})
		}
		for _, c := range crossConcurrency {
			n := objects(b, c)
			run(fmt.Sprintf("round=%d/c=%d/postgres-2proc", round, c), func(b *testing.B) {
				runOnce(b, func(b *testing.B) result {
					return runCrossProcess(b, pg.NewDatabase(b), c, n)
				})
			})
		}
	}
	printTable(os.Stdout, etcdBin != "")
}

// runInProcess measures store with c writers creating n objects while a
// watcher in the same process waits for them.
func runInProcess(b *testing.B, backend string, s apistorage.Interface, c, n int) result {
	ctx := context.Background()
	// Warm up connections, pools and code paths, outside the measured
	// namespace and before the watch starts.
	if _, _, err := writeAll(ctx, s, warmupNamespace, c, warmupObjects(c)); err != nil {
		b.Fatalf("warm-up: %v", err)
	}
	col, err := startCollector(ctx, s, n)
	if err != nil {
		b.Fatal(err)
	}
	defer col.stop()
	elapsed, createLat, err := writeAll(ctx, s, benchNamespace, c, n)
	if err != nil {
		b.Fatalf("writing: %v", err)
	}
	watchLat, err := col.wait()
	if err != nil {
		b.Fatal(err)
	}
	return newResult(backend, c, n, elapsed, watchLat, createLat)
}

// childConfig is what the re-executed writer process is told to do.
type childConfig struct {
	DSN  string `json:"dsn"`
	C, N int
}

// childReport is what it answers, as the last line of its stdout.
type childReport struct {
	Elapsed time.Duration
	// CreateLat is every Create call's latency, by object number.
	CreateLat []time.Duration
	Err       string
}

const childReportPrefix = "CHILD-REPORT "

// runCrossProcess watches dsn in this process while a child process, with a
// Backend of its own, creates the objects: the watcher learns of them only
// through the database.
func runCrossProcess(b *testing.B, dsn string, c, n int) result {
	ctx := context.Background()
	s := openSQL(b, dsn)
	col, err := startCollector(ctx, s, n)
	if err != nil {
		b.Fatal(err)
	}
	defer col.stop()

	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	cfg, _ := json.Marshal(childConfig{DSN: dsn, C: c, N: n})
	cmd := exec.Command(exe, "-test.run=^$", "-test.bench=^$")
	cmd.Env = append(os.Environ(), envChild+"="+string(cfg))
	cmd.Stderr = os.Stderr
	out, runErr := cmd.Output()
	var rep childReport
	if i := bytes.LastIndex(out, []byte(childReportPrefix)); i >= 0 {
		line, _, _ := bytes.Cut(out[i+len(childReportPrefix):], []byte("\n"))
		if err := json.Unmarshal(line, &rep); err != nil {
			b.Fatalf("writer process report %q: %v", line, err)
		}
	} else {
		b.Fatalf("writer process gave no report (%v); stdout:\n%s", runErr, out)
	}
	if rep.Err != "" || runErr != nil {
		b.Fatalf("writer process: %s (%v)", rep.Err, runErr)
	}
	watchLat, err := col.wait()
	if err != nil {
		b.Fatal(err)
	}
	if len(rep.CreateLat) != n {
		b.Fatalf("writer process reported %d latencies for %d objects", len(rep.CreateLat), n)
	}
	return newResult(rowCross, c, n, rep.Elapsed, watchLat, rep.CreateLat)
}

// childMain is the writer process of runCrossProcess.
func childMain(cfgJSON string) int {
	var cfg childConfig
	report := func(rep childReport) int {
		line, _ := json.Marshal(rep)
		fmt.Printf("%s%s\n", childReportPrefix, line)
		if rep.Err != "" {
			return 1
		}
		return 0
	}
	if err := json.Unmarshal([]byte(cfgJSON), &cfg); err != nil {
		return report(childReport{Err: fmt.Sprintf("%s: %v", envChild, err)})
	}
	ctx := context.Background()
	be, err := sqlstorage.Open(ctx, cfg.DSN, sqlstorage.Options{})
	if err != nil {
		return report(childReport{Err: err.Error()})
	}
	defer be.Close()
	s := newSQLStore(be)
	if _, _, err := writeAll(ctx, s, warmupNamespace, cfg.C, warmupObjects(cfg.C)); err != nil {
		return report(childReport{Err: "warm-up: " + err.Error()})
	}
	elapsed, lat, err := writeAll(ctx, s, benchNamespace, cfg.C, cfg.N)
	if err != nil {
		return report(childReport{Err: err.Error()})
	}
	return report(childReport{Elapsed: elapsed, CreateLat: lat})
}

// payload is the ~1 KiB data value of every ConfigMap.
var payload = func() string {
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	r := rand.New(rand.NewPCG(1, 2))
	p := make([]byte, payloadBytes)
	for i := range p {
		p[i] = letters[r.IntN(len(letters))]
	}
	return string(p)
}()

func newConfigMap(namespace, name string) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Namespace: namespace,
			Labels:      map[string]string{"app": "storage-bench"},
			Annotations: map[string]string{},
		},
		Data: map[string]string{"payload": payload},
	}
}

func objectKey(namespace, name string) string {
	return resourcePrefix + "/" + namespace + "/" + name
}

// writeAll creates n ConfigMaps in namespace with c concurrent writers, each
// stamped with the wall-clock time its Create call starts. It returns the
// time from the first start to the last return, and each call's latency.
func writeAll(ctx context.Context, s apistorage.Interface, namespace string, c, n int) (time.Duration, []time.Duration, error) {
	lat := make([]time.Duration, n)
	var next atomic.Int64
	var errOnce sync.Once
	var firstErr error
	var wg sync.WaitGroup
	start := time.Now()
	for range c {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				cm := newConfigMap(namespace, fmt.Sprintf("cm-%06d", i))
				t0 := time.Now()
				cm.Annotations[startAnnotation] = strconv.FormatInt(t0.UnixNano(), 10)
				err := s.Create(ctx, objectKey(namespace, cm.Name), cm, &corev1.ConfigMap{}, 0)
				lat[i] = time.Since(t0)
				if err != nil {
					errOnce.Do(func() { firstErr = fmt.Errorf("creating %s/%s: %w", namespace, cm.Name, err) })
					next.Store(int64(n)) // stop the others
					return
				}
			}
		}()
	}
	wg.Wait()
	return time.Since(start), lat, firstErr
}

func warmupObjects(c int) int { return max(50, 2*c) }

// collector is the watcher: started on the resource prefix from the current
// revision, it records the delivery latency of every ADDED ConfigMap in the
// bench namespace.
type collector struct {
	w    watch.Interface
	want int
	// lat is indexed by object number; got counts the events.
	lat   []time.Duration
	got   int
	err   error
	ready chan struct{} // closed when the marker object arrives
	done  chan struct{} // closed when want events arrived, or on error
}

// startCollector starts the watch and returns once it is seen to deliver:
// it creates a marker object and waits for its event, so that the measured
// latencies do not include setting up the watch.
func startCollector(ctx context.Context, s apistorage.Interface, want int) (*collector, error) {
	rv, err := s.GetCurrentResourceVersion(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the current resource version: %w", err)
	}
	w, err := s.Watch(ctx, resourcePrefix+"/", apistorage.ListOptions{
		ResourceVersion: strconv.FormatUint(rv, 10),
		Recursive:       true,
		Predicate:       apistorage.Everything,
	})
	if err != nil {
		return nil, fmt.Errorf("starting the watch: %w", err)
	}
	c := &collector{w: w, want: want, lat: make([]time.Duration, want),
		ready: make(chan struct{}), done: make(chan struct{})}
	go c.run()
	marker := newConfigMap(benchNamespace, markerName)
	if err := s.Create(ctx, objectKey(benchNamespace, markerName), marker, &corev1.ConfigMap{}, 0); err != nil {
		c.stop()
		return nil, fmt.Errorf("creating the marker: %w", err)
	}
	select {
	case <-c.ready:
		return c, nil
	case <-c.done:
		c.stop()
		return nil, fmt.Errorf("watch ended before the marker arrived: %v", c.err)
	case <-time.After(30 * time.Second):
		c.stop()
		return nil, errors.New("the watch did not deliver the marker within 30s")
	}
}

func (c *collector) run() {
	defer close(c.done)
	for ev := range c.w.ResultChan() {
		now := time.Now().UnixNano()
		switch ev.Type {
		case watch.Added:
		case watch.Error:
			c.err = fmt.Errorf("watch error: %v", apierrors.FromObject(ev.Object))
			return
		default:
			continue
		}
		cm, ok := ev.Object.(*corev1.ConfigMap)
		if !ok {
			c.err = fmt.Errorf("watch delivered a %T", ev.Object)
			return
		}
		if cm.Namespace != benchNamespace {
			continue
		}
		if cm.Name == markerName {
			close(c.ready)
			continue
		}
		started, err := strconv.ParseInt(cm.Annotations[startAnnotation], 10, 64)
		if err != nil {
			c.err = fmt.Errorf("object %s has no start time: %v", cm.Name, err)
			return
		}
		i, err := strconv.Atoi(strings.TrimPrefix(cm.Name, "cm-"))
		if err != nil || i < 0 || i >= c.want || c.lat[i] != 0 {
			c.err = fmt.Errorf("unexpected or repeated object %s", cm.Name)
			return
		}
		c.lat[i] = time.Duration(now - started)
		if c.got++; c.got == c.want {
			return
		}
	}
	c.err = fmt.Errorf("watch closed after %d of %d events", c.got, c.want)
}

// wait returns the latencies, by object number, once every object's event
// has arrived.
func (c *collector) wait() ([]time.Duration, error) {
	select {
	case <-c.done:
	case <-time.After(watchTimeout):
		c.stop()
		<-c.done
		return nil, fmt.Errorf("only %d of %d events arrived within %v", c.got, c.want, watchTimeout)
	}
	if c.err != nil {
		return nil, c.err
	}
	return c.lat, nil
}

func (c *collector) stop() { c.w.Stop() }

// --- backends ---------------------------------------------------------------

func newConfigMapObject() k8sruntime.Object     { return &corev1.ConfigMap{} }
func newConfigMapListObject() k8sruntime.Object { return &corev1.ConfigMapList{} }

func newSQLStore(be *sqlstorage.Backend) *sqlstorage.Store {
	return be.NewStore(sqlstorage.Config{
		Codec:          codec,
		NewFunc:        newConfigMapObject,
		NewListFunc:    newConfigMapListObject,
		Prefix:         "/registry",
		ResourcePrefix: resourcePrefix,
		GroupResource:  groupResource,
		Transformer:    identity.NewEncryptCheckTransformer(),
	})
}

// openSQL opens our store on url with the default options, as a hub would.
func openSQL(tb testing.TB, url string) apistorage.Interface {
	tb.Helper()
	be, err := sqlstorage.Open(context.Background(), url, sqlstorage.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = be.Close() })
	return newSQLStore(be)
}

// openEtcd builds the API server's etcd3 store on the etcd at endpoint.
func openEtcd(tb testing.TB, endpoint string) apistorage.Interface {
	tb.Helper()
	client, err := kubernetes.New(clientv3.Config{
		Endpoints:   []string{endpoint},
		DialTimeout: 10 * time.Second,
		Logger:      zap.NewNop(),
	})
	if err != nil {
		tb.Fatal(err)
	}
	// The API server's default compaction interval.
	compactor := etcd3.NewCompactor(client.Client, 5*time.Minute, clock.RealClock{}, nil)
	versioner := apistorage.APIObjectVersioner{}
	s, err := etcd3.New(client, compactor, codec, newConfigMapObject, newConfigMapListObject,
		"/registry", resourcePrefix, groupResource, identity.NewEncryptCheckTransformer(),
		etcd3.NewDefaultLeaseManagerConfig(), etcd3.NewDefaultDecoder(codec, versioner), versioner)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		s.Close()
		compactor.Stop()
		_ = client.Close()
	})
	return s
}

// startEtcd runs a single-member etcd with default settings (fsync on) on
// free loopback ports and a temp data dir, and returns its client URL.
func startEtcd(tb testing.TB, bin string) string {
	tb.Helper()
	// A port is only known to be free until freeAddr closes its listener;
	// with other tests starting servers on this machine, one may take it.
	for attempt := 1; ; attempt++ {
		url, err := launchEtcd(tb, bin)
		if err == nil {
			return url
		}
		if attempt == 3 || !errors.Is(err, errPortTaken) {
			tb.Fatal(err)
		}
		tb.Logf("etcd attempt %d: %v; retrying on other ports", attempt, err)
	}
}

var errPortTaken = errors.New("port taken by another process")

func launchEtcd(tb testing.TB, bin string) (string, error) {
	dir := tb.TempDir()
	clientURL := "http://" + freeAddr(tb)
	peerURL := "http://" + freeAddr(tb)
	logPath := filepath.Join(dir, "etcd.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		return "", err
	}
	defer logFile.Close()
	cmd := exec.Command(bin,
		"--name", "bench",
		"--data-dir", filepath.Join(dir, "data"),
		"--listen-client-urls", clientURL, "--advertise-client-urls", clientURL,
		"--listen-peer-urls", peerURL, "--initial-advertise-peer-urls", peerURL,
		"--initial-cluster", "bench="+peerURL, "--initial-cluster-state", "new",
	)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		return "", err
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	stop := func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
	}
	failed := func(format string, args ...any) (string, error) {
		stop()
		log := tail(logPath)
		err := fmt.Errorf("%w\n%s", fmt.Errorf(format, args...), log)
		if strings.Contains(log, "address already in use") {
			err = fmt.Errorf("%w: %w", errPortTaken, err)
		}
		return "", err
	}

	deadline := time.Now().Add(30 * time.Second)
	// Wait for the port before dialling: gRPC logs every refused connection.
	for {
		conn, err := net.DialTimeout("tcp", strings.TrimPrefix(clientURL, "http://"), time.Second)
		if err == nil {
			conn.Close()
			break
		}
		select {
		case <-exited:
			return failed("etcd exited during startup:")
		default:
		}
		if time.Now().After(deadline) {
			return failed("etcd not listening within 30s: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	client, err := clientv3.New(clientv3.Config{Endpoints: []string{clientURL}, DialTimeout: time.Second, Logger: zap.NewNop()})
	if err != nil {
		return failed("etcd client: %v", err)
	}
	defer client.Close()
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		_, err := client.Get(ctx, "health")
		cancel()
		if err == nil {
			tb.Cleanup(stop)
			return clientURL, nil
		}
		select {
		case <-exited:
			return failed("etcd exited during startup:")
		default:
		}
		if time.Now().After(deadline) {
			return failed("etcd not ready within 30s: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func freeAddr(tb testing.TB) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

func tail(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	if len(b) > 4096 {
		b = b[len(b)-4096:]
	}
	return string(b)
}

// --- figures ----------------------------------------------------------------

func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	i := int(math.Ceil(p*float64(len(s)))) - 1
	return s[min(max(i, 0), len(s)-1)]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func objects(tb testing.TB, c int) int {
	if c == 1 {
		return intEnv(tb, envObjectsSerial, defaultObjectsSerial)
	}
	return intEnv(tb, envObjects, defaultObjects)
}

func intEnv(tb testing.TB, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		tb.Fatalf("%s=%q: want a positive integer", name, v)
	}
	return n
}

func intList(tb testing.TB, name string, def []int) []int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	var out []int
	for f := range strings.SplitSeq(v, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n <= 0 {
			tb.Fatalf("%s=%q: want positive integers separated by commas", name, v)
		}
		out = append(out, n)
	}
	return out
}

func benchtimeFlag() string {
	if f := flag.Lookup("test.benchtime"); f != nil {
		return f.Value.String()
	}
	return "1s"
}

// summary is the figures of one backend at one c over the rounds: the
// median of each figure, and the range of the two headline ones.
type summary struct {
	Backend                string
	C, N, Rounds           int
	WritesPerSec           float64
	MinWrites, MaxWrites   float64
	WatchP50, WatchP99     time.Duration
	MinP99, MaxP99         time.Duration
	CreateP50, CreateP99   time.Duration
	DeliverP50, DeliverP99 time.Duration
}

func summarize(rs []result) summary {
	med := func(f func(result) float64) (median, lo, hi float64) {
		v := make([]float64, len(rs))
		for i, r := range rs {
			v[i] = f(r)
		}
		slices.Sort(v)
		m := v[len(v)/2]
		if len(v)%2 == 0 {
			m = (v[len(v)/2-1] + v[len(v)/2]) / 2
		}
		return m, v[0], v[len(v)-1]
	}
	dur := func(f func(result) time.Duration) func(result) float64 {
		return func(r result) float64 { return float64(f(r)) }
	}
	s := summary{Backend: rs[0].Backend, C: rs[0].C, N: rs[0].N, Rounds: len(rs)}
	s.WritesPerSec, s.MinWrites, s.MaxWrites = med(func(r result) float64 { return r.WritesPerSec })
	p99, lo, hi := med(dur(func(r result) time.Duration { return r.WatchP99 }))
	s.WatchP99, s.MinP99, s.MaxP99 = time.Duration(p99), time.Duration(lo), time.Duration(hi)
	p50, _, _ := med(dur(func(r result) time.Duration { return r.WatchP50 }))
	s.WatchP50 = time.Duration(p50)
	c50, _, _ := med(dur(func(r result) time.Duration { return r.CreateP50 }))
	c99, _, _ := med(dur(func(r result) time.Duration { return r.CreateP99 }))
	s.CreateP50, s.CreateP99 = time.Duration(c50), time.Duration(c99)
	d50, _, _ := med(dur(func(r result) time.Duration { return r.DeliverP50 }))
	d99, _, _ := med(dur(func(r result) time.Duration { return r.DeliverP99 }))
	s.DeliverP50, s.DeliverP99 = time.Duration(d50), time.Duration(d99)
	return s
}

// printTable prints every backend's figures side by side with etcd's, the
// ratios and the goals.
func printTable(out io.Writer, haveEtcd bool) {
	results.Lock()
	defer results.Unlock()
	type key struct {
		backend string
		c       int
	}
	runs := map[key][]result{}
	var cs, crossCs []int
	for _, name := range results.order {
		r := results.byName[name]
		k := key{r.Backend, r.C}
		runs[k] = append(runs[k], r)
		if r.Backend == rowCross {
			if !slices.Contains(crossCs, r.C) {
				crossCs = append(crossCs, r.C)
			}
		} else if !slices.Contains(cs, r.C) {
			cs = append(cs, r.C)
		}
	}
	slices.Sort(cs)
	slices.Sort(crossCs)
	get := func(backend string, c int) (summary, bool) {
		rs := runs[key{backend, c}]
		if len(rs) == 0 {
			return summary{}, false
		}
		return summarize(rs), true
	}
	const header = "c\tbackend\truns x objects\twrites/s\t(range)\twatch p50 ms\twatch p99 ms\t(range)\tcreate p50 ms\tcreate p99 ms\tafter-create p50 ms\tafter-create p99 ms\t"
	row := func(tw io.Writer, s summary, extra string) {
		fmt.Fprintf(tw, "%d\t%s\t%d x %d\t%.0f\t%.0f-%.0f\t%.1f\t%.1f\t%.1f-%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%s\n",
			s.C, s.Backend, s.Rounds, s.N, s.WritesPerSec, s.MinWrites, s.MaxWrites,
			ms(s.WatchP50), ms(s.WatchP99), ms(s.MinP99), ms(s.MaxP99), ms(s.CreateP50), ms(s.CreateP99),
			ms(s.DeliverP50), ms(s.DeliverP99), extra)
	}

	bw := bufio.NewWriter(out)
	defer bw.Flush()
	fmt.Fprintf(bw, "\n=== Storage benchmark: storage.Interface.Create of ~1 KiB ConfigMaps (protobuf codec), "+
		"c concurrent writers, one watcher on the resource prefix; fsync on everywhere; GOMAXPROCS=%d, %d CPUs ===\n",
		runtime.GOMAXPROCS(0), runtime.NumCPU())
	fmt.Fprintf(bw, "watch = start of Create -> ADDED event received by the watcher; create = the Create call alone;\n"+
		"after-create = watch - create, object by object (how long after Create returned the event came; < 0: before).\n")
	fmt.Fprintf(bw, "Each figure is the median over the rounds (range in brackets); x/etcd compares medians at the same c\n"+
		"(writes/s: higher is better; p99: lower is better).\n\n")
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, header+"writes/s x/etcd\twatch p99 x/etcd\t")
	var goalLines []string
	for _, c := range cs {
		etcd, haveRef := get(rowEtcd, c)
		for _, backend := range []string{rowSQLite, rowPostgres, rowEtcd} {
			s, ok := get(backend, c)
			if !ok {
				continue
			}
			thr, p99 := "-", "-"
			if backend != rowEtcd && haveRef {
				tr := s.WritesPerSec / etcd.WritesPerSec
				pr := float64(s.WatchP99) / float64(etcd.WatchP99)
				thr = fmt.Sprintf("%.2fx", tr)
				if backend == rowPostgres && c == goalThroughputC {
					thr += " " + report.PassMiss(tr >= goalThroughputRatio)
					goalLines = append(goalLines, fmt.Sprintf("postgres writes/s at c=%d >= %.1fx etcd's: %.2fx  %s",
						c, goalThroughputRatio, tr, report.PassMiss(tr >= goalThroughputRatio)))
				}
				p99 = fmt.Sprintf("%.2fx %s", pr, report.PassMiss(pr <= goalP99Ratio))
				goalLines = append(goalLines, fmt.Sprintf("%s watch p99 at c=%d <= %.1fx etcd's: %.2fx  %s",
					backend, c, goalP99Ratio, pr, report.PassMiss(pr <= goalP99Ratio)))
			}
			row(tw, s, thr+"\t"+p99+"\t")
		}
	}
	tw.Flush()
	if !haveEtcd {
		fmt.Fprintf(bw, "(etcd rows skipped: %s is unset; bench/storage.sh builds etcd and sets it)\n", envEtcd)
	}

	if len(crossCs) > 0 {
		fmt.Fprintf(bw, "\nTwo processes on one PostgreSQL database: the watcher in this process, the writers in a child\n"+
			"process with a Backend of its own (the watcher learns of the writes by polling, default PollInterval;\n"+
			"latency is taken on the wall clock, which both processes share).\n\n")
		tw = tabwriter.NewWriter(bw, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "%sgoal p99 <= %v\t\n", header, goalCrossP99)
		for _, c := range crossCs {
			s, _ := get(rowCross, c)
			ok := s.WatchP99 <= goalCrossP99
			row(tw, s, report.PassMiss(ok)+"\t")
			goalLines = append(goalLines, fmt.Sprintf("two-process watch p99 at c=%d <= %v: %.1f ms  %s",
				c, goalCrossP99, ms(s.WatchP99), report.PassMiss(ok)))
		}
		tw.Flush()
	}

	fmt.Fprintf(bw, "\nMachine load average (1, 5, 15 min): %s at the start, %s at the end, on %d CPUs.\n"+
		"Everything shares these CPUs (benchmark, PostgreSQL, etcd, anything else running), so a\n"+
		"load above the CPU count means the tails above include waiting for a CPU.\n",
		loadAtStart, report.LoadAverage(), runtime.NumCPU())
	if len(results.failed) > 0 {
		fmt.Fprintf(bw, "\nFAILED runs, left out of the figures above (their errors are in the log above):\n  %s\n",
			strings.Join(results.failed, "\n  "))
	}
	fmt.Fprintf(bw, "\nGoals (reported, not enforced):\n")
	if !haveEtcd {
		fmt.Fprintf(bw, "  goals relative to etcd: not evaluated, %s is unset\n", envEtcd)
	}
	for _, l := range goalLines {
		fmt.Fprintf(bw, "  %s\n", l)
	}
}

// loadAtStart is the machine's load average when the benchmark started.
var loadAtStart string
