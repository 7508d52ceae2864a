package spec

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
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
// target of key, in the downstream namespace of that name
// (workloadv1alpha1.DownstreamNamespace; the syncer moves it into a
// legacy one it adopted, pkg/sync/namespace.Name): hub's metadata that only
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
	out.SetNamespace(workloadv1alpha1.DownstreamNamespace(key, cluster, namespace))
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
	LabelTemplates(out, key)
	annotations := hub.GetAnnotations()
	if annotations == nil {
		annotations = map[string]string{}
	}
	delete(annotations, logicalcluster.Annotation)
	delete(annotations, corev1.LastAppliedConfigAnnotation)
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
	annotations[workloadv1alpha1.OriginClusterAnnotation] = cluster
	annotations[workloadv1alpha1.OriginNamespaceAnnotation] = namespace
	annotations[workloadv1alpha1.OriginNameAnnotation] = name
	annotations[workloadv1alpha1.HubGenerationAnnotation] = strconv.FormatInt(hub.GetGeneration(), 10)
	out.SetAnnotations(annotations)
	return out
}

// LabelTemplates puts the target's label on out's pod templates too,
// which lets one informer, selecting it, find the pods to upsync.
func LabelTemplates(out *unstructured.Unstructured, key string) {
	for _, path := range podspec.Paths {
		template := append(slices.Clone(path[:len(path)-1]), "metadata", "labels")
		if _, ok, _ := unstructured.NestedMap(out.Object, path...); ok {
			_ = unstructured.SetNestedField(out.Object, key, append(template, workloadv1alpha1.TargetKeyLabel)...)
		}
	}
}

// Action is what the spec controller does downstream for one hub object.
type Action int

const (
	// None: the downstream object holds what would be applied already.
	None Action = iota
	// Apply: the object is missing downstream, or differs there.
	Apply
	// Conflict: another's object, one the syncer did not make from this
	// hub object, holds its place downstream; it is left alone.
	Conflict
)

// Decide is what to do downstream with desired, the stamped object the
// syncer would apply (Downstream, Stamp), given current, the object in
// its place downstream, nil where there is none.
func Decide(desired, current *unstructured.Unstructured) Action {
	if current == nil {
		return Apply
	}
	dc, dns, dn, _ := Origin(desired)
	if c, ns, n, ok := Origin(current); !ok || c != dc || ns != dns || n != dn {
		return Conflict
	}
	if UpToDate(desired, current) {
		return None
	}
	return Apply
}

// Origin is the logical cluster, namespace and name at the hub of the
// object downstream object obj was made from, and false if the syncer
// did not make it.
func Origin(obj *unstructured.Unstructured) (cluster, namespace, name string, ok bool) {
	a := obj.GetAnnotations()
	cluster, namespace, name = a[workloadv1alpha1.OriginClusterAnnotation], a[workloadv1alpha1.OriginNamespaceAnnotation], a[workloadv1alpha1.OriginNameAnnotation]
	return cluster, namespace, name, cluster != "" && namespace != "" && name != ""
}

// AppliedAnnotation holds, on each downstream object, the hash of what the
// syncer last applied to it. A field the hub dropped leaves no trace in
// the next object to apply, so comparing fields alone would never remove
// it downstream; a changed hash does.
const AppliedAnnotation = "workload.canopy.dev/applied"

// Stamp records on desired, about to be applied, the hash of itself.
func Stamp(desired *unstructured.Unstructured) error {
	annotations := desired.GetAnnotations()
	if annotations == nil {
		annotations = map[string]string{}
	}
	delete(annotations, AppliedAnnotation)
	desired.SetAnnotations(annotations)
	// encoding/json sorts map keys: equal objects hash equally.
	data, err := json.Marshal(desired.Object)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(data)
	annotations[AppliedAnnotation] = hex.EncodeToString(sum[:16])
	desired.SetAnnotations(annotations)
	return nil
}

// UpToDate tells whether current, downstream, already holds everything in
// desired, stamped: then applying it would write nothing, and skipping the
// request keeps a restart or a status change free of writes. Anything
// someone changed downstream in the syncer's fields, drift, makes it
// false, and the next apply, forced, restores the hub's values. Fields
// that others set, such as defaults, are ignored.
func UpToDate(desired, current *unstructured.Unstructured) bool {
	if current.GetAnnotations()[AppliedAnnotation] != desired.GetAnnotations()[AppliedAnnotation] {
		return false
	}
	return Contains(current.Object, desired.Object)
}

// Contains tells whether have holds every value of want: maps key by key,
// lists element by element, so that the server's defaults inside list
// elements, such as a container's terminationMessagePath, do not count as
// differences.
func Contains(have, want any) bool {
	switch w := want.(type) {
	case map[string]any:
		h, ok := have.(map[string]any)
		if !ok {
			return have == nil && empty(w)
		}
		for k, wv := range w {
			hv, present := h[k]
			if !present {
				// A null or empty value the server does not keep is no
				// difference.
				if !empty(wv) {
					return false
				}
				continue
			}
			if !Contains(hv, wv) {
				return false
			}
		}
		return true
	case []any:
		h, ok := have.([]any)
		if !ok {
			return have == nil && len(w) == 0
		}
		if len(h) != len(w) {
			return false
		}
		for i := range w {
			if !Contains(h[i], w[i]) {
				return false
			}
		}
		return true
	default:
		return equality.Semantic.DeepEqual(have, want)
	}
}

// empty is a null, a map of empty values only or an empty list.
func empty(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case map[string]any:
		for _, e := range v {
			if !empty(e) {
				return false
			}
		}
		return true
	case []any:
		return len(v) == 0
	}
	return false
}
