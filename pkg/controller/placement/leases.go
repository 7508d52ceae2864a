package placement

import (
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	leases "github.com/canopy-dev/canopy/pkg/admission/clusterquota"
	tenancyv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/tenancy/v1alpha1"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// ReasonLeaseExceeded is the reason of the Placed condition of a workload
// held back because its subtree uses more compute than its lease holds,
// and of the Placement condition LeasesHeld that says so.
const ReasonLeaseExceeded = "LeaseExceeded"

// ConditionLeasesHeld is the type of the Placement condition that is
// False while a lease above its logical cluster holds less compute than
// its subtree uses, so that new workloads there are not placed.
const ConditionLeasesHeld = "LeasesHeld"

// compute are the resources of a lease that placement keeps: what
// workloads run on the targets.
var compute = []corev1.ResourceName{
	corev1.ResourceRequestsCPU, corev1.ResourceRequestsMemory, corev1.ResourceLimitsCPU, corev1.ResourceLimitsMemory,
	tenancyv1alpha1.ResourceReplicas,
}

// overLease is why the leases above cluster hold back its new workloads:
// the first lease, from cluster up, whose subtree uses more of a compute
// resource than it holds, or "" if none does. Admission refuses a
// workload that does not fit its leases, so this holds back only what got
// past them: workloads stored before their lease was given or shrunk to
// its use, or admitted on a replica that did not hold the lease yet
// (pkg/admission/clusterquota says when). The account is the recount's
// (pkg/controller/clusterquota), read from the shared informer.
func (c *Controller) overLease(cluster logicalcluster.Name) string {
	if c.leases == nil {
		return ""
	}
	for holder := cluster; ; {
		parent, ok := holder.Parent()
		if !ok {
			return ""
		}
		if obj, ok := c.leases.Get(parent, "", holder.Base()); ok {
			if q, ok := obj.(*tenancyv1alpha1.ClusterQuota); ok {
				if why := exceeded(holder, q); why != "" {
					return why
				}
			}
		}
		holder = parent
	}
}

// exceeded is which compute resources lease q of holder's subtree holds
// less of than the subtree takes, said for the people who read it.
func exceeded(holder logicalcluster.Name, q *tenancyv1alpha1.ClusterQuota) string {
	var over []string
	for _, name := range compute {
		hard, ok := q.Spec.Hard[name]
		if !ok {
			continue
		}
		taken := q.Status.Used[name].DeepCopy()
		taken.Add(q.Status.LeasedOut[name])
		if taken.Cmp(hard) > 0 {
			over = append(over, fmt.Sprintf("%s %s of %s", name, taken.String(), hard.String()))
		}
	}
	if len(over) == 0 {
		return ""
	}
	parent, _ := holder.Parent()
	return fmt.Sprintf("the subtree of %s takes more than its lease (ClusterQuota %q in %s) holds: %s; new workloads there are not placed until it takes no more than its lease",
		holder, holder.Base(), parent, strings.Join(over, ", "))
}

// heldByLease is the verdict on the object of ref, obj, if a lease holds
// it back: a workload that runs something, placed on no target yet, in a
// subtree over its compute lease. What already runs stays where it is.
func (c *Controller) heldByLease(ref objectRef, obj runtime.Object, labels map[string]string) (verdict, bool) {
	if len(workloadv1alpha1.Targets(labels)) > 0 {
		return verdict{}, false
	}
	use := leases.Use(schema.GroupResource{Group: ref.resource.Group, Resource: ref.resource.Resource}, obj)
	if !slices.ContainsFunc(compute, func(name corev1.ResourceName) bool { q := use[name]; return q.Sign() > 0 }) {
		return verdict{}, false
	}
	why := c.overLease(ref.cluster)
	if why == "" {
		return verdict{}, false
	}
	return verdict{reason: ReasonLeaseExceeded, message: "Not placed: " + why, signature: ReasonLeaseExceeded + ":" + why}, true
}

// leaseChanged places the subtree of a lease again, and writes the
// status of its placements again, when whether it holds back new
// workloads changes: not at every charge to its account, which every
// create under it makes.
func (c *Controller) leaseChanged(cluster logicalcluster.Name, q *tenancyv1alpha1.ClusterQuota, deleted bool) {
	holder, err := cluster.Child(q.Name)
	if err != nil {
		return
	}
	why := ""
	if !deleted {
		why = exceeded(holder, q)
	}
	c.mu.Lock()
	was := c.overLeases[holder]
	if why == "" {
		delete(c.overLeases, holder)
	} else {
		c.overLeases[holder] = why
	}
	c.mu.Unlock()
	if was != why {
		c.lineageChanged(holder)
	}
}

// setLeasesCondition sets, in conditions of a placement in cluster, the
// LeasesHeld condition False while a lease above holds back new
// workloads there, and removes it otherwise: like the Placed condition of
// objects, it is there only to say why not.
func (c *Controller) setLeasesCondition(conditions *[]metav1.Condition, cluster logicalcluster.Name, generation int64) {
	why := c.overLease(cluster)
	if why == "" {
		meta.RemoveStatusCondition(conditions, ConditionLeasesHeld)
		return
	}
	meta.SetStatusCondition(conditions, metav1.Condition{Type: ConditionLeasesHeld, Status: metav1.ConditionFalse,
		Reason: ReasonLeaseExceeded, Message: why, ObservedGeneration: generation})
}
