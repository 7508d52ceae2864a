package namespacedefaults

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/klog/v2"

	"github.com/canopy-dev/canopy/pkg/controller/clusterwide"
	"github.com/canopy-dev/canopy/pkg/informer"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/loopback"
	"github.com/canopy-dev/canopy/pkg/shard"
)

// workers is how many namespaces an Ensurer works on at once. A hub
// starting on a database of namespaces without the object makes one
// request each, which the store commits together across workers.
const workers = 8

// Config is what an Ensurer watches and writes with.
type Config struct {
	// Namespaces is the namespaces' registry store, whose shared
	// informer tells which namespaces are Active.
	Namespaces *genericregistry.Store
	// Objects is the store of the object's resource, whose shared
	// informer tells whether each namespace has the object.
	Objects   *genericregistry.Store
	Informers *informer.Factory
	// Ownership says which logical clusters' namespaces this replica
	// keeps.
	Ownership shard.Ownership
	// Client writes the objects as the controller's own user.
	Client *loopback.Client
}

// object is the one object an Ensurer keeps in each namespace.
type object struct {
	// name is the object's name in every namespace.
	name     string
	resource schema.GroupVersionResource
	// want is the object as it should be, typed, with its TypeMeta set.
	want func() runtime.Object
	// repair is have as it should be, and whether it differs; nil when an
	// existing object is left as its users made it, and then only the
	// objects' metadata is watched, in the informer the garbage collector
	// shares.
	repair func(have runtime.Object) (runtime.Object, bool)
}

// Kept tells whether name, of resource gr, is an object these
// controllers keep in every namespace. Every namespace of a physical
// cluster has its own, which kube-controller-manager keeps there, so
// placement places none of them: a copy synced down would replace the
// physical cluster's own CA and ServiceAccount.
func Kept(gr schema.GroupResource, name string) bool {
	return gr == corev1.Resource("serviceaccounts") && name == DefaultServiceAccount ||
		gr == corev1.Resource("configmaps") && name == RootCACertConfigMap
}

// key names one namespace of one logical cluster.
type key struct {
	cluster   logicalcluster.Name
	namespace string
}

// Ensurer keeps one object in every Active namespace of the logical
// clusters its replica owns.
type Ensurer struct {
	object
	client     *loopback.Client
	namespaces *informer.Informer
	objects    *informer.Informer
	loop       clusterwide.Loop[key]
}

func newEnsurer(name string, c Config, o object) *Ensurer {
	e := &Ensurer{object: o, client: c.Client, namespaces: c.Informers.For(c.Namespaces)}
	if o.repair == nil {
		e.objects = c.Informers.Metadata(c.Objects)
	} else {
		e.objects = c.Informers.For(c.Objects)
	}
	e.loop = clusterwide.Loop[key]{
		Name:      name,
		Workers:   workers,
		Cluster:   func(k key) logicalcluster.Name { return k.cluster },
		Ownership: c.Ownership,
		Process:   e.process,
	}
	e.loop.Watch(e.namespaces, namespaceKeys)
	e.loop.Watch(e.objects, e.objectKeys)
	return e
}

// Run works until ctx ends.
func (e *Ensurer) Run(ctx context.Context) { e.loop.Run(ctx) }

// namespaceKeys is the key of an Active namespace: one being deleted
// gets nothing new.
func namespaceKeys(obj runtime.Object, deleted bool) []key {
	ns, ok := obj.(*corev1.Namespace)
	if !ok || deleted || ns.Status.Phase != corev1.NamespaceActive {
		return nil
	}
	return keyOf(ns, ns.Name)
}

// objectKeys is the key of the namespace of obj if obj is the object
// kept there: deleting or editing it calls for it again.
func (e *Ensurer) objectKeys(obj runtime.Object, _ bool) []key {
	m, err := meta.Accessor(obj)
	if err != nil || m.GetName() != e.name {
		return nil
	}
	return keyOf(m, m.GetNamespace())
}

func keyOf(m metav1.Object, namespace string) []key {
	cluster, err := logicalcluster.FromObject(m)
	if err != nil {
		klog.ErrorS(err, "A stored object has no logical cluster", "namespace", namespace, "name", m.GetName())
		return nil
	}
	return []key{{cluster, namespace}}
}

// process makes or repairs the object of namespace k, if k is Active.
// It reads the informers, which the event that queued k is already in:
// a create of an object made meanwhile answers AlreadyExists, and an
// update of an older version conflicts and is retried.
func (e *Ensurer) process(ctx context.Context, k key) error {
	obj, ok := e.namespaces.Get(k.cluster, "", k.namespace)
	if !ok || obj.(*corev1.Namespace).Status.Phase != corev1.NamespaceActive {
		return nil
	}
	ctx = logicalcluster.WithCluster(ctx, k.cluster)
	have, ok := e.objects.Get(k.cluster, k.namespace, e.name)
	if !ok {
		return e.create(ctx, k)
	}
	if e.repair == nil {
		return nil
	}
	want, differs := e.repair(have)
	if !differs {
		return nil
	}
	err := e.client.Update(ctx, e.resource, k.namespace, want)
	if apierrors.IsNotFound(err) {
		// Deleted meanwhile: its deletion queues k again.
		return nil
	}
	if err == nil {
		klog.V(2).InfoS("Repaired an object kept in every namespace", "cluster", k.cluster, "namespace", k.namespace, "resource", e.resource.Resource, "name", e.name)
	}
	return err
}

// create makes the object in namespace k, as kube's controllers do: one
// made meanwhile, or a namespace gone or Terminating meanwhile, is no
// failure.
func (e *Ensurer) create(ctx context.Context, k key) error {
	err := e.client.Create(ctx, e.resource, k.namespace, e.want())
	switch {
	case err == nil:
		klog.V(2).InfoS("Made an object kept in every namespace", "cluster", k.cluster, "namespace", k.namespace, "resource", e.resource.Resource, "name", e.name)
		return nil
	case apierrors.IsAlreadyExists(err), apierrors.IsNotFound(err), apierrors.HasStatusCause(err, corev1.NamespaceTerminatingCause):
		return nil
	default:
		return fmt.Errorf("creating %s %s/%s in logical cluster %s: %w", e.resource.Resource, k.namespace, e.name, k.cluster, err)
	}
}
