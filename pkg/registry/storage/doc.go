// Package storage serves storage.k8s.io/v1 in every logical cluster, as
// kube-apiserver v1.37 serves it by default: StorageClasses, CSIDrivers,
// VolumeAttributesClasses, CSINodes, VolumeAttachments (with their status)
// and CSIStorageCapacities.
//
// The classes and drivers are what app teams' manifests and Helm charts
// contain next to their workloads and claims, so a logical cluster takes
// them as a cluster does. The others describe a physical cluster's own
// machinery, which kubelets, CSI drivers and the attach-detach controller
// write there. A logical cluster runs none of them, so it keeps them as
// plain stored objects, as a kube-apiserver with no kubelet or driver
// answers: nothing fills or acts on them, and none is copied up from the
// physical clusters, unlike nodes (README, "Running workloads in physical
// clusters"), whose copies name where a logical cluster's pods run; a
// logical cluster's pods need no CSINode or VolumeAttachment to be found.
//
// Their strategies, defaults and validation are kube-apiserver's own,
// lifted (pkg/registry/upstream). As in package core, the v1 Go types are
// registered as the internal version too, so nothing converts at the hub's
// storage.
package storage
