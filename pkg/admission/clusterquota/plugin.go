package clusterquota

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/admission"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/storage"
	"k8s.io/klog/v2"

	tenancyv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/tenancy/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/informer"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// Plugin charges what each create and update adds to the leases above
// it, and refuses what a lease cannot hold.
type Plugin struct {
	*admission.Handler
	quotas *genericregistry.Store
	// cached is the shared informer of the leases, which finds those that
	// exist without a read of the database.
	cached *informer.Informer
	// live are the reads of leases the informer did not hold.
	live *lookups
	// pending are the creates in flight in the stores tracked, by their
	// request's context (Track).
	pending sync.Map

	// mu guards queues, the changes to each lease's account waiting to be
	// written, by lease; a lease is there while its queue is being drained.
	mu     sync.Mutex
	queues map[logicalcluster.Name][]*queued
}

var _ admission.ValidationInterface = &Plugin{}

// New returns the plugin over the store of ClusterQuotas.
func New(quotas *genericregistry.Store, cached *informer.Informer) *Plugin {
	return &Plugin{
		Handler: admission.NewHandler(admission.Create, admission.Update),
		quotas:  quotas,
		cached:  cached,
		live:    newLookups(),
		queues:  map[logicalcluster.Name][]*queued{},
	}
}

// account says which part of a lease's status a charge adds to.
type account int

const (
	used account = iota
	leasedOut
)

// charge is an amount to add to one lease.
type charge struct {
	holder logicalcluster.Name // the logical cluster the lease is for
	amount corev1.ResourceList
}

// PendingFor is how long a charge counts before the recount must have
// seen its write stored: longer than any request may take between its
// admission and its write, so that an expired charge is one whose write
// will never be stored.
const PendingFor = 5 * time.Minute

// entry is the pending charge a records in a lease, until the recount
// sees its write stored (pkg/controller/clusterquota).
func entry(a admission.Attributes, to account) tenancyv1alpha1.ClusterQuotaCharge {
	e := tenancyv1alpha1.ClusterQuotaCharge{LeasedOut: to == leasedOut, Expires: metav1.NewTime(time.Now().Add(PendingFor))}
	if m, err := meta.Accessor(a.GetObject()); err == nil {
		// The store has set the uid and the generation the write makes
		// before validating admission runs.
		e.UID, e.Generation = m.GetUID(), m.GetGeneration()
	}
	return e
}

// Validate charges a to the nearest lease above its logical cluster that
// limits each resource it uses, or, for a ClusterQuota, charges the lease
// it is carved from with what it leases out.
func (p *Plugin) Validate(ctx context.Context, a admission.Attributes, _ admission.ObjectInterfaces) error {
	cluster, ok := logicalcluster.ClusterFrom(ctx)
	// A scale is the update of its workload's replicas, and admission is
	// handed the workload (pkg/registry's Scale): an autoscaler's scale-up
	// is charged as any other.
	if !ok || a.GetSubresource() != "" && a.GetSubresource() != "scale" {
		return nil
	}
	if a.GetResource().GroupResource() == tenancyv1alpha1.Resource("clusterquotas") {
		return p.grant(ctx, cluster, a)
	}
	if use := cost(a); len(use) > 0 {
		return p.chargeAll(ctx, a, cluster, use, used)
	}
	return nil
}

// grant charges a ClusterQuota's create, or the growth of its hard limits
// by an update, to the lease its logical cluster holds, as leased out;
// and refuses to shrink a lease below what its subtree holds already.
func (p *Plugin) grant(ctx context.Context, cluster logicalcluster.Name, a admission.Attributes) error {
	q := a.GetObject().(*tenancyv1alpha1.ClusterQuota)
	amount := corev1.ResourceList{}
	for name, hard := range q.Spec.Hard {
		amount[name] = hard.DeepCopy()
	}
	if a.GetOperation() == admission.Update {
		old := a.GetOldObject().(*tenancyv1alpha1.ClusterQuota)
		var errs field.ErrorList
		for name, held := range old.Status.Hard {
			taken := sum(old.Status.Used[name], old.Status.LeasedOut[name])
			if hard, ok := q.Spec.Hard[name]; (!ok && taken.Sign() > 0) || (ok && hard.Cmp(taken) < 0) {
				errs = append(errs, field.Invalid(field.NewPath("spec", "hard").Key(string(name)), hard.String(),
					fmt.Sprintf("the subtree of %s holds %s of its lease of %s already (used %s, leased out %s): the lease can shrink to that, no further",
						childOf(cluster, q.Name), taken.String(), held.String(), quantity(old.Status.Used, name), quantity(old.Status.LeasedOut, name))))
			}
		}
		if len(errs) > 0 {
			return apierrors.NewInvalid(tenancyv1alpha1.SchemeGroupVersion.WithKind("ClusterQuota").GroupKind(), q.Name, errs)
		}
		for name, hard := range amount {
			hard.Sub(old.Spec.Hard[name])
			amount[name] = hard
		}
	}
	for name, q := range amount {
		if q.Sign() <= 0 {
			delete(amount, name)
		}
	}
	if len(amount) == 0 {
		return nil
	}
	return p.chargeAll(ctx, a, cluster, amount, leasedOut)
}

// chargeAll charges amount, incurred in cluster, to the nearest lease
// limiting each of its resources, all or none: a lease that cannot hold
// its part refuses a, and what was charged to others before is taken back.
func (p *Plugin) chargeAll(ctx context.Context, a admission.Attributes, cluster logicalcluster.Name, amount corev1.ResourceList, to account) error {
	err := p.chargeLeases(ctx, a, cluster, amount, to, false)
	if apierrors.IsNotFound(err) {
		// A lease the cache holds was deleted since: find them afresh.
		err = p.chargeLeases(ctx, a, cluster, amount, to, true)
	}
	return err
}

// chargeLeases is chargeAll over the leases found, from the database
// only if fresh.
func (p *Plugin) chargeLeases(ctx context.Context, a admission.Attributes, cluster logicalcluster.Name, amount corev1.ResourceList, to account, fresh bool) error {
	charges, err := p.leases(ctx, cluster, amount, fresh)
	if err != nil {
		return err
	}
	e := entry(a, to)
	for i, c := range charges {
		err := p.apply(ctx, c, e, a.IsDryRun(), false)
		if err == nil {
			continue
		}
		for _, done := range charges[:i] {
			if undoErr := p.apply(ctx, done, e, a.IsDryRun(), true); undoErr != nil {
				// The lease keeps the charge until the recount drops it:
				// it counts more than is used meanwhile, never less.
				klog.FromContext(ctx).Error(undoErr, "Could not take back a lease's charge", "lease", done.holder)
			}
		}
		var refused *refusal
		if errors.As(err, &refused) {
			return admission.NewForbidden(a, refused)
		}
		return err
	}
	if a.GetOperation() == admission.Create && !a.IsDryRun() {
		p.recordCreate(ctx, charges, e)
	}
	return nil
}

// leases finds, from cluster up the tree, the nearest lease limiting each
// resource of amount. A lease the shared informer holds is taken from it:
// the charge's conditional write reads it afresh anyway, and a lease
// deleted since fails that write, which has chargeAll look again, fresh.
// Where the informer holds none, the database is asked, at most once per
// liveTTL (lookup.go): a lease given a moment ago through another hub
// replica may not have reached this one's informer yet. Resources no
// lease limits are not charged.
func (p *Plugin) leases(ctx context.Context, cluster logicalcluster.Name, amount corev1.ResourceList, fresh bool) ([]charge, error) {
	left := amount.DeepCopy()
	var charges []charge
	for c := cluster; len(left) > 0; {
		parent, ok := c.Parent()
		if !ok {
			break
		}
		q, err := p.lease(ctx, parent, c.Base(), fresh)
		if err != nil {
			return nil, err
		}
		if q != nil {
			ch := charge{holder: c, amount: corev1.ResourceList{}}
			for name, quantity := range left {
				if _, ok := q.Spec.Hard[name]; ok {
					ch.amount[name] = quantity
					delete(left, name)
				}
			}
			if len(ch.amount) > 0 {
				charges = append(charges, ch)
			}
		}
		c = parent
	}
	return charges, nil
}

// lease is ClusterQuota name of parent, or nil: from the informer when it
// holds it and not fresh, else as the database answered (lookup.go).
func (p *Plugin) lease(ctx context.Context, parent logicalcluster.Name, name string, fresh bool) (*tenancyv1alpha1.ClusterQuota, error) {
	if !fresh && p.cached != nil {
		if obj, ok := p.cached.Get(parent, "", name); ok {
			if q, ok := obj.(*tenancyv1alpha1.ClusterQuota); ok {
				return q, nil
			}
		}
	}
	return p.live.get(ctx, p, parent, name, fresh)
}

// apply adds c's amount to its lease, with e, the pending charge that
// tells the recount of it, or takes both back, in one conditional write
// of the lease: the store writes it only over the version it was
// computed from, so concurrent charges, from this hub or any other
// sharing the database, are applied one after the other, each checked
// against what the others left. A write admitted again (an update
// retried after a conflict) replaces its own pending charge rather than
// adding a second. A dry run checks and writes nothing.
func (p *Plugin) apply(ctx context.Context, c charge, e tenancyv1alpha1.ClusterQuotaCharge, dryRun, undo bool) error {
	e.Amount = c.amount
	return p.updateAt(ctx, c.holder, dryRun, func(q *tenancyv1alpha1.ClusterQuota) error {
		if i := pendingIndex(q, e); i >= 0 {
			// Admitted before: take that charge back first.
			take(q, q.Status.Pending[i])
			q.Status.Pending = slices.Delete(q.Status.Pending, i, i+1)
		}
		if undo {
			return nil
		}
		account, other := q.Status.Used, q.Status.LeasedOut
		if e.LeasedOut {
			account, other = other, account
		}
		for name, amount := range c.amount {
			hard, limited := q.Spec.Hard[name]
			if !limited {
				// The limit was lifted since the lease was read.
				continue
			}
			next := account[name].DeepCopy()
			next.Add(amount)
			if total := sum(next, other[name]); total.Cmp(hard) > 0 {
				return &refusal{holder: c.holder, q: q, name: name, amount: amount, leasedOut: e.LeasedOut}
			}
			account[name] = next
		}
		q.Status.Pending = append(q.Status.Pending, e)
		return nil
	})
}

// pendingIndex is where q holds the pending charge of e's write, or -1.
func pendingIndex(q *tenancyv1alpha1.ClusterQuota, e tenancyv1alpha1.ClusterQuotaCharge) int {
	return slices.IndexFunc(q.Status.Pending, func(p tenancyv1alpha1.ClusterQuotaCharge) bool {
		return p.UID == e.UID && p.Generation == e.Generation && p.LeasedOut == e.LeasedOut
	})
}

// take takes pending charge e back from q's account; never below
// nothing, which would hold more.
func take(q *tenancyv1alpha1.ClusterQuota, e tenancyv1alpha1.ClusterQuotaCharge) {
	account := q.Status.Used
	if e.LeasedOut {
		account = q.Status.LeasedOut
	}
	for name, amount := range e.Amount {
		next, ok := account[name]
		if !ok {
			continue
		}
		next = next.DeepCopy()
		next.Sub(amount)
		if next.Sign() < 0 {
			next = resource.Quantity{}
		}
		account[name] = next
	}
}

// updateAt changes the account of the lease of holder with change, in one
// conditional write; a dry run writes nothing. Changes to one lease made
// at once on this replica share that write (combine.go).
func (p *Plugin) updateAt(ctx context.Context, holder logicalcluster.Name, dryRun bool, change func(*tenancyv1alpha1.ClusterQuota) error) error {
	if dryRun {
		return p.write(ctx, holder, true, []func(*tenancyv1alpha1.ClusterQuota) error{change})[0]
	}
	return p.combine(ctx, holder, change)
}

// write applies changes, in order, to the account of the lease of holder
// in one conditional write, and tells each one's outcome: a change that
// fails leaves the account as the changes before it left it. Since the
// store may run the update again over a newer version, every outcome is
// computed afresh each time.
func (p *Plugin) write(ctx context.Context, holder logicalcluster.Name, dryRun bool, changes []func(*tenancyv1alpha1.ClusterQuota) error) []error {
	errs := make([]error, len(changes))
	parent, _ := holder.Parent()
	ctx = logicalcluster.WithCluster(ctx, parent)
	key, err := p.quotas.KeyFunc(ctx, holder.Base())
	if err == nil {
		out := &tenancyv1alpha1.ClusterQuota{}
		err = p.quotas.Storage.GuaranteedUpdate(ctx, key, out, false, nil, storage.SimpleUpdate(func(existing runtime.Object) (runtime.Object, error) {
			q := existing.(*tenancyv1alpha1.ClusterQuota).DeepCopy()
			if q.Status.Used == nil {
				q.Status.Used = corev1.ResourceList{}
			}
			if q.Status.LeasedOut == nil {
				q.Status.LeasedOut = corev1.ResourceList{}
			}
			for i, change := range changes {
				next := q.DeepCopy()
				if errs[i] = change(next); errs[i] == nil {
					q = next
				}
			}
			q.Status.Hard = q.Spec.Hard
			return q, nil
		}), dryRun, nil)
	}
	if err != nil {
		for i := range errs {
			errs[i] = err
		}
	}
	return errs
}

// refusal is a charge a lease cannot hold, told with what is left of it.
type refusal struct {
	holder    logicalcluster.Name
	q         *tenancyv1alpha1.ClusterQuota
	name      corev1.ResourceName
	amount    resource.Quantity
	leasedOut bool
}

func (r *refusal) Error() string {
	parent, _ := r.holder.Parent()
	hard := r.q.Spec.Hard[r.name]
	left := hard.DeepCopy()
	left.Sub(sum(r.q.Status.Used[r.name], r.q.Status.LeasedOut[r.name]))
	what := "requested"
	if r.leasedOut {
		what = "leasing out"
	}
	return fmt.Sprintf("exceeded the lease of %s (ClusterQuota %q in %s): %s %s=%s, used %s, leased out %s, hard %s: %s left",
		r.holder, r.holder.Base(), parent, what, r.name, r.amount.String(),
		quantity(r.q.Status.Used, r.name), quantity(r.q.Status.LeasedOut, r.name), hard.String(), left.String())
}

func sum(a, b resource.Quantity) resource.Quantity {
	out := a.DeepCopy()
	out.Add(b)
	return out
}

func quantity(l corev1.ResourceList, name corev1.ResourceName) string {
	q := l[name]
	return q.String()
}

func childOf(cluster logicalcluster.Name, name string) string {
	child, err := cluster.Child(name)
	if err != nil {
		return string(cluster) + ":" + name
	}
	return string(child)
}
