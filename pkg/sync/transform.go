package sync

import (
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/podspec"
)

// origin is where a synced object lives at the hub.
type origin struct {
	cluster, namespace, name string
}

func (o origin) String() string { return o.cluster + "/" + o.namespace + "/" + o.name }

// lastApplied is kubectl's annotation for client-side apply, which
// describes the hub object and would mislead kubectl downstream.
const lastApplied = "kubectl.kubernetes.io/last-applied-configuration"

// deploymentRevision is the revision of a Deployment's template, which
// the hub's rollout history numbers at the hub and each physical cluster's
// deployment controller numbers, and writes, on its own.
const deploymentRevision = "deployment.kubernetes.io/revision"

// serviceAllocated are fields of a Service that the hub allocated and the
// physical cluster allocates again in its own ranges.
var serviceAllocated = [][]string{
	{"spec", "clusterIP"}, {"spec", "clusterIPs"}, {"spec", "healthCheckNodePort"},
}

// downstream is the object to apply in the physical cluster for hub
// object hub, from o, for the target of key: hub's metadata that only
// means something at the hub and its status are dropped, and its origin
// and the hub generation it comes from are recorded. Where placement
// divided the replicas among targets, the object has this target's
// share.
func downstream(hub *unstructured.Unstructured, o origin, key string) *unstructured.Unstructured {
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
	out.SetName(o.name)
	out.SetNamespace(workloadv1alpha1.DownstreamNamespace(o.cluster, o.namespace))
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
	labelTemplates(out, key)
	annotations := hub.GetAnnotations()
	if annotations == nil {
		annotations = map[string]string{}
	}
	delete(annotations, logicalcluster.Annotation)
	delete(annotations, lastApplied)
	delete(annotations, deploymentRevision)
	delete(annotations, workloadv1alpha1.PlacedAnnotation)
	delete(annotations, workloadv1alpha1.LeavingAnnotation)
	delete(annotations, workloadv1alpha1.RolloutAnnotation)
	replicas, divided := annotations[workloadv1alpha1.ReplicasAnnotation(key)]
	for a := range annotations {
		if strings.HasPrefix(a, workloadv1alpha1.StatusAnnotationPrefix) || strings.HasPrefix(a, workloadv1alpha1.ReplicasAnnotationPrefix) ||
			strings.HasPrefix(a, workloadv1alpha1.OverridesAnnotationPrefix) || strings.HasPrefix(a, workloadv1alpha1.RevisionAnnotationPrefix) ||
			strings.HasPrefix(a, workloadv1alpha1.SpecAnnotationPrefix) {
			delete(annotations, a)
		}
	}
	if n, err := strconv.ParseInt(replicas, 10, 32); divided && err == nil && n >= 0 {
		// This target's share of the replicas placement divided.
		_ = unstructured.SetNestedField(out.Object, n, "spec", "replicas")
	}
	annotations[workloadv1alpha1.OriginClusterAnnotation] = o.cluster
	annotations[workloadv1alpha1.OriginNamespaceAnnotation] = o.namespace
	annotations[workloadv1alpha1.OriginNameAnnotation] = o.name
	annotations[workloadv1alpha1.HubGenerationAnnotation] = strconv.FormatInt(hub.GetGeneration(), 10)
	out.SetAnnotations(annotations)
	return out
}

// labelTemplates puts the target's label on out's pod template too,
// which lets one informer, selecting it, find the pods to upsync.
func labelTemplates(out *unstructured.Unstructured, key string) {
	for _, path := range podspec.Paths {
		template := append(slices.Clone(path[:len(path)-1]), "metadata", "labels")
		if _, ok, _ := unstructured.NestedMap(out.Object, path...); ok {
			_ = unstructured.SetNestedField(out.Object, key, append(template, workloadv1alpha1.TargetKeyLabel)...)
		}
	}
}

// originOf is where downstream object obj comes from, if the syncer made
// it.
func originOf(obj *unstructured.Unstructured) (origin, bool) {
	a := obj.GetAnnotations()
	o := origin{a[workloadv1alpha1.OriginClusterAnnotation], a[workloadv1alpha1.OriginNamespaceAnnotation], a[workloadv1alpha1.OriginNameAnnotation]}
	return o, o.cluster != "" && o.namespace != "" && o.name != ""
}

// hubStatus is the status to write to the hub object of downstream object
// down, and false when down has none. Its observedGeneration is the hub
// generation down was applied from once the downstream controller has
// observed down's spec, and one less before, so that whoever waits at the
// hub for the hub generation to be observed waits for the rollout.
func hubStatus(down *unstructured.Unstructured) (map[string]any, bool) {
	status, ok, _ := unstructured.NestedMap(down.Object, "status")
	if !ok {
		return nil, false
	}
	observed, ok, _ := unstructured.NestedInt64(status, "observedGeneration")
	if !ok {
		return status, true
	}
	hubGeneration, err := strconv.ParseInt(down.GetAnnotations()[workloadv1alpha1.HubGenerationAnnotation], 10, 64)
	if err != nil {
		// Without the hub generation there is no telling what was observed.
		delete(status, "observedGeneration")
		return status, true
	}
	if observed < down.GetGeneration() {
		hubGeneration--
	}
	status["observedGeneration"] = hubGeneration
	return status, true
}
