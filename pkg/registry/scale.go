package registry

import (
	"context"
	"fmt"

	autoscalingv1 "k8s.io/api/autoscaling/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"

	"github.com/canopy-dev/canopy/pkg/registry/upstream"
)

// Scaled is how the scale subresource of a kind reads and sets the
// replicas of an object.
type Scaled struct {
	// Replicas are the desired and current replicas of obj, and the
	// selector of its pods, as a label selector string.
	Replicas func(obj runtime.Object) (desired, current int32, selector string)
	// SetReplicas sets the desired replicas of obj.
	SetReplicas func(obj runtime.Object, replicas int32)
}

// Scale serves the scale subresource of a kind: its replicas as an
// autoscaling/v1 Scale, for kubectl scale and autoscalers.
type Scale struct {
	store  *genericregistry.Store
	scaled Scaled
}

// NewScale serves the scale subresource of the objects of s.
func NewScale(s *genericregistry.Store, scaled Scaled) *Scale {
	return &Scale{store: s, scaled: scaled}
}

var (
	_ rest.Patcher                  = &Scale{}
	_ rest.GroupVersionKindProvider = &Scale{}
)

func (r *Scale) New() runtime.Object { return &autoscalingv1.Scale{} }

// Destroy leaves the shared storage to the main resource's store.
func (r *Scale) Destroy() {}

// GroupVersionKind tells the API installer that the subresource of a
// resource of another group takes and returns autoscaling/v1 Scales.
func (r *Scale) GroupVersionKind(schema.GroupVersion) schema.GroupVersionKind {
	return autoscalingv1.SchemeGroupVersion.WithKind("Scale")
}

func (r *Scale) Get(ctx context.Context, name string, options *metav1.GetOptions) (runtime.Object, error) {
	obj, err := r.store.Get(ctx, name, options)
	if err != nil {
		return nil, err
	}
	return r.scaleOf(obj)
}

// Update sets the replicas of an object to those of the Scale, through
// the object's own update, so that its validation and generation apply.
func (r *Scale) Update(ctx context.Context, name string, objInfo rest.UpdatedObjectInfo, createValidation rest.ValidateObjectFunc, updateValidation rest.ValidateObjectUpdateFunc, _ bool, options *metav1.UpdateOptions) (runtime.Object, bool, error) {
	obj, _, err := r.store.Update(ctx, name, &scaleUpdate{scale: r, info: objInfo}, createValidation, updateValidation, false, options)
	if err != nil {
		return nil, false, err
	}
	scale, err := r.scaleOf(obj)
	return scale, false, err
}

func (r *Scale) scaleOf(obj runtime.Object) (*autoscalingv1.Scale, error) {
	m, ok := obj.(metav1.Object)
	if !ok {
		return nil, fmt.Errorf("%T has no metadata", obj)
	}
	desired, current, selector := r.scaled.Replicas(obj)
	return &autoscalingv1.Scale{
		ObjectMeta: metav1.ObjectMeta{
			Name: m.GetName(), Namespace: m.GetNamespace(), UID: m.GetUID(),
			ResourceVersion: m.GetResourceVersion(), CreationTimestamp: m.GetCreationTimestamp(),
		},
		Spec:   autoscalingv1.ScaleSpec{Replicas: desired},
		Status: autoscalingv1.ScaleStatus{Replicas: current, Selector: selector},
	}, nil
}

// scaleUpdate turns an update of a Scale into one of the object scaled.
type scaleUpdate struct {
	scale *Scale
	info  rest.UpdatedObjectInfo
}

func (u *scaleUpdate) Preconditions() *metav1.Preconditions { return u.info.Preconditions() }

func (u *scaleUpdate) UpdatedObject(ctx context.Context, old runtime.Object) (runtime.Object, error) {
	oldScale, err := u.scale.scaleOf(old)
	if err != nil {
		return nil, err
	}
	obj, err := u.info.UpdatedObject(ctx, oldScale)
	if err != nil {
		return nil, err
	}
	scale, ok := obj.(*autoscalingv1.Scale)
	if !ok {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("expected an autoscaling/v1 Scale, got %T", obj))
	}
	meta := old.(metav1.Object)
	if errs := upstream.ValidateScale(ctx, scale, oldScale); len(errs) > 0 {
		return nil, apierrors.NewInvalid(autoscalingv1.SchemeGroupVersion.WithKind("Scale").GroupKind(), meta.GetName(), errs)
	}
	// A Scale's UID, when it has one, is a precondition, as upstream's.
	if scale.UID != "" && scale.UID != meta.GetUID() {
		resource := u.scale.store.DefaultQualifiedResource
		resource.Resource += "/scale"
		return nil, apierrors.NewConflict(resource, meta.GetName(),
			fmt.Errorf("Precondition failed: UID in precondition: %v, UID in object meta: %v", scale.UID, meta.GetUID()))
	}
	updated := old.DeepCopyObject()
	u.scale.scaled.SetReplicas(updated, scale.Spec.Replicas)
	// A Scale read at one version may only set the replicas of that
	// version of the object, as for any update.
	if scale.ResourceVersion != "" {
		updated.(metav1.Object).SetResourceVersion(scale.ResourceVersion)
	}
	return updated, nil
}
