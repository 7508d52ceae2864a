package apps

import (
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/canopy-dev/canopy/pkg/registry/upstream"
	k8s_apps_v1 "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/apps/v1"
)

var (
	internalVersion            = schema.GroupVersion{Group: appsv1.GroupName, Version: runtime.APIVersionInternal}
	autoscalingInternalVersion = schema.GroupVersion{Group: autoscalingv1.GroupName, Version: runtime.APIVersionInternal}
)

// served are the kinds this package serves, with their lists.
var served = []runtime.Object{
	&appsv1.Deployment{}, &appsv1.DeploymentList{},
	&appsv1.ReplicaSet{}, &appsv1.ReplicaSetList{},
	&appsv1.StatefulSet{}, &appsv1.StatefulSetList{},
	&appsv1.DaemonSet{}, &appsv1.DaemonSetList{},
	&appsv1.ControllerRevision{}, &appsv1.ControllerRevisionList{},
}

// AddToScheme registers apps/v1 and autoscaling/v1 with the served kinds
// and Scales as their internal versions too, and upstream's defaults of
// apps/v1, which the API applies to what it decodes.
func AddToScheme(s *runtime.Scheme) error {
	if err := appsv1.AddToScheme(s); err != nil {
		return err
	}
	s.AddKnownTypes(internalVersion, served...)
	if err := s.SetVersionPriority(appsv1.SchemeGroupVersion); err != nil {
		return err
	}
	if err := autoscalingv1.AddToScheme(s); err != nil {
		return err
	}
	s.AddKnownTypes(autoscalingInternalVersion, &autoscalingv1.Scale{})
	if err := s.SetVersionPriority(autoscalingv1.SchemeGroupVersion); err != nil {
		return err
	}
	if err := k8s_apps_v1.RegisterDefaults(s); err != nil {
		return err
	}
	// kube-apiserver decodes a DaemonSet to its internal type, where the
	// template generation is a field of the spec, before server-side
	// apply sees it, and apply sees the annotation apps/v1 keeps it in
	// whether the request set it or not: so does the hub.
	s.AddTypeDefaultingFunc(&appsv1.DaemonSet{}, func(obj any) {
		ds := obj.(*appsv1.DaemonSet)
		k8s_apps_v1.SetObjectDefaults_DaemonSet(ds)
		upstream.Decoded(ds)
	})
	return nil
}
