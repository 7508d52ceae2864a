package core

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/storage/names"
	"k8s.io/utils/ptr"

	"github.com/canopy-dev/canopy/pkg/podspec"
	"github.com/canopy-dev/canopy/pkg/registry"
	"github.com/canopy-dev/canopy/pkg/registry/upstream"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/core/replicationcontroller"
)

// ReplicationControllers are stored and served as kube-apiserver serves
// them, with their status and scale, by upstream's strategy. Nothing at
// the hub makes their pods: syncers carry them to the physical clusters,
// as ReplicaSets.

type replicationController = corev1.ReplicationController

func replicationControllers(typer runtime.ObjectTyper) registry.Resource {
	rcs := registry.Kind[*replicationController]{
		ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, APIVersion: corev1.SchemeGroupVersion.String(),
		Upstream: upstream.For(replicationcontroller.Strategy),
	}
	return registry.Resource{
		Singular: "replicationcontroller", Plural: "replicationcontrollers", ShortNames: []string{"rc"}, Categories: []string{"all"},
		New:      func() runtime.Object { return &replicationController{} },
		NewList:  func() runtime.Object { return &corev1.ReplicationControllerList{} },
		Fields:   replicationControllerFields,
		Strategy: rcStrategy{rcs},
		Status:   registry.StatusOf[*replicationController]{Kind: rcs, Upstream: upstream.For(replicationcontroller.StatusStrategy)},
		Scale: &registry.Scaled{
			Replicas: func(o runtime.Object) (int32, int32, string) {
				rc := o.(*replicationController)
				return ptr.Deref(rc.Spec.Replicas, 0), rc.Status.Replicas, labels.SelectorFromSet(rc.Spec.Selector).String()
			},
			SetReplicas: func(o runtime.Object, n int32) { o.(*replicationController).Spec.Replicas = &n },
		},
		// kubectl get's table, printReplicationController in
		// k8s.io/kubernetes@v1.37.1 pkg/printers/internalversion/printers.go.
		Table: registry.Table{
			Columns: []metav1.TableColumnDefinition{
				registry.Column("Desired", "integer", corev1.ReplicationControllerSpec{}.SwaggerDoc()["replicas"]),
				registry.Column("Current", "integer", corev1.ReplicationControllerStatus{}.SwaggerDoc()["replicas"]),
				registry.Column("Ready", "integer", corev1.ReplicationControllerStatus{}.SwaggerDoc()["readyReplicas"]),
			},
			Cells: func(o runtime.Object) []any {
				rc := o.(*replicationController)
				return []any{int64(ptr.Deref(rc.Spec.Replicas, 0)), int64(rc.Status.Replicas), int64(rc.Status.ReadyReplicas)}
			},
			Wide: []metav1.TableColumnDefinition{
				podspec.TemplateColumns[0], podspec.TemplateColumns[1],
				registry.Column("Selector", "string", corev1.ReplicationControllerSpec{}.SwaggerDoc()["selector"]),
			},
			WideCells: func(o runtime.Object) []any {
				rc := o.(*replicationController)
				var containers, images string
				if t := rc.Spec.Template; t != nil {
					containers, images = podspec.ContainersAndImages(&t.Spec)
				}
				return []any{containers, images, labels.FormatLabels(rc.Spec.Selector)}
			},
		},
	}
}

// rcStrategy deletes a ReplicationController as kube-apiserver does for
// core/v1 requests, by default orphaning its pods rather than deleting
// them with it, as clients of that version have always relied on
// (DefaultGarbageCollectionPolicy in
// k8s.io/kubernetes@v1.37.1 pkg/registry/core/replicationcontroller/strategy.go).
type rcStrategy struct {
	registry.Kind[*replicationController]
}

func (rcStrategy) DefaultGarbageCollectionPolicy(context.Context) rest.GarbageCollectionPolicy {
	return rest.OrphanDependents
}
