package core

import (
	"context"
	"fmt"
	"slices"

	"github.com/canopy-dev/canopy/pkg/registry"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metainternalversion "k8s.io/apimachinery/pkg/apis/meta/internalversion"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/storage"
)

// namespaceDeletableOnUpdate lets an update that removes the last of a
// Terminating namespace's metadata.finalizers remove it only once its
// spec.finalizers are gone too, so that its content is deleted first.
func namespaceDeletableOnUpdate(_ context.Context, _ string, obj, _ runtime.Object) bool {
	return len(obj.(*corev1.Namespace).Spec.Finalizers) == 0
}

// namespaceREST serves namespaces, deleting them in two steps as
// Kubernetes' namespace storage does.
type namespaceREST struct{ *registry.Served }

// Delete marks a namespace that still has spec.finalizers Terminating,
// setting its deletionTimestamp, and leaves it to be emptied; one without
// them is deleted by the store, which honours metadata.finalizers.
func (r *namespaceREST) Delete(ctx context.Context, name string, deleteValidation rest.ValidateObjectFunc, options *metav1.DeleteOptions) (runtime.Object, bool, error) {
	obj, err := r.Get(ctx, name, &metav1.GetOptions{})
	if err != nil {
		return nil, false, err
	}
	ns := obj.(*corev1.Namespace)
	if options == nil {
		options = metav1.NewDeleteOptions(0)
	}
	if p := options.Preconditions; p != nil {
		if p.UID != nil && *p.UID != ns.UID {
			return nil, false, apierrors.NewConflict(corev1.Resource("namespaces"), name,
				fmt.Errorf("precondition failed: UID in precondition: %v, UID in object meta: %v", *p.UID, ns.UID))
		}
		if p.ResourceVersion != nil && *p.ResourceVersion != ns.ResourceVersion {
			return nil, false, apierrors.NewConflict(corev1.Resource("namespaces"), name,
				fmt.Errorf("precondition failed: ResourceVersion in precondition: %v, ResourceVersion in object meta: %v", *p.ResourceVersion, ns.ResourceVersion))
		}
	}
	if len(ns.Spec.Finalizers) == 0 {
		return r.Store.Delete(ctx, name, deleteValidation, options)
	}
	if ns.DeletionTimestamp != nil {
		// Already Terminating: the namespace controller is at it.
		return ns, false, nil
	}
	if err := deleteValidation(ctx, ns); err != nil {
		return nil, false, err
	}
	key, err := r.KeyFunc(ctx, name)
	if err != nil {
		return nil, false, err
	}
	out := r.NewFunc()
	err = r.Storage.GuaranteedUpdate(ctx, key, out, false, &storage.Preconditions{UID: &ns.UID},
		storage.SimpleUpdate(func(existing runtime.Object) (runtime.Object, error) {
			ns := existing.(*corev1.Namespace)
			if ns.DeletionTimestamp != nil {
				return ns, nil
			}
			now := metav1.Now()
			ns.DeletionTimestamp = &now
			ns.Status.Phase = corev1.NamespaceTerminating
			ns.Finalizers = propagationFinalizers(ns.Finalizers, options)
			return ns, nil
		}), len(options.DryRun) > 0, nil)
	if err != nil {
		return nil, false, err
	}
	return out, false, nil
}

// propagationFinalizers is finalizers with the garbage collector's
// deletion finalizers set as options ask, as the generic store sets them
// on the objects it deletes: the namespace's own deletion happens later,
// once it is empty, and keeps them.
func propagationFinalizers(finalizers []string, options *metav1.DeleteOptions) []string {
	var orphan, foreground bool
	switch {
	// The deprecated orphanDependents still wins, as in Kubernetes.
	case options.OrphanDependents != nil:
		orphan = *options.OrphanDependents
	case options.PropagationPolicy != nil:
		orphan = *options.PropagationPolicy == metav1.DeletePropagationOrphan
		foreground = *options.PropagationPolicy == metav1.DeletePropagationForeground
	default:
		return finalizers
	}
	out := slices.DeleteFunc(slices.Clone(finalizers), func(f string) bool {
		return f == metav1.FinalizerOrphanDependents || f == metav1.FinalizerDeleteDependents
	})
	if orphan {
		out = append(out, metav1.FinalizerOrphanDependents)
	}
	if foreground {
		out = append(out, metav1.FinalizerDeleteDependents)
	}
	return out
}

// DeleteCollection deletes each namespace as Delete does, so that no
// namespace goes without its content being deleted.
func (r *namespaceREST) DeleteCollection(ctx context.Context, deleteValidation rest.ValidateObjectFunc, options *metav1.DeleteOptions, listOptions *metainternalversion.ListOptions) (runtime.Object, error) {
	list, err := r.List(ctx, listOptions)
	if err != nil {
		return nil, err
	}
	items, err := meta.ExtractList(list)
	if err != nil {
		return nil, err
	}
	deleted := make([]runtime.Object, 0, len(items))
	for _, item := range items {
		ns := item.(*corev1.Namespace)
		obj, _, err := r.Delete(ctx, ns.Name, deleteValidation, options)
		if apierrors.IsNotFound(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		deleted = append(deleted, obj)
	}
	if err := meta.SetList(list, deleted); err != nil {
		return nil, err
	}
	return list, nil
}

// newNamespaceFinalize is namespaces/finalize over the namespaces' store,
// with strategy, upstream's: the way to clear spec.finalizers, which the
// namespace controller uses.
func newNamespaceFinalize(s *genericregistry.Store, strategy rest.RESTUpdateStrategy) *namespaceFinalize {
	finalize := *s
	finalize.UpdateStrategy = strategy
	return &namespaceFinalize{store: &finalize}
}

// namespaceFinalize serves updates only, as Kubernetes' namespaces/finalize.
type namespaceFinalize struct{ store *genericregistry.Store }

func (r *namespaceFinalize) New() runtime.Object { return &corev1.Namespace{} }

// Destroy does nothing: the namespaces' store owns the storage.
func (r *namespaceFinalize) Destroy() {}

func (r *namespaceFinalize) Update(ctx context.Context, name string, objInfo rest.UpdatedObjectInfo, createValidation rest.ValidateObjectFunc, updateValidation rest.ValidateObjectUpdateFunc, forceAllowCreate bool, options *metav1.UpdateOptions) (runtime.Object, bool, error) {
	// Creating through namespaces/finalize is never right.
	return r.store.Update(ctx, name, objInfo, createValidation, updateValidation, false, options)
}
