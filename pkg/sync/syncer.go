package sync

import (
	"context"
	"fmt"
	"strings"
	"time"

	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/sync/hubclient"
	"github.com/canopy-dev/canopy/pkg/sync/namespace"
	"github.com/canopy-dev/canopy/pkg/sync/report"
	"github.com/canopy-dev/canopy/pkg/sync/telemetry"
)

// FieldManager is the field manager of the syncer's server-side applies
// downstream.
const FieldManager = hubclient.FieldManager

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

// Syncer assembles the controllers of one SyncTarget: it makes the
// informers of both sides, hands each controller the informers, listers
// and clients it needs, and starts them; the controllers own their
// queues and their work.
type Syncer struct {
	targetCluster logicalcluster.Name
	targetName    string
	key           string

	hub      *hubclient.Clients
	downKube kubernetes.Interface

	// served are the logical clusters whose objects the target takes.
	served servedClusters
	// compatibility holds a condition per resource the target accepts,
	// telling whether the physical cluster takes it; only those it takes
	// are among resources.
	compatibility []metav1.Condition
	resources     []*resource

	// hubInformers and factories hold every informer, to start; synced
	// tells whether each has listed.
	hubInformers []cache.SharedIndexInformer
	factories    []interface{ Start(<-chan struct{}) }
	synced       []namedSync
	// ready is what the heartbeat reports in the Ready condition.
	ready *readiness

	spec         *specController
	status       *statusController
	dependencies *dependencyController
	pods         *podController
	events       *eventController
	nodes        *nodeController
	namespaces   *namespaceController
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
	telemetry.Register()
	if c.HubResync == 0 {
		c.HubResync = DefaultHubResync
	}
	tracer := trace.Tracer(noop.Tracer{})
	if c.TracerProvider != nil {
		tracer = c.TracerProvider.Tracer(telemetry.TracerName)
		c.Hub, c.Cluster = telemetry.TraceRequests(c.Hub, c.TracerProvider), telemetry.TraceRequests(c.Cluster, c.TracerProvider)
	}
	s := &Syncer{
		targetCluster: cluster,
		targetName:    name,
		key:           workloadv1alpha1.TargetKey(string(cluster), name),
		served:        servedClusters{target: cluster},
		ready:         newReadiness(),
	}
	// Once the hub answers again after it did not, the keys whose writes
	// failed meanwhile are synced at once rather than after their
	// backoff.
	s.ready.reconnected = s.queueAll
	if s.hub, err = hubclient.New(c.Hub); err != nil {
		return nil, err
	}
	downConfig := clusterConfig(c.Cluster)
	down, err := dynamic.NewForConfig(downConfig)
	if err != nil {
		return nil, err
	}
	if s.downKube, err = kubernetes.NewForConfig(downConfig); err != nil {
		return nil, err
	}
	target, err := s.syncTarget(ctx)
	if err != nil {
		return nil, err
	}
	s.served.follow(target.Spec.LogicalClusters)
	if err := s.setUp(target.Spec.Resources, down, tracer, c.HubResync, c.NamespaceGracePeriod); err != nil {
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
			telemetry.SyncFailed(name, err)
			klog.ErrorS(err, "Syncing, will retry", "key", k.String())
			q.AddRateLimited(k)
		} else {
			q.Forget(k)
		}
		q.Done(k)
	}
}

// runWorkers processes q, named name, with workers running sync until
// ctx ends, and then shuts q down.
func runWorkers[K interface {
	comparable
	fmt.Stringer
}](ctx context.Context, name string, q workqueue.TypedRateLimitingInterface[K], workers int, sync func(context.Context, K) error) {
	defer q.ShutDown()
	for range workers {
		go work(ctx, name, q, sync)
	}
	<-ctx.Done()
}

// newQueue is a work queue named name, with the syncer's backoff.
func newQueue[K comparable](name string) workqueue.TypedRateLimitingInterface[K] {
	return workqueue.NewTypedRateLimitingQueueWithConfig(rateLimiter[K](), workqueue.TypedRateLimitingQueueConfig[K]{Name: name})
}

// setUp makes the informers of the resources the target accepts,
// resolved once through the discovery of the target's logical cluster,
// that the physical cluster serves too, and the controllers syncing
// them.
func (s *Syncer) setUp(accepted []workloadv1alpha1.GroupResource, down dynamic.Interface, tracer trace.Tracer, hubResync, namespaceGracePeriod time.Duration) error {
	disco, err := discovery.NewDiscoveryClientForConfigAndClient(s.hub.Config(string(s.targetCluster)), s.hub.HTTP())
	if err != nil {
		return err
	}
	groups, err := restmapper.GetAPIGroupResources(disco)
	if err != nil {
		return fmt.Errorf("reading the hub's API resources: %w", err)
	}
	mapper := restmapper.NewDiscoveryRESTMapper(groups)
	wildcard, err := s.hub.In(logicalcluster.Wildcard)
	if err != nil {
		return err
	}
	hubInformer := func(gvr schema.GroupVersionResource, selector string, indexers cache.Indexers) (cache.SharedIndexInformer, error) {
		informer, err := newHubInformer(s.ready, wildcard, gvr, selector, indexers, hubResync)
		if err == nil {
			s.hubInformers = append(s.hubInformers, informer)
		}
		return informer, err
	}
	assigned := labels.Set{workloadv1alpha1.StateLabel(s.key): workloadv1alpha1.StateSync}.String()
	upsynced := labels.Set{workloadv1alpha1.UpsyncedLabel: s.key}.String()
	ours := func(o *metav1.ListOptions) {
		o.LabelSelector = labels.Set{workloadv1alpha1.TargetKeyLabel: s.key}.String()
	}
	downFactory := dynamicinformer.NewFilteredDynamicSharedInformerFactory(down, 0, metav1.NamespaceAll, ours)
	kubeFactory := informers.NewSharedInformerFactoryWithOptions(s.downKube, 0, informers.WithTweakListOptions(ours), informers.WithTransform(stripManagedFields))
	// Events carry no label to select, and the nodes are all the
	// physical cluster's.
	eventFactory := dynamicinformer.NewDynamicSharedInformerFactory(down, 0)
	nodeFactory := informers.NewSharedInformerFactoryWithOptions(s.downKube, 0, informers.WithTransform(stripManagedFields))
	s.factories = append(s.factories, downFactory, kubeFactory, eventFactory, nodeFactory)
	nsInformer := kubeFactory.Core().V1().Namespaces()
	s.synced = append(s.synced, namedSync{"namespaces in the physical cluster", nsInformer.Informer().HasSynced})
	// A namespace the syncer made before its target's key was part of
	// the name is adopted, or else the name has the key
	// (pkg/sync/namespace.Name).
	downstreamNamespace := func(cluster, ns string) string { return namespace.Name(nsInformer.Lister(), s.key, cluster, ns) }

	downGroups, err := restmapper.GetAPIGroupResources(s.downKube.Discovery())
	if err != nil {
		return fmt.Errorf("reading the physical cluster's API resources: %w", err)
	}
	usable, conditions, err := compatibility(mapper, restmapper.NewDiscoveryRESTMapper(downGroups), accepted)
	if err != nil {
		return fmt.Errorf("SyncTarget %s:%s: %w", s.targetCluster, s.targetName, err)
	}
	s.compatibility = conditions
	accepting := map[schema.GroupVersionResource]int{}
	var downInformers []informers.GenericInformer
	for _, mapping := range usable {
		r := &resource{gvr: mapping.Resource, gvk: mapping.GroupVersionKind, namespaceOf: downstreamNamespace}
		if r.hub, err = hubInformer(r.gvr, assigned, cache.Indexers{byDependency: indexDependencies}); err != nil {
			return err
		}
		informer, err := downInformer(downFactory, r.gvr)
		if err != nil {
			return err
		}
		r.down = informer.Lister()
		s.synced = append(s.synced, namedSync{hubName(r.gvr), r.hub.HasSynced}, namedSync{downName(r.gvr), informer.Informer().HasSynced})
		accepting[r.gvr] = len(s.resources)
		s.resources = append(s.resources, r)
		downInformers = append(downInformers, informer)
	}
	var dependencyInformers []informers.GenericInformer
	for _, gvr := range dependencyResources {
		// The factory shares one informer per resource, with the synced
		// resources' if configmaps, say, are among them.
		informer, err := downInformer(downFactory, gvr)
		if err != nil {
			return err
		}
		dependencyInformers = append(dependencyInformers, informer)
	}

	// The target's reports of shared objects' status, by name.
	hubReports, err := hubInformer(hubclient.StatusReports, labels.Set{workloadv1alpha1.ReportedByLabel: s.key}.String(), nil)
	if err != nil {
		return err
	}
	s.synced = append(s.synced, namedSync{hubName(hubclient.StatusReports), hubReports.HasSynced})
	reports := hubclient.NewReports(s.hub, s.key, hubReports.GetStore())
	reporter := report.New(s.hub, reports, s.downKube, s.targetCluster, s.targetName, s.key)
	s.spec = &specController{key: s.key, hub: s.hub, reports: reports, down: down, downKube: s.downKube, namespaces: nsInformer.Lister(), namespaceOf: downstreamNamespace,
		resources: s.resources, report: reporter, tracer: tracer, queue: newQueue[objectKey](telemetry.QueueDown),
		usable: s.served.usable, served: s.served.list}
	s.status = &statusController{key: s.key, hub: s.hub, reports: reports, resources: s.resources, report: reporter, tracer: tracer,
		queue: newQueue[objectKey](telemetry.QueueUp), usable: s.served.usable}
	s.dependencies = &dependencyController{key: s.key, hub: s.hub, down: down, resources: s.resources, accepted: accepting,
		report: reporter, tracer: tracer, spec: s.spec, queue: newQueue[dependencyKey](telemetry.QueueDependencies), usable: s.served.usable}
	s.spec.keepDependency = s.dependencies.keep
	var listers []cache.GenericLister
	for _, informer := range dependencyInformers {
		s.dependencies.listers = append(s.dependencies.listers, informer.Lister())
		listers = append(listers, informer.Lister())
	}
	for _, r := range s.resources {
		listers = append(listers, r.down)
	}
	if s.namespaces, err = newNamespaceController(s.downKube, nsInformer, listers, namespaceGracePeriod); err != nil {
		return err
	}
	for i, r := range s.resources {
		for _, h := range []cache.ResourceEventHandler{s.dependencies.hubHandler(), s.spec.hubHandler(i), s.status.hubHandler(i)} {
			if _, err := r.hub.AddEventHandler(h); err != nil {
				return err
			}
		}
		for _, h := range []cache.ResourceEventHandler{s.namespaces.downHandler(), s.spec.downHandler(i), s.status.downHandler(i)} {
			if _, err := downInformers[i].Informer().AddEventHandler(h); err != nil {
				return err
			}
		}
	}
	for i, informer := range dependencyInformers {
		for _, h := range []cache.ResourceEventHandler{s.namespaces.downHandler(), s.dependencies.downHandler(i)} {
			if _, err := informer.Informer().AddEventHandler(h); err != nil {
				return err
			}
		}
	}

	if _, err := hubReports.AddEventHandler(s.status.reportHandler()); err != nil {
		return err
	}
	hubPods, err := hubInformer(pods, upsynced, cache.Indexers{byNode: indexPodByNode})
	if err != nil {
		return err
	}
	downPods, err := downInformer(downFactory, pods)
	if err != nil {
		return err
	}
	s.synced = append(s.synced, namedSync{hubName(pods), hubPods.HasSynced}, namedSync{downName(pods), downPods.Informer().HasSynced})
	if s.pods, err = newPodController(s.key, s.hub, hubPods, downPods, nsInformer.Lister(), s.resources); err != nil {
		return err
	}
	hubNodes, err := hubInformer(nodes, upsynced, cache.Indexers{byNode: indexNodeByName})
	if err != nil {
		return err
	}
	downNodes := nodeFactory.Core().V1().Nodes()
	s.synced = append(s.synced, namedSync{hubName(nodes), hubNodes.HasSynced}, namedSync{downName(nodes), downNodes.Informer().HasSynced})
	if s.nodes, err = newNodeController(s.key, s.hub, hubPods, hubNodes, downNodes); err != nil {
		return err
	}
	hubEvents, err := hubInformer(events, upsynced, nil)
	if err != nil {
		return err
	}
	downEvents, err := downInformer(eventFactory, events)
	if err != nil {
		return err
	}
	s.synced = append(s.synced, namedSync{hubName(events), hubEvents.HasSynced}, namedSync{downName(events), downEvents.Informer().HasSynced})
	if s.events, err = newEventController(s.key, s.hub, hubEvents, downEvents, nsInformer.Lister(), s.resources); err != nil {
		return err
	}
	for i, informer := range dependencyInformers {
		s.synced = append(s.synced, namedSync{downName(dependencyResources[i]), informer.Informer().HasSynced})
	}
	return nil
}

// newHubInformer is an informer of the objects of gvr matching selector
// in every logical cluster, as hubObjects. Its lists and watches tell
// ready whether the hub answers, and retry without backoff while it does
// not (readiness.go).
func newHubInformer(ready *readiness, wildcard dynamic.Interface, gvr schema.GroupVersionResource, selector string, indexers cache.Indexers, resync time.Duration) (cache.SharedIndexInformer, error) {
	name := hubName(gvr)
	informer := cache.NewSharedIndexInformerWithOptions(hubListWatch(ready, name, resumable(name, &cache.ListWatch{
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
		ResyncPeriod:      resync,
		Indexers:          indexers,
	})
	// A watch that breaks with an error, as one too old to resume after
	// the hub restarted, lists again; until it has, the hub's changes do
	// not reach the syncer.
	if err := informer.SetWatchErrorHandlerWithContext(func(ctx context.Context, r *cache.Reflector, err error) {
		ready.failed(name, err)
		cache.DefaultWatchErrorHandler(ctx, r, err)
	}); err != nil {
		return nil, err
	}
	return informer, informer.SetTransform(qualify)
}

// Run starts the informers and, once every one has listed, the
// controllers, with workers each, until ctx ends.
func (s *Syncer) Run(ctx context.Context, workers int) error {
	for _, informer := range s.hubInformers {
		go informer.RunWithContext(ctx)
	}
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
	if err := queueCopies(s.pods.downPods, s.pods.namespaces, s.pods.queue.Add); err != nil {
		return err
	}
	if err := queueCopies(s.events.downEvents, s.events.namespaces, s.events.queue.Add); err != nil {
		return err
	}
	for _, c := range []interface{ Run(context.Context, int) }{s.spec, s.status, s.dependencies, s.pods, s.events, s.nodes, s.namespaces} {
		go c.Run(ctx, workers)
	}
	s.ready.start()
	klog.InfoS("Syncer ready")
	<-ctx.Done()
	return nil
}

// queueAll queues every assigned hub object to be synced both ways, and
// its dependencies.
func (s *Syncer) queueAll() {
	for i, r := range s.resources {
		for _, obj := range r.hub.GetStore().List() {
			if h, ok := obj.(*hubObject); ok {
				s.spec.enqueue(objectKey{i, h.origin()})
				s.status.enqueue(objectKey{i, h.origin()})
				s.dependencies.enqueueOf(h)
			}
		}
	}
}

// followLogicalClusters records the target's spec.logicalClusters as read
// now and, when they changed, queues every assigned hub object and its
// dependencies again: those of logical clusters let in are applied,
// those shut out deleted downstream.
func (s *Syncer) followLogicalClusters(clusters []string) {
	if !s.served.follow(clusters) {
		return
	}
	klog.InfoS("The SyncTarget's logical clusters changed", "logicalClusters", clusters)
	s.queueAll()
}
