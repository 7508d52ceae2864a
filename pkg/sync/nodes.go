package sync

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/sync/patch"
	"github.com/canopy-dev/canopy/pkg/sync/upsync"
)

var nodes = corev1.SchemeGroupVersion.WithResource("nodes")

// byNode indexes the upsynced pods of the hub by the node they are bound
// to, and the copies of nodes by their name.
const byNode = "node"

func indexPodByNode(obj any) ([]string, error) {
	if h, ok := obj.(*hubObject); ok {
		if node := upsync.NodeOf(h.Unstructured); node != "" {
			return []string{node}, nil
		}
	}
	return nil, nil
}

func indexNodeByName(obj any) ([]string, error) {
	if h, ok := obj.(*hubObject); ok {
		return []string{h.GetName()}, nil
	}
	return nil, nil
}

// setUpNodes makes the informers of nodes: the physical cluster's, all of
// them, and at the hub the copies the syncer made, in every logical
// cluster. A logical cluster gets a copy of each node that runs a pod the
// syncer copied up there, and keeps it while one does; the node queue
// holds the origins of those copies, cluster and node name. It needs the
// pods' informer at the hub, which setUpPods makes indexed by node.
func (s *Syncer) setUpNodes(wildcard dynamic.Interface) error {
	queueNodeOf := func(obj any) {
		if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = d.Obj
		}
		if h, ok := obj.(*hubObject); ok && upsync.NodeOf(h.Unstructured) != "" {
			s.nodeQueue.Add(origin{cluster: h.cluster, name: upsync.NodeOf(h.Unstructured)})
		}
	}
	if _, err := s.hubPods.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    queueNodeOf,
		UpdateFunc: func(old, obj any) { queueNodeOf(old); queueNodeOf(obj) },
		DeleteFunc: queueNodeOf,
	}); err != nil {
		return err
	}
	var err error
	if s.hubNodes, err = s.hubInformer(wildcard, nodes, labels.Set{workloadv1alpha1.UpsyncedLabel: s.key}.String(), cache.Indexers{byNode: indexNodeByName}); err != nil {
		return err
	}
	if _, err := s.hubNodes.AddEventHandler(hubOriginHandler(s.nodeQueue.Add)); err != nil {
		return err
	}
	factory := informers.NewSharedInformerFactoryWithOptions(s.downKube, 0, informers.WithTransform(stripManagedFields))
	down := factory.Core().V1().Nodes()
	s.downNodes = down.Lister()
	queueCopies := func(obj any) {
		if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = d.Obj
		}
		if n, ok := obj.(*corev1.Node); ok {
			for _, cluster := range s.clustersOn(n.Name) {
				s.nodeQueue.Add(origin{cluster: cluster, name: n.Name})
			}
		}
	}
	if _, err := down.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    queueCopies,
		UpdateFunc: func(_, obj any) { queueCopies(obj) },
		DeleteFunc: queueCopies,
	}); err != nil {
		return err
	}
	s.factories = append(s.factories, factory)
	s.synced = append(s.synced, namedSync{hubName(nodes), s.hubNodes.HasSynced}, namedSync{downName(nodes), down.Informer().HasSynced})
	return nil
}

// clustersOn are the logical clusters that have a copy of node, or a pod
// the syncer copied up that runs on it.
func (s *Syncer) clustersOn(node string) []string {
	clusters := map[string]bool{}
	for _, informer := range []cache.SharedIndexInformer{s.hubPods, s.hubNodes} {
		objs, _ := informer.GetIndexer().ByIndex(byNode, node)
		for _, obj := range objs {
			clusters[obj.(*hubObject).cluster] = true
		}
	}
	return slices.Sorted(maps.Keys(clusters))
}

// runsIn tells whether a pod the syncer copied up to cluster runs on
// node.
func (s *Syncer) runsIn(cluster, node string) bool {
	objs, _ := s.hubPods.GetIndexer().ByIndex(byNode, node)
	for _, obj := range objs {
		if obj.(*hubObject).cluster == cluster {
			return true
		}
	}
	return false
}

// syncNode makes the copy of node o.name in logical cluster o.cluster
// match the node downstream while a pod the syncer copied up there runs
// on it, and deletes it once none does or the node is gone.
func (s *Syncer) syncNode(ctx context.Context, o origin) error {
	hub, err := s.hubIn(o.cluster)
	if err != nil {
		return err
	}
	client := hub.Resource(nodes)
	var current *unstructured.Unstructured
	if obj, ok, err := s.hubNodes.GetStore().GetByKey(o.String()); err != nil {
		return err
	} else if ok {
		current = obj.(*hubObject).Unstructured
	}
	down, err := s.downNodes.Get(o.name)
	if err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	if down == nil || !s.runsIn(o.cluster, o.name) {
		if current == nil {
			return nil
		}
		return ignoreNotFound(client.Delete(ctx, o.name, metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: ptr.To(current.GetUID())}}))
	}
	desired := upsyncedNode(down, s.key)
	var have corev1.Node
	if current == nil {
		created, err := createNode(ctx, client, desired)
		if apierrors.IsAlreadyExists(err) {
			if current, err = s.ownNode(ctx, client, o); err != nil || current == nil {
				return err
			}
		} else if err != nil {
			return fmt.Errorf("copying up node %s: %w", o.name, err)
		} else {
			current = created
		}
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(current.Object, &have); err != nil {
		return err
	}
	if !equality.Semantic.DeepEqual(have.Spec, desired.Spec) || !maps.Equal(have.Labels, desired.Labels) || !maps.Equal(have.Annotations, desired.Annotations) {
		have.Spec, have.Labels, have.Annotations = desired.Spec, desired.Labels, desired.Annotations
		updated, err := updateNode(ctx, func(ctx context.Context, u *unstructured.Unstructured, o metav1.UpdateOptions) (*unstructured.Unstructured, error) {
			return client.Update(ctx, u, o)
		}, &have)
		if err != nil {
			return fmt.Errorf("updating the copy of node %s: %w", o.name, err)
		}
		have = *updated
	}
	if equality.Semantic.DeepEqual(have.Status, desired.Status) {
		return nil
	}
	// The copy's status is the syncer's alone, and changes with each
	// heartbeat of the node: a merge patch without a resourceVersion
	// (pkg/sync/patch) writes it however far the informer's copy lags.
	from, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&have.Status)
	if err != nil {
		return err
	}
	to, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&desired.Status)
	if err != nil {
		return err
	}
	p, err := patch.Status(from, to)
	if err != nil || p == nil {
		return err
	}
	if _, err := client.Patch(ctx, o.name, types.MergePatchType, p, metav1.PatchOptions{FieldManager: FieldManager}, "status"); ignoreNotFound(err) != nil {
		return fmt.Errorf("updating the status of the copy of node %s: %w", o.name, err)
	}
	return nil
}

// nodeRecheck is how often a syncer looks again at a node whose copy in
// a logical cluster another target's syncer holds, while its own pods
// there run on it: its informer of copies selects its own label, so it
// does not see the other's go, after which it makes its own.
const nodeRecheck = 10 * time.Second

// ownNode is the copy of node o.name in logical cluster o.cluster that a
// create found already there, read through client: the syncer's own,
// which its informer had not seen yet, or nil where another target's
// syncer holds it. That is the case of two targets sharing a physical
// cluster whose pods in one logical cluster run on the same node: a
// pod's nodeName names one copy, which either may keep, since both copy
// the same node; the other looks again every nodeRecheck, to take over
// once the holder's pods leave the node. The hub lets neither write the
// other's copy (pkg/syncerscope), so the holder's is read with a 403.
func (s *Syncer) ownNode(ctx context.Context, client dynamic.ResourceInterface, o origin) (*unstructured.Unstructured, error) {
	current, err := client.Get(ctx, o.name, metav1.GetOptions{})
	if err == nil && current.GetLabels()[workloadv1alpha1.UpsyncedLabel] == s.key {
		return current, nil
	}
	if err != nil && !outOfScope(err) {
		return nil, err
	}
	klog.V(2).InfoS("The copy of the node in the logical cluster is another target's syncer's; looking again later",
		"cluster", o.cluster, "node", o.name, "after", nodeRecheck)
	s.nodeQueue.AddAfter(o, nodeRecheck)
	return nil, nil
}

// createNode creates node through client, returning what the hub stored.
func createNode(ctx context.Context, client dynamic.ResourceInterface, node *corev1.Node) (*unstructured.Unstructured, error) {
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(node)
	if err != nil {
		return nil, err
	}
	return client.Create(ctx, &unstructured.Unstructured{Object: m}, metav1.CreateOptions{FieldManager: FieldManager})
}

// updateNode writes node with update, the Update of a dynamic
// client, returning what the hub stored.
func updateNode(ctx context.Context, update func(context.Context, *unstructured.Unstructured, metav1.UpdateOptions) (*unstructured.Unstructured, error),
	node *corev1.Node,
) (*corev1.Node, error) {
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(node)
	if err != nil {
		return nil, err
	}
	stored, err := update(ctx, &unstructured.Unstructured{Object: m}, metav1.UpdateOptions{FieldManager: FieldManager})
	if err != nil {
		return nil, err
	}
	out := &corev1.Node{}
	return out, runtime.DefaultUnstructuredConverter.FromUnstructured(stored.Object, out)
}

// upsyncedNode is the copy at the hub of downstream node down, for the
// syncer of key: its name, labels with the upsynced mark, annotations,
// spec and status, but for what tells of other tenants' pods: the
// images the node holds and the volumes attached to it or in use there.
// Its allocatable resources stay: they are the node's, not its pods'.
func upsyncedNode(down *corev1.Node, key string) *corev1.Node {
	n := &corev1.Node{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Node"},
		ObjectMeta: metav1.ObjectMeta{Name: down.Name, Labels: maps.Clone(down.Labels), Annotations: maps.Clone(down.Annotations)},
		Spec:       *down.Spec.DeepCopy(),
		Status:     *down.Status.DeepCopy(),
	}
	if n.Labels == nil {
		n.Labels = map[string]string{}
	}
	n.Labels[workloadv1alpha1.UpsyncedLabel] = key
	delete(n.Annotations, corev1.LastAppliedConfigAnnotation)
	n.Status.Images = nil
	n.Status.VolumesInUse = nil
	n.Status.VolumesAttached = nil
	return n
}
