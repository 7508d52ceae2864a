package spec

import (
	"slices"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/podspec"
)

// deploymentRevision is the revision of a Deployment's template, which
// the hub's rollout history numbers at the hub and each physical cluster's
// deployment controller numbers, and writes, on its own.
const deploymentRevision = "deployment.kubernetes.io/revision"

// serviceAllocated are fields of a Service that the hub allocated and the
// physical cluster allocates again in its own ranges.
var serviceAllocated = [][]string{
	{"spec", "clusterIP"}, {"spec", "clusterIPs"}, {"spec", "healthCheckNodePort"},
}

// Downstream is the object to apply in the physical cluster for hub
// object hub, from namespace/name of logical cluster cluster, for the
// target of key: hub's metadata that only
// means something at the hub and its status are dropped, and its origin
// and the hub generation it comes from are recorded. Where placement
// divided the replicas among targets, the object has this target's
// share.
func Downstream(hub *unstructured.Unstructured, cluster, namespace, name, key string) *unstructured.Unstructured {
	out := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": hub.GetAPIVersion(),
		"kind":       hub.GetKind(),
	}}
	for field, value := range hub.Object {
		if field != "metadata" && field != "status" && field != "apiVersion" && field != "kind" {
			out.Object[field] = value
		}
	}
	out = out.DeepCopy()
	if hub.GetKind() == "Service" {
		for _, path := range serviceAllocated {
			unstructured.RemoveNestedField(out.Object, path...)
		}
	}
	out.SetName(name)
	out.SetNamespace(workloadv1alpha1.DownstreamNamespace(cluster, namespace))
	labels := hub.GetLabels()
	for l := range labels {
		if strings.HasPrefix(l, workloadv1alpha1.StateLabelPrefix) {
			delete(labels, l)
		}
	}
	if labels == nil {
		labels = map[string]string{}
	}
	labels[workloadv1alpha1.TargetKeyLabel] = key
	out.SetLabels(labels)
	// The target's label on the pods too lets one informer, selecting it,
	// find the pods to upsync.
	for _, path := range podspec.Paths {
		template := append(slices.Clone(path[:len(path)-1]), "metadata", "labels")
		if _, ok, _ := unstructured.NestedMap(out.Object, path...); ok {
			_ = unstructured.SetNestedField(out.Object, key, append(template, workloadv1alpha1.TargetKeyLabel)...)
		}
	}
	annotations := hub.GetAnnotations()
	if annotations == nil {
		annotations = map[string]string{}
	}
	delete(annotations, logicalcluster.Annotation)
	delete(annotations, corev1.LastAppliedConfigAnnotation)
	delete(annotations, deploymentRevision)
	delete(annotations, workloadv1alpha1.PlacedAnnotation)
	delete(annotations, workloadv1alpha1.LeavingAnnotation)
	replicas, divided := annotations[workloadv1alpha1.ReplicasAnnotation(key)]
	for a := range annotations {
		if strings.HasPrefix(a, workloadv1alpha1.StatusAnnotationPrefix) || strings.HasPrefix(a, workloadv1alpha1.ReplicasAnnotationPrefix) {
			delete(annotations, a)
		}
	}
	if n, err := strconv.ParseInt(replicas, 10, 32); divided && err == nil && n >= 0 {
		// This target's share of the replicas placement divided.
		_ = unstructured.SetNestedField(out.Object, n, "spec", "replicas")
	}
	annotations[workloadv1alpha1.OriginClusterAnnotation] = cluster
	annotations[workloadv1alpha1.OriginNamespaceAnnotation] = namespace
	annotations[workloadv1alpha1.OriginNameAnnotation] = name
	annotations[workloadv1alpha1.HubGenerationAnnotation] = strconv.FormatInt(hub.GetGeneration(), 10)
	out.SetAnnotations(annotations)
	return out
}
