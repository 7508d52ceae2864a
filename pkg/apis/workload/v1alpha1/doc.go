// Package v1alpha1 is the workload.canopy.dev/v1alpha1 API: SyncTarget,
// a physical cluster that a syncer pulls workloads into, and the labels
// and annotations by which hub objects are assigned to it and downstream
// objects name their origin.
//
// +k8s:deepcopy-gen=package
// +k8s:openapi-gen=true
// +k8s:openapi-model-package=dev.canopy.workload.v1alpha1
// +groupName=workload.canopy.dev
package v1alpha1
