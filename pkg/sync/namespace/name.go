package namespace

import (
	corev1 "k8s.io/api/core/v1"
	corelisters "k8s.io/client-go/listers/core/v1"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// Name is the downstream namespace that holds what the syncer of the
// target of key syncs from namespace of logical cluster cluster, given
// lister, which holds the namespaces carrying that key's label: the
// namespace of the legacy name (workloadv1alpha1.LegacyDownstreamNamespace)
// where the syncer made one before the key was part of the name, and
// workloadv1alpha1.DownstreamNamespace otherwise.
//
// Adopting the legacy namespace is what keeps an upgrade from deleting
// and making again every running workload: the objects stay where they
// run, and a namespace made from then on has the new name. The legacy
// namespace goes as any other, once empty for the grace period, after
// which the next object synced from that namespace gets the new name.
func Name(lister corelisters.NamespaceLister, key, cluster, namespace string) string {
	if legacy, err := lister.Get(workloadv1alpha1.LegacyDownstreamNamespace(cluster, namespace)); err == nil && Adoptable(legacy, key, cluster, namespace) {
		return legacy.Name
	}
	return workloadv1alpha1.DownstreamNamespace(key, cluster, namespace)
}

// Adoptable tells whether downstream namespace ns, of the legacy name,
// is the one the syncer of key made for namespace of logical cluster
// cluster: its label names the key and its annotations that origin, and
// it is not being deleted. The label is what makes the legacy name
// unambiguous again once targets share a physical cluster: before they
// could, only one target's syncer made namespaces there.
func Adoptable(ns *corev1.Namespace, key, cluster, namespace string) bool {
	return ns.Labels[workloadv1alpha1.TargetKeyLabel] == key && ns.DeletionTimestamp == nil &&
		ns.Annotations[workloadv1alpha1.OriginClusterAnnotation] == cluster &&
		ns.Annotations[workloadv1alpha1.OriginNamespaceAnnotation] == namespace
}
