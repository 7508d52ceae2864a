package sync

import (
	"context"
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// RefusedReason is the reason of the Warning Event recorded on a hub
// object assigned to the target from a logical cluster that the
// target's spec.logicalClusters does not let use it.
const RefusedReason = "SyncRefused"

// usable tells whether the target's spec, as last read, lets the objects
// of logical cluster cluster be assigned to it. The hub's admission
// refuses any other assignment (pkg/admission/assignment); this is the
// syncer's own check, for an object that reached the hub's store some
// other way.
func (s *Syncer) usable(cluster string) bool {
	return workloadv1alpha1.UsableFrom(string(s.targetCluster), s.servedClusters(), cluster)
}

// servedClusters is the target's spec.logicalClusters as last read.
func (s *Syncer) servedClusters() []string {
	if clusters := s.logicalClusters.Load(); clusters != nil {
		return *clusters
	}
	return nil
}

// followLogicalClusters records the target's spec.logicalClusters as read
// now and, when they changed, queues every assigned hub object and its
// dependencies again: those of logical clusters let in are applied,
// those shut out deleted downstream.
func (s *Syncer) followLogicalClusters(clusters []string) {
	if was := s.logicalClusters.Swap(&clusters); was != nil && slices.Equal(*was, clusters) {
		return
	}
	klog.InfoS("The SyncTarget's logical clusters changed", "logicalClusters", clusters)
	s.queueAll()
}

// queueAll queues every assigned hub object to be synced both ways, and
// its dependencies.
func (s *Syncer) queueAll() {
	for i, r := range s.resources {
		for _, obj := range r.hub.GetStore().List() {
			if h, ok := obj.(*hubObject); ok {
				s.queueBoth(objectKey{i, origin{h.cluster, h.Unstructured.GetNamespace(), h.GetName()}})
				s.queueDependencies(h)
			}
		}
	}
}

// refuse keeps hub object h of k, assigned to the target from a logical
// cluster it does not serve, out of the physical cluster: any copy the
// syncer made before goes, as for an object no longer assigned, and the
// finalizer with it. It is reported once per object, by UID, while the
// syncer runs: a Warning Event on h at the hub, a log line and
// canopy_syncer_refused_objects_total.
func (s *Syncer) refuse(ctx context.Context, k objectKey, h *hubObject) error {
	// The copy goes first: a report that fails must not keep it.
	gone, err := s.deleteDownstream(ctx, k)
	if err != nil {
		return err
	}
	if gone {
		if err := s.release(ctx, k, h.Unstructured); err != nil {
			return err
		}
	}
	return s.reportRefusal(ctx, k, h)
}

// reportRefusal reports the refusal of hub object h of k, unless it was
// reported already.
func (s *Syncer) reportRefusal(ctx context.Context, k objectKey, h *hubObject) error {
	gvr := s.resources[k.resource].gvr
	if s.firstRefusal(conflictKey{gvr, k.origin}, h.GetUID()) {
		message := fmt.Sprintf("SyncTarget %s:%s does not sync objects of logical cluster %s: its spec.logicalClusters %s; "+
			"remove the label %s, or have the target's admins add the logical cluster",
			s.targetCluster, s.targetName, k.cluster, s.describeLogicalClusters(), workloadv1alpha1.StateLabel(s.key))
		klog.InfoS("Not syncing an object of a logical cluster the SyncTarget does not serve",
			"resource", gvr.String(), "cluster", k.cluster, "namespace", k.namespace, "name", k.name)
		if err := s.recordEvent(ctx, k.origin, h.Unstructured, RefusedReason, message); err != nil {
			s.forgetRefusal(conflictKey{gvr, k.origin})
			return fmt.Errorf("recording the refusal at the hub: %w", err)
		}
		refusedObjects.WithLabelValues(gvr.GroupResource().String()).Inc()
	}
	return nil
}

// describeLogicalClusters says which logical clusters the target serves.
func (s *Syncer) describeLogicalClusters() string {
	if clusters := s.servedClusters(); len(clusters) > 0 {
		return fmt.Sprintf("are %v", clusters)
	}
	return fmt.Sprintf("are empty, which means %s and the logical clusters below it", s.targetCluster)
}

// firstRefusal records that the object of k, of UID uid, is refused, and
// tells whether it was not already.
func (s *Syncer) firstRefusal(k conflictKey, uid types.UID) bool {
	s.refusedMu.Lock()
	defer s.refusedMu.Unlock()
	if s.refused[k] == uid {
		return false
	}
	s.refused[k] = uid
	return true
}

// forgetRefusal forgets the refusal of the object of k, to be reported
// again.
func (s *Syncer) forgetRefusal(k conflictKey) {
	s.refusedMu.Lock()
	delete(s.refused, k)
	s.refusedMu.Unlock()
}
