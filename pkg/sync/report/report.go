package report

import (
	"context"
	"fmt"
	gosync "sync"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/sync/hubclient"
	"github.com/canopy-dev/canopy/pkg/sync/telemetry"
)

// RefusedReason is the reason of the Warning Event recorded on a hub
// object assigned to the target from a logical cluster that the
// target's spec.logicalClusters does not let use it.
const RefusedReason = "SyncRefused"

// Ref is a hub object of a resource: what the Reporter reports on.
type Ref struct {
	Resource                 schema.GroupVersionResource
	Cluster, Namespace, Name string
}

// Reporter records at the hub what keeps hub objects from being synced,
// once each while it lasts.
type Reporter struct {
	hub *hubclient.Clients
	// reports are the target's reports of the status of shared objects.
	reports *hubclient.Reports
	// downKube asks the physical cluster whether a refusal is the
	// syncer's credential's.
	downKube      kubernetes.Interface
	targetCluster logicalcluster.Name
	targetName    string
	key           string

	// conflicts holds what was recorded at the hub of each hub object's
	// conflict downstream, so that a resync records it only once.
	conflictsMu gosync.Mutex
	conflicts   map[Ref]conflictRecord
	// refused holds the UID of each hub object refused for its logical
	// cluster whose refusal was reported.
	refusedMu gosync.Mutex
	refused   map[Ref]types.UID
	// rejections holds the hub objects that the physical cluster refused,
	// which are not sent again until they change (failed.go).
	rejectionsMu gosync.Mutex
	rejections   map[Ref]rejection
}

// New is the Reporter of the syncer of SyncTarget cluster:name, of key,
// writing at the hub through hub.
func New(hub *hubclient.Clients, reports *hubclient.Reports, downKube kubernetes.Interface, cluster logicalcluster.Name, name, key string) *Reporter {
	return &Reporter{hub: hub, reports: reports, downKube: downKube, targetCluster: cluster, targetName: name, key: key,
		conflicts: map[Ref]conflictRecord{}, refused: map[Ref]types.UID{}, rejections: map[Ref]rejection{}}
}

// Rejected tells whether the physical cluster refused hub object obj of
// ref as it is, stamped with applied, and then reports it, if that
// failed before: nothing is sent downstream, not even a read, until it
// changes.
func (r *Reporter) Rejected(ctx context.Context, ref Ref, obj *unstructured.Unstructured, applied string) (bool, error) {
	f, ok := r.rejectionOf(ref, obj.GetUID(), applied)
	if !ok {
		return false, nil
	}
	return true, r.reportRejection(ctx, ref, obj, f)
}

// Refused reports that hub object obj of ref is refused for its logical
// cluster, which the target's spec.logicalClusters, clusters, does not
// list, unless it was reported already: a Warning Event on obj at the
// hub, a log line and canopy_syncer_refused_objects_total.
func (r *Reporter) Refused(ctx context.Context, ref Ref, obj *unstructured.Unstructured, clusters []string) error {
	if !r.firstRefusal(ref, obj.GetUID()) {
		return nil
	}
	message := fmt.Sprintf("SyncTarget %s:%s does not sync objects of logical cluster %s: its spec.logicalClusters %s; "+
		"remove the label %s, or have the target's admins add the logical cluster",
		r.targetCluster, r.targetName, ref.Cluster, r.describeLogicalClusters(clusters), workloadv1alpha1.StateLabel(r.key))
	klog.InfoS("Not syncing an object of a logical cluster the SyncTarget does not serve",
		"resource", ref.Resource.String(), "cluster", ref.Cluster, "namespace", ref.Namespace, "name", ref.Name)
	if err := r.recordEvent(ctx, ref, obj, RefusedReason, message); err != nil {
		r.ForgetRefusal(ref)
		return fmt.Errorf("recording the refusal at the hub: %w", err)
	}
	telemetry.Refused(ref.Resource.GroupResource())
	return nil
}

// describeLogicalClusters says which logical clusters the target
// serves, by its spec.logicalClusters, clusters.
func (r *Reporter) describeLogicalClusters(clusters []string) string {
	if len(clusters) > 0 {
		return fmt.Sprintf("are %v", clusters)
	}
	return fmt.Sprintf("are empty, which means %s and the logical clusters below it", r.targetCluster)
}

// firstRefusal records that the object of ref, of UID uid, is refused,
// and tells whether it was not already.
func (r *Reporter) firstRefusal(ref Ref, uid types.UID) bool {
	r.refusedMu.Lock()
	defer r.refusedMu.Unlock()
	if r.refused[ref] == uid {
		return false
	}
	r.refused[ref] = uid
	return true
}

// ForgetRefusal forgets the refusal of the object of ref, to be reported
// again.
func (r *Reporter) ForgetRefusal(ref Ref) {
	r.refusedMu.Lock()
	delete(r.refused, ref)
	r.refusedMu.Unlock()
}
