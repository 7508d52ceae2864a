// Package v1alpha1 is the tenancy.canopy.dev/v1alpha1 API: LogicalCluster,
// which makes a logical cluster inside the one it is created in.
//
// +k8s:deepcopy-gen=package
// +k8s:openapi-gen=true
// +k8s:openapi-model-package=dev.canopy.tenancy.v1alpha1
// +groupName=tenancy.canopy.dev
package v1alpha1
