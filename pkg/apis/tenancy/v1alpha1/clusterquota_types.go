package v1alpha1

import (
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ClusterQuota is the lease of capacity a logical cluster gives one of its
// children: ClusterQuota "team" stored in root:org bounds what
// root:org:team and every logical cluster nested in it use together. It is
// named after the child it leases to, so a logical cluster holds at most
// one lease per child, and `kubectl get clusterquotas` in root:org shows
// how org's capacity is spread over its children.
//
// What the subtree uses is charged to the nearest lease that names the
// resource: an object created in root:org:team:dev counts against the
// ClusterQuota "dev" in root:org:team if that one limits the resource,
// else against "team" in root:org, and so on up. A lease given to a child
// counts as used by the lease it is carved from, whole, from the moment it
// is given: the child's children's leases plus the child's own use can
// never exceed what the child holds.
type ClusterQuota struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +optional
	Spec ClusterQuotaSpec `json:"spec,omitempty"`
	// +optional
	Status ClusterQuotaStatus `json:"status,omitempty"`
}

// ClusterQuotaSpec is the capacity leased to the child's subtree.
type ClusterQuotaSpec struct {
	// Hard is the most the subtree may use of each resource it names:
	// requests.cpu, requests.memory, limits.cpu, limits.memory and
	// replicas, summed over the workloads' replicas times their pod
	// template, and pods; logicalclusters, namespaces and any
	// count/<resource>[.<group>], counting objects. A resource the lease
	// does not name is charged to the nearest lease above that does.
	// +optional
	Hard corev1.ResourceList `json:"hard,omitempty"`
}

// ClusterQuotaStatus is the hub's account of a lease. Only the hub writes
// it, in the same conditional write that admits what it counts.
type ClusterQuotaStatus struct {
	// Hard is the spec's hard the account was last checked against.
	// +optional
	Hard corev1.ResourceList `json:"hard,omitempty"`
	// LeasedOut is the sum of the leases the child gave its own children
	// out of this one.
	// +optional
	LeasedOut corev1.ResourceList `json:"leasedOut,omitempty"`
	// Used is what the subtree's objects use, outside the leases the
	// child gave out.
	// +optional
	Used corev1.ResourceList `json:"used,omitempty"`
	// Pending are the writes admitted and charged to this lease that the
	// hub's recount has not seen stored yet: they count in used or
	// leasedOut until it sees them, or until they expire.
	// +optional
	// +listType=atomic
	Pending []ClusterQuotaCharge `json:"pending,omitempty"`
}

// ClusterQuotaCharge is what admission charged a lease for one write:
// the create or update of the object with uid, at generation. It names
// no object: the lease's readers, in the parent, may not learn the names
// of what the child's subtree holds.
type ClusterQuotaCharge struct {
	UID types.UID `json:"uid"`
	// Generation is the object's metadata.generation the write makes: the
	// charge is seen stored once the object is at it or beyond.
	Generation int64 `json:"generation"`
	// LeasedOut is true for a lease given out, false for a use.
	// +optional
	LeasedOut bool `json:"leasedOut,omitempty"`
	// Amount is what was charged.
	Amount corev1.ResourceList `json:"amount"`
	// Expires is when a write that was never stored (a crash between the
	// charge and the write) stops counting.
	Expires metav1.Time `json:"expires"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ClusterQuotaList is a list of ClusterQuotas.
type ClusterQuotaList struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []ClusterQuota `json:"items"`
}

// Resources a lease counts besides count/<resource>[.<group>].
const (
	// ResourceLogicalClusters counts the logical clusters of a subtree,
	// the leaseholder itself excepted.
	ResourceLogicalClusters corev1.ResourceName = "logicalclusters"
	// ResourceReplicas counts the replicas the workloads ask for.
	ResourceReplicas corev1.ResourceName = "replicas"
	// ResourceNamespaces counts the namespaces of a subtree.
	ResourceNamespaces corev1.ResourceName = "namespaces"
)

// leasable are the resources a lease may name besides count/….
var leasable = []corev1.ResourceName{
	corev1.ResourceRequestsCPU, corev1.ResourceRequestsMemory,
	corev1.ResourceLimitsCPU, corev1.ResourceLimitsMemory,
	ResourceReplicas, corev1.ResourcePods,
	ResourceLogicalClusters, ResourceNamespaces,
}

// LeasableResource tells whether a ClusterQuota may limit name.
func LeasableResource(name corev1.ResourceName) bool {
	return strings.HasPrefix(string(name), "count/") && len(name) > len("count/") || slices.Contains(leasable, name)
}

// LeasableResourceNames are the resources a ClusterQuota may limit, for
// messages.
func LeasableResourceNames() []string {
	out := make([]string, 0, len(leasable)+1)
	for _, n := range leasable {
		out = append(out, string(n))
	}
	return append(out, "count/<resource>[.<group>]")
}
