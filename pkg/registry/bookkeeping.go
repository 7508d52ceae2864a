package registry

import (
	"bytes"
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/registry/rest"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// The logicalcluster.Annotation is the hub's bookkeeping, which no client
// wrote, so no client's managedFields may show it. The field manager
// records who set what by comparing the stored object with the one a
// request makes of it, so it must see both as kube-apiserver would:
// without the annotation. Otherwise a manager that adds the first
// annotation of an object does not own the annotations map, the
// "before-first-apply" manager of a first apply owns the annotation, and
// an apply that changes nothing but what the annotation already made
// (annotations: {}) looks like one that changes nothing at all.

// unstamped is an update's objInfo, made from the stored object without
// the annotation, and without the annotation a client sent back, as
// kube-apiserver makes it; the object made is then stamped with the
// stored object's cluster again, before the store compares it with the
// stored one, so that an update that changes nothing else is still one
// that changes nothing, and is not written. It works in the object an
// update makes rather than in the storage, as a dry run reads the stored
// object without the storage's update.
func unstamped(objInfo rest.UpdatedObjectInfo) rest.UpdatedObjectInfo {
	return unstampedInfo{objInfo}
}

type unstampedInfo struct{ rest.UpdatedObjectInfo }

func (u unstampedInfo) UpdatedObject(ctx context.Context, old runtime.Object) (runtime.Object, error) {
	m, err := meta.Accessor(old)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	cluster, stamped := m.GetAnnotations()[logicalcluster.Annotation]
	if stamped {
		// The store goes on with old, as stored, once the update is made.
		old = old.DeepCopyObject()
		if err := unstamp(old, old); err != nil {
			return nil, apierrors.NewInternalError(err)
		}
	}
	obj, err := u.UpdatedObjectInfo.UpdatedObject(ctx, old)
	if err != nil {
		return nil, err
	}
	if err := unstamp(obj, old); err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	if stamped {
		m, err := meta.Accessor(obj)
		if err != nil {
			return nil, apierrors.NewInternalError(err)
		}
		logicalcluster.SetOn(m, logicalcluster.Name(cluster))
	}
	return obj, nil
}

// annotationPath and annotationsPath are the field paths of the
// annotation and of the annotations map, in the sets of fields managers
// own.
var (
	annotationPath  = fieldpath.MakePathOrDie("metadata", "annotations", logicalcluster.Annotation)
	annotationsPath = fieldpath.MakePathOrDie("metadata", "annotations")
)

// unstamp removes the annotation from obj, and its managers' ownership of
// it. When no other annotation is left, the managers that own the
// annotations map in obj but did not in old (nil on create) own it only
// for the annotation, and lose it too: a map that only held the
// annotation is not there for a client. unstamp(obj, obj) removes the
// annotation alone.
func unstamp(obj, old runtime.Object) error {
	m, err := meta.Accessor(obj)
	if err != nil {
		return err
	}
	annotations := m.GetAnnotations()
	if _, ok := annotations[logicalcluster.Annotation]; !ok {
		return nil
	}
	var ownedMap map[managerKey]bool
	if len(annotations) == 1 {
		if ownedMap, err = mapOwners(m.GetManagedFields()); err != nil {
			return err
		}
		if old != nil {
			o, err := meta.Accessor(old)
			if err != nil {
				return err
			}
			before, err := mapOwners(o.GetManagedFields())
			if err != nil {
				return err
			}
			for k := range before {
				delete(ownedMap, k)
			}
		}
	}
	kept := make(map[string]string, len(annotations)-1)
	for k, v := range annotations {
		if k != logicalcluster.Annotation {
			kept[k] = v
		}
	}
	if len(kept) == 0 {
		kept = nil
	}
	m.SetAnnotations(kept)
	managed, err := disown(m.GetManagedFields(), ownedMap)
	if err != nil {
		return fmt.Errorf("managedFields of %s %q: %w", m.GetNamespace(), m.GetName(), err)
	}
	m.SetManagedFields(managed)
	return nil
}

// managerKey tells a managedFields entry from the others.
type managerKey struct {
	manager, subresource string
	operation            metav1.ManagedFieldsOperationType
}

func keyOf(e metav1.ManagedFieldsEntry) managerKey {
	return managerKey{manager: e.Manager, subresource: e.Subresource, operation: e.Operation}
}

// mapOwners are the entries that own the annotations map.
func mapOwners(entries []metav1.ManagedFieldsEntry) (map[managerKey]bool, error) {
	owners := map[managerKey]bool{}
	for _, e := range entries {
		owned, err := ownedBy(e)
		if err != nil {
			return nil, err
		}
		if owned != nil && owned.Has(annotationsPath) {
			owners[keyOf(e)] = true
		}
	}
	return owners, nil
}

// ownedBy is the set of fields e owns, or nil when e owns no annotation
// at all, which is told without parsing.
func ownedBy(e metav1.ManagedFieldsEntry) (*fieldpath.Set, error) {
	if e.FieldsV1 == nil || !bytes.Contains(e.FieldsV1.Raw, []byte(`"f:annotations"`)) {
		return nil, nil
	}
	owned := &fieldpath.Set{}
	if err := owned.FromJSON(bytes.NewReader(e.FieldsV1.Raw)); err != nil {
		return nil, err
	}
	return owned, nil
}

// disown is entries without the annotation, and without the annotations
// map for the entries of mapOwners. An entry left owning nothing is
// dropped, as the field manager drops a manager that owns nothing.
func disown(entries []metav1.ManagedFieldsEntry, mapOwners map[managerKey]bool) ([]metav1.ManagedFieldsEntry, error) {
	var out []metav1.ManagedFieldsEntry
	for _, e := range entries {
		owned, err := ownedBy(e)
		if err != nil {
			return nil, err
		}
		if owned == nil {
			out = append(out, e)
			continue
		}
		removed := fieldpath.NewSet(annotationPath)
		if mapOwners[keyOf(e)] {
			removed.Insert(annotationsPath)
		}
		left := owned.Difference(removed)
		if left.Equals(owned) {
			out = append(out, e)
			continue
		}
		if left.Empty() {
			continue
		}
		raw, err := left.ToJSON()
		if err != nil {
			return nil, err
		}
		e.FieldsV1 = &metav1.FieldsV1{Raw: raw}
		out = append(out, e)
	}
	return out, nil
}
