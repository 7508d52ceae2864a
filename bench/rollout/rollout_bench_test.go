package rollout

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
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
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	engine "github.com/canopy-dev/canopy/pkg/placement"
)

// Knobs, all optional.
const (
	envTargets  = "CANOPY_BENCH_TARGETS"  // SyncTargets, each with its syncer (50)
	envClusters = "CANOPY_BENCH_CLUSTERS" // physical clusters the targets share (2)
	envWaves    = "CANOPY_BENCH_WAVES"    // waves of the rollout (10)
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
	targets, clusters, waves, rollouts int
	timeout                            time.Duration
	out                                string
}

// wave is the wave of the target of index i, counted from 0.
func (c config) wave(i int) int { return i * c.waves / c.targets }

func BenchmarkRolloutEndToEnd(b *testing.B) {
	c := config{
		targets:  max(2, knob.Int(b, envTargets, 50)),
		clusters: max(1, knob.Int(b, envClusters, 2)),
		waves:    knob.Int(b, envWaves, 10),
		rollouts: max(1, knob.Int(b, envRollouts, 3)),
		timeout:  knob.Duration(b, envTimeout, 5*time.Minute),
		out:      knob.Dir(b, envOut),
	}
	c.waves = min(max(2, c.waves), c.targets)
	c.clusters = min(c.clusters, c.targets)
	ctx, stop := proc.InterruptContext()
	defer stop()
	loadStart := benchreport.LoadAverage()
	for range b.N {
		r := run(ctx, b, c)
		b.ReportMetric(r.FromWrite.P50.Seconds(), "write-to-next-p50-s")
		b.ReportMetric(r.FromWrite.P99.Seconds(), "write-to-next-p99-s")
		b.ReportMetric(r.FromReported.P50.Seconds(), "report-to-next-p50-s")
		b.ReportMetric(r.FromReported.P99.Seconds(), "report-to-next-p99-s")
		b.ReportMetric(r.FromReported.P99.Seconds()/goal.Seconds(), "report-to-next-p99/goal")
		b.ReportMetric(r.HubCPU.Seconds()/float64(c.rollouts), "hub-cpu-s/rollout")
		printReport(os.Stdout, c, r, loadStart)
	}
}

// goal is the bound on the p99 from a wave's last healthy report
// at the hub to the next wave's first downstream write.
const goal = time.Second

// result holds the figures of one run.
type result struct {
	// FromWrite, FromReported and FromHealthy are to the next wave's
	// first downstream write, from the hub's write past the wave, from
	// the wave's last healthy report seen at the hub and from the wave's
	// last copy running available; Reporting is, for each copy, from its
	// running available to its healthy report seen at the hub: the
	// syncer's part of FromHealthy.
	FromWrite, FromReported, FromHealthy, Reporting benchreport.Latencies
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
	// Target t is on physical cluster t mod C, so that each wave's
	// targets spread over the clusters, as a fleet's would.
	names := make([]string, c.targets)
	clusterNames := make([]string, c.clusters)
	for i := range clusterNames {
		clusterNames[i] = fmt.Sprintf("pc%d", i+1)
	}
	for t := range names {
		names[t] = fmt.Sprintf("t%d-%s", t+1, clusterNames[t%c.clusters])
	}
	f := fleet.Start(ctx, b, fleet.Options{Out: c.out, Clusters: clusterNames, Nodes: 1, Targets: names, Labels: []string{"region=eu"},
		EnvHub: envHub, EnvSyncer: envSyncer})
	admin, err := clientcmd.BuildConfigFromFlags("", f.Hub.AdminKubeconfig())
	if err != nil {
		b.Fatal(err)
	}
	admin.Host = f.Hub.URL() + "/clusters/root"
	root, err := dynamic.NewForConfig(admin)
	if err != nil {
		b.Fatal(err)
	}
	// targetOf is the target of each key, by which the copies of the
	// targets sharing a physical cluster are told apart.
	targetOf := map[string]string{}
	for _, target := range names {
		targetOf[workloadv1alpha1.TargetKey("root", target)] = target
	}

	o := &observer{hubSteps: map[string]map[int]time.Time{}, applied: map[string]map[string]time.Time{},
		available: map[string]map[string]time.Time{}, reported: map[string]map[string]time.Time{}, targetOf: targetOf}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	deploy := root.Resource(deployments).Namespace(namespace)
	follow.Follow(ctx, b, deploy, o.hub, func(map[string]bool) {})
	follow.Follow(ctx, b, root.Resource(workloadv1alpha1.SchemeGroupVersion.WithResource("statusreports")).Namespace(namespace), o.statusReport, func(map[string]bool) {})
	for _, pc := range f.Clusters {
		informer, err := fleet.Downstream(ctx, pc, deployments)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
			AddFunc:    func(obj any) { o.downstream(obj) },
			UpdateFunc: func(_, obj any) { o.downstream(obj) },
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
	// The first placement pins every target at once, complete at once:
	// the idle figure and the first rollout wait until every copy runs.
	to := o.waitComplete(ctx, b, "", c.timeout)
	o.waitAvailable(ctx, b, names, to, c.timeout)
	logf("every target runs revision %s", to)

	var r result
	r.HubIdle = idleCPU(ctx, b, f.Hub)
	var all waveTimes
	var took time.Duration
	for i := range c.rollouts {
		start := time.Now()
		before, err := proc.CPUTime(f.Hub.PID())
		if err != nil {
			b.Fatal(err)
		}
		patch := fmt.Sprintf(`{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"registry.invalid/web:%d"}]}}}}`, i+2)
		if _, err := deploy.Patch(ctx, name, types.StrategicMergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
			b.Fatal(err)
		}
		to = o.waitComplete(ctx, b, to, c.timeout)
		after, err := proc.CPUTime(f.Hub.PID())
		if err != nil {
			b.Fatal(err)
		}
		r.HubCPU += after - before
		took += time.Since(start)
		w := o.waves(b, c, names, to)
		all.add(w)
		// Per rollout, so that a run whose later rollouts cost more, or
		// whose machine was busy for a while, shows it.
		reported := benchreport.Summarize(w.fromReported)
		logf("rollout %d of %d to revision %s complete in %.1f s, hub CPU %.2f s, from the last healthy report p50 %.0f ms, max %.0f ms",
			i+1, c.rollouts, to, time.Since(start).Seconds(), (after - before).Seconds(), benchreport.MS(reported.P50), benchreport.MS(reported.Max))
	}
	r.FromWrite, r.FromReported = benchreport.Summarize(all.fromWrite), benchreport.Summarize(all.fromReported)
	r.FromHealthy, r.Reporting = benchreport.Summarize(all.fromHealthy), benchreport.Summarize(all.reporting)
	r.Took = took
	r.Logs = f.Logs
	return r
}

// observer records, by this process's clock, when the hub's rollout
// state was first seen past each step of each revision, and when each
// target's copy was first seen with each revision applied and
// running it available.
type observer struct {
	mu sync.Mutex
	// state is the hub's last rollout state.
	state engine.RolloutState
	// hubSteps is, by revision and step, when the state was first seen
	// at that step.
	hubSteps map[string]map[int]time.Time
	// applied and available are, by target and revision, when
	// its copy was first seen with it applied and running it available;
	// reported when the hub object was first seen with the target's
	// report of it running it healthily.
	applied, available, reported map[string]map[string]time.Time
	// targetOf names each target by its key.
	targetOf map[string]string
	// generation is the hub object's last seen.
	generation int64
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
	o.generation = u.GetGeneration()
	first(o.hubSteps, s.To, s.Step, now)
	// A syncer of an earlier release reports in an annotation.
	for key := range o.targetOf {
		o.judge(key, u.GetAnnotations()[workloadv1alpha1.StatusAnnotation(key)], now)
	}
}

// statusReport records the report of a target on the rolled out object.
func (o *observer) statusReport(u *unstructured.Unstructured, deleted bool) {
	now := time.Now()
	status, ok, _ := unstructured.NestedFieldNoCopy(u.Object, "spec", "status")
	if reported, _, _ := unstructured.NestedString(u.Object, "spec", "name"); deleted || !ok || reported != name {
		return
	}
	raw, err := json.Marshal(status)
	if err != nil {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.judge(u.GetLabels()[workloadv1alpha1.ReportedByLabel], string(raw), now)
}

// judge records when the target of key was first seen reporting, in
// raw, that it runs a revision healthily.
func (o *observer) judge(key, raw string, now time.Time) {
	target, known := o.targetOf[key]
	report, err := engine.ReportFrom(raw)
	if !known || err != nil || report.Revision == "" {
		return
	}
	var judge engine.Policy
	if healthy, _ := judge.Healthy(report, report.Revision, o.generation); healthy {
		first(o.reported, target, report.Revision, now)
	}
}

// downstream records copy obj of a target, which its label names by its
// key.
func (o *observer) downstream(obj any) {
	now := time.Now()
	u, ok := obj.(*unstructured.Unstructured)
	if !ok || u.GetName() != name {
		return
	}
	target := o.targetOf[u.GetLabels()[workloadv1alpha1.TargetKeyLabel]]
	rev := u.GetAnnotations()[workloadv1alpha1.AppliedRevisionAnnotation]
	if rev == "" {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	first(o.applied, target, rev, now)
	if available(u) {
		first(o.available, target, rev, now)
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

// waitAvailable waits until every target's copy was seen running
// revision to available.
func (o *observer) waitAvailable(ctx context.Context, b *testing.B, targets []string, to string, timeout time.Duration) {
	deadline := time.Now().Add(timeout)
	for {
		o.mu.Lock()
		var waiting []string
		for _, t := range targets {
			if _, ok := o.available[t][to]; !ok {
				waiting = append(waiting, t)
			}
		}
		o.mu.Unlock()
		if len(waiting) == 0 {
			return
		}
		if time.Now().After(deadline) {
			b.Fatalf("%d targets do not run revision %s available after %v: %v", len(waiting), to, timeout, waiting)
		}
		proc.Sleep(ctx, b, 100*time.Millisecond)
	}
}

// waveTimes are the durations of the rows of the report, over waves.
type waveTimes struct {
	fromWrite, fromReported, fromHealthy, reporting []time.Duration
}

func (w *waveTimes) add(o waveTimes) {
	w.fromWrite = append(w.fromWrite, o.fromWrite...)
	w.fromReported = append(w.fromReported, o.fromReported...)
	w.fromHealthy = append(w.fromHealthy, o.fromHealthy...)
	w.reporting = append(w.reporting, o.reporting...)
}

// waves are, for each wave k before the last of the rollout to revision
// to, the time to wave k+1's first copy seen with it: from the hub's
// state first seen past step k, from wave k's last healthy report seen
// at the hub and from its last copy seen running it available; and, for
// each target, from its copy running it available to its report.
func (o *observer) waves(b *testing.B, c config, names []string, to string) waveTimes {
	o.mu.Lock()
	defer o.mu.Unlock()
	var w waveTimes
	for k := range c.waves - 1 {
		var next, healthy, reported time.Time
		for i, target := range names {
			switch c.wave(i) {
			case k:
				at, ok := o.available[target][to]
				if !ok {
					b.Fatalf("%s was never seen running revision %s available", target, to)
				}
				report, ok := o.reported[target][to]
				if !ok {
					b.Fatalf("the hub object was never seen with %s's healthy report of revision %s", target, to)
				}
				healthy, reported = latest(healthy, at), latest(reported, report)
				w.reporting = append(w.reporting, report.Sub(at))
			case k + 1:
				at, ok := o.applied[target][to]
				if !ok {
					b.Fatalf("%s was never seen with revision %s", target, to)
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
		w.fromWrite = append(w.fromWrite, next.Sub(past))
		w.fromReported = append(w.fromReported, next.Sub(reported))
		w.fromHealthy = append(w.fromHealthy, next.Sub(healthy))
	}
	return w
}

func latest(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
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
	fmt.Fprintf(w, "\nrollout end to end: %d targets (SyncTargets, one syncer each, on %d physical clusters) in %d waves, %d rollouts, %d wave transitions\n",
		c.targets, c.clusters, c.waves, c.rollouts, r.FromWrite.N)
	fmt.Fprintf(w, "load average at start %s, at end %s\n", loadStart, benchreport.LoadAverage())
	fmt.Fprintf(w, "%-56s %10s %10s %10s\n", "to the next wave's first downstream write", "p50 ms", "p99 ms", "max ms")
	for _, row := range []struct {
		what string
		l    benchreport.Latencies
	}{
		{"from the hub's write past the healthy wave", r.FromWrite},
		{"from the wave's last healthy report at the hub", r.FromReported},
		{"from the wave's last copy running available", r.FromHealthy},
		{"(a copy available downstream to its report at the hub)", r.Reporting},
	} {
		fmt.Fprintf(w, "%-56s %10.0f %10.0f %10.0f\n", row.what, benchreport.MS(row.l.P50), benchreport.MS(row.l.P99), benchreport.MS(row.l.Max))
	}
	fmt.Fprintf(w, "goal (reported, not enforced): from the wave's last healthy report at the hub, p99 under %v: %.0f ms (%.2fx)  %s\n",
		goal, benchreport.MS(r.FromReported.P99), float64(r.FromReported.P99)/float64(goal), benchreport.PassMiss(r.FromReported.P99 < goal))
	fmt.Fprintf(w, "hub CPU: %.2f s over %d rollouts (%.1f s), %.2f s per rollout; idle before: %.3f s per s, %.2f s over as long\n",
		r.HubCPU.Seconds(), c.rollouts, r.Took.Seconds(), r.HubCPU.Seconds()/float64(c.rollouts), r.HubIdle, r.HubIdle*r.Took.Seconds())
	fmt.Fprintf(w, "logs: %s\n", strings.Join(r.Logs, " "))
}

var logf = proc.Logger("bench/rollout")
