package v1alpha1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// SyncTarget is a physical cluster that workloads of any logical cluster
// may be assigned to, registered in a logical cluster of the platform
// team's choosing. Its labels are the target's (region, zone, …), for
// placement to select on. The syncer running in the physical cluster
// reports its status.
type SyncTarget struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +optional
	Spec SyncTargetSpec `json:"spec,omitempty"`
	// +optional
	Status SyncTargetStatus `json:"status,omitempty"`
}

// SyncTargetSpec is what the target accepts.
type SyncTargetSpec struct {
	// Resources are the namespaced resources the target's syncer pulls
	// into the physical cluster. Empty means DefaultResources, which the
	// hub then stores. The syncer reads them when it starts.
	// +optional
	// +listType=atomic
	Resources []GroupResource `json:"resources,omitempty"`
	// Taints keep placements that do not tolerate them off the target.
	// NoSchedule keeps new objects off and leaves those placed; NoExecute
	// also moves placed objects away, after the tolerationSeconds of a
	// toleration that matches it. Other effects are refused.
	// +optional
	// +listType=atomic
	Taints []corev1.Taint `json:"taints,omitempty"`
	// Unschedulable cordons the target: placements choose it for no new
	// object, and leave those placed on it.
	// +optional
	Unschedulable bool `json:"unschedulable,omitempty"`
	// LogicalClusters are the logical clusters whose objects may be
	// assigned to the target: each path here and every logical cluster
	// below it. Each must be the target's own logical cluster or one
	// below it, so a target only ever narrows who uses it. Empty means
	// the target's own logical cluster and every one below it. Who may
	// assign by hand is decided by RBAC too: the verb use on the
	// target, in its logical cluster.
	// +optional
	// +listType=set
	LogicalClusters []string `json:"logicalClusters,omitempty"`
	// CredentialsNotBefore revokes every syncer credential of the target
	// issued before it: `hub synctarget rotate --revoke` sets it to the
	// issue time of the credential it makes, for one that was stolen.
	// +optional
	CredentialsNotBefore metav1.Time `json:"credentialsNotBefore,omitempty"`
}

// GroupResource names a resource by its group ("" for the core group)
// and plural resource name.
type GroupResource struct {
	// +optional
	Group    string `json:"group"`
	Resource string `json:"resource"`
}

// String is "resource.group", or "resource" in the core group.
func (r GroupResource) String() string {
	if r.Group == "" {
		return r.Resource
	}
	return r.Resource + "." + r.Group
}

// DefaultResources are what a SyncTarget that names none accepts.
var DefaultResources = []GroupResource{
	{Group: "apps", Resource: "deployments"},
	{Resource: "configmaps"},
	{Resource: "secrets"},
	{Resource: "services"},
}

// SyncTargetStatus is what the target's syncer last reported.
type SyncTargetStatus struct {
	// Key is the target's stable key, TargetKey of its logical cluster
	// and name, which the assignment label of hub objects carries. The
	// syncer reports it; anyone may compute it with TargetKey.
	// +optional
	Key string `json:"key,omitempty"`
	// LastHeartbeatTime is when the syncer last reported.
	// +optional
	LastHeartbeatTime metav1.Time `json:"lastHeartbeatTime,omitempty"`
	// Conditions are Ready: whether the syncer runs and reaches the
	// physical cluster; and, for each accepted resource,
	// "<resource>.<group>/Compatible": whether the physical cluster
	// serves it as the hub does, without which it is not synced there.
	// +optional
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty"`
	// Allocatable is the sum of the allocatable resources of the physical
	// cluster's nodes.
	// +optional
	Allocatable corev1.ResourceList `json:"allocatable,omitempty"`
	// CredentialNotBefore is the issue time of the newest syncer
	// credential the hub has seen the syncer report this status with.
	// The hub sets it, never lowers it, and ignores what clients write
	// here; credentials issued before it are revoked, so that once the
	// syncer uses a rotated credential the older ones stop working.
	// +optional
	CredentialNotBefore metav1.Time `json:"credentialNotBefore,omitempty"`
}

// ConditionReady is the condition type telling whether the target's
// syncer runs and reaches the physical cluster.
const ConditionReady = "Ready"

// ConditionEvicted is the condition type telling whether the hub has let
// go of the target as lost: True once its syncer has not been Ready for
// the hub's eviction timeout, or an admin evicted it (hub synctarget
// evict). The hub then releases everything the target held
// (pkg/controller/losttarget) and places nothing on it; it turns False
// when the syncer reports Ready again after that, and starts again from
// what is assigned to it then.
const ConditionEvicted = "Evicted"

// The reasons of the Evicted condition: True after the eviction timeout
// (ReasonNotReadyTooLong) or by an admin (ReasonEvictedByAdmin), False
// once the syncer is back (ReasonSyncerReturned).
const (
	ReasonNotReadyTooLong = "NotReadyTooLong"
	ReasonEvictedByAdmin  = "EvictedByAdmin"
	ReasonSyncerReturned  = "SyncerReturned"
)

// IsEvicted is whether the hub has let go of SyncTarget st as lost.
func IsEvicted(st *SyncTarget) bool {
	for _, c := range st.Status.Conditions {
		if c.Type == ConditionEvicted {
			return c.Status == metav1.ConditionTrue
		}
	}
	return false
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// SyncTargetList is a list of SyncTargets.
type SyncTargetList struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []SyncTarget `json:"items"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// StatusReport is a target's report of the status at the target of a hub
// object placed on several targets, which its syncer writes, one object
// per target and hub object, in the hub object's namespace and owned by
// it (pkg/statusreport). It takes the place of the annotation
// StatusAnnotation(key) on the hub object, which every target's syncer
// wrote on the one object they share.
type StatusReport struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec StatusReportSpec `json:"spec"`
}

// StatusReportSpec names the reported object and the reporting target,
// and holds the report.
type StatusReportSpec struct {
	// Resource is the reported object's resource, as deployments.apps.
	Resource string `json:"resource"`
	// Name is the reported object's name, in the report's namespace.
	Name string `json:"name"`
	// Target is the key of the reporting target.
	Target string `json:"target"`
	// Status is the object's status at the target, as the annotation
	// held it: its observedGeneration mapped to the hub's generation and
	// the rollout revision the target runs (ReportRevisionField).
	// +optional
	Status runtime.RawExtension `json:"status,omitempty"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// StatusReportList is a list of StatusReports.
type StatusReportList struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []StatusReport `json:"items"`
}
