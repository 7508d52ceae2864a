package kubeplugins

import (
	"context"
	"fmt"
	"net/http"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	nodev1 "k8s.io/api/node/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/admission/initializer"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/component-base/compatibility"
	"k8s.io/utils/lru"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/informer"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/registry/upstream"
	"github.com/canopy-dev/canopy/third_party/kubernetes/plugin/pkg/admission/defaulttolerationseconds"
	"github.com/canopy-dev/canopy/third_party/kubernetes/plugin/pkg/admission/limitranger"
	"github.com/canopy-dev/canopy/third_party/kubernetes/plugin/pkg/admission/priority"
	"github.com/canopy-dev/canopy/third_party/kubernetes/plugin/pkg/admission/runtimeclass"
	"github.com/canopy-dev/canopy/third_party/kubernetes/plugin/pkg/admission/security/podsecurity"
	"github.com/canopy-dev/canopy/third_party/kubernetes/plugin/pkg/admission/serviceaccount"
)

// maxClusters bounds how many logical clusters' plugins are kept between
// requests; those of the least recently admitted are made again when
// next needed. Making one logical cluster's takes about 1 ms and 270 KiB
// of allocations (BenchmarkLogicalClusterPlugins), so this bounds what
// they keep to tens of MiB.
const maxClusters = 256

// resources are the resources the plugins act on: pods, PriorityClasses,
// which Priority guards, namespaces, whose labels PodSecurity reads, and
// the kinds with pod templates, whose pods PodSecurity warns of. A
// request for any other passes without a look.
var resources = map[schema.GroupResource]bool{
	corev1.Resource("pods"):                   true,
	schedulingv1.Resource("priorityclasses"):  true,
	corev1.Resource("namespaces"):             true,
	corev1.Resource("podtemplates"):           true,
	corev1.Resource("replicationcontrollers"): true,
	appsv1.Resource("replicasets"):            true,
	appsv1.Resource("deployments"):            true,
	appsv1.Resource("statefulsets"):           true,
	appsv1.Resource("daemonsets"):             true,
	batchv1.Resource("jobs"):                  true,
	batchv1.Resource("cronjobs"):              true,
}

// internalVersion is upstream's internal version of a group: what its
// plugins are handed.
func internalVersion(group string) schema.GroupVersion {
	return schema.GroupVersion{Group: group, Version: runtime.APIVersionInternal}
}

// ordered are the plugins run, in kube-apiserver's order
// (AllOrderedPlugins in k8s.io/kubernetes@v1.37.1
// pkg/kubeapiserver/options/plugins.go).
var ordered = []string{
	limitranger.PluginName,
	serviceaccount.PluginName,
	podsecurity.PluginName,
	priority.PluginName,
	defaulttolerationseconds.PluginName,
	runtimeclass.PluginName,
}

// registered knows how to make each plugin by name.
var registered = func() *admission.Plugins {
	p := admission.NewPlugins()
	limitranger.Register(p)
	serviceaccount.Register(p)
	podsecurity.Register(p)
	priority.Register(p)
	defaulttolerationseconds.Register(p)
	runtimeclass.Register(p)
	return p
}()

// Config is what the plugins read.
type Config struct {
	// The shared informers whose objects the plugins read.
	LimitRanges, ServiceAccounts, PriorityClasses, RuntimeClasses, Namespaces, Pods *informer.Informer
	// Loopback is the hub's loopback client config, through which the
	// plugins look up what their informers do not hold yet, as
	// kube-apiserver's do through its own.
	Loopback *rest.Config
	// Version is the Kubernetes version the hub serves, whose Pod
	// Security Standards PodSecurity enforces by default.
	Version compatibility.EffectiveVersion
}

// Plugin runs kube-apiserver's admission plugins, in kube-apiserver's
// order, on the requests to each logical cluster.
type Plugin struct {
	*admission.Handler
	config   Config
	http     *http.Client
	clusters *lru.Cache
}

var (
	_ admission.MutationInterface   = &Plugin{}
	_ admission.ValidationInterface = &Plugin{}
)

// New returns the plugin of c.
func New(c Config) (*Plugin, error) {
	httpClient, err := rest.HTTPClientFor(c.Loopback)
	if err != nil {
		return nil, err
	}
	return &Plugin{
		Handler:  admission.NewHandler(admission.Create, admission.Update, admission.Delete),
		config:   c,
		http:     httpClient,
		clusters: lru.New(maxClusters),
	}, nil
}

// Admit runs the mutating plugins on a.
func (p *Plugin) Admit(ctx context.Context, a admission.Attributes, o admission.ObjectInterfaces) error {
	return p.run(ctx, a, func(chain admission.Interface, in *internalAttributes) error {
		if m, ok := chain.(admission.MutationInterface); ok && m.Handles(a.GetOperation()) {
			if err := m.Admit(ctx, in, o); err != nil {
				return err
			}
			return in.writeBack(a)
		}
		return nil
	})
}

// Validate runs the validating plugins on a.
func (p *Plugin) Validate(ctx context.Context, a admission.Attributes, o admission.ObjectInterfaces) error {
	return p.run(ctx, a, func(chain admission.Interface, in *internalAttributes) error {
		if v, ok := chain.(admission.ValidationInterface); ok && v.Handles(a.GetOperation()) {
			return v.Validate(ctx, in, o)
		}
		return nil
	})
}

// run calls f with the plugins of a's logical cluster and a as upstream's
// plugins see it, when a is for a resource they act on.
func (p *Plugin) run(ctx context.Context, a admission.Attributes, f func(admission.Interface, *internalAttributes) error) error {
	if !resources[a.GetResource().GroupResource()] || upsynced(a) {
		return nil
	}
	cluster, ok := logicalcluster.ClusterFrom(ctx)
	if !ok {
		// Every write addresses one logical cluster; a wildcard request
		// is a read, which no plugin looks at.
		return nil
	}
	in, err := toInternal(a)
	if err != nil {
		return apierrors.NewInternalError(err)
	}
	chain, err := p.chain(cluster)
	if err != nil {
		return apierrors.NewInternalError(fmt.Errorf("making the admission plugins of logical cluster %s: %w", cluster, err))
	}
	return f(chain, in)
}

// upsynced tells whether a is for an upsynced pod: a copy of a pod that a
// physical cluster's kube-apiserver admitted, with its own LimitRanges,
// ServiceAccounts and PriorityClasses, which the logical cluster need not
// have. Only the target's syncer writes them (pkg/admission/upsynced).
func upsynced(a admission.Attributes) bool {
	for _, obj := range []runtime.Object{a.GetObject(), a.GetOldObject()} {
		if m, err := meta.Accessor(obj); obj != nil && err == nil {
			if _, ok := m.GetLabels()[workloadv1alpha1.UpsyncedLabel]; ok {
				return true
			}
		}
	}
	return false
}

// chain is the plugins of cluster, made on first need and kept while the
// cluster is among the maxClusters last admitted. Keeping them keeps
// LimitRanger's short-lived cache of namespaces without LimitRanges,
// which spares a live lookup for each pod.
func (p *Plugin) chain(cluster logicalcluster.Name) (admission.Interface, error) {
	if c, ok := p.clusters.Get(cluster); ok {
		return c.(admission.Interface), nil
	}
	c, err := p.newChain(cluster)
	if err != nil {
		return nil, err
	}
	p.clusters.Add(cluster, c)
	return c, nil
}

// newChain makes kube-apiserver's plugins for cluster, initialized as
// kube-apiserver initializes them: with informers, which here are views of
// the shared informers that show cluster's objects, and a client of the
// hub's loopback connection to cluster.
func (p *Plugin) newChain(cluster logicalcluster.Name) (admission.Interface, error) {
	factory := informers.NewSharedInformerFactory(nil, 0)
	for obj, i := range map[runtime.Object]*informer.Informer{
		&corev1.LimitRange{}:          p.config.LimitRanges,
		&corev1.ServiceAccount{}:      p.config.ServiceAccounts,
		&schedulingv1.PriorityClass{}: p.config.PriorityClasses,
		&nodev1.RuntimeClass{}:        p.config.RuntimeClasses,
		&corev1.Namespace{}:           p.config.Namespaces,
		&corev1.Pod{}:                 p.config.Pods,
	} {
		view := i.Cluster(cluster)
		factory.InformerFor(obj, func(kubernetes.Interface, time.Duration) cache.SharedIndexInformer { return view })
	}
	cfg := rest.CopyConfig(p.config.Loopback)
	cfg.Host += logicalcluster.PathPrefix + string(cluster)
	client, err := kubernetes.NewForConfigAndClient(cfg, p.http)
	if err != nil {
		return nil, err
	}
	init := initializer.New(client, nil, factory, nil, utilfeature.DefaultFeatureGate, p.config.Version, nil, nil)
	plugins := make([]admission.Interface, 0, len(ordered)+1)
	for _, name := range ordered {
		// Made by name, with its default configuration, as
		// kube-apiserver makes it, and initialized.
		plugin, err := registered.InitPlugin(name, nil, init)
		if err != nil {
			return nil, err
		}
		plugins = append(plugins, plugin)
		if name == limitranger.PluginName {
			// Right after it, LimitRanger on workloads' pod templates.
			templates, err := newTemplateLimitRanger(factory.Core().V1().LimitRanges().Lister())
			if err != nil {
				return nil, err
			}
			init.Initialize(templates)
			if err := admission.ValidateInitialization(templates); err != nil {
				return nil, err
			}
			plugins = append(plugins, templates)
		}
	}
	return admission.NewChainHandler(plugins...), nil
}

// internalAttributes are a request's attributes with its objects at
// upstream's internal version, as kube-apiserver's plugins get them.
// Everything else, annotations included, is the request's.
type internalAttributes struct {
	admission.Attributes
	obj, old runtime.Object
}

func (a *internalAttributes) GetObject() runtime.Object    { return a.obj }
func (a *internalAttributes) GetOldObject() runtime.Object { return a.old }

// toInternal is a with its objects converted to upstream's internal
// version. An object of a kind upstream's scheme does not know is handed
// as it is: no plugin reads it.
func toInternal(a admission.Attributes) (*internalAttributes, error) {
	in := &internalAttributes{Attributes: a}
	var err error
	if in.obj, err = convert(a.GetObject()); err != nil {
		return nil, err
	}
	if in.old, err = convert(a.GetOldObject()); err != nil {
		return nil, err
	}
	return in, nil
}

// convert is obj at the internal version of its own group, which a
// subresource's object, a deployment's Scale, need not share with its
// resource.
//
// It converts without copying, as kube-apiserver's decoder does, so that
// the internal object shares obj's maps and slices where their types
// agree, and writeBack keeps what obj's fields share with each other: a
// Job defaulted with no labels of its own has its template's labels map
// as its labels (SetDefaults_Job), to which upstream's strategy then adds
// the selector's labels, and a copy would part the two. Plugins mutate
// only the object they admit, which writeBack converts into obj anyway.
func convert(obj runtime.Object) (runtime.Object, error) {
	if obj == nil {
		return nil, nil
	}
	kinds, _, err := upstream.Scheme.ObjectKinds(obj)
	if err != nil {
		return obj, nil
	}
	return upstream.Scheme.UnsafeConvertToVersion(obj, internalVersion(kinds[0].Group))
}

// writeBack converts what the mutating plugins made of a's object back
// into it.
func (a *internalAttributes) writeBack(to admission.Attributes) error {
	if a.obj == nil || a.obj == to.GetObject() {
		return nil
	}
	if err := upstream.Scheme.Convert(a.obj, to.GetObject(), nil); err != nil {
		return apierrors.NewInternalError(fmt.Errorf("converting the admitted %s back: %w", to.GetResource().Resource, err))
	}
	return nil
}
