// Lifted by hack/lift-kubernetes.sh from k8s.io/kubernetes@v1.37.1 pkg/apis/scheduling/v1alpha3/defaults.go. DO NOT EDIT.

/*
Copyright The Kubernetes Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package v1alpha3

import (
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/features"
	schedulingv1alpha3 "k8s.io/api/scheduling/v1alpha3"
	runtime "k8s.io/apimachinery/pkg/runtime"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
)

func addDefaultingFuncs(scheme *runtime.Scheme) error {
	return RegisterDefaults(scheme)
}

func SetDefaults_PodGroup(in *schedulingv1alpha3.PodGroup) {
	if utilfeature.DefaultFeatureGate.Enabled(features.PodGroupPreemptionPolicy) {
		if in.Spec.PreemptionPolicy == nil {
			preemptLowerPriority := schedulingv1alpha3.PreemptLowerPriority
			in.Spec.PreemptionPolicy = &preemptLowerPriority
		}
	}
}

func SetDefaults_CompositePodGroup(in *schedulingv1alpha3.CompositePodGroup) {
	if utilfeature.DefaultFeatureGate.Enabled(features.PodGroupPreemptionPolicy) {
		if in.Spec.PreemptionPolicy == nil {
			preemptLowerPriority := schedulingv1alpha3.PreemptLowerPriority
			in.Spec.PreemptionPolicy = &preemptLowerPriority
		}
	}
}
