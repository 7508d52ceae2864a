package synctarget

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/klog/v2"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/controller/clusterwide"
	"github.com/canopy-dev/canopy/pkg/informer"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/shard"
)

const (
	// workers is how many SyncTargets are checked at once: a check is
	// one read from the watch cache and, rarely, one write.
	workers = 2
	// ReasonHeartbeatTimeout is the reason of a Ready condition that this
	// controller turned False.
	ReasonHeartbeatTimeout = "HeartbeatTimeout"
)

// key names one SyncTarget.
type key struct {
	cluster logicalcluster.Name
	name    string
}

// Controller turns the Ready condition of SyncTargets whose syncer has
// not reported for timeout False, and their Evicted condition True once
// they have not been Ready for evictAfter.
type Controller struct {
	informer   *informer.Informer
	status     rest.Updater
	timeout    time.Duration
	evictAfter time.Duration
	loop       clusterwide.Loop[key]
}

// New returns a controller over the SyncTargets' shared informer and
// their status subresource, which marks a target whose heartbeat is
// older than timeout not Ready, and one not Ready for evictAfter
// evicted, in the logical clusters owner says this replica handles.
func New(targets *genericregistry.Store, status rest.Updater, timeout, evictAfter time.Duration, informers *informer.Factory, owner shard.Ownership) *Controller {
	c := &Controller{informer: informers.For(targets), status: status, timeout: timeout, evictAfter: evictAfter}
	c.loop = clusterwide.Loop[key]{
		Name:      "synctarget-heartbeat",
		Workers:   workers,
		Cluster:   func(k key) logicalcluster.Name { return k.cluster },
		Ownership: owner,
		Process:   c.process,
	}
	c.loop.Watch(c.informer, keys)
	return c
}

// Run works until ctx ends.
func (c *Controller) Run(ctx context.Context) { c.loop.Run(ctx) }

func keys(obj runtime.Object, deleted bool) []key {
	st, ok := obj.(*workloadv1alpha1.SyncTarget)
	if !ok {
		klog.ErrorS(nil, "The SyncTarget watch sent something else", "type", fmt.Sprintf("%T", obj))
		return nil
	}
	if deleted {
		return nil
	}
	cluster, err := logicalcluster.FromObject(st)
	if err != nil {
		klog.ErrorS(err, "A stored SyncTarget has no logical cluster", "synctarget", st.Name)
		return nil
	}
	return []key{{cluster, st.Name}}
}

// process writes the conditions the SyncTarget of k calls for now, and
// looks at it again when they will change. It reads the informer, which
// the event that queued k is already in.
func (c *Controller) process(ctx context.Context, k key) error {
	ctx = logicalcluster.WithCluster(genericapirequest.WithNamespace(ctx, ""), k.cluster)
	obj, ok := c.informer.Get(k.cluster, "", k.name)
	if !ok {
		return nil
	}
	st, ok := obj.(*workloadv1alpha1.SyncTarget)
	if !ok {
		return nil
	}
	now := time.Now()
	updated := st.DeepCopy()
	changed, recheck := reconcile(updated, now, c.timeout, c.evictAfter)
	if !changed {
		if recheck > 0 {
			c.loop.AddAfter(k, recheck)
		}
		return nil
	}
	// The stored resourceVersion is a precondition: a heartbeat that came
	// in meanwhile conflicts, and the next look finds it fresh.
	_, _, err := c.status.Update(ctx, st.Name, rest.DefaultUpdatedObjectInfo(updated),
		rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{})
	if apierrors.IsConflict(err) {
		c.loop.AddAfter(k, 0)
		return nil
	}
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	klog.InfoS("A SyncTarget's conditions changed", "cluster", k.cluster, "synctarget", k.name,
		"lastHeartbeatTime", st.Status.LastHeartbeatTime.Time, "ready", condition(updated, workloadv1alpha1.ConditionReady),
		"evicted", condition(updated, workloadv1alpha1.ConditionEvicted))
	return nil
}

func condition(st *workloadv1alpha1.SyncTarget, typ string) metav1.ConditionStatus {
	if c := meta.FindStatusCondition(st.Status.Conditions, typ); c != nil {
		return c.Status
	}
	return metav1.ConditionUnknown
}

// reconcile sets on st the conditions due at now, and tells whether it
// changed any, and otherwise how long until one is due, zero for never
// on its own: Ready turns False once the heartbeat is timeout old;
// Evicted turns True once Ready has been False for evictAfter, and False
// once the syncer reports Ready again after that.
func reconcile(st *workloadv1alpha1.SyncTarget, now time.Time, timeout, evictAfter time.Duration) (changed bool, recheck time.Duration) {
	expired, recheck := check(st, now, timeout)
	if expired {
		markTimedOut(st, now, timeout)
		return true, 0
	}
	ready := meta.FindStatusCondition(st.Status.Conditions, workloadv1alpha1.ConditionReady)
	evicted := meta.FindStatusCondition(st.Status.Conditions, workloadv1alpha1.ConditionEvicted)
	switch {
	case ready == nil:
		return false, recheck
	case ready.Status == metav1.ConditionTrue:
		if evicted != nil && evicted.Status == metav1.ConditionTrue && ready.LastTransitionTime.After(evicted.LastTransitionTime.Time) {
			setEvicted(st, metav1.ConditionFalse, workloadv1alpha1.ReasonSyncerReturned, fmt.Sprintf(
				"The syncer reported Ready again at %s; it starts again from what is assigned to the target now",
				ready.LastTransitionTime.UTC().Format(time.RFC3339)), now)
			return true, recheck
		}
		return false, recheck
	case evicted != nil && evicted.Status == metav1.ConditionTrue:
		return false, recheck
	}
	left := ready.LastTransitionTime.Add(evictAfter).Sub(now)
	if left > 0 {
		if recheck == 0 || left < recheck {
			recheck = left
		}
		return false, recheck
	}
	setEvicted(st, metav1.ConditionTrue, workloadv1alpha1.ReasonNotReadyTooLong, fmt.Sprintf(
		"Not Ready since %s, more than the hub's eviction timeout of %s: the hub released what the target held",
		ready.LastTransitionTime.UTC().Format(time.RFC3339), evictAfter), now)
	return true, 0
}

// check tells whether the heartbeat of st has expired at now and its Ready
// condition must be turned False, and otherwise how long until it
// expires; zero when there is nothing to wait for: no heartbeat yet, which
// leaves Ready unknown until the syncer first reports, or one that has
// expired and is already marked.
func check(st *workloadv1alpha1.SyncTarget, now time.Time, timeout time.Duration) (expired bool, recheck time.Duration) {
	beat := st.Status.LastHeartbeatTime
	if beat.IsZero() {
		return false, 0
	}
	if left := beat.Add(timeout).Sub(now); left > 0 {
		return false, left
	}
	ready := meta.FindStatusCondition(st.Status.Conditions, workloadv1alpha1.ConditionReady)
	marked := ready != nil && ready.Status == metav1.ConditionFalse && ready.Reason == ReasonHeartbeatTimeout
	return !marked, 0
}

// markTimedOut sets the Ready condition of st False, for a heartbeat older
// than timeout at now.
func markTimedOut(st *workloadv1alpha1.SyncTarget, now time.Time, timeout time.Duration) {
	meta.SetStatusCondition(&st.Status.Conditions, metav1.Condition{
		Type:               workloadv1alpha1.ConditionReady,
		Status:             metav1.ConditionFalse,
		Reason:             ReasonHeartbeatTimeout,
		Message:            fmt.Sprintf("The syncer last reported at %s, more than %s ago; is it running and does it reach the hub?", st.Status.LastHeartbeatTime.UTC().Format(time.RFC3339), timeout),
		LastTransitionTime: metav1.NewTime(now),
		ObservedGeneration: st.Generation,
	})
}

// setEvicted sets the Evicted condition of st, changed at now.
func setEvicted(st *workloadv1alpha1.SyncTarget, status metav1.ConditionStatus, reason, message string, now time.Time) {
	meta.SetStatusCondition(&st.Status.Conditions, metav1.Condition{
		Type:               workloadv1alpha1.ConditionEvicted,
		Status:             status,
		Reason:             reason,
		Message:            message,
		LastTransitionTime: metav1.NewTime(now),
		ObservedGeneration: st.Generation,
	})
}
