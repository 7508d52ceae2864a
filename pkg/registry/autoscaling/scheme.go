package autoscaling

import (
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	k8s_autoscaling_v2 "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/autoscaling/v2"
)

var internalVersion = schema.GroupVersion{Group: autoscalingv2.GroupName, Version: runtime.APIVersionInternal}

// AddToScheme registers autoscaling/v2, the same Go types as the internal
// version of its kinds, and upstream's defaults, which the decoder fills
// in.
func AddToScheme(s *runtime.Scheme) error {
	if err := autoscalingv2.AddToScheme(s); err != nil {
		return err
	}
	s.AddKnownTypes(internalVersion, &autoscalingv2.HorizontalPodAutoscaler{}, &autoscalingv2.HorizontalPodAutoscalerList{})
	return k8s_autoscaling_v2.RegisterDefaults(s)
}
