package heartbeat

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"
	"k8s.io/klog/v2"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// Interval is how often the syncer reports its SyncTarget's status.
const Interval = 10 * time.Second

// ReasonClusterUnreachable is the reason of a Ready condition False
// because the physical cluster does not answer.
const ReasonClusterUnreachable = "ClusterUnreachable"

// CompatibleSuffix ends the type of the condition per accepted resource
// telling whether the physical cluster takes it.
const CompatibleSuffix = "/Compatible"

// Report is what the syncer knows for one heartbeat.
type Report struct {
	// Key is the target's key.
	Key string
	// Ready is the Ready condition as the syncer's readiness tells it.
	Ready metav1.Condition
	// Compatibility holds a condition per resource the target accepts.
	Compatibility []metav1.Condition
	// Nodes are the physical cluster's nodes, unless listing them failed
	// with NodesErr: then Ready says so, and what was allocatable stays
	// as last reported.
	Nodes    []corev1.Node
	NodesErr error
	// Now is the time of the heartbeat.
	Now metav1.Time
}

// Status sets the status of target, as read at the hub, to what r
// reports. Ready is True only while the syncer syncs and reaches the
// physical cluster. The conditions of resources the target no longer
// accepts go; those the hub writes stay.
func Status(target *workloadv1alpha1.SyncTarget, r Report) {
	ready := r.Ready
	if r.NodesErr != nil {
		ready = metav1.Condition{Type: workloadv1alpha1.ConditionReady, Status: metav1.ConditionFalse, Reason: ReasonClusterUnreachable,
			Message: fmt.Sprintf("listing the physical cluster's nodes: %v", r.NodesErr)}
	} else {
		target.Status.Allocatable = Allocatable(r.Nodes)
	}
	target.Status.Key = r.Key
	target.Status.LastHeartbeatTime = r.Now
	ready.ObservedGeneration = target.Generation
	meta.SetStatusCondition(&target.Status.Conditions, ready)
	target.Status.Conditions = slices.DeleteFunc(target.Status.Conditions, func(c metav1.Condition) bool {
		return strings.HasSuffix(c.Type, CompatibleSuffix) && meta.FindStatusCondition(r.Compatibility, c.Type) == nil
	})
	for _, c := range r.Compatibility {
		c.ObservedGeneration = target.Generation
		meta.SetStatusCondition(&target.Status.Conditions, c)
	}
}

// Allocatable sums the allocatable resources of nodes.
func Allocatable(nodes []corev1.Node) corev1.ResourceList {
	sum := corev1.ResourceList{}
	for _, n := range nodes {
		for name, q := range n.Status.Allocatable {
			total := sum[name]
			total.Add(q)
			sum[name] = total
		}
	}
	return sum
}

// Controller reports the SyncTarget's status.
type Controller struct {
	// Read reads the SyncTarget at the hub.
	Read func(context.Context) (*workloadv1alpha1.SyncTarget, error)
	// Observe is told of each SyncTarget read, whose spec may have
	// changed.
	Observe func(*workloadv1alpha1.SyncTarget)
	// Know is what the syncer knows now, but for the nodes.
	Know func() Report
	// Nodes lists the physical cluster's nodes.
	Nodes func(context.Context) ([]corev1.Node, error)
	// Write writes the SyncTarget's status, with its resourceVersion.
	Write func(context.Context, *workloadv1alpha1.SyncTarget) error
	// Wake reports at once when it receives.
	Wake <-chan struct{}
}

// Run reports every Interval until ctx ends, and at once on Wake.
func (c *Controller) Run(ctx context.Context) {
	ticker := time.NewTicker(Interval)
	defer ticker.Stop()
	for {
		if err := retry.RetryOnConflict(retry.DefaultRetry, func() error { return c.Beat(ctx) }); err != nil {
			klog.ErrorS(err, "Reporting the SyncTarget's status")
		}
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		case <-c.Wake:
		}
	}
}

// Beat reads the SyncTarget and writes its status once.
func (c *Controller) Beat(ctx context.Context) error {
	target, err := c.Read(ctx)
	if err != nil {
		return err
	}
	c.Observe(target)
	r := c.Know()
	r.Nodes, r.NodesErr = c.Nodes(ctx)
	r.Now = metav1.Now()
	Status(target, r)
	return c.Write(ctx, target)
}
