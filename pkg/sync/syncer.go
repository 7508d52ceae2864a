package sync

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	gosync "sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/sync/namespace"
	"github.com/canopy-dev/canopy/pkg/sync/spec"
)

// FieldManager is the field manager of the syncer's server-side applies
// downstream.
const FieldManager = "canopy-syncer"

// Config is what a syncer needs.
type Config struct {
	// Hub reaches the hub; whichever logical cluster its host names, the
	// syncer addresses the hub's /clusters/ paths itself.
	Hub *rest.Config
	// Cluster reaches the physical cluster.
	Cluster *rest.Config
	// Target is the SyncTarget, as "<logical cluster path>:<name>".
	Target string
	// NamespaceGracePeriod is how long a downstream namespace the syncer
	// made stays once nothing it synced is left in it.
	NamespaceGracePeriod time.Duration
	// HubResync is how often the hub informers replay every assigned
	// object; zero means DefaultHubResync.
	HubResync time.Duration
	// TracerProvider gets the spans of the syncs and of their requests to
	// either side; nil records none.
	TracerProvider trace.TracerProvider
}

// Syncer syncs the objects assigned to one SyncTarget.
type Syncer struct {
	targetCluster logicalcluster.Name
	targetName    string
	key           string

	hubBase string
	hubHTTP *http.Client
	hubRest *rest.Config

	down     dynamic.Interface
	downKube kubernetes.Interface

	resources []*resource
	// compatibility holds a condition per resource the target accepts,
	// telling whether the physical cluster takes it; only those it takes
	// are among resources.
	compatibility []metav1.Condition
	// accepted indexes resources by resource.
	accepted map[schema.GroupVersionResource]int
	// dependencyListers hold the downstream objects of
	// dependencyResources, by the same index.
	dependencyListers []cache.GenericLister
	namespaces        corelisters.NamespaceLister
	factories         []interface{ Start(<-chan struct{}) }
	synced            []namedSync
	// ready is what the heartbeat reports in the Ready condition.
	ready *readiness

	// downQueue makes hub objects so downstream; upQueue writes downstream
	// status to the hub. Both hold objectKeys.
	downQueue, upQueue workqueue.TypedRateLimitingInterface[objectKey]
	// depQueue makes the dependencies of synced workloads so downstream.
	depQueue workqueue.TypedRateLimitingInterface[dependencyKey]
	// hubPods holds the pods the syncer upsynced, downPods the pods of
	// its workloads downstream, and podQueue copies the latter to the
	// former; its origins are those of the hub pods.
	hubPods  cache.SharedIndexInformer
	downPods cache.GenericLister
	podQueue workqueue.TypedRateLimitingInterface[origin]
	// hubEvents, downEvents and eventQueue are the same for the Events of
	// pods and synced objects.
	hubEvents  cache.SharedIndexInformer
	downEvents cache.GenericLister
	eventQueue workqueue.TypedRateLimitingInterface[origin]
	// hubNodes holds the nodes the syncer copied up, downNodes the
	// physical cluster's, and nodeQueue copies the latter to the former
	// in each logical cluster whose pods run on them (nodes.go).
	hubNodes  cache.SharedIndexInformer
	downNodes corelisters.NodeLister
	nodeQueue workqueue.TypedRateLimitingInterface[origin]

	// conflicts holds what was recorded at the hub of each hub object's
	// conflict downstream, so that a resync records it only once.
	conflictsMu gosync.Mutex
	conflicts   map[conflictKey]conflictRecord
	// logicalClusters is the target's spec.logicalClusters as last read,
	// at start and with each heartbeat; refused holds the UID of each
	// hub object refused for it whose refusal was reported (refuse.go).
	logicalClusters atomic.Pointer[[]string]
	refusedMu       gosync.Mutex
	refused         map[conflictKey]types.UID
	// rejections holds the hub objects that the physical cluster refused,
	// which are not sent again until they change (failed.go).
	rejectionsMu gosync.Mutex
	rejections   map[conflictKey]rejection

	// nsQueue holds the downstream namespaces, which emptyNamespaces
	// deletes once left empty.
	nsQueue              workqueue.TypedRateLimitingInterface[namespace.Key]
	emptyNamespaces      *namespace.Controller
	namespaceGracePeriod time.Duration

	// downObserved and upObserved hold when the changes waiting in
	// downQueue and upQueue were observed, for their sync latency.
	downObserved, upObserved observedTimes
	tracer                   trace.Tracer
	hubResync                time.Duration
}

// resource is one synced resource with its informers on both sides.
type resource struct {
	gvr schema.GroupVersionResource
	gvk schema.GroupVersionKind
	// hub holds the assigned hub objects of every logical cluster, keyed
	// by hubKey.
	hub cache.SharedIndexInformer
	// down holds the target's objects in the physical cluster.
	down cache.GenericLister
}

// origin is where a synced object lives at the hub.
type origin struct {
	cluster, namespace, name string
}

func (o origin) String() string { return o.cluster + "/" + o.namespace + "/" + o.name }

// originOf is where downstream object obj comes from, if the syncer made
// it.
func originOf(obj *unstructured.Unstructured) (origin, bool) {
	cluster, namespace, name, ok := spec.Origin(obj)
	return origin{cluster, namespace, name}, ok
}

// objectKey is a hub object of resources[resource] in a work queue.
type objectKey struct {
	resource int
	origin
}

func (k objectKey) String() string {
	return fmt.Sprintf("resource %d %s/%s/%s", k.resource, k.cluster, k.namespace, k.name)
}

// DefaultHubResync is how often the hub informers replay every assigned
// object, which re-reads the dependencies of each workload: the bound on
// how stale a dependency that is not assigned itself may be downstream,
// since the hub is not watched for those. The replay writes nothing
// where nothing changed, and sends nothing for an object the physical
// cluster refused as it is.
const DefaultHubResync = 5 * time.Minute

// ParseTarget splits "<logical cluster path>:<name>" at its last colon.
func ParseTarget(s string) (logicalcluster.Name, string, error) {
	i := strings.LastIndex(s, ":")
	if i < 0 {
		return "", "", fmt.Errorf("sync target %q is not <logical cluster path>:<name>, as root:platform:pc1", s)
	}
	cluster, err := logicalcluster.Parse(s[:i])
	if err != nil {
		return "", "", fmt.Errorf("sync target %q: %w", s, err)
	}
	if s[i+1:] == "" {
		return "", "", fmt.Errorf("sync target %q names no SyncTarget after the logical cluster", s)
	}
	return cluster, s[i+1:], nil
}

// New connects to both sides and reads the SyncTarget for the resources
// it accepts, which stay as read until the syncer restarts, and the
// logical clusters it serves, which the heartbeat reads again.
func New(ctx context.Context, c Config) (*Syncer, error) {
	cluster, name, err := ParseTarget(c.Target)
	if err != nil {
		return nil, err
	}
	register()
	if c.HubResync == 0 {
		c.HubResync = DefaultHubResync
	}
	tracer := trace.Tracer(noop.Tracer{})
	if c.TracerProvider != nil {
		tracer = c.TracerProvider.Tracer(tracerName)
		c.Hub, c.Cluster = traceRequests(c.Hub, c.TracerProvider), traceRequests(c.Cluster, c.TracerProvider)
	}
	s := &Syncer{
		targetCluster:        cluster,
		targetName:           name,
		key:                  workloadv1alpha1.TargetKey(string(cluster), name),
		hubRest:              rest.CopyConfig(c.Hub),
		downQueue:            workqueue.NewTypedRateLimitingQueueWithConfig(rateLimiter[objectKey](), workqueue.TypedRateLimitingQueueConfig[objectKey]{Name: queueDown}),
		upQueue:              workqueue.NewTypedRateLimitingQueueWithConfig(rateLimiter[objectKey](), workqueue.TypedRateLimitingQueueConfig[objectKey]{Name: queueUp}),
		depQueue:             workqueue.NewTypedRateLimitingQueueWithConfig(rateLimiter[dependencyKey](), workqueue.TypedRateLimitingQueueConfig[dependencyKey]{Name: queueDependencies}),
		podQueue:             workqueue.NewTypedRateLimitingQueueWithConfig(rateLimiter[origin](), workqueue.TypedRateLimitingQueueConfig[origin]{Name: queuePods}),
		eventQueue:           workqueue.NewTypedRateLimitingQueueWithConfig(rateLimiter[origin](), workqueue.TypedRateLimitingQueueConfig[origin]{Name: queueEvents}),
		nodeQueue:            workqueue.NewTypedRateLimitingQueueWithConfig(rateLimiter[origin](), workqueue.TypedRateLimitingQueueConfig[origin]{Name: queueNodes}),
		accepted:             map[schema.GroupVersionResource]int{},
		conflicts:            map[conflictKey]conflictRecord{},
		refused:              map[conflictKey]types.UID{},
		rejections:           map[conflictKey]rejection{},
		hubResync:            c.HubResync,
		nsQueue:              workqueue.NewTypedRateLimitingQueueWithConfig(rateLimiter[namespace.Key](), workqueue.TypedRateLimitingQueueConfig[namespace.Key]{Name: queueNamespaces}),
		namespaceGracePeriod: c.NamespaceGracePeriod,
		tracer:               tracer,
		ready:                newReadiness(),
	}
	// Once the hub answers again after it did not, the keys whose writes
	// failed meanwhile are synced at once rather than after their
	// backoff.
	s.ready.reconnected = s.queueAll
	s.hubBase, _, _ = strings.Cut(strings.TrimSuffix(c.Hub.Host, "/"), logicalcluster.PathPrefix)
	if s.hubHTTP, err = rest.HTTPClientFor(c.Hub); err != nil {
		return nil, err
	}
	downConfig := clusterConfig(c.Cluster)
	if s.down, err = dynamic.NewForConfig(downConfig); err != nil {
		return nil, err
	}
	if s.downKube, err = kubernetes.NewForConfig(downConfig); err != nil {
		return nil, err
	}
	target, err := s.syncTarget(ctx)
	if err != nil {
		return nil, err
	}
	s.logicalClusters.Store(&target.Spec.LogicalClusters)
	if err := s.setUpResources(target.Spec.Resources); err != nil {
		return nil, err
	}
	return s, nil
}

// The syncer's rate limit on the physical cluster, where its configuration
// sets none. client-go's default, 5 requests a second, held a syncer to
// about two new objects a second, each costing a read and an apply: a
// burst of Deployments waited seconds in the queue (bench/syncer.sh).
// The physical cluster's API server protects itself with its priority
// and fairness.
const (
	ClusterQPS   = 50
	ClusterBurst = 100
)

// clusterConfig is a copy of c with the syncer's rate limit, unless c
// has one.
func clusterConfig(c *rest.Config) *rest.Config {
	cfg := rest.CopyConfig(c)
	if cfg.QPS == 0 && cfg.RateLimiter == nil {
		cfg.QPS, cfg.Burst = ClusterQPS, ClusterBurst
	}
	return cfg
}

// hubConfig is the hub's client configuration at path, as
// "/clusters/root:a" or "/clusters/*".
func (s *Syncer) hubConfig(path string) *rest.Config {
	cfg := rest.CopyConfig(s.hubRest)
	cfg.Host = s.hubBase + logicalcluster.PathPrefix + path
	return cfg
}

// hubIn is a client of logical cluster cluster, sharing the connections
// of all others: making one costs no request and keeps no state.
func (s *Syncer) hubIn(cluster string) (dynamic.Interface, error) {
	return dynamic.NewForConfigAndClient(s.hubConfig(cluster), s.hubHTTP)
}

// setUpResources makes the informers of the resources the target accepts,
// resolved once through the discovery of the target's logical cluster,
// that the physical cluster serves too.
func (s *Syncer) setUpResources(accepted []workloadv1alpha1.GroupResource) error {
	disco, err := discovery.NewDiscoveryClientForConfigAndClient(s.hubConfig(string(s.targetCluster)), s.hubHTTP)
	if err != nil {
		return err
	}
	groups, err := restmapper.GetAPIGroupResources(disco)
	if err != nil {
		return fmt.Errorf("reading the hub's API resources: %w", err)
	}
	mapper := restmapper.NewDiscoveryRESTMapper(groups)
	wildcard, err := dynamic.NewForConfigAndClient(s.hubConfig(logicalcluster.Wildcard), s.hubHTTP)
	if err != nil {
		return err
	}
	assigned := labels.Set{workloadv1alpha1.StateLabel(s.key): workloadv1alpha1.StateSync}.String()
	ours := func(o *metav1.ListOptions) {
		o.LabelSelector = labels.Set{workloadv1alpha1.TargetKeyLabel: s.key}.String()
	}
	downFactory := dynamicinformer.NewFilteredDynamicSharedInformerFactory(s.down, 0, metav1.NamespaceAll, ours)
	kubeFactory := informers.NewSharedInformerFactoryWithOptions(s.downKube, 0, informers.WithTweakListOptions(ours), informers.WithTransform(stripManagedFields))
	nsInformer := kubeFactory.Core().V1().Namespaces()
	s.namespaces = nsInformer.Lister()
	s.emptyNamespaces = namespace.New(s.downKube, s.namespaces, s.occupied, s.nsQueue.AddAfter,
		func(err error) { countWrite(namespacesResource, "delete", err) }, s.namespaceGracePeriod)
	if _, err := nsInformer.Informer().AddEventHandler(namespace.Handler(s.nsQueue.Add)); err != nil {
		return err
	}
	s.synced = append(s.synced, namedSync{"namespaces in the physical cluster", nsInformer.Informer().HasSynced})
	s.factories = append(s.factories, downFactory, kubeFactory)

	downGroups, err := restmapper.GetAPIGroupResources(s.downKube.Discovery())
	if err != nil {
		return fmt.Errorf("reading the physical cluster's API resources: %w", err)
	}
	usable, conditions, err := compatibility(mapper, restmapper.NewDiscoveryRESTMapper(downGroups), accepted)
	if err != nil {
		return fmt.Errorf("SyncTarget %s:%s: %w", s.targetCluster, s.targetName, err)
	}
	s.compatibility = conditions
	for _, mapping := range usable {
		gvr, gvk := mapping.Resource, mapping.GroupVersionKind
		r := &resource{gvr: gvr, gvk: gvk}
		if r.hub, err = s.hubInformer(wildcard, gvr, assigned, cache.Indexers{byDependency: indexDependencies}); err != nil {
			return err
		}
		down, err := downInformer(downFactory, gvr)
		if err != nil {
			return err
		}
		r.down = down.Lister()
		i := len(s.resources)
		if _, err := r.hub.AddEventHandler(s.hubHandler(i)); err != nil {
			return err
		}
		if _, err := down.Informer().AddEventHandler(s.downHandler(i)); err != nil {
			return err
		}
		s.synced = append(s.synced, namedSync{hubName(gvr), r.hub.HasSynced}, namedSync{downName(gvr), down.Informer().HasSynced})
		s.accepted[gvr] = i
		s.resources = append(s.resources, r)
	}
	if err := s.setUpPods(wildcard, downFactory); err != nil {
		return err
	}
	if err := s.setUpNodes(wildcard); err != nil {
		return err
	}
	if err := s.setUpEvents(wildcard); err != nil {
		return err
	}
	for i, gvr := range dependencyResources {
		// The factory shares one informer per resource, with the synced
		// resources' if configmaps, say, are among them.
		informer, err := downInformer(downFactory, gvr)
		if err != nil {
			return err
		}
		s.dependencyListers = append(s.dependencyListers, informer.Lister())
		if _, err := informer.Informer().AddEventHandler(s.dependencyHandler(i)); err != nil {
			return err
		}
		s.synced = append(s.synced, namedSync{downName(gvr), informer.Informer().HasSynced})
	}
	return nil
}

// hubName and downName name the informers of gvr at the hub and in the
// physical cluster, for the Ready condition.
func hubName(gvr schema.GroupVersionResource) string {
	return "the hub's " + gvr.GroupResource().String()
}

func downName(gvr schema.GroupVersionResource) string {
	return gvr.GroupResource().String() + " in the physical cluster"
}

// hubInformer is an informer of the objects of gvr matching selector in
// every logical cluster, as hubObjects. Its lists and watches tell the
// syncer's readiness whether the hub answers, and retry without backoff
// while it does not (readiness.go).
func (s *Syncer) hubInformer(wildcard dynamic.Interface, gvr schema.GroupVersionResource, selector string, indexers cache.Indexers) (cache.SharedIndexInformer, error) {
	name := hubName(gvr)
	informer := cache.NewSharedIndexInformerWithOptions(hubListWatch(s.ready, name, resumable(name, &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
			o.LabelSelector = selector
			return wildcard.Resource(gvr).List(ctx, o)
		},
		WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			o.LabelSelector = selector
			return wildcard.Resource(gvr).Watch(ctx, o)
		},
	})), &unstructured.Unstructured{}, cache.SharedIndexInformerOptions{
		ObjectDescription: gvr.String() + " at the hub",
		ResyncPeriod:      s.hubResync,
		Indexers:          indexers,
	})
	// A watch that breaks with an error, as one too old to resume after
	// the hub restarted, lists again; until it has, the hub's changes do
	// not reach the syncer.
	if err := informer.SetWatchErrorHandlerWithContext(func(ctx context.Context, r *cache.Reflector, err error) {
		s.ready.failed(name, err)
		cache.DefaultWatchErrorHandler(ctx, r, err)
	}); err != nil {
		return nil, err
	}
	return informer, informer.SetTransform(qualify)
}

// Run syncs until ctx ends, with workers per direction.
func (s *Syncer) Run(ctx context.Context, workers int) error {
	defer s.downQueue.ShutDown()
	defer s.upQueue.ShutDown()
	defer s.depQueue.ShutDown()
	defer s.podQueue.ShutDown()
	defer s.eventQueue.ShutDown()
	defer s.nodeQueue.ShutDown()
	defer s.nsQueue.ShutDown()
	for _, r := range s.resources {
		go r.hub.RunWithContext(ctx)
	}
	go s.hubPods.RunWithContext(ctx)
	go s.hubEvents.RunWithContext(ctx)
	go s.hubNodes.RunWithContext(ctx)
	for _, f := range s.factories {
		f.Start(ctx.Done())
	}
	klog.InfoS("Syncer starting", "target", string(s.targetCluster)+":"+s.targetName, "key", s.key, "resources", len(s.resources))
	// The heartbeat says Starting until the work starts.
	go s.heartbeat().Run(ctx)
	// The handlers queue every object both informers list, and the work
	// starts only once all have listed in full: that is the sweep after a
	// restart, which finds a downstream object whose hub object went while
	// the syncer was away and acts on it only after a read at the hub.
	synced := make([]cache.InformerSynced, len(s.synced))
	for i, n := range s.synced {
		synced[i] = n.synced
	}
	if !cache.WaitForCacheSync(ctx.Done(), synced...) {
		return fmt.Errorf("the informers did not sync: %w", ctx.Err())
	}
	if err := s.queueCopies(); err != nil {
		return err
	}
	syncDown := traced(s.tracer, spanDown, s.objectAttributes, timed(&s.downObserved, s.syncDown))
	syncUp := timed(&s.upObserved, s.syncUp)
	syncDependency := traced(s.tracer, spanDependency, s.dependencyAttributes, s.syncDependency)
	for range workers {
		go work(ctx, queueDown, s.downQueue, syncDown)
		go work(ctx, queueUp, s.upQueue, syncUp)
		go work(ctx, queueDependencies, s.depQueue, syncDependency)
		go work(ctx, queuePods, s.podQueue, s.syncPod)
		go work(ctx, queueEvents, s.eventQueue, s.syncEvent)
		go work(ctx, queueNodes, s.nodeQueue, s.syncNode)
		go work(ctx, queueNamespaces, s.nsQueue, s.emptyNamespaces.Sync)
	}
	s.ready.start()
	klog.InfoS("Syncer ready")
	<-ctx.Done()
	return nil
}

// maxRetryDelay bounds the backoff of a failed key, which doubles with
// each failure. While the hub is away every write there fails; unbounded,
// the first retry once it is back could come as late as it was away, or
// later, since nothing queues a key again whose objects did not change
// meanwhile, such as the status of a pod made then.
const maxRetryDelay = 30 * time.Second

// rateLimiter is the work queues' backoff: the controllers' default, but
// for maxRetryDelay.
func rateLimiter[K comparable]() workqueue.TypedRateLimiter[K] {
	return workqueue.NewTypedWithMaxWaitRateLimiter(workqueue.DefaultTypedControllerRateLimiter[K](), maxRetryDelay)
}

// work processes q, named name, with sync until q shuts down, retrying a
// failed key with the queue's backoff.
func work[K interface {
	comparable
	fmt.Stringer
}](ctx context.Context, name string, q workqueue.TypedRateLimitingInterface[K], sync func(context.Context, K) error) {
	for {
		k, quit := q.Get()
		if quit {
			return
		}
		if err := sync(ctx, k); err != nil {
			syncErrors.WithLabelValues(name, errorType(err)).Inc()
			klog.ErrorS(err, "Syncing, will retry", "key", k.String())
			q.AddRateLimited(k)
		} else {
			q.Forget(k)
		}
		q.Done(k)
	}
}

// hubHandler queues both directions of each event of the hub informer of
// resources[i]: a hub change is applied downstream, and a hub status
// overwritten by someone else is written again. The dependencies of the
// object as it was and as it is are queued too, so that those it no
// longer refers to go and those it does are read again.
func (s *Syncer) hubHandler(i int) cache.ResourceEventHandler {
	enqueue := func(obj any) {
		if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = d.Obj
		}
		h, ok := obj.(*hubObject)
		if !ok {
			return
		}
		s.queueBoth(objectKey{i, origin{h.cluster, h.Unstructured.GetNamespace(), h.GetName()}})
		s.queueDependencies(h)
	}
	return cache.ResourceEventHandlerFuncs{
		AddFunc: enqueue,
		UpdateFunc: func(old, obj any) {
			s.queueDependencies(old)
			enqueue(obj)
		},
		DeleteFunc: enqueue,
	}
}

// downHandler queues each event of a downstream object of resources[i]
// both ways: its status is written up, and it is synced down, which
// corrects drift, makes a deleted one again or, for one found at start
// whose hub object is gone or unassigned, deletes it and releases the hub
// object.
func (s *Syncer) downHandler(i int) cache.ResourceEventHandler {
	return s.originHandler(func(o origin) { s.queueBoth(objectKey{i, o}) })
}

// queueBoth queues k to be synced both ways, on a change observed now.
func (s *Syncer) queueBoth(k objectKey) {
	now := time.Now()
	s.downObserved.observed(k, now)
	s.upObserved.observed(k, now)
	s.downQueue.Add(k)
	s.upQueue.Add(k)
}

// dependencyHandler queues each downstream object of
// dependencyResources[i] that the syncer made, to be kept while a
// workload needs it.
func (s *Syncer) dependencyHandler(i int) cache.ResourceEventHandler {
	return s.originHandler(func(o origin) { s.depQueue.Add(dependencyKey{i, o}) })
}

// originHandler calls queue with the origin of each downstream object
// that has one, on any event, and queues its namespace, which may have
// become empty or no longer be.
func (s *Syncer) originHandler(queue func(origin)) cache.ResourceEventHandler {
	handle := func(obj any) {
		if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = d.Obj
		}
		if u, ok := obj.(*unstructured.Unstructured); ok {
			s.nsQueue.Add(namespace.Key(u.GetNamespace()))
			if o, ok := originOf(u); ok {
				queue(o)
			}
		}
	}
	return cache.ResourceEventHandlerFuncs{AddFunc: handle, UpdateFunc: func(_, obj any) { handle(obj) }, DeleteFunc: handle}
}

// hubObject is a hub object in a wildcard informer's store. The store
// keys objects by namespace and name alone, which equal objects of two
// logical clusters share; hubObject makes the key
// "<cluster>/<namespace>/<name>" by qualifying its namespace.
type hubObject struct {
	*unstructured.Unstructured
	cluster string
}

// GetNamespace is the namespace qualified by the logical cluster, for the
// store's key function only.
func (o *hubObject) GetNamespace() string {
	return o.cluster + "/" + o.Unstructured.GetNamespace()
}

// qualify is the hub informers' transform, making each object a hubObject
// without its managed fields.
func qualify(obj any) (any, error) {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return obj, nil
	}
	u.SetManagedFields(nil)
	cluster, err := logicalcluster.FromObject(u)
	if err != nil {
		return nil, err
	}
	return &hubObject{Unstructured: u, cluster: string(cluster)}, nil
}

// stripManagedFields is the downstream informers' transform. The syncer
// reads no managed fields, and an update without them keeps the server's;
// they are most of a small object's size.
func stripManagedFields(obj any) (any, error) {
	if m, err := meta.Accessor(obj); err == nil {
		m.SetManagedFields(nil)
	}
	return obj, nil
}

// downInformer is factory's informer of gvr, keeping objects without their
// managed fields.
func downInformer(factory dynamicinformer.DynamicSharedInformerFactory, gvr schema.GroupVersionResource) (informers.GenericInformer, error) {
	informer := factory.ForResource(gvr)
	return informer, informer.Informer().SetTransform(stripManagedFields)
}

// hubObjectOf is the hub object of k from the informer, if it has it.
func (s *Syncer) hubObjectOf(k objectKey) (*hubObject, bool, error) {
	obj, ok, err := s.resources[k.resource].hub.GetStore().GetByKey(k.cluster + "/" + k.namespace + "/" + k.name)
	if err != nil || !ok {
		return nil, false, err
	}
	return obj.(*hubObject), true, nil
}

// downstreamNamespace is the downstream namespace of namespace of
// logical cluster cluster: one the syncer made before its target's key
// was part of the name, adopted, or else the name with the key
// (pkg/sync/namespace.Name).
func (s *Syncer) downstreamNamespace(cluster, ns string) string {
	return namespace.Name(s.namespaces, s.key, cluster, ns)
}

// downstreamOf is the downstream object of k, if there is one.
func (s *Syncer) downstreamOf(k objectKey) (*unstructured.Unstructured, bool, error) {
	obj, err := s.resources[k.resource].down.ByNamespace(s.downstreamNamespace(k.cluster, k.namespace)).Get(k.name)
	if err != nil {
		return nil, false, ignoreNotFound(err)
	}
	return obj.(*unstructured.Unstructured), true, nil
}

// retryAfter is how long a deletion waits before it looks again whether
// the downstream object is gone, should its delete event be missed.
const retryAfter = 2 * time.Second
