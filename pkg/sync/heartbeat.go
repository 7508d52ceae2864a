package sync

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/util/retry"
	"k8s.io/klog/v2"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// HeartbeatInterval is how often the syncer reports its SyncTarget's
// status.
const HeartbeatInterval = 10 * time.Second

var syncTargets = workloadv1alpha1.SchemeGroupVersion.WithResource("synctargets")

// syncTarget reads the syncer's SyncTarget.
func (s *Syncer) syncTarget(ctx context.Context) (*workloadv1alpha1.SyncTarget, error) {
	hub, err := s.hubIn(string(s.targetCluster))
	if err != nil {
		return nil, err
	}
	u, err := hub.Resource(syncTargets).Get(ctx, s.targetName, metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	target := &workloadv1alpha1.SyncTarget{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, target); err != nil {
		return nil, err
	}
	return target, nil
}

// heartbeat reports the target's status every HeartbeatInterval until ctx
// ends, and at once whenever the syncer becomes ready, so that placement
// sends it work as soon as it takes it, and no sooner.
func (s *Syncer) heartbeat(ctx context.Context) {
	ticker := time.NewTicker(HeartbeatInterval)
	defer ticker.Stop()
	for {
		// A conflict is most likely the hub's HeartbeatTimeout, written as
		// the hub returns: the syncer reads the target again and reports
		// at once rather than at the next tick.
		if err := retry.RetryOnConflict(retry.DefaultRetry, func() error { return s.beat(ctx) }); err != nil {
			klog.ErrorS(err, "Reporting the SyncTarget's status")
		}
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		case <-s.ready.wake:
		}
	}
}

// beat writes the SyncTarget's status: its key, the time, Ready, whether
// the physical cluster takes each accepted resource, and the allocatable
// resources of its nodes. Ready is True only while the syncer syncs;
// otherwise it says what the syncer does instead (readiness.go). The
// SyncTarget it reads for that tells the logical clusters the target
// serves now.
func (s *Syncer) beat(ctx context.Context) error {
	target, err := s.syncTarget(ctx)
	if err != nil {
		return err
	}
	s.followLogicalClusters(target.Spec.LogicalClusters)
	ready := s.ready.condition(s.synced)
	if nodes, err := s.downKube.CoreV1().Nodes().List(ctx, metav1.ListOptions{}); err != nil {
		// What was allocatable stays as last reported.
		ready = metav1.Condition{Type: workloadv1alpha1.ConditionReady, Status: metav1.ConditionFalse, Reason: ReasonClusterUnreachable,
			Message: fmt.Sprintf("listing the physical cluster's nodes: %v", err)}
	} else {
		target.Status.Allocatable = allocatable(nodes.Items)
	}
	target.Status.Key = s.key
	target.Status.LastHeartbeatTime = metav1.Now()
	ready.ObservedGeneration = target.Generation
	meta.SetStatusCondition(&target.Status.Conditions, ready)
	// Those of resources the target no longer accepts go.
	target.Status.Conditions = slices.DeleteFunc(target.Status.Conditions, func(c metav1.Condition) bool {
		return strings.HasSuffix(c.Type, compatibleSuffix) && meta.FindStatusCondition(s.compatibility, c.Type) == nil
	})
	for _, c := range s.compatibility {
		c.ObservedGeneration = target.Generation
		meta.SetStatusCondition(&target.Status.Conditions, c)
	}
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(target)
	if err != nil {
		return err
	}
	hub, err := s.hubIn(string(s.targetCluster))
	if err != nil {
		return err
	}
	obj := &unstructured.Unstructured{Object: u}
	obj.SetGroupVersionKind(workloadv1alpha1.SchemeGroupVersion.WithKind("SyncTarget"))
	_, err = hub.Resource(syncTargets).UpdateStatus(ctx, obj, metav1.UpdateOptions{FieldManager: FieldManager})
	return err
}

// allocatable sums the allocatable resources of nodes.
func allocatable(nodes []corev1.Node) corev1.ResourceList {
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
