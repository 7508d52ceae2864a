package upstream

import (
	"context"

	autoscalingv1 "k8s.io/api/autoscaling/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/autoscaling"
	autoscalingvalidation "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/autoscaling/validation"
)

// ValidateScale validates an update of a scale subresource from old to
// scale as upstream's scale subresources do (pkg/registry/apps/*/storage,
// scaleUpdatedObjectInfo): the Scale's managed fields and replicas, and
// the declarative validation of autoscaling/v1 Scales.
func ValidateScale(ctx context.Context, scale, old *autoscalingv1.Scale) field.ErrorList {
	in, was, err := internals(scale, old)
	if err != nil {
		return field.ErrorList{field.InternalError(nil, err)}
	}
	return autoscalingvalidation.ValidateScaleUpdate(ctx, in.(*autoscaling.Scale), was.(*autoscaling.Scale), Scheme, scaleKind{})
}

// scaleKind tells declarative validation that the scale subresource of a
// resource of any group takes autoscaling/v1 Scales.
type scaleKind struct{}

func (scaleKind) GroupVersionKind(schema.GroupVersion) schema.GroupVersionKind {
	return autoscalingv1.SchemeGroupVersion.WithKind("Scale")
}
