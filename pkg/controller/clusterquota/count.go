package clusterquota

import (
	"errors"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	leases "github.com/canopy-dev/canopy/pkg/admission/clusterquota"
	tenancyv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/tenancy/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

var errLimitsChanged = errors.New("the lease's limits changed while it was counted")

// limits are the resources a lease limits.
type limits map[corev1.ResourceName]bool

func limitsOf(hard corev1.ResourceList) limits {
	out := limits{}
	for name := range hard {
		out[name] = true
	}
	return out
}

// count is whether objects of gr may use any of l: a lease of ConfigMaps
// has no Deployment counted.
func (l limits) count(gr schema.GroupResource) bool {
	if gr == quotasResource {
		// A lease given counts as leased out of whatever it limits.
		return true
	}
	for name := range l {
		switch name {
		case tenancyv1alpha1.ResourceLogicalClusters:
			if gr == clustersResource {
				return true
			}
		case tenancyv1alpha1.ResourceNamespaces:
			if gr == corev1.Resource("namespaces") {
				return true
			}
		default:
			if rest, ok := strings.CutPrefix(string(name), "count/"); ok {
				if schema.ParseGroupResource(rest) == gr {
					return true
				}
			} else if isWorkload(gr) {
				return true
			}
		}
	}
	return false
}

func (l limits) matches(hard corev1.ResourceList) bool {
	if len(l) != len(hard) {
		return false
	}
	for name := range hard {
		if !l[name] {
			return false
		}
	}
	return true
}

// tally is what a lease's subtree was counted to hold.
type tally struct {
	hard      limits
	used      corev1.ResourceList
	leasedOut corev1.ResourceList
	// seen is the generation of every object counted, by uid: a pending
	// charge whose write the count saw stored is in used or leasedOut
	// already.
	seen map[types.UID]int64
}

// count counts what holder's subtree holds of the resources hard
// limits, outside the leases given below it: the use of every object of
// the subtree, and the hard limits of every lease given in it, that
// admission charges to this lease (the nearest one above them limiting
// each resource). It reads the informers only.
func (c *Controller) count(holder logicalcluster.Name, hard corev1.ResourceList) tally {
	t := tally{hard: limitsOf(hard), used: corev1.ResourceList{}, leasedOut: corev1.ResourceList{}, seen: map[types.UID]int64{}}
	// mine are the resources this lease is the nearest to limit in a
	// logical cluster: all it limits in its holder, less, further down,
	// those a lease in between limits.
	var walk func(cluster logicalcluster.Name, mine limits)
	walk = func(cluster logicalcluster.Name, mine limits) {
		for gr, i := range c.counted {
			if !mine.count(gr) {
				continue
			}
			objs := i.InCluster(cluster)
			if per, ok := sameUse(gr); ok {
				c.countAlike(&t, per, objs, mine)
				continue
			}
			for _, obj := range objs {
				c.countObject(&t, gr, obj, mine)
			}
		}
		if c.clusters == nil {
			return
		}
		for _, obj := range c.clusters.InCluster(cluster) {
			m, err := meta.Accessor(obj)
			if err != nil {
				continue
			}
			child, err := cluster.Child(m.GetName())
			if err != nil {
				continue
			}
			below := mine
			if q, ok := c.lease(child); ok {
				below = limits{}
				for name := range mine {
					if _, limited := q.Spec.Hard[name]; !limited {
						below[name] = true
					}
				}
			}
			if len(below) > 0 {
				walk(child, below)
			}
		}
	}
	walk(holder, t.hard)
	return t
}

// countObject adds what obj, of resource gr, holds of mine to t.
func (c *Controller) countObject(t *tally, gr schema.GroupResource, obj runtime.Object, mine limits) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return
	}
	t.seen[m.GetUID()] = m.GetGeneration()
	account, amount := t.used, leases.Use(gr, obj)
	if q, ok := obj.(*tenancyv1alpha1.ClusterQuota); ok {
		// A lease given here counts, whole, as leased out.
		account, amount = t.leasedOut, q.Spec.Hard
	}
	for name, q := range amount {
		if mine[name] {
			add(account, name, q)
		}
	}
}

// sameUse is what every object of gr uses, if that is the same for all:
// so for all but workloads and leases, which use what their specs say.
func sameUse(gr schema.GroupResource) (corev1.ResourceList, bool) {
	if gr == quotasResource || isWorkload(gr) {
		return nil, false
	}
	return leases.Use(gr, nil), true
}

// countAlike adds what objs, each of which uses per, hold of mine to t,
// with one multiplication rather than a sum per object: a busy lease's
// subtree is counted every delay, and its objects are mostly alike.
func (c *Controller) countAlike(t *tally, per corev1.ResourceList, objs []runtime.Object, mine limits) {
	n := int64(0)
	for _, obj := range objs {
		if m, err := meta.Accessor(obj); err == nil {
			t.seen[m.GetUID()] = m.GetGeneration()
			n++
		}
	}
	if n == 0 {
		return
	}
	for name, q := range per {
		if mine[name] {
			add(t.used, name, *resource.NewQuantity(q.Value()*n, resource.DecimalSI))
		}
	}
}

func add(l corev1.ResourceList, name corev1.ResourceName, q resource.Quantity) {
	sum := l[name].DeepCopy()
	sum.Add(q)
	l[name] = sum
}

// countable is whether the recount counts resource name, rather than
// keep what admission charged to it: the count of a custom resource, whose
// objects the hub's built-in informers do not hold, is admission's.
func (c *Controller) countable(name corev1.ResourceName) bool {
	return leases.Counted(name, func(gr schema.GroupResource) bool { _, ok := c.counted[gr]; return ok })
}

// recounted is the status of lease q, as stored, once recounted: every
// resource it limits that the recount counts is what t counted plus the
// charges pending in q whose writes t did not see stored and that have
// not expired; the others keep what admission charged. Pending charges
// that count no more are dropped.
func (c *Controller) recounted(q *tenancyv1alpha1.ClusterQuota, t tally) tenancyv1alpha1.ClusterQuotaStatus {
	now := c.now()
	status := tenancyv1alpha1.ClusterQuotaStatus{Hard: q.Spec.Hard, Used: corev1.ResourceList{}, LeasedOut: corev1.ResourceList{}}
	for name := range q.Spec.Hard {
		for _, a := range []struct{ counted, held, out corev1.ResourceList }{
			{t.used, q.Status.Used, status.Used}, {t.leasedOut, q.Status.LeasedOut, status.LeasedOut},
		} {
			if c.countable(name) {
				a.out[name] = a.counted[name].DeepCopy()
			} else if held, ok := a.held[name]; ok {
				a.out[name] = held.DeepCopy()
			}
		}
	}
	for _, e := range q.Status.Pending {
		if gen, ok := t.seen[e.UID]; ok && gen >= e.Generation {
			continue
		}
		if !e.Expires.Time.After(now) {
			continue
		}
		account := status.Used
		if e.LeasedOut {
			account = status.LeasedOut
		}
		counts := false
		for name, amount := range e.Amount {
			if _, limited := q.Spec.Hard[name]; limited && c.countable(name) {
				add(account, name, amount)
				counts = true
			}
		}
		if counts {
			status.Pending = append(status.Pending, e)
		}
	}
	return status
}

// changes is whether recounting q with t changes its status.
func (c *Controller) changes(q *tenancyv1alpha1.ClusterQuota, t tally) bool {
	return !apiequality.Semantic.DeepEqual(c.recounted(q, t), q.Status)
}
