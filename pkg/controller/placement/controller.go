package placement

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"

	placementv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/placement/v1alpha1"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/controller/clusterwide"
	"github.com/canopy-dev/canopy/pkg/informer"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	engine "github.com/canopy-dev/canopy/pkg/placement"
	"github.com/canopy-dev/canopy/pkg/shard"
	"github.com/canopy-dev/canopy/pkg/statusreport"
)

const (
	// objectWorkers is how many objects are placed at once: a placement
	// is a few reads of the watch cache, a decision, and rarely a write.
	objectWorkers = 2
	// statusDelay holds a placement's status that long before it is
	// written, so that the objects placed meanwhile cost one write.
	statusDelay = time.Second
	// DefaultMovesPerSecond and DefaultMoveBurst rate-limit the moves of
	// objects from targets to others, across the hub: a target lost
	// must not start every one of its objects elsewhere at once.
	DefaultMovesPerSecond = 20
	DefaultMoveBurst      = 100
)

// Resource is a resource whose objects placement places.
type Resource struct {
	Store *genericregistry.Store
	// Version is the version the hub serves it at, which placement's
	// writes address.
	Version string
	// Status is its status subresource, nil if its objects have no
	// status; the syncer of each target reports it, and placement writes
	// there only the Placed condition of objects it cannot place.
	Status rest.Updater
}

// Config is what the controller reads and writes.
type Config struct {
	Placements      *genericregistry.Store
	PlacementStatus rest.Updater
	Constraints     *genericregistry.Store
	SyncTargets     *genericregistry.Store
	Namespaces      *genericregistry.Store
	// Events records the Events of objects placement cannot place, or
	// whose assignment the hub refuses.
	Events rest.Creater
	// Client writes the assignments and Placed conditions of the objects
	// placed. They are the users' objects, so the hub writes them through
	// the API, as placement's own user (pkg/loopback): the admission
	// policies of the object's logical cluster may refuse them, and the
	// audit log and managedFields name placement.
	Client Patcher
	// Resources are those whose objects are placed, by group and
	// resource.
	Resources map[workloadv1alpha1.GroupResource]Resource
	// MovesPerSecond and MoveBurst are the token bucket of moves; zero
	// means the defaults.
	MovesPerSecond float64
	MoveBurst      int
	// Informers has the shared informers of all of these.
	Informers *informer.Factory
	// Ownership says which logical clusters' objects and placements this
	// replica writes.
	Ownership shard.Ownership
	// Leases are the ClusterQuotas, whose compute a subtree's new
	// workloads are held back from exceeding (leases.go); nil places
	// without them.
	Leases *genericregistry.Store
	// Reports are the targets' StatusReports, which a rollout's health
	// gates and a move's make-before-break read; nil reads the status
	// annotations only.
	Reports *genericregistry.Store
}

// Patcher patches objects through the API, as *loopback.Client does.
type Patcher interface {
	Patch(ctx context.Context, resource schema.GroupVersionResource, namespace, name string, pt types.PatchType, data []byte,
		subresources ...string) error
}

// objectRef names one object to place.
type objectRef struct {
	resource        workloadv1alpha1.GroupResource
	cluster         logicalcluster.Name
	namespace, name string
}

// groupResource is the resource of the object of ref.
func (ref objectRef) groupResource() schema.GroupResource {
	return schema.GroupResource{Group: ref.resource.Group, Resource: ref.resource.Resource}
}

// region names the objects to place again after a change: those of a
// namespace, of a logical cluster, or of it and its descendants.
type region struct {
	cluster     logicalcluster.Name
	namespace   string
	descendants bool
}

// Controller places the objects of every logical cluster and writes the
// status of every Placement.
type Controller struct {
	cfg   Config
	world *world
	moves *rate.Limiter
	// started is set once the world is listed: from then on objects are
	// placed, and a change of the world places objects again.
	started atomic.Bool

	// The informers of the world, of the objects by resource, and of
	// their namespaces.
	placements, constraints, syncTargets, namespaces *informer.Informer
	// leases is the informer of the ClusterQuotas, nil without them.
	leases    *informer.Informer
	resources map[workloadv1alpha1.GroupResource]*informer.Informer
	// reports picks the targets' reports of the objects' status.
	reports *statusreport.Reader
	// worldListed tell when the world holds each of its informers' first
	// list.
	worldListed []cache.InformerSynced

	objects  clusterwide.Loop[objectRef]
	statuses clusterwide.Loop[placementID]
	regions  clusterwide.Loop[region]

	mu sync.Mutex
	// records are, for each object a placement selects, which one and
	// on which targets it put the object, with how many replicas, as the
	// object says (counts.go); counts sum them per placement and target.
	records map[objectRef]record
	counts  map[placementID]map[string]*count
	// unplaceable holds, for each object placed nowhere, the signature
	// of the verdict reported on it (unplaceable.go).
	unplaceable map[objectRef]string
	// overLeases are, by holder, the leases that hold back new workloads
	// and why (leases.go).
	overLeases map[logicalcluster.Name]string
	// refusals backs off, per object, the writes the hub refuses
	// (refused.go).
	refusals workqueue.TypedRateLimiter[objectRef]
}

// New returns a controller over cfg.
func New(cfg Config) *Controller {
	if cfg.MovesPerSecond == 0 {
		cfg.MovesPerSecond = DefaultMovesPerSecond
	}
	if cfg.MoveBurst == 0 {
		cfg.MoveBurst = DefaultMoveBurst
	}
	if cfg.Ownership == nil {
		cfg.Ownership = shard.All{}
	}
	f := cfg.Informers
	c := &Controller{
		cfg:         cfg,
		world:       newWorld(),
		moves:       rate.NewLimiter(rate.Limit(cfg.MovesPerSecond), cfg.MoveBurst),
		records:     map[objectRef]record{},
		counts:      map[placementID]map[string]*count{},
		unplaceable: map[objectRef]string{},
		overLeases:  map[logicalcluster.Name]string{},
		placements:  f.For(cfg.Placements),
		constraints: f.For(cfg.Constraints),
		syncTargets: f.For(cfg.SyncTargets),
		namespaces:  f.For(cfg.Namespaces),
		resources:   map[workloadv1alpha1.GroupResource]*informer.Informer{},
		refusals:    workqueue.NewTypedItemExponentialFailureRateLimiter[objectRef](refusalBackoff, maxRefusalBackoff),
	}
	c.objects = clusterwide.Loop[objectRef]{Name: "placement-objects", Workers: objectWorkers, Ownership: cfg.Ownership,
		Cluster: func(ref objectRef) logicalcluster.Name { return ref.cluster }, Process: c.place}
	c.statuses = clusterwide.Loop[placementID]{Name: "placement-status", Workers: 1, Ownership: cfg.Ownership,
		Cluster: func(id placementID) logicalcluster.Name { return id.cluster }, Process: c.writeStatus}
	// A region spans logical clusters; each object it queues is owned
	// or not.
	c.regions = clusterwide.Loop[region]{Name: "placement-regions", Workers: 1, Ownership: cfg.Ownership, Process: c.placeRegion}
	c.worldListed = []cache.InformerSynced{
		watchWorld(c.placements, c.placementChanged),
		watchWorld(c.constraints, c.constraintChanged),
		watchWorld(c.syncTargets, c.targetChanged),
	}
	if cfg.Leases != nil {
		c.leases = f.For(cfg.Leases)
		c.worldListed = append(c.worldListed, watchWorld(c.leases, c.leaseChanged))
	}
	for gr, r := range cfg.Resources {
		i := f.For(r.Store)
		c.resources[gr] = i
		c.objects.Watch(i, func(obj runtime.Object, deleted bool) []objectRef { return c.objectChanged(gr, obj, deleted) })
	}
	c.regions.Watch(c.namespaces, c.namespaceChanged)
	c.reports = statusreport.NewReader(nil)
	if cfg.Reports != nil {
		reports := f.For(cfg.Reports)
		c.reports = statusreport.NewReader(reports)
		// A report that changes may be what a wave or a move waits for.
		c.objects.Watch(reports, func(obj runtime.Object, _ bool) []objectRef {
			ref, ok := statusreport.RefOf(obj)
			if _, placed := cfg.Resources[workloadv1alpha1.GroupResource{Group: ref.Resource.Group, Resource: ref.Resource.Resource}]; !ok || !placed {
				return nil
			}
			return []objectRef{{resource: workloadv1alpha1.GroupResource{Group: ref.Resource.Group, Resource: ref.Resource.Resource},
				cluster: ref.Cluster, namespace: ref.Namespace, name: ref.Name}}
		})
	}
	// A placement's status is its own logical cluster's, whose shard
	// this replica may gain; its objects the objects loop queues.
	cfg.Ownership.OnGain(func(s int) {
		for _, obj := range c.placements.InShard(s) {
			if m, err := meta.Accessor(obj); err == nil {
				if cluster, err := logicalcluster.FromObject(m); err == nil {
					c.statuses.AddAfter(placementID{cluster, m.GetName()}, statusDelay)
				}
			}
		}
	})
	return c
}

// Run works until ctx ends. It places no object before it has listed
// every Placement, PlacementConstraint and SyncTarget: a decision from
// a partial list could move objects off targets missing from it. Then it
// places every object, as it places them after each change of the
// world.
func (c *Controller) Run(ctx context.Context) {
	if !cache.WaitForNamedCacheSyncWithContext(ctx, c.worldListed...) {
		return
	}
	c.started.Store(true)
	c.regions.Add(region{cluster: logicalcluster.Root, descendants: true})
	for _, id := range c.world.placementsWithin(logicalcluster.Root) {
		c.statuses.AddAfter(id, statusDelay)
	}
	go c.objects.Run(ctx)
	go c.statuses.Run(ctx)
	c.regions.Run(ctx)
}

// watchWorld records each change of the objects of i, of type T, in the
// world, and tells when the world holds i's first list.
func watchWorld[T runtime.Object](i *informer.Informer, changed func(cluster logicalcluster.Name, obj T, deleted bool)) cache.InformerSynced {
	reg, err := i.AddHandler(func(obj runtime.Object, cluster logicalcluster.Name, deleted bool) {
		item, ok := obj.(T)
		if !ok {
			klog.ErrorS(nil, "An informer sent something else", "resource", i.Resource(), "type", fmt.Sprintf("%T", obj))
			return
		}
		changed(cluster, item, deleted)
	})
	if err != nil {
		klog.ErrorS(err, "Watching an informer", "resource", i.Resource())
		return func() bool { return false }
	}
	return reg.HasSynced
}

func (c *Controller) placementChanged(cluster logicalcluster.Name, p *placementv1alpha1.Placement, deleted bool) {
	changed, descendants := c.world.setPlacement(cluster, p, deleted)
	if !changed {
		return
	}
	c.placeAgain(region{cluster: cluster, descendants: descendants})
	if !deleted {
		c.statuses.AddAfter(placementID{cluster, p.Name}, statusDelay)
	}
}

func (c *Controller) constraintChanged(cluster logicalcluster.Name, pc *placementv1alpha1.PlacementConstraint, deleted bool) {
	if c.world.setConstraint(cluster, pc, deleted) {
		c.lineageChanged(cluster)
	}
}

func (c *Controller) targetChanged(cluster logicalcluster.Name, st *workloadv1alpha1.SyncTarget, deleted bool) {
	t, err := engine.TargetFrom(st)
	if err != nil {
		klog.ErrorS(err, "A stored SyncTarget cannot be placed on")
		return
	}
	if c.world.setTarget(cluster, t, deleted) {
		c.lineageChanged(cluster)
	}
}

// lineageChanged places the objects of cluster and its descendants
// again, and writes the status of their placements again, after a
// change of what their lineage allows or offers.
func (c *Controller) lineageChanged(cluster logicalcluster.Name) {
	c.placeAgain(region{cluster: cluster, descendants: true})
	for _, id := range c.world.placementsWithin(cluster) {
		c.statuses.AddAfter(id, statusDelay)
	}
}

// placeAgain places the objects of r again, once objects are placed at
// all: before, they are all placed as they are first listed.
func (c *Controller) placeAgain(r region) {
	if c.started.Load() {
		c.regions.Add(r)
	}
}

// namespaceChanged is the region of the namespace obj, once objects are
// placed, if placements apply in its logical cluster.
func (c *Controller) namespaceChanged(obj runtime.Object, _ bool) []region {
	m, err := meta.Accessor(obj)
	if err != nil || !c.started.Load() {
		return nil
	}
	cluster, err := logicalcluster.FromObject(m)
	if err == nil && c.world.applies(cluster) {
		return []region{{cluster: cluster, namespace: m.GetName()}}
	}
	return nil
}

// objectChanged is the object to place that obj is, once objects are
// placed: one that a placement may place, or that one did, or one
// placement is moving. It runs on every replica, for the objects of
// every logical cluster, and records where obj was put for the counts of
// the Placements' status; only the objects of the logical clusters this
// replica owns are placed.
func (c *Controller) objectChanged(gr workloadv1alpha1.GroupResource, obj runtime.Object, deleted bool) []objectRef {
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil
	}
	cluster, err := logicalcluster.FromObject(m)
	if err != nil {
		klog.ErrorS(err, "A stored object has no logical cluster", "resource", gr, "namespace", m.GetNamespace(), "name", m.GetName())
		return nil
	}
	ref := objectRef{gr, cluster, m.GetNamespace(), m.GetName()}
	if deleted {
		c.setReported(ref, "")
	}
	if !c.started.Load() {
		return nil
	}
	// An object a placement selected is placed again when none does any
	// more, so that what placement reported on it goes.
	recorded := c.record(ref)
	if !deleted && (c.world.applies(cluster) || recorded || moving(m)) {
		return []objectRef{ref}
	}
	return nil
}

// placeRegion queues every object of r to place, as the informers hold
// them, and records again which placement selects each.
func (c *Controller) placeRegion(_ context.Context, r region) error {
	for gr, i := range c.resources {
		var objs []runtime.Object
		switch {
		case r.descendants:
			objs = i.All()
		case r.namespace == "":
			objs = i.InCluster(r.cluster)
		default:
			objs = i.InNamespace(r.cluster, r.namespace)
		}
		for _, obj := range objs {
			m, err := meta.Accessor(obj)
			if err != nil {
				continue
			}
			if cluster, err := logicalcluster.FromObject(m); err == nil && within(cluster, r.cluster) {
				for _, ref := range c.objectChanged(gr, obj, false) {
					c.objects.Add(ref)
				}
			}
		}
	}
	return nil
}
