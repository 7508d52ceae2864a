package core

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/storage/names"
)

// Namespaces here have no finalizer and no terminating phase: nothing yet
// empties a namespace being deleted, so one is deleted at once.
type namespaceStrategy struct {
	runtime.ObjectTyper
	names.NameGenerator
}

func (namespaceStrategy) NamespaceScoped() bool                         { return false }
func (namespaceStrategy) AllowCreateOnUpdate(context.Context) bool      { return false }
func (namespaceStrategy) AllowUnconditionalUpdate(context.Context) bool { return true }
func (namespaceStrategy) WarningsOnCreate(context.Context, runtime.Object) []string {
	return nil
}
func (namespaceStrategy) WarningsOnUpdate(context.Context, runtime.Object, runtime.Object) []string {
	return nil
}

func (namespaceStrategy) PrepareForCreate(_ context.Context, obj runtime.Object) {
	ns := obj.(*corev1.Namespace)
	ns.Spec.Finalizers = nil
	ns.Status = corev1.NamespaceStatus{Phase: corev1.NamespaceActive}
}

// PrepareForUpdate keeps the status, which only the server sets.
func (namespaceStrategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	ns, oldNS := obj.(*corev1.Namespace), old.(*corev1.Namespace)
	ns.Spec.Finalizers = oldNS.Spec.Finalizers
	ns.Status = oldNS.Status
}

// Canonicalize sets the label that lets selectors pick a namespace by
// name, here rather than in PrepareForCreate because a generated name is
// only known by now.
func (namespaceStrategy) Canonicalize(obj runtime.Object) {
	ns := obj.(*corev1.Namespace)
	if ns.Labels[corev1.LabelMetadataName] == ns.Name {
		return
	}
	if ns.Labels == nil {
		ns.Labels = map[string]string{}
	}
	ns.Labels[corev1.LabelMetadataName] = ns.Name
}

func (namespaceStrategy) Validate(_ context.Context, obj runtime.Object) field.ErrorList {
	ns := obj.(*corev1.Namespace)
	return apivalidation.ValidateObjectMeta(&ns.ObjectMeta, false, apivalidation.ValidateNamespaceName, field.NewPath("metadata"))
}

func (namespaceStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) field.ErrorList {
	ns, oldNS := obj.(*corev1.Namespace), old.(*corev1.Namespace)
	errs := apivalidation.ValidateObjectMetaUpdate(&ns.ObjectMeta, &oldNS.ObjectMeta, field.NewPath("metadata"))
	return append(errs, apivalidation.ValidateObjectMeta(&ns.ObjectMeta, false, apivalidation.ValidateNamespaceName, field.NewPath("metadata"))...)
}
