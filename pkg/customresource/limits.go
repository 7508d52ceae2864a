package customresource

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
)

// Limits bound the content of one custom resource object. A definition
// with x-kubernetes-preserve-unknown-fields takes any JSON, and the cost
// of some work on an object, such as indenting it, grows with its depth
// times its size.
type Limits struct {
	// MaxDepth is how deep maps and lists may nest in an object, the
	// object itself being 1, leaving out its metadata.managedFields,
	// which the hub writes and which nest a little deeper than the fields
	// they manage.
	MaxDepth int
	// MaxBytes is the largest an object may be, encoded as JSON with its
	// metadata.
	MaxBytes int
}

// DefaultLimits are far beyond what real definitions need: embedded pod
// templates nest about 12 deep, Crossplane's compositions and
// definitions of schemas about 50; 1.5 MiB is etcd's largest request,
// the most kube-apiserver can store.
var DefaultLimits = Limits{MaxDepth: 100, MaxBytes: 3 << 19}

// guard makes s refuse to create an object past the limits, or to update
// one past them unless it already was and grows no further, so that an
// object stored before a limit was lowered can still be updated, its
// finalizers removed, and deleted.
func (l Limits) guard(s *genericregistry.Store) {
	create, update := s.BeginCreate, s.BeginUpdate
	s.BeginCreate = func(ctx context.Context, obj runtime.Object, options *metav1.CreateOptions) (genericregistry.FinishFunc, error) {
		if err := l.check(obj, nil); err != nil {
			return nil, err
		}
		return create(ctx, obj, options)
	}
	s.BeginUpdate = func(ctx context.Context, obj, old runtime.Object, options *metav1.UpdateOptions) (genericregistry.FinishFunc, error) {
		if err := l.check(obj, old); err != nil {
			return nil, err
		}
		return update(ctx, obj, old, options)
	}
}

// check refuses obj if it is deeper than the limit and than old, or larger
// than the limit and than old; old is nil for a new object.
func (l Limits) check(obj, old runtime.Object) error {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return nil
	}
	was, _ := old.(*unstructured.Unstructured)
	content := limitedContent(u)
	if d := depth(content); d > l.MaxDepth && (was == nil || d > depth(limitedContent(was))) {
		path := pathPast(content, nil, 1, l.MaxDepth)
		return apierrors.NewInvalid(u.GroupVersionKind().GroupKind(), u.GetName(), field.ErrorList{field.Invalid(path, field.OmitValueType{},
			fmt.Sprintf("nested %d deep, deeper than the %d maps and lists a custom resource may nest (the hub's --custom-resource-max-depth)", d, l.MaxDepth))})
	}
	size, err := encodedSize(u)
	if err != nil {
		return err
	}
	if size > l.MaxBytes {
		if was != nil {
			if before, err := encodedSize(was); err == nil && size <= before {
				return nil
			}
		}
		return apierrors.NewRequestEntityTooLargeError(fmt.Sprintf("%s %q is %d bytes encoded as JSON, more than the %d bytes a custom resource may be (the hub's --custom-resource-max-bytes)",
			u.GroupVersionKind().GroupKind(), u.GetName(), size, l.MaxBytes))
	}
	return nil
}

// limitedContent is u's content without its managedFields, which the
// depth limit leaves out.
func limitedContent(u *unstructured.Unstructured) map[string]any {
	meta, ok := u.Object["metadata"].(map[string]any)
	if !ok {
		return u.Object
	}
	content, meta := maps.Clone(u.Object), maps.Clone(meta)
	delete(meta, "managedFields")
	content["metadata"] = meta
	return content
}

func encodedSize(u *unstructured.Unstructured) (int, error) {
	data, err := json.Marshal(u.Object)
	return len(data), err
}

// depth is how deep maps and lists nest in v, v being 1 if it is one.
func depth(v any) int {
	deepest := 0
	switch v := v.(type) {
	case map[string]any:
		for _, e := range v {
			deepest = max(deepest, depth(e))
		}
	case []any:
		for _, e := range v {
			deepest = max(deepest, depth(e))
		}
	default:
		return 0
	}
	return deepest + 1
}

// pathPast is the path of a map or list of v nested deeper than limit, v
// being at depth d, or nil if there is none.
func pathPast(v any, path *field.Path, d, limit int) *field.Path {
	switch v := v.(type) {
	case map[string]any:
		if d > limit {
			return path
		}
		for k, e := range v {
			if p := pathPast(e, path.Child(k), d+1, limit); p != nil {
				return p
			}
		}
	case []any:
		if d > limit {
			return path
		}
		for i, e := range v {
			if p := pathPast(e, path.Index(i), d+1, limit); p != nil {
				return p
			}
		}
	}
	return nil
}
