package rollout

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/canopy-dev/canopy/bench/internal/fleet"
	"github.com/canopy-dev/canopy/bench/internal/follow"
	"github.com/canopy-dev/canopy/bench/internal/knob"
	"github.com/canopy-dev/canopy/bench/internal/proc"
	benchreport "github.com/canopy-dev/canopy/bench/internal/report"
	"github.com/canopy-dev/canopy/internal/pgtest"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	engine "github.com/canopy-dev/canopy/pkg/placement"
)

// Knobs, all optional.
const (
	envTargets  = "CANOPY_BENCH_TARGETS"  // physical clusters, each with its syncer (10)
	envWaves    = "CANOPY_BENCH_WAVES"    // waves of the rollout (5)
	envRollouts = "CANOPY_BENCH_ROLLOUTS" // image changes rolled out (3)
	envTimeout  = "CANOPY_BENCH_TIMEOUT"  // wait for each rollout to complete (5m)
	envHub      = "CANOPY_HUB"            // a prebuilt hub binary; unset builds cmd/hub
	envSyncer   = "CANOPY_SYNCER"         // a prebuilt syncer binary; unset builds cmd/syncer
	envOut      = "CANOPY_BENCH_OUT"      // directory for the logs and the physical clusters' state
)

const (
	// namespace and name are the rolled out Deployment's, in root.
	namespace, name = "app", "web"
	// replicas of the Deployment on each target.
	replicas = 1
)

type config struct {
	targets, waves, rollouts int
	timeout                  time.Duration
	out                      string
}

// wave is the wave of the target of index i, counted from 0.
func (c config) wave(i int) int { return i * c.waves / c.targets }

func BenchmarkRolloutEndToEnd(b *testing.B) {
	c := config{
		targets:  max(2, knob.Int(b, envTargets, 10)),
		waves:    knob.Int(b, envWaves, 5),
		rollouts: max(1, knob.Int(b, envRollouts, 3)),
		timeout:  knob.Duration(b, envTimeout, 5*time.Minute),
		out:      knob.Dir(b, envOut),
	}
	c.waves = min(max(2, c.waves), c.targets)
	ctx, stop := proc.InterruptContext()
	defer stop()
	loadStart := benchreport.LoadAverage()
	for range b.N {
		r := run(ctx, b, c)
		b.ReportMetric(r.FromWrite.P50.Seconds(), "write-to-next-p50-s")
		b.ReportMetric(r.FromWrite.P99.Seconds(), "write-to-next-p99-s")
		b.ReportMetric(r.HubCPU.Seconds()/float64(c.rollouts), "hub-cpu-s/rollout")
		printReport(os.Stdout, c, r, loadStart)
	}
}

// result holds the figures of one run.
type result struct {
	// FromWrite and FromHealthy are to the next wave's first downstream
	// write, from the hub's write past the wave and from the wave's last
	// copy running available.
	FromWrite, FromHealthy benchreport.Latencies
	// HubCPU is the hub's CPU over the rollouts, which Took; HubIdle its
	// CPU per second before them, with every target running the
	// Deployment and nothing changing.
	HubCPU, Took time.Duration
	HubIdle      float64
	Logs         []string
}

// idleWindow is how long the hub's idle CPU is measured.
const idleWindow = 10 * time.Second

// idleCPU is h's CPU-seconds per second over idleWindow from now.
func idleCPU(ctx context.Context, b *testing.B, h *proc.Hub) float64 {
	before, err := proc.CPUTime(h.PID())
	if err != nil {
		b.Fatal(err)
	}
	proc.Sleep(ctx, b, idleWindow)
	after, err := proc.CPUTime(h.PID())
	if err != nil {
		b.Fatal(err)
	}
	return (after - before).Seconds() / idleWindow.Seconds()
}

var (
	deployments = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	namespaces  = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	placements  = schema.GroupVersionResource{Group: "placement.canopy.dev", Version: "v1alpha1", Resource: "placements"}
)

func run(ctx context.Context, b *testing.B, c config) result {
	names := make([]string, c.targets)
	for t := range names {
		names[t] = fmt.Sprintf("pc%d", t+1)
	}
	logf("starting %d physical clusters of 1 kwok node each", c.targets)
	clusters := fleet.StartClusters(ctx, b, filepath.Join(c.out, "clusters"), names, 1)

	hubBin := proc.Binary(b, envHub, "github.com/canopy-dev/canopy/cmd/hub")
	syncerBin := proc.Binary(b, envSyncer, "github.com/canopy-dev/canopy/cmd/syncer")
	h := proc.StartHub(b, hubBin, pgtest.Start(b).NewDatabase(b), filepath.Join(c.out, "hub.log"))
	logf("hub ready at %s (log %s)", h.URL(), h.LogPath)
	admin, err := clientcmd.BuildConfigFromFlags("", h.AdminKubeconfig())
	if err != nil {
		b.Fatal(err)
	}
	admin.Host = h.URL() + "/clusters/root"
	root, err := dynamic.NewForConfig(admin)
	if err != nil {
		b.Fatal(err)
	}
	pcs := clusters.Wait(b)
	logf("%d physical clusters ready", len(pcs))
	logs := []string{h.LogPath}
	syncers := make([]*fleet.Syncer, len(pcs))
	for i, pc := range pcs {
		syncers[i] = fleet.StartSyncer(ctx, b, h, hubBin, syncerBin, pc, c.out, "region=eu")
		logs = append(logs, syncers[i].LogPath)
	}
	for _, s := range syncers {
		s.WaitReady(ctx, b)
	}
	logf("%d syncers ready", len(syncers))

	o := &observer{hubSteps: map[string]map[int]time.Time{}, applied: map[string]map[string]time.Time{}, available: map[string]map[string]time.Time{}}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	deploy := root.Resource(deployments).Namespace(namespace)
	follow.Follow(ctx, b, deploy, o.hub, func(map[string]bool) {})
	for _, pc := range pcs {
		informer, err := fleet.Downstream(ctx, pc, deployments)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
			AddFunc:    func(obj any) { o.downstream(pc.Name, obj) },
			UpdateFunc: func(_, obj any) { o.downstream(pc.Name, obj) },
		})
		if !cache.WaitForCacheSync(ctx.Done(), informer.HasSynced) {
			b.Fatalf("the informer of %s did not sync", pc.Name)
		}
	}

	create(ctx, b, root.Resource(namespaces), &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": namespace},
	}})
	create(ctx, b, root.Resource(placements), placement(c, names))
	create(ctx, b, deploy, fleet.Deployment(name, namespace, replicas, nil))
	to := o.waitComplete(ctx, b, "", c.timeout)
	logf("every target runs revision %s", to)

	var r result
	r.HubIdle = idleCPU(ctx, b, h)
	var fromWrite, fromHealthy []time.Duration
	var took time.Duration
	for i := range c.rollouts {
		start := time.Now()
		before, err := proc.CPUTime(h.PID())
		if err != nil {
			b.Fatal(err)
		}
		patch := fmt.Sprintf(`{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"registry.invalid/web:%d"}]}}}}`, i+2)
		if _, err := deploy.Patch(ctx, name, types.StrategicMergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
			b.Fatal(err)
		}
		to = o.waitComplete(ctx, b, to, c.timeout)
		after, err := proc.CPUTime(h.PID())
		if err != nil {
			b.Fatal(err)
		}
		r.HubCPU += after - before
		took += time.Since(start)
		w, hl := o.waves(b, c, names, to)
		fromWrite, fromHealthy = append(fromWrite, w...), append(fromHealthy, hl...)
		logf("rollout %d of %d to revision %s complete", i+1, c.rollouts, to)
	}
	r.FromWrite, r.FromHealthy = benchreport.Summarize(fromWrite), benchreport.Summarize(fromHealthy)
	r.Took = took
	r.Logs = logs
	return r
}

// observer records, by this process's clock, when the hub's rollout
// state was first seen past each step of each revision, and when each
// physical cluster's copy was first seen with each revision applied and
// running it available.
type observer struct {
	mu sync.Mutex
	// state is the hub's last rollout state.
	state engine.RolloutState
	// hubSteps is, by revision and step, when the state was first seen
	// at that step.
	hubSteps map[string]map[int]time.Time
	// applied and available are, by physical cluster and revision, when
	// its copy was first seen with it applied and running it available.
	applied, available map[string]map[string]time.Time
}

func (o *observer) hub(u *unstructured.Unstructured, deleted bool) {
	now := time.Now()
	var s engine.RolloutState
	if deleted || u.GetName() != name || json.Unmarshal([]byte(u.GetAnnotations()[workloadv1alpha1.RolloutAnnotation]), &s) != nil {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.state = s
	first(o.hubSteps, s.To, s.Step, now)
}

func (o *observer) downstream(cluster string, obj any) {
	now := time.Now()
	u, ok := obj.(*unstructured.Unstructured)
	if !ok || u.GetName() != name {
		return
	}
	rev := u.GetAnnotations()[workloadv1alpha1.AppliedRevisionAnnotation]
	if rev == "" {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	first(o.applied, cluster, rev, now)
	if available(u) {
		first(o.available, cluster, rev, now)
	}
}

// first records at in m[k1][k2] unless it holds a time already.
func first[K1, K2 comparable](m map[K1]map[K2]time.Time, k1 K1, k2 K2, at time.Time) {
	if m[k1] == nil {
		m[k1] = map[K2]time.Time{}
	}
	if _, ok := m[k1][k2]; !ok {
		m[k1][k2] = at
	}
}

// available is whether Deployment u runs its spec, every replica updated
// and available.
func available(u *unstructured.Unstructured) bool {
	want, _, _ := unstructured.NestedInt64(u.Object, "spec", "replicas")
	observed, _, _ := unstructured.NestedInt64(u.Object, "status", "observedGeneration")
	updated, _, _ := unstructured.NestedInt64(u.Object, "status", "updatedReplicas")
	avail, _, _ := unstructured.NestedInt64(u.Object, "status", "availableReplicas")
	total, _, _ := unstructured.NestedInt64(u.Object, "status", "replicas")
	return observed >= u.GetGeneration() && updated == want && avail == want && total == want
}

// waitComplete waits until the hub's rollout state is Complete on a
// revision other than from, and returns it.
func (o *observer) waitComplete(ctx context.Context, b *testing.B, from string, timeout time.Duration) string {
	deadline := time.Now().Add(timeout)
	for {
		o.mu.Lock()
		s := o.state
		o.mu.Unlock()
		if s.To != "" && s.To != from && s.Phase == engine.PhaseComplete {
			return s.To
		}
		if time.Now().After(deadline) {
			b.Fatalf("the rollout from revision %q is not complete after %v: %+v", from, timeout, s)
		}
		proc.Sleep(ctx, b, 100*time.Millisecond)
	}
}

// waves are, for each wave k before the last of the rollout to revision
// to, the time to wave k+1's first copy seen with it: from the hub's
// state first seen past step k, and from wave k's last copy seen running
// it available.
func (o *observer) waves(b *testing.B, c config, names []string, to string) (fromWrite, fromHealthy []time.Duration) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for k := range c.waves - 1 {
		var next, healthy time.Time
		for i, pc := range names {
			switch c.wave(i) {
			case k:
				at, ok := o.available[pc][to]
				if !ok {
					b.Fatalf("%s was never seen running revision %s available", pc, to)
				}
				if at.After(healthy) {
					healthy = at
				}
			case k + 1:
				at, ok := o.applied[pc][to]
				if !ok {
					b.Fatalf("%s was never seen with revision %s", pc, to)
				}
				if next.IsZero() || at.Before(next) {
					next = at
				}
			}
		}
		past, ok := o.hubSteps[to][k+1]
		if !ok {
			b.Fatalf("the hub's rollout to %s was never seen at step %d", to, k+2)
		}
		fromWrite, fromHealthy = append(fromWrite, next.Sub(past)), append(fromHealthy, next.Sub(healthy))
	}
	return fromWrite, fromHealthy
}

func create(ctx context.Context, b *testing.B, client dynamic.ResourceInterface, obj *unstructured.Unstructured) {
	if _, err := client.Create(ctx, obj, metav1.CreateOptions{}); err != nil {
		b.Fatalf("creating %s %s: %v", obj.GetKind(), obj.GetName(), err)
	}
}

// placement duplicates the Deployments of root onto every target, rolled
// out in c.waves waves of consecutive names, with no soak time.
func placement(c config, names []string) *unstructured.Unstructured {
	byWave := make([][]string, c.waves)
	for i, n := range names {
		byWave[c.wave(i)] = append(byWave[c.wave(i)], "'"+n+"'")
	}
	waves := make([]any, c.waves)
	for k, ns := range byWave {
		waves[k] = map[string]any{
			"name":    fmt.Sprintf("w%d", k+1),
			"targets": map[string]any{"expression": "name in [" + strings.Join(ns, ", ") + "]"},
		}
	}
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "placement.canopy.dev/v1alpha1",
		"kind":       "Placement",
		"metadata":   map[string]any{"name": "waves"},
		"spec": map[string]any{
			"resources": []any{map[string]any{"group": "apps", "resource": "deployments"}},
			"strategy":  map[string]any{"type": "Duplicate"},
			"rollout": map[string]any{
				"waves":            waves,
				"soakTime":         "0s",
				"progressDeadline": "5m",
			},
		},
	}}
}

func printReport(w io.Writer, c config, r result, loadStart string) {
	fmt.Fprintf(w, "\nrollout end to end: %d targets (physical clusters, one syncer each) in %d waves, %d rollouts, %d wave transitions\n",
		c.targets, c.waves, c.rollouts, r.FromWrite.N)
	fmt.Fprintf(w, "load average at start %s, at end %s\n", loadStart, benchreport.LoadAverage())
	fmt.Fprintf(w, "%-48s %10s %10s %10s\n", "to the next wave's first downstream write", "p50 ms", "p99 ms", "max ms")
	for _, row := range []struct {
		what string
		l    benchreport.Latencies
	}{
		{"from the hub's write past the healthy wave", r.FromWrite},
		{"from the wave's last copy running available", r.FromHealthy},
	} {
		fmt.Fprintf(w, "%-48s %10.0f %10.0f %10.0f\n", row.what, benchreport.MS(row.l.P50), benchreport.MS(row.l.P99), benchreport.MS(row.l.Max))
	}
	fmt.Fprintf(w, "hub CPU: %.2f s over %d rollouts (%.1f s), %.2f s per rollout; idle before: %.3f s per s, %.2f s over as long\n",
		r.HubCPU.Seconds(), c.rollouts, r.Took.Seconds(), r.HubCPU.Seconds()/float64(c.rollouts), r.HubIdle, r.HubIdle*r.Took.Seconds())
	fmt.Fprintf(w, "logs: %s\n", strings.Join(r.Logs, " "))
}

var logf = proc.Logger("bench/rollout")
