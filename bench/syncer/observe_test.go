package syncer

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/tools/cache"

	"github.com/canopy-dev/canopy/bench/internal/fleet"
	benchreport "github.com/canopy-dev/canopy/bench/internal/report"
	"github.com/canopy-dev/canopy/e2e/pcluster"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// stage is a moment in a Deployment's way, as this process sees it.
type stage int

const (
	stageApplyStart    stage = iota // the apply call started
	stageApplied                    // the apply call returned
	stageCreated                    // a physical cluster's watch saw it
	stageDownRolledOut              // a physical cluster's watch saw it rolled out
	stageHubRolledOut               // the hub's watch saw it rolled out
	stages
)

// observer records when each Deployment, by key, reached each stage,
// through watches of the hub and of every physical cluster.
type observer struct {
	mu    sync.Mutex
	times map[string]*[stages]time.Time
	n     int
	stop  context.CancelFunc
}

func key(cluster, namespace, name string) string { return cluster + "/" + namespace + "/" + name }

// observe starts the watches of the Deployments of the hub, all logical
// clusters, and of the physical clusters, those the syncers made, and
// waits for their first lists; n Deployments are expected.
func observe(ctx context.Context, b *testing.B, hub dynamic.Interface, pcs []*pcluster.Cluster, n int) *observer {
	ctx, cancel := context.WithCancel(ctx)
	o := &observer{times: map[string]*[stages]time.Time{}, n: n, stop: cancel}
	// The Deployments' names are unique across logical clusters, so the
	// informer's namespace/name keys do not collide.
	hubFactory := dynamicinformer.NewDynamicSharedInformerFactory(hub, 0)
	hubInformer := hubFactory.ForResource(deployments).Informer()
	if _, err := hubInformer.AddEventHandler(o.handler(func(u *unstructured.Unstructured) (string, bool) {
		cluster, err := logicalcluster.FromObject(u)
		return key(string(cluster), u.GetNamespace(), u.GetName()), err == nil
	}, -1, stageHubRolledOut)); err != nil {
		b.Fatal(err)
	}
	synced := []cache.InformerSynced{hubInformer.HasSynced}
	hubFactory.Start(ctx.Done())
	for _, pc := range pcs {
		informer, err := fleet.Downstream(ctx, pc, deployments)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := informer.AddEventHandler(o.handler(func(u *unstructured.Unstructured) (string, bool) {
			a := u.GetAnnotations()
			origin := key(a[workloadv1alpha1.OriginClusterAnnotation], a[workloadv1alpha1.OriginNamespaceAnnotation], u.GetName())
			return origin, a[workloadv1alpha1.OriginClusterAnnotation] != ""
		}, stageCreated, stageDownRolledOut)); err != nil {
			b.Fatal(err)
		}
		synced = append(synced, informer.HasSynced)
	}
	if !cache.WaitForCacheSync(ctx.Done(), synced...) {
		b.Fatalf("the watches of the hub and the physical clusters did not sync: %v", ctx.Err())
	}
	return o
}

// handler records, for each Deployment keyOf finds a key for, the first
// time it is seen at stage seen (none if negative) and rolled out at stage
// rolledOut.
func (o *observer) handler(keyOf func(*unstructured.Unstructured) (string, bool), seen, rolledOut stage) cache.ResourceEventHandler {
	handle := func(obj any) {
		now := time.Now()
		u, ok := obj.(*unstructured.Unstructured)
		if !ok {
			return
		}
		k, ok := keyOf(u)
		if !ok {
			return
		}
		o.mu.Lock()
		defer o.mu.Unlock()
		if seen >= 0 {
			o.recordLocked(k, seen, now)
		}
		if rolledOutStatus(u) {
			o.recordLocked(k, rolledOut, now)
		}
	}
	return cache.ResourceEventHandlerFuncs{AddFunc: handle, UpdateFunc: func(_, obj any) { handle(obj) }}
}

// rolledOutStatus tells whether Deployment u's status says its controller
// has observed its spec and all its replicas are updated and ready. At the
// hub, the syncer maps observedGeneration to the hub's generation once the
// physical cluster's controller has observed what was applied from it.
func rolledOutStatus(u *unstructured.Unstructured) bool {
	replicas, found, _ := unstructured.NestedInt64(u.Object, "spec", "replicas")
	if !found {
		replicas = 1
	}
	observed, found, _ := unstructured.NestedInt64(u.Object, "status", "observedGeneration")
	updated, _, _ := unstructured.NestedInt64(u.Object, "status", "updatedReplicas")
	ready, _, _ := unstructured.NestedInt64(u.Object, "status", "readyReplicas")
	return found && observed >= u.GetGeneration() && updated == replicas && ready == replicas
}

// recordLocked records t as when k reached s, unless it did before.
func (o *observer) recordLocked(k string, s stage, t time.Time) {
	ts := o.times[k]
	if ts == nil {
		ts = &[stages]time.Time{}
		o.times[k] = ts
	}
	if ts[s].IsZero() {
		ts[s] = t
	}
}

// applied records the start and the return of the apply of k.
func (o *observer) applied(k string, start, end time.Time) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.recordLocked(k, stageApplyStart, start)
	o.recordLocked(k, stageApplied, end)
}

// count is how many Deployments reached s.
func (o *observer) count(s stage) int {
	o.mu.Lock()
	defer o.mu.Unlock()
	n := 0
	for _, ts := range o.times {
		if !ts[s].IsZero() {
			n++
		}
	}
	return n
}

// waitRolledOut waits until every Deployment has rolled out at the hub,
// or timeout has passed.
func (o *observer) waitRolledOut(ctx context.Context, b *testing.B, timeout time.Duration) {
	deadline := time.Now().Add(timeout)
	lastLog := time.Now()
	for o.count(stageHubRolledOut) < o.n {
		if time.Now().After(deadline) {
			logf("%d of %d Deployments not rolled out at the hub %v after the last apply; reporting what there is",
				o.n-o.count(stageHubRolledOut), o.n, timeout)
			return
		}
		if time.Since(lastLog) >= 10*time.Second {
			lastLog = time.Now()
			logf("created downstream %d, rolled out downstream %d, rolled out at the hub %d of %d",
				o.count(stageCreated), o.count(stageDownRolledOut), o.count(stageHubRolledOut), o.n)
		}
		sleep(ctx, b, 200*time.Millisecond)
	}
	logf("all %d Deployments rolled out at the hub", o.n)
}

// lastHubRolledOut is when the last Deployment was seen rolled out at the
// hub.
func (o *observer) lastHubRolledOut() time.Time {
	o.mu.Lock()
	defer o.mu.Unlock()
	var last time.Time
	for _, ts := range o.times {
		if ts[stageHubRolledOut].After(last) {
			last = ts[stageHubRolledOut]
		}
	}
	return last
}

// figures computes the latencies of r from the recorded times, over the
// Deployments that reached both ends of each.
func (o *observer) figures(r *result) {
	o.mu.Lock()
	defer o.mu.Unlock()
	between := func(from, to stage) []time.Duration {
		var d []time.Duration
		for _, ts := range o.times {
			if !ts[from].IsZero() && !ts[to].IsZero() && !ts[stageApplyStart].IsZero() {
				d = append(d, ts[to].Sub(ts[from]))
			}
		}
		return d
	}
	r.ApplyCall = benchreport.Summarize(between(stageApplyStart, stageApplied))
	r.Down = benchreport.Summarize(between(stageApplyStart, stageCreated))
	r.DownFromReturn = benchreport.Summarize(between(stageApplied, stageCreated))
	up := between(stageDownRolledOut, stageHubRolledOut)
	for _, d := range up {
		if d < 0 {
			r.UpNegative++
		}
	}
	r.Up = benchreport.Summarize(up)
	r.EndToEnd = benchreport.Summarize(between(stageApplyStart, stageHubRolledOut))
	for _, ts := range o.times {
		if ts[stageApplyStart].IsZero() {
			continue
		}
		if ts[stageCreated].IsZero() {
			r.Missing.Created++
		}
		if ts[stageDownRolledOut].IsZero() {
			r.Missing.DownRolledOut++
		}
		if ts[stageHubRolledOut].IsZero() {
			r.Missing.HubRolledOut++
		}
	}
}

// writeTimes writes, for each Deployment, when it reached each stage, in
// milliseconds from the first apply, to a CSV file for a closer look.
func (o *observer) writeTimes(path string, start time.Time) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	var b strings.Builder
	b.WriteString("deployment,apply_start_ms,applied_ms,created_ms,down_rolled_out_ms,hub_rolled_out_ms\n")
	keys := make([]string, 0, len(o.times))
	for k := range o.times {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		b.WriteString(k)
		for _, t := range o.times[k] {
			if t.IsZero() {
				b.WriteString(",")
				continue
			}
			fmt.Fprintf(&b, ",%d", t.Sub(start).Milliseconds())
		}
		b.WriteString("\n")
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
