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
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
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
// not reported for Timeout False.
type Controller struct {
	targets *genericregistry.Store
	status  rest.Updater
	timeout time.Duration
	loop    clusterwide.Loop[key]
}

// New returns a controller over the SyncTargets' store and its status
// subresource, which marks a target whose heartbeat is older than timeout.
func New(targets *genericregistry.Store, status rest.Updater, timeout time.Duration) *Controller {
	c := &Controller{targets: targets, status: status, timeout: timeout}
	c.loop = clusterwide.Loop[key]{
		Name:    "synctarget-heartbeat",
		Store:   targets,
		NewList: func() runtime.Object { return &workloadv1alpha1.SyncTargetList{} },
		Workers: workers,
		Keys:    keys,
		Process: c.process,
	}
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

// process marks the SyncTarget of k if its heartbeat has expired, and
// otherwise looks at it again when it will. It reads the watch cache,
// which the event that queued k is already in.
func (c *Controller) process(ctx context.Context, k key) error {
	ctx = logicalcluster.WithCluster(genericapirequest.WithNamespace(ctx, ""), k.cluster)
	obj, err := c.targets.Get(ctx, k.name, &metav1.GetOptions{ResourceVersion: "0"})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	st := obj.(*workloadv1alpha1.SyncTarget)
	now := time.Now()
	expired, recheck := check(st, now, c.timeout)
	if !expired {
		if recheck > 0 {
			c.loop.AddAfter(k, recheck)
		}
		return nil
	}
	updated := st.DeepCopy()
	markTimedOut(updated, now, c.timeout)
	// The stored resourceVersion is a precondition: a heartbeat that came
	// in meanwhile conflicts, and the next look finds it fresh.
	_, _, err = c.status.Update(ctx, st.Name, rest.DefaultUpdatedObjectInfo(updated),
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
	klog.InfoS("A SyncTarget's syncer stopped reporting", "cluster", k.cluster, "synctarget", k.name,
		"lastHeartbeatTime", st.Status.LastHeartbeatTime.Time)
	return nil
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
