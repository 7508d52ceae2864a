package failover

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/tools/cache"

	"github.com/canopy-dev/canopy/bench/internal/fleet"
	benchreport "github.com/canopy-dev/canopy/bench/internal/report"
	"github.com/canopy-dev/canopy/e2e/pcluster"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	engine "github.com/canopy-dev/canopy/pkg/placement"
)

// observer follows, through watches of the hub and of every physical
// cluster, SyncTarget pc1 and each Deployment, and records when each
// reached each stage of the failover after the kill.
type observer struct {
	c       config
	lostKey string
	stop    context.CancelFunc

	mu       sync.Mutex
	killedAt time.Time
	ready    map[string]bool // the SyncTargets' Ready, by name
	// lastHeartbeat is pc1's, and notReady when it was first seen
	// NotReady after the kill.
	lastHeartbeat, notReady time.Time
	deps                    map[string]*deploymentState
}

// deploymentState is what the watches last saw of one Deployment, and
// when, after the kill, it reached each stage.
type deploymentState struct {
	hubRolledOut                                       bool
	available                                          map[string]int64 // downstream, by physical cluster
	moveStarted, released, hubAvailable, downAvailable time.Time
}

// observe starts the watches of root's SyncTargets and Deployments at the
// hub and of the Deployments the syncers made in each physical cluster,
// and waits for their first lists.
func observe(ctx context.Context, b *testing.B, root dynamic.Interface, pcs []*pcluster.Cluster, c config) *observer {
	ctx, cancel := context.WithCancel(ctx)
	o := &observer{c: c, lostKey: workloadv1alpha1.TargetKey("root", lost), stop: cancel, ready: map[string]bool{}, deps: map[string]*deploymentState{}}
	hub := dynamicinformer.NewFilteredDynamicSharedInformerFactory(root, 0, namespace, nil)
	var synced []cache.InformerSynced
	watch := func(informer cache.SharedIndexInformer, handle func(*unstructured.Unstructured)) {
		h := func(obj any) {
			if u, ok := obj.(*unstructured.Unstructured); ok {
				o.mu.Lock()
				defer o.mu.Unlock()
				handle(u)
			}
		}
		if _, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{AddFunc: h, UpdateFunc: func(_, obj any) { h(obj) }}); err != nil {
			b.Fatal(err)
		}
		synced = append(synced, informer.HasSynced)
	}
	watch(hub.ForResource(deployments).Informer(), o.hubDeployment)
	targets := dynamicinformer.NewDynamicSharedInformerFactory(root, 0)
	watch(targets.ForResource(syncTargets).Informer(), o.syncTarget)
	hub.Start(ctx.Done())
	targets.Start(ctx.Done())
	for _, pc := range pcs {
		informer, err := fleet.Downstream(ctx, pc, deployments)
		if err != nil {
			b.Fatal(err)
		}
		watch(informer, func(u *unstructured.Unstructured) { o.downstreamDeployment(pc.Name, u) })
	}
	if !cache.WaitForCacheSync(ctx.Done(), synced...) {
		b.Fatalf("the watches of the hub and the physical clusters did not sync: %v", ctx.Err())
	}
	return o
}

// state is Deployment name's; o.mu is held.
func (o *observer) state(name string) *deploymentState {
	d := o.deps[name]
	if d == nil {
		d = &deploymentState{available: map[string]int64{}}
		o.deps[name] = d
	}
	return d
}

// since is the first time a stage is reached after the kill: now, unless
// it was reached before or the kill has not happened; o.mu is held.
func (o *observer) since(at *time.Time, now time.Time) {
	if !o.killedAt.IsZero() && at.IsZero() {
		*at = now
	}
}

func (o *observer) syncTarget(u *unstructured.Unstructured) {
	now := time.Now()
	ready := false
	conditions, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, c := range conditions {
		if c, ok := c.(map[string]any); ok && c["type"] == workloadv1alpha1.ConditionReady {
			ready = c["status"] == string(metav1.ConditionTrue)
		}
	}
	o.ready[u.GetName()] = ready
	if u.GetName() != lost {
		return
	}
	if hb, ok, _ := unstructured.NestedString(u.Object, "status", "lastHeartbeatTime"); ok && o.killedAt.IsZero() {
		if t, err := time.Parse(time.RFC3339, hb); err == nil {
			o.lastHeartbeat = t
		}
	}
	if !ready {
		o.since(&o.notReady, now)
	}
}

func (o *observer) hubDeployment(u *unstructured.Unstructured) {
	now := time.Now()
	d := o.state(u.GetName())
	replicas := int32(o.c.replicas)
	shares := engine.Shares(u.GetLabels(), u.GetAnnotations(), &replicas)
	available, _, _ := unstructured.NestedInt64(u.Object, "status", "availableReplicas")
	observed, _, _ := unstructured.NestedInt64(u.Object, "status", "observedGeneration")
	d.hubRolledOut = len(shares) == o.c.targets && available == int64(replicas) && observed >= u.GetGeneration()
	var elsewhere int32
	for key, n := range shares {
		if key != o.lostKey {
			elsewhere += n
		}
	}
	if elsewhere >= replicas {
		o.since(&d.moveStarted, now)
	}
	if _, onLost := shares[o.lostKey]; !onLost {
		o.since(&d.released, now)
		if available == int64(replicas) {
			o.since(&d.hubAvailable, now)
		}
	}
}

func (o *observer) downstreamDeployment(cluster string, u *unstructured.Unstructured) {
	now := time.Now()
	a := u.GetAnnotations()
	if a[workloadv1alpha1.OriginClusterAnnotation] != "root" || a[workloadv1alpha1.OriginNamespaceAnnotation] != namespace {
		return
	}
	d := o.state(a[workloadv1alpha1.OriginNameAnnotation])
	d.available[cluster], _, _ = unstructured.NestedInt64(u.Object, "status", "availableReplicas")
	var elsewhere int64
	for c, n := range d.available {
		if c != lost {
			elsewhere += n
		}
	}
	if elsewhere >= int64(o.c.replicas) {
		o.since(&d.downAvailable, now)
	}
}

// waitTargetsReady waits until the hub has every SyncTarget Ready.
func (o *observer) waitTargetsReady(ctx context.Context, b *testing.B, names []string) {
	o.wait(ctx, b, time.Minute, "the SyncTargets Ready", func() (bool, int) {
		n := 0
		for _, name := range names {
			if o.ready[name] {
				n++
			}
		}
		return n == len(names), n
	})
}

// waitRolledOut waits until every Deployment is rolled out at the hub,
// on all targets, and downstream.
func (o *observer) waitRolledOut(ctx context.Context, b *testing.B) {
	o.wait(ctx, b, rolloutTimeout, "the Deployments rolled out", func() (bool, int) {
		n := 0
		for _, d := range o.deps {
			var down int64
			for _, a := range d.available {
				down += a
			}
			if d.hubRolledOut && down == int64(o.c.replicas) {
				n++
			}
		}
		return n == o.c.deployments, n
	})
}

func (o *observer) killed(at time.Time) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.killedAt = at
}

// waitFailedOver waits until every Deployment is Available elsewhere, or
// the timeout has passed.
func (o *observer) waitFailedOver(ctx context.Context, b *testing.B) {
	deadline := time.Now().Add(o.c.timeout)
	for lastLog := time.Now(); ; sleep(ctx, b, 100*time.Millisecond) {
		o.mu.Lock()
		var moved, done int
		for _, d := range o.deps {
			if !d.moveStarted.IsZero() {
				moved++
			}
			if !d.hubAvailable.IsZero() && !d.downAvailable.IsZero() {
				done++
			}
		}
		notReady := !o.notReady.IsZero()
		o.mu.Unlock()
		if done == o.c.deployments {
			logf("all %d Deployments Available elsewhere", done)
			return
		}
		if time.Now().After(deadline) {
			logf("%d of %d Deployments not Available elsewhere %v after the kill; reporting what there is", o.c.deployments-done, o.c.deployments, o.c.timeout)
			return
		}
		if time.Since(lastLog) >= 10*time.Second {
			lastLog = time.Now()
			logf("%s NotReady: %v; moves started %d, Available elsewhere %d of %d", lost, notReady, moved, done, o.c.deployments)
		}
	}
}

// wait polls done, which o.mu is held for, until it holds, failing the
// run after timeout with the count it gives.
func (o *observer) wait(ctx context.Context, b *testing.B, timeout time.Duration, what string, done func() (bool, int)) {
	for deadline := time.Now().Add(timeout); ; sleep(ctx, b, 200*time.Millisecond) {
		o.mu.Lock()
		ok, n := done()
		o.mu.Unlock()
		if ok {
			logf("%s", what)
			return
		}
		if time.Now().After(deadline) {
			b.Fatalf("%s: not within %v (%d so far)", what, timeout, n)
		}
	}
}

// figures are the times from the kill.
func (o *observer) figures() result {
	o.mu.Lock()
	defer o.mu.Unlock()
	r := result{LastHeartbeat: o.killedAt.Sub(o.lastHeartbeat)}
	if !o.notReady.IsZero() {
		r.NotReady = o.notReady.Sub(o.killedAt)
	}
	var moveStarted, moveAfterNotReady, released, hubAvailable, downAvailable, elsewhere []time.Duration
	add := func(to *[]time.Duration, at time.Time) {
		if !at.IsZero() {
			*to = append(*to, at.Sub(o.killedAt))
		}
	}
	for _, d := range o.deps {
		add(&moveStarted, d.moveStarted)
		if !d.moveStarted.IsZero() && !o.notReady.IsZero() {
			moveAfterNotReady = append(moveAfterNotReady, d.moveStarted.Sub(o.notReady))
		}
		add(&released, d.released)
		add(&hubAvailable, d.hubAvailable)
		add(&downAvailable, d.downAvailable)
		if d.hubAvailable.IsZero() || d.downAvailable.IsZero() {
			r.NotDone++
		} else {
			elsewhere = append(elsewhere, slices.MaxFunc([]time.Time{d.hubAvailable, d.downAvailable}, time.Time.Compare).Sub(o.killedAt))
		}
		if !d.released.IsZero() && (d.downAvailable.IsZero() || d.released.Before(d.downAvailable)) {
			r.ReleasedEarly++
		}
	}
	r.MoveStarted = benchreport.Summarize(moveStarted)
	r.MoveAfterNotReady = benchreport.Summarize(moveAfterNotReady)
	r.Released = benchreport.Summarize(released)
	r.HubAvailable = benchreport.Summarize(hubAvailable)
	r.DownAvailable = benchreport.Summarize(downAvailable)
	r.AvailableElsewhere = benchreport.Summarize(elsewhere)
	return r
}
