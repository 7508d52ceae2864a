package sync

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/sync/heartbeat"
)

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

// heartbeat is the controller of the SyncTarget's status
// (pkg/sync/heartbeat), reading what it reports from the syncer.
func (s *Syncer) heartbeat() *heartbeat.Controller {
	return &heartbeat.Controller{
		Read:    s.syncTarget,
		Observe: func(t *workloadv1alpha1.SyncTarget) { s.followLogicalClusters(t.Spec.LogicalClusters) },
		Know: func() heartbeat.Report {
			return heartbeat.Report{Key: s.key, Ready: s.ready.condition(s.synced), Compatibility: s.compatibility}
		},
		Nodes: func(ctx context.Context) ([]corev1.Node, error) {
			nodes, err := s.downKube.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
			if err != nil {
				return nil, err
			}
			return nodes.Items, nil
		},
		Write: s.writeSyncTargetStatus,
		Wake:  s.ready.wake,
	}
}

// writeSyncTargetStatus writes the status of target, read at the hub.
func (s *Syncer) writeSyncTargetStatus(ctx context.Context, target *workloadv1alpha1.SyncTarget) error {
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
