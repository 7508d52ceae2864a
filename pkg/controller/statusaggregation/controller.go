package statusaggregation

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/klog/v2"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/controller/clusterwide"
	"github.com/canopy-dev/canopy/pkg/informer"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/loopback"
	"github.com/canopy-dev/canopy/pkg/shard"
	"github.com/canopy-dev/canopy/pkg/statusreport"
)

const (
	// workers is how many objects of a resource are aggregated at once.
	workers = 2
	// delay gathers the reports of an object's targets that come
	// together into one write of its status. Every write of the object
	// reaches each target's syncer, and in a rollout over 50 targets,
	// where each reports several times, status aggregation wrote the
	// object more often than placement did. So the aggregated status is
	// up to a second behind the reports.
	delay = time.Second
)

// Resource is a resource whose objects may be assigned to several
// targets: its store, read, and the resource, served, whose status
// subresource the controller writes.
type Resource struct {
	Store    *genericregistry.Store
	Resource schema.GroupVersionResource
}

// Patcher patches objects through the API, as *loopback.Client does. The
// objects are the users', so the hub writes their status through the API,
// as the controller's own user (pkg/loopback): the admission policies of
// their logical cluster see the writes, and the audit log and
// managedFields name the controller.
type Patcher interface {
	Patch(ctx context.Context, resource schema.GroupVersionResource, namespace, name string, pt types.PatchType, data []byte,
		subresources ...string) error
}

// key names one object.
type key struct {
	cluster         logicalcluster.Name
	namespace, name string
}

// Controller aggregates the status of the objects of its resources that
// are assigned to more than one target.
type Controller struct {
	// targetsListed tells when targets holds the SyncTargets' first list.
	targetsListed func() bool
	targets       *targets
	loops         map[*clusterwide.Loop[key]]*informer.Informer
	// byResource are the loops by the resource of their objects.
	byResource map[schema.GroupResource]*clusterwide.Loop[key]
	reports    *statusreport.Reader
	client     Patcher
}

// New returns a controller over resources, named by resource name, that
// reads the SyncTargets, the targets' StatusReports and the objects from
// their shared informers, and writes with client the objects of the
// logical clusters owner says this replica handles.
func New(syncTargets, reports *genericregistry.Store, resources map[string]Resource, client Patcher, informers *informer.Factory, owner shard.Ownership) *Controller {
	c := &Controller{
		targetsListed: func() bool { return false }, targets: newTargets(), client: client,
		loops: map[*clusterwide.Loop[key]]*informer.Informer{}, byResource: map[schema.GroupResource]*clusterwide.Loop[key]{},
		reports: statusreport.NewReader(informers.For(reports)),
	}
	for name, r := range resources {
		i := informers.For(r.Store)
		l := &clusterwide.Loop[key]{
			Name:      "status-aggregation-" + name,
			Workers:   workers,
			Cluster:   func(k key) logicalcluster.Name { return k.cluster },
			Ownership: owner,
			Process:   func(ctx context.Context, k key) error { return c.process(ctx, r, i, k) },
			Delay:     delay,
		}
		l.Watch(i, keys)
		c.loops[l] = i
		c.byResource[r.Resource.GroupResource()] = l
	}
	// A target's new report changes the status its object aggregates.
	for _, l := range c.byResource {
		l.Watch(informers.For(reports), func(obj runtime.Object, _ bool) []key {
			ref, ok := statusreport.RefOf(obj)
			if !ok || c.byResource[ref.Resource] != l {
				return nil
			}
			return []key{{ref.Cluster, ref.Namespace, ref.Name}}
		})
	}
	reg, err := informers.For(syncTargets).AddHandler(func(obj runtime.Object, _ logicalcluster.Name, deleted bool) {
		changed := c.targets.set(obj, deleted)
		// Before the SyncTargets are listed, no object is aggregated,
		// and every one is queued as its own informer lists it.
		if c.targetsListed() {
			c.aggregateAgain(changed)
		}
	})
	if err != nil {
		klog.ErrorS(err, "Watching the SyncTargets for status aggregation")
		return c
	}
	c.targetsListed = reg.HasSynced
	return c
}

// Run works until ctx ends.
func (c *Controller) Run(ctx context.Context) {
	for l := range c.loops {
		go l.Run(ctx)
	}
	<-ctx.Done()
}

// aggregateAgain queues the objects assigned to the targets of keys,
// whose readiness changed.
func (c *Controller) aggregateAgain(targetKeys []string) {
	if len(targetKeys) == 0 {
		return
	}
	for l, i := range c.loops {
		for _, obj := range i.All() {
			m, err := meta.Accessor(obj)
			if err != nil {
				continue
			}
			for _, t := range targetKeys {
				if m.GetLabels()[workloadv1alpha1.StateLabel(t)] == workloadv1alpha1.StateSync {
					for _, lk := range keys(obj, false) {
						l.Add(lk)
					}
					break
				}
			}
		}
	}
}

// keys is the object obj is, if it is assigned to several targets.
func keys(obj runtime.Object, deleted bool) []key {
	m, err := meta.Accessor(obj)
	if err != nil || deleted || len(workloadv1alpha1.Targets(m.GetLabels())) < 2 {
		return nil
	}
	cluster, err := logicalcluster.FromObject(m)
	if err != nil {
		klog.ErrorS(err, "A stored object has no logical cluster", "namespace", m.GetNamespace(), "name", m.GetName())
		return nil
	}
	return []key{{cluster, m.GetNamespace(), m.GetName()}}
}

// process writes the aggregated status of k's object, read from the
// informer, which the event that queued k is already in, unless it has
// it.
func (c *Controller) process(ctx context.Context, r Resource, i *informer.Informer, k key) error {
	if !c.targetsListed() {
		return clusterwide.ErrWaiting
	}
	ctx = logicalcluster.WithCluster(genericapirequest.WithNamespace(ctx, k.namespace), k.cluster)
	obj, ok := i.Get(k.cluster, k.namespace, k.name)
	if !ok {
		return nil
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return err
	}
	keys := workloadv1alpha1.Targets(m.GetLabels())
	if len(keys) < 2 || m.GetDeletionTimestamp() != nil {
		return nil
	}
	reported := map[string]map[string]any{}
	for _, t := range keys {
		raw, ok := c.reports.Pick(k.cluster, r.Resource.GroupResource(), m, t)
		if !ok {
			continue
		}
		var status map[string]any
		if err := json.Unmarshal([]byte(raw), &status); err != nil {
			// Only the target's syncer writes it; a bad one waits for its
			// next report.
			klog.ErrorS(err, "A status annotation is no JSON object", "cluster", k.cluster, "namespace", k.namespace, "name", k.name, "target", t)
			continue
		}
		reported[t] = status
	}
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return err
	}
	aggregated := Aggregate(c.targets.of(keys, m.GetAnnotations()), reported)
	have := u["status"]
	u["status"] = aggregated
	typed := r.Store.New()
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u, typed); err != nil {
		return fmt.Errorf("the aggregated status of %s/%s in %s: %w", k.namespace, k.name, k.cluster, err)
	}
	// Compared as the object's type holds both, which carries fields the
	// aggregate leaves out, as a condition's lastUpdateTime, as null:
	// compared as written, the two always differed, and each pass after
	// a write wrote the same status again.
	want, err := runtime.DefaultUnstructuredConverter.ToUnstructured(typed)
	if err != nil {
		return err
	}
	if equality.Semantic.DeepEqual(want["status"], have) {
		return nil
	}
	return c.write(ctx, r, k, obj, aggregated)
}

// write sets the status of k's object, obj as read, to status, on
// condition that the object is still, in all the status is made of, obj
// (statusPatch). A write that finds the object changed since or gone is
// left to the event of the change, which queues k again
// (loopback.Stale); one the hub refuses is tried again after a backoff.
func (c *Controller) write(ctx context.Context, r Resource, k key, obj runtime.Object, status map[string]any) error {
	patch, err := statusPatch(obj, status)
	if err != nil {
		return err
	}
	err = c.client.Patch(ctx, r.Resource, k.namespace, k.name, types.JSONPatchType, patch, "status")
	if err == nil {
		return nil
	}
	if stale, serr := loopback.Stale(ctx, err, r.Store, k.name, obj, aggregatedFrom); serr != nil || stale {
		return serr
	}
	return err
}
