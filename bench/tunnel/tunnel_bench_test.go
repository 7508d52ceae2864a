package tunnel

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/tools/remotecommand"

	"github.com/canopy-dev/canopy/bench/internal/fleet"
	"github.com/canopy-dev/canopy/bench/internal/knob"
	"github.com/canopy-dev/canopy/bench/internal/proc"
	benchreport "github.com/canopy-dev/canopy/bench/internal/report"
	"github.com/canopy-dev/canopy/internal/pgtest"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

const (
	envRequests = "CANOPY_BENCH_REQUESTS"
	envStreams  = "CANOPY_BENCH_STREAMS"
	envOut      = "CANOPY_BENCH_OUT"
	envHub      = "CANOPY_HUB"
	envSyncer   = "CANOPY_SYNCER"
)

var logf = proc.Logger("BenchmarkTunnel")

// side is one way to the pod: through the hub, or straight to pc1.
type side struct {
	name      string
	config    *rest.Config
	client    kubernetes.Interface
	namespace string
}

func BenchmarkTunnel(b *testing.B) {
	requests := max(1, knob.Int(b, envRequests, 200))
	streams := max(1, knob.Int(b, envStreams, 50))
	out := knob.Dir(b, envOut)
	ctx, stop := proc.InterruptContext()
	defer stop()
	loadStart := benchreport.LoadAverage()
	for range b.N {
		hub, direct, h, syncer, pod := setUp(ctx, b, out)
		logf("pod %s runs on pc1; %d requests each way", pod, requests)
		hubCPU, syncerCPU := cpu(b, h.PID()), cpu(b, syncer.PID())
		firstByte := measure(ctx, b, requests, hub, direct, pod, timeToFirstLogByte)
		exec := measure(ctx, b, requests, hub, direct, pod, execRoundTrip)
		// Both kinds, logs and exec, went through the hub requests times.
		perRequest := func(pid int, before time.Duration) time.Duration {
			return (cpu(b, pid) - before) / time.Duration(2*requests)
		}
		hubPer, syncerPer := perRequest(h.PID(), hubCPU), perRequest(syncer.PID(), syncerCPU)
		get := measure(ctx, b, requests, hub, direct, pod, getPod)
		mem := followStreams(ctx, b, streams, hub, pod, h, syncer.PID())
		fmt.Printf("\nBenchmarkTunnel: %d requests each way, %d concurrent logs -f (load average at start %s, at end %s)\n",
			requests, streams, loadStart, benchreport.LoadAverage())
		for _, f := range []struct {
			name string
			l    [2]benchreport.Latencies
		}{{"time to first log byte", firstByte}, {"exec round trip", exec}, {"GET pod (baseline)", get}} {
			goal := time.Duration(1.5*float64(f.l[1].P99)) + 20*time.Millisecond
			fmt.Printf("  %-24s hub p50 %7.1f ms  p99 %7.1f ms  max %7.1f ms | direct p50 %7.1f ms  p99 %7.1f ms  max %7.1f ms | p99 ratio %.2f | goal hub p99 <= %.1f ms: %s\n",
				f.name, benchreport.MS(f.l[0].P50), benchreport.MS(f.l[0].P99), benchreport.MS(f.l[0].Max),
				benchreport.MS(f.l[1].P50), benchreport.MS(f.l[1].P99), benchreport.MS(f.l[1].Max),
				float64(f.l[0].P99)/float64(f.l[1].P99), benchreport.MS(goal), benchreport.PassMiss(f.l[0].P99 <= goal))
			b.ReportMetric(float64(f.l[0].P99)/float64(f.l[1].P99), strings.ReplaceAll(f.name, " ", "-")+"-p99-ratio")
		}
		fmt.Printf("  CPU per request through the hub: hub %.2f ms, syncer %.2f ms\n", benchreport.MS(hubPer), benchreport.MS(syncerPer))
		fmt.Print(mem)
	}
}

// setUp starts the hub, pc1 and its syncer, places a pod on pc1 from
// namespace default of root, and returns the two ways to it, the hub, the
// syncer and the pod's name.
func setUp(ctx context.Context, b *testing.B, out string) (hub, direct side, h *proc.Hub, syncer *fleet.Syncer, pod string) {
	clusters := fleet.StartClusters(ctx, b, filepath.Join(out, "clusters"), []string{"pc1"}, 1)
	hubBin := proc.Binary(b, envHub, "github.com/canopy-dev/canopy/cmd/hub")
	syncerBin := proc.Binary(b, envSyncer, "github.com/canopy-dev/canopy/cmd/syncer")
	h = proc.StartHub(b, hubBin, pgtest.Start(b).NewDatabase(b), filepath.Join(out, "hub.log"))
	pc := clusters.Wait(b)[0]
	syncer = fleet.StartSyncer(ctx, b, h, hubBin, syncerBin, pc, out)
	syncer.WaitReady(ctx, b)

	admin, err := clientcmd.BuildConfigFromFlags("", h.AdminKubeconfig())
	if err != nil {
		b.Fatal(err)
	}
	hub = newSide(b, "hub", admin, metav1.NamespaceDefault)
	key := workloadv1alpha1.TargetKey("root", pc.Name)
	direct = newSide(b, "pc1", pc.Config, workloadv1alpha1.DownstreamNamespace(key, "root", metav1.NamespaceDefault))
	d := fleet.Deployment("web", metav1.NamespaceDefault, 1, map[string]any{workloadv1alpha1.StateLabel(key): workloadv1alpha1.StateSync})
	dyn := hub.client.AppsV1().RESTClient()
	body, err := d.MarshalJSON()
	if err != nil {
		b.Fatal(err)
	}
	if err := dyn.Post().Namespace(metav1.NamespaceDefault).Resource("deployments").Body(body).Do(ctx).Error(); err != nil {
		b.Fatalf("creating Deployment web at the hub: %v", err)
	}
	for deadline := time.Now().Add(3 * time.Minute); pod == ""; proc.Sleep(ctx, b, 500*time.Millisecond) {
		pods, err := hub.client.CoreV1().Pods(hub.namespace).List(ctx, metav1.ListOptions{LabelSelector: workloadv1alpha1.UpsyncedLabel})
		if err == nil {
			for _, p := range pods.Items {
				if p.Status.Phase == corev1.PodRunning {
					pod = p.Name
				}
			}
		}
		if pod == "" && time.Now().After(deadline) {
			b.Fatalf("no Running upsynced pod of web at the hub within 3m: %v", err)
		}
	}
	// Each log request's first byte is one of these lines.
	for i := range 10 {
		if err := pc.WritePodLog("stdout", fmt.Sprintf("line %d", i)); err != nil {
			b.Fatal(err)
		}
	}
	return hub, direct, h, syncer, pod
}

func newSide(b *testing.B, name string, config *rest.Config, namespace string) side {
	config = rest.CopyConfig(config)
	// The benchmark's own client must not be what it measures.
	config.QPS, config.Burst = 1000, 1000
	client, err := kubernetes.NewForConfig(config)
	if err != nil {
		b.Fatal(err)
	}
	return side{name: name, config: config, client: client, namespace: namespace}
}

// measure times op n times through the hub and directly, alternating
// which goes first, and returns the hub's latencies and the direct ones.
func measure(ctx context.Context, b *testing.B, n int, hub, direct side, pod string, op func(context.Context, side, string) error) [2]benchreport.Latencies {
	var times [2][]time.Duration
	for i := range n {
		order := [2]int{0, 1}
		if i%2 == 1 {
			order = [2]int{1, 0}
		}
		for _, j := range order {
			s := [2]side{hub, direct}[j]
			start := time.Now()
			if err := op(ctx, s, pod); err != nil {
				b.Fatalf("%s: %v", s.name, err)
			}
			times[j] = append(times[j], time.Since(start))
		}
	}
	return [2]benchreport.Latencies{benchreport.Summarize(times[0]), benchreport.Summarize(times[1])}
}

// timeToFirstLogByte reads the first byte of pod's log.
func timeToFirstLogByte(ctx context.Context, s side, pod string) error {
	r, err := s.client.CoreV1().Pods(s.namespace).GetLogs(pod, &corev1.PodLogOptions{}).Stream(ctx)
	if err != nil {
		return err
	}
	defer r.Close()
	_, err = r.Read(make([]byte, 1))
	return err
}

// getPod reads pod: no tunnel, the cost of any request at each server,
// beside which the others read.
func getPod(ctx context.Context, s side, pod string) error {
	_, err := s.client.CoreV1().Pods(s.namespace).Get(ctx, pod, metav1.GetOptions{})
	return err
}

// execRoundTrip runs echo in pod as kubectl 1.30+ does: WebSocket, SPDY
// if the server does not upgrade to it.
func execRoundTrip(ctx context.Context, s side, pod string) error {
	u := s.client.CoreV1().RESTClient().Post().Namespace(s.namespace).Resource("pods").Name(pod).SubResource("exec").
		VersionedParams(&corev1.PodExecOptions{Command: []string{"echo", "round trip"}, Stdout: true}, scheme.ParameterCodec).URL()
	ws, err := remotecommand.NewWebSocketExecutor(s.config, http.MethodGet, u.String())
	if err != nil {
		return err
	}
	spdy, err := remotecommand.NewSPDYExecutor(s.config, http.MethodPost, u)
	if err != nil {
		return err
	}
	exec, err := remotecommand.NewFallbackExecutor(ws, spdy, func(err error) bool { return true })
	if err != nil {
		return err
	}
	var stdout strings.Builder
	if err := exec.StreamWithContext(ctx, remotecommand.StreamOptions{Stdout: &stdout}); err != nil {
		return err
	}
	if stdout.String() != "round trip\n" {
		return fmt.Errorf("exec printed %q, want \"round trip\\n\"", stdout.String())
	}
	return nil
}

// followStreams opens n logs -f streams of pod through the hub, waits
// for the first byte of each, and tells what the hub and the syncer hold
// per stream.
func followStreams(ctx context.Context, b *testing.B, n int, hub side, pod string, h *proc.Hub, syncerPID int) string {
	settle := func() { proc.Sleep(ctx, b, 3*time.Second) }
	settle()
	hubBefore, syncerBefore := h.Memory(true, logf), proc.RSSKiB(syncerPID)
	streamCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	first := make(chan error, n)
	for range n {
		wg.Go(func() {
			r, err := hub.client.CoreV1().Pods(hub.namespace).GetLogs(pod, &corev1.PodLogOptions{Follow: true}).Stream(streamCtx)
			if err != nil {
				first <- err
				return
			}
			defer r.Close()
			_, err = r.Read(make([]byte, 1))
			first <- err
			_, _ = io.Copy(io.Discard, r)
		})
	}
	for range n {
		if err := <-first; err != nil {
			b.Fatalf("a logs -f stream through the hub: %v", err)
		}
	}
	settle()
	hubDuring, syncerDuring := h.Memory(true, logf), proc.RSSKiB(syncerPID)
	cancel()
	wg.Wait()
	per := func(before, during int64) string {
		if before < 0 || during < 0 {
			return "n/a"
		}
		return fmt.Sprintf("%.1f KiB", float64(during-before)/float64(n))
	}
	return fmt.Sprintf("  %d logs -f through the hub: per stream, hub RSS %s, hub Go heap %s, hub goroutines %.1f; syncer RSS %s\n"+
		"    hub before %s; during %s\n    syncer RSS before %.1f MiB; during %.1f MiB\n",
		n, per(hubBefore.RSSKiB, hubDuring.RSSKiB), per(hubBefore.HeapKiB, hubDuring.HeapKiB),
		float64(hubDuring.Goroutines-hubBefore.Goroutines)/float64(n), per(syncerBefore, syncerDuring),
		hubBefore, hubDuring, float64(syncerBefore)/1024, float64(syncerDuring)/1024)
}

func cpu(b *testing.B, pid int) time.Duration {
	d, err := proc.CPUTime(pid)
	if err != nil {
		b.Fatal(err)
	}
	return d
}
