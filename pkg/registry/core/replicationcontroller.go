package core

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/storage/names"
	"k8s.io/utils/ptr"

	"github.com/canopy-dev/canopy/pkg/podspec"
	"github.com/canopy-dev/canopy/pkg/registry"
)

// ReplicationControllers are stored and served as kube-apiserver serves
// them, with their status and scale. Nothing at the hub makes their
// pods: syncers carry them to the physical clusters, as ReplicaSets.

type replicationController = corev1.ReplicationController

func replicationControllers(typer runtime.ObjectTyper) registry.Resource {
	rcs := registry.Kind[*replicationController]{
		ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, APIVersion: corev1.SchemeGroupVersion.String(),
		Check: validateReplicationController,
	}
	return registry.Resource{
		Singular: "replicationcontroller", Plural: "replicationcontrollers", ShortNames: []string{"rc"}, Categories: []string{"all"},
		New:      func() runtime.Object { return &replicationController{} },
		NewList:  func() runtime.Object { return &corev1.ReplicationControllerList{} },
		Fields:   replicationControllerFields,
		Strategy: rcStrategy{rcs},
		Status:   registry.StatusOf[*replicationController]{Kind: rcs},
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

// defaultReplicationController is Kubernetes' defaulting of a v1
// ReplicationController: the selector and labels, when empty, are those
// of its pod template, and it runs one replica unless told otherwise.
func defaultReplicationController(o any) {
	rc := o.(*replicationController)
	if t := rc.Spec.Template; t != nil {
		podspec.DefaultTemplate(t)
		if t.Labels != nil {
			if len(rc.Spec.Selector) == 0 {
				rc.Spec.Selector = t.Labels
			}
			if len(rc.Labels) == 0 {
				rc.Labels = t.Labels
			}
		}
	}
	if rc.Spec.Replicas == nil {
		rc.Spec.Replicas = ptr.To(int32(1))
	}
}

// validateReplicationController checks that a controller selects the
// pods of its template, which restarts them always.
func validateReplicationController(rc *replicationController) field.ErrorList {
	spec := field.NewPath("spec")
	var errs field.ErrorList
	errs = append(errs, apivalidation.ValidateNonnegativeField(int64(ptr.Deref(rc.Spec.Replicas, 0)), spec.Child("replicas"))...)
	errs = append(errs, apivalidation.ValidateNonnegativeField(int64(rc.Spec.MinReadySeconds), spec.Child("minReadySeconds"))...)
	selector := labels.Set(rc.Spec.Selector).AsSelector()
	if selector.Empty() {
		errs = append(errs, field.Required(spec.Child("selector"), ""))
	} else {
		errs = append(errs, metav1validation.ValidateLabels(rc.Spec.Selector, spec.Child("selector"))...)
	}
	t := rc.Spec.Template
	if t == nil {
		return append(errs, field.Required(spec.Child("template"), ""))
	}
	if !selector.Empty() && !selector.Matches(labels.Set(t.Labels)) {
		errs = append(errs, field.Invalid(spec.Child("template", "metadata", "labels"), t.Labels, "`selector` does not match template `labels`"))
	}
	errs = append(errs, podspec.ValidateTemplate(t, spec.Child("template"))...)
	errs = append(errs, podspec.RestartPolicy(t, spec, corev1.RestartPolicyAlways)...)
	if t.Spec.ActiveDeadlineSeconds != nil {
		errs = append(errs, field.Forbidden(spec.Child("template", "spec", "activeDeadlineSeconds"), "activeDeadlineSeconds in ReplicationController is not Supported"))
	}
	return errs
}
