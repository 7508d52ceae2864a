package v1alpha1

import (
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// LogicalCluster is a logical cluster nested in the logical cluster it is
// created in: LogicalCluster "team" created in root:org is root:org:team,
// served at /clusters/root:org:team. Deleting it removes the data of that
// logical cluster and of every logical cluster nested in it.
type LogicalCluster struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +optional
	Spec LogicalClusterSpec `json:"spec,omitempty"`
	// +optional
	Status LogicalClusterStatus `json:"status,omitempty"`
}

// LogicalClusterSpec is what a logical cluster is asked to be. Its name
// and place in the tree come from the object's name and where it is stored.
type LogicalClusterSpec struct {
	// Admins are who is cluster-admin of the logical cluster: the hub
	// binds them to the ClusterRole cluster-admin there, in the
	// ClusterRoleBinding canopy:admins. Whoever may create or update this
	// LogicalCluster in the parent may therefore choose them, so rights
	// over the LogicalCluster object in the parent are rights over the
	// logical cluster it makes.
	//
	// On create, the hub adds the requesting user as a User, unless it is
	// listed already, is in system:masters (who may do anything anyway),
	// or is a service account: a service account of the parent is not one
	// of the child, and its token is valid in its own logical cluster only.
	// +optional
	// +listType=atomic
	Admins []rbacv1.Subject `json:"admins,omitempty"`
}

// LogicalClusterPhase is where a logical cluster is in its life.
type LogicalClusterPhase string

const (
	// LogicalClusterInitializing is a logical cluster whose default
	// namespaces the hub has not created yet.
	LogicalClusterInitializing LogicalClusterPhase = "Initializing"
	// LogicalClusterReady is a logical cluster that is fully set up.
	LogicalClusterReady LogicalClusterPhase = "Ready"
	// LogicalClusterTerminating is a logical cluster being deleted: it is
	// no longer served, and the hub is removing its data.
	LogicalClusterTerminating LogicalClusterPhase = "Terminating"
)

// LogicalClusterFinalizer keeps a deleted LogicalCluster until the hub has
// removed the data of its logical cluster and of those nested in it.
const LogicalClusterFinalizer = "canopy.dev/logicalcluster"

// LogicalClusterStatus is what the hub reports about a logical cluster.
type LogicalClusterStatus struct {
	// Phase is Initializing, Ready or Terminating.
	// +optional
	Phase LogicalClusterPhase `json:"phase,omitempty"`
	// URL is where clients reach the logical cluster, its
	// /clusters/<path> on the hub.
	// +optional
	URL string `json:"url,omitempty"`
	// Message tells the progress of a deletion: what has been removed and
	// what is left.
	// +optional
	Message string `json:"message,omitempty"`
	// ObservedGeneration is the generation of the spec the hub has last
	// made the logical cluster match.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// LogicalClusterList is a list of LogicalClusters.
type LogicalClusterList struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []LogicalCluster `json:"items"`
}
