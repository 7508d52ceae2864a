package placement

import (
	"fmt"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// Target is a SyncTarget as placement sees it.
type Target struct {
	Cluster logicalcluster.Name
	Name    string
	// Key is workloadv1alpha1.TargetKey of Cluster and Name.
	Key           string
	Labels        map[string]string
	Taints        []corev1.Taint
	Unschedulable bool
	// Ready is whether the target's syncer reports it ready, and
	// NotReadySince, when it is not, since when.
	Ready         bool
	NotReadySince time.Time
	// Evicted is whether the hub has let go of the target as lost
	// (workloadv1alpha1.ConditionEvicted): nothing stays on it, whatever
	// a placement's grace period or failover.
	Evicted bool
	// Resources are those the target's syncer syncs; empty means
	// workloadv1alpha1.DefaultResources.
	Resources   []workloadv1alpha1.GroupResource
	Allocatable corev1.ResourceList
	// LogicalClusters are those whose objects may go to the target, as
	// its spec lists them (workloadv1alpha1.UsableFrom).
	LogicalClusters []string

	// vars are the target's CEL variables, made once by TargetFrom for
	// every evaluation of the target; nil makes them per evaluation.
	vars map[string]any
}

// TargetFrom is the Target of SyncTarget st, as stored at the hub. A
// target without a Ready condition has never been ready, since it was
// created.
func TargetFrom(st *workloadv1alpha1.SyncTarget) (Target, error) {
	cluster, err := logicalcluster.FromObject(st)
	if err != nil {
		return Target{}, fmt.Errorf("SyncTarget %s: %w", st.Name, err)
	}
	t := Target{
		Cluster:         cluster,
		Name:            st.Name,
		Key:             workloadv1alpha1.TargetKey(string(cluster), st.Name),
		Labels:          st.Labels,
		Taints:          st.Spec.Taints,
		Unschedulable:   st.Spec.Unschedulable,
		NotReadySince:   st.CreationTimestamp.Time,
		Resources:       st.Spec.Resources,
		Allocatable:     st.Status.Allocatable,
		LogicalClusters: st.Spec.LogicalClusters,
	}
	t.vars = celVars(&t)
	if c := meta.FindStatusCondition(st.Status.Conditions, workloadv1alpha1.ConditionReady); c != nil {
		t.Ready = c.Status == "True"
		t.NotReadySince = c.LastTransitionTime.Time
	}
	if workloadv1alpha1.IsEvicted(st) {
		t.Ready, t.Evicted = false, true
	}
	return t, nil
}

// lazyVars is a function returning t's CEL variables, made on the first
// call where TargetFrom did not make them.
func (t *Target) lazyVars() func() map[string]any {
	vars := t.vars
	return func() map[string]any {
		if vars == nil {
			vars = celVars(t)
		}
		return vars
	}
}

// accepts is whether t's syncer syncs resource gr.
func (t *Target) accepts(gr workloadv1alpha1.GroupResource) bool {
	resources := t.Resources
	if len(resources) == 0 {
		resources = workloadv1alpha1.DefaultResources
	}
	return slices.Contains(resources, gr)
}

// Object is an object to place.
type Object struct {
	Cluster         logicalcluster.Name
	Namespace, Name string
	Resource        workloadv1alpha1.GroupResource
	// Replicas is the object's replicas, nil for an object without.
	Replicas *int32
	// Requests are what one replica, or the whole object without
	// replicas, requests; empty when unknown, which no target lacks
	// capacity for.
	Requests corev1.ResourceList
	// Current are the keys of the targets the object is on now, with
	// their share of its replicas.
	Current map[string]int32
}

// Lineage is cluster and its ancestors, up to root: the logical clusters
// whose PlacementConstraints bind cluster's placements, whose SyncTargets
// are their candidates, and whose inherited placements may apply.
func Lineage(cluster logicalcluster.Name) []logicalcluster.Name {
	lineage := []logicalcluster.Name{cluster}
	for c, ok := cluster.Parent(); ok; c, ok = c.Parent() {
		lineage = append(lineage, c)
	}
	return lineage
}
