package resourcequota

import (
	"context"
	"errors"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	quota "k8s.io/apiserver/pkg/quota/v1"
	"k8s.io/apiserver/pkg/quota/v1/generic"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/canopy-dev/canopy/pkg/controller/clusterwide"
	"github.com/canopy-dev/canopy/pkg/informer"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/loopback"
	hubquota "github.com/canopy-dev/canopy/pkg/quota"
	"github.com/canopy-dev/canopy/pkg/shard"
)

const (
	// resyncPeriod is how often every quota is recounted, as kube's
	// controller does (--resource-quota-sync-period): to take back what
	// admission charged for a create that then failed, which no change
	// tells of.
	resyncPeriod = 5 * time.Minute
	// workers is how many namespaces' quotas are computed at once.
	workers = 4
	// delay gathers the changes to a namespace that come together, as a
	// Deployment's pods do, into one computation.
	delay = 200 * time.Millisecond
)

var quotasResource = corev1.SchemeGroupVersion.WithResource("resourcequotas")

// Config is what the controller watches and writes with.
type Config struct {
	// Quotas is the ResourceQuotas' store.
	Quotas *genericregistry.Store
	// Counted are the stores of the namespaced resources whose objects
	// quota counts: count/<resource>[.<group>] of each, and what the
	// evaluators of pods and services add.
	Counted   []*genericregistry.Store
	Informers *informer.Factory
	// Ownership says which logical clusters' quotas this replica keeps.
	Ownership shard.Ownership
	// Client writes the quotas' status as the controller's own user.
	Client *loopback.Client
}

// key names one namespace of one logical cluster.
type key struct {
	cluster   logicalcluster.Name
	namespace string
}

// counted is a resource quota counts, and the informer of its objects.
type counted struct {
	resource schema.GroupResource
	informer *informer.Informer
}

// Controller keeps the status of every ResourceQuota: what its namespace
// uses of what it limits.
type Controller struct {
	quotas  *informer.Informer
	counted []counted
	client  *loopback.Client
	loop    clusterwide.Loop[key]
}

// New returns the controller of c.
func New(c Config) *Controller {
	ctl := &Controller{quotas: c.Informers.For(c.Quotas), client: c.Client}
	ctl.loop = clusterwide.Loop[key]{
		Name:      "resourcequota",
		Workers:   workers,
		Delay:     delay,
		Cluster:   func(k key) logicalcluster.Name { return k.cluster },
		Ownership: c.Ownership,
		Process:   ctl.process,
	}
	ctl.loop.Watch(ctl.quotas, stale)
	for _, s := range c.Counted {
		gr := s.DefaultQualifiedResource
		// Pods, services and workloads are counted by what they hold;
		// every other resource by its objects alone, which their
		// metadata tells, and which an update does not change unless it
		// makes the object an upsynced copy or its own again. Kube's
		// controller too ignores the updates of such resources; here
		// they include every charge admission writes to a quota's
		// status, ResourceQuotas being counted themselves, and a
		// recount on each would cost a list of the namespace per create
		// admitted (bench/quota) and undercount the creates admitted
		// and not yet stored.
		var i *informer.Informer
		update := ctl.recounted
		if gr == hubquota.Pods || gr == hubquota.Services || hubquota.Workloads[gr] {
			i = c.Informers.For(s)
			update = func(old, cur any) { ctl.recharged(gr, old, cur) }
		} else {
			i = c.Informers.Metadata(s)
		}
		ctl.counted = append(ctl.counted, counted{gr, i})
		if _, err := i.AddEventHandler(cache.ResourceEventHandlerFuncs{
			UpdateFunc: update,
			DeleteFunc: ctl.changed,
		}); err != nil {
			klog.ErrorS(err, "Watching an informer", "controller", "resourcequota", "resource", gr)
		}
	}
	if c.Ownership != nil {
		c.Ownership.OnGain(func(s int) { ctl.recount(ctl.quotas.InShard(s)) })
	}
	return ctl
}

// Run works until ctx ends, once the informers have listed, and recounts
// every quota now and every resyncPeriod.
func (c *Controller) Run(ctx context.Context) {
	synced := []cache.InformerSynced{c.quotas.HasSynced}
	for _, r := range c.counted {
		synced = append(synced, r.informer.HasSynced)
	}
	if !cache.WaitForCacheSync(ctx.Done(), synced...) {
		return
	}
	go wait.Until(func() { c.recount(c.quotas.All()) }, resyncPeriod, ctx.Done())
	c.loop.Run(ctx)
}

// recount queues the namespaces of quotas.
func (c *Controller) recount(quotas []runtime.Object) {
	for _, q := range quotas {
		for _, k := range namespaceOf(q, false) {
			c.loop.Add(k)
		}
	}
}

// stale is the key of quota obj's namespace if its status does not say
// its spec's hard limits yet: it is new or its limits changed. A change
// of its usage alone, admission's charge or this controller's own write,
// calls for no recount.
func stale(obj runtime.Object, deleted bool) []key {
	q, ok := obj.(*corev1.ResourceQuota)
	if !ok || deleted || (q.Status.Used != nil && quota.Equals(q.Spec.Hard, q.Status.Hard)) {
		return nil
	}
	return namespaceOf(obj, deleted)
}

// changed queues the namespace of obj, changed or deleted, if a quota
// there may count it.
func (c *Controller) changed(o any) {
	obj, _, ok := informer.Object(o)
	if !ok {
		return
	}
	for _, k := range c.quotaed(obj, false) {
		c.loop.AddAfter(k, delay)
	}
}

// recounted queues the namespace of an object counted by its objects
// alone when an update changes whether it counts.
func (c *Controller) recounted(old, cur any) {
	o, _, okOld := informer.Object(old)
	n, _, okCur := informer.Object(cur)
	if okOld && okCur && hubquota.Upsynced(o) != hubquota.Upsynced(n) {
		c.changed(cur)
	}
}

// recharged queues the namespace of an object of gr counted by what it
// holds (a pod, service or workload) when an update may change what a
// quota there counts. Most updates of these change only their status:
// the syncers' reports, status aggregation, a pod's conditions. Those
// cost a look at the namespace's quotas, not a recount of the namespace.
// Kube's controller narrows its own recounts the same way, to a pod that
// stops counting and a service whose type changes.
func (c *Controller) recharged(gr schema.GroupResource, old, cur any) {
	o, _, okOld := informer.Object(old)
	n, _, okCur := informer.Object(cur)
	if !okOld || !okCur {
		return
	}
	keys := c.quotaed(n, false)
	if len(keys) == 0 {
		return
	}
	quotas := c.quotas.InNamespace(keys[0].cluster, keys[0].namespace)
	if evaluator := c.registry(keys[0].cluster).Get(gr); evaluator == nil || countChanged(evaluator, quotas, o, n) {
		c.loop.AddAfter(keys[0], delay)
	}
}

// countChanged tells whether, to any of quotas, evaluator counts object
// cur differently from old: it became an upsynced copy or its own
// again, a quota's scopes match one and not the other, its usage differs
// (a workload scaled, a pod ended), or its deletion grace period changed,
// whose end recountAfterGrace waits for. An error counts as a change,
// since a recount is always safe.
func countChanged(evaluator quota.Evaluator, quotas []runtime.Object, old, cur runtime.Object) bool {
	if hubquota.Upsynced(old) != hubquota.Upsynced(cur) {
		return true
	}
	if oldPod, ok := old.(*corev1.Pod); ok {
		curPod, ok := cur.(*corev1.Pod)
		if !ok {
			return true
		}
		oldEnd, oldEnds := hubquota.GraceEnds(oldPod)
		curEnd, curEnds := hubquota.GraceEnds(curPod)
		if oldEnds != curEnds || !oldEnd.Equal(curEnd) {
			return true
		}
	}
	for _, obj := range quotas {
		q, ok := obj.(*corev1.ResourceQuota)
		if !ok {
			continue
		}
		oldMatch, errOld := evaluator.Matches(q, old)
		curMatch, errCur := evaluator.Matches(q, cur)
		if errOld != nil || errCur != nil || oldMatch != curMatch {
			return true
		}
	}
	oldUsage, errOld := evaluator.Usage(old)
	curUsage, errCur := evaluator.Usage(cur)
	return errOld != nil || errCur != nil || !quota.Equals(oldUsage, curUsage)
}

// namespaceOf is the key of obj's namespace.
func namespaceOf(obj runtime.Object, _ bool) []key {
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil
	}
	cluster, err := logicalcluster.FromObject(m)
	if err != nil {
		klog.ErrorS(err, "A stored object has no logical cluster", "namespace", m.GetNamespace(), "name", m.GetName())
		return nil
	}
	return []key{{cluster, m.GetNamespace()}}
}

// quotaed is the key of obj's namespace if a quota there may count obj:
// a namespace without quotas costs a change one index lookup.
func (c *Controller) quotaed(obj runtime.Object, deleted bool) []key {
	keys := namespaceOf(obj, deleted)
	if len(keys) == 0 || len(c.quotas.InNamespace(keys[0].cluster, keys[0].namespace)) == 0 {
		return nil
	}
	return keys
}

// registry is quota's evaluators of the resources counted, over the
// objects of cluster that are its own: not the upsynced copies of what
// its workloads run downstream, which count as those workloads.
func (c *Controller) registry(cluster logicalcluster.Name) quota.Registry {
	informers := make(map[schema.GroupResource]*informer.Informer, len(c.counted))
	resources := make([]schema.GroupResource, 0, len(c.counted))
	for _, r := range c.counted {
		informers[r.resource] = r.informer
		resources = append(resources, r.resource)
	}
	return hubquota.NewRegistry(resources, func(gr schema.GroupResource) generic.ListFuncByNamespace {
		i := informers[gr]
		return func(ns string) ([]runtime.Object, error) { return own(i.InNamespace(cluster, ns)), nil }
	})
}

// own is objs without the upsynced ones.
func own(objs []runtime.Object) []runtime.Object {
	out := objs[:0:0]
	for _, obj := range objs {
		if !hubquota.Upsynced(obj) {
			out = append(out, obj)
		}
	}
	return out
}

// process brings the status of every quota of namespace k up to date,
// from the informers, which the event that queued k is already in.
func (c *Controller) process(ctx context.Context, k key) error {
	quotas := c.quotas.InNamespace(k.cluster, k.namespace)
	if len(quotas) == 0 {
		return nil
	}
	ctx = logicalcluster.WithCluster(ctx, k.cluster)
	registry := c.registry(k.cluster)
	var errs []error
	for _, obj := range quotas {
		q, ok := obj.(*corev1.ResourceQuota)
		if !ok {
			continue
		}
		status, dirty, err := syncStatus(q, registry)
		if err != nil {
			errs = append(errs, err)
		}
		if !dirty {
			continue
		}
		updated := q.DeepCopy()
		updated.TypeMeta = metav1.TypeMeta{APIVersion: corev1.SchemeGroupVersion.String(), Kind: "ResourceQuota"}
		updated.Status = status
		// A conflict is a write since the quota was read: admission's
		// charge, which is newer than a recount racing it, or a change
		// of its limits, which queues it again. Either way this recount
		// is stale, and is not retried.
		if err := c.client.Update(ctx, quotasResource, k.namespace, updated, "status"); err != nil && !apierrors.IsNotFound(err) && !apierrors.IsConflict(err) {
			errs = append(errs, fmt.Errorf("updating the status of ResourceQuota %s/%s in logical cluster %s: %w", k.namespace, q.Name, k.cluster, err))
		}
	}
	c.recountAfterGrace(k)
	return errors.Join(errs...)
}

// syncStatus is what kube's resourcequota controller computes of quota q
// (syncResourceQuota, k8s.io/kubernetes@v1.37.1
// pkg/controller/resourcequota/resource_quota_controller.go): hard is
// the spec's, used is what registry counts of what hard limits, keeping
// the usage last seen of what it cannot count; and whether that differs
// from q's status.
func syncStatus(q *corev1.ResourceQuota, registry quota.Registry) (corev1.ResourceQuotaStatus, bool, error) {
	dirty := !apiequality.Semantic.DeepEqual(q.Spec.Hard, q.Status.Hard) || q.Status.Hard == nil || q.Status.Used == nil
	used := corev1.ResourceList{}
	if q.Status.Used != nil {
		used = quota.Add(corev1.ResourceList{}, q.Status.Used)
	}
	hard := quota.Add(corev1.ResourceList{}, q.Spec.Hard)
	// An error leaves the usage it could count to be written all the same.
	newUsage, err := quota.CalculateUsage(q.Namespace, q.Spec.Scopes, hard, registry, q.Spec.ScopeSelector)
	for name, value := range newUsage {
		used[name] = value
	}
	used = quota.Mask(used, quota.ResourceNames(hard))
	status := corev1.ResourceQuotaStatus{Hard: hard, Used: used}
	return status, dirty || !quota.Equals(status.Used, q.Status.Used), err
}

// recountAfterGrace queues namespace k again when the deletion grace
// period of one of its pods ends, when the pod's compute resources stop
// counting without any change to tell of it. Kube's controller finds
// that in its periodic full resync; the hub keeps no timer but for such
// a pod.
func (c *Controller) recountAfterGrace(k key) {
	now := time.Now()
	var next time.Duration
	for _, r := range c.counted {
		if r.resource != hubquota.Pods {
			continue
		}
		for _, obj := range r.informer.InNamespace(k.cluster, k.namespace) {
			pod, ok := obj.(*corev1.Pod)
			if !ok || !hubquota.CountsCompute(pod, now) {
				continue
			}
			if end, ok := hubquota.GraceEnds(pod); ok {
				if wait := end.Sub(now) + time.Second; next == 0 || wait < next {
					next = wait
				}
			}
		}
	}
	if next > 0 {
		c.loop.AddAfter(k, next)
	}
}
