package v1alpha1

import (
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// OverridesAnnotationPrefix + a target's key holds, as a JSON list of
// ObjectOverride, the overrides that placement resolved for the target
// (pkg/controller/placement): the actions of the rules of the object's
// Placement whose selector picks the target. The target's syncer applies
// them to the object it sends downstream (pkg/override), and the hub
// object itself stays as its owner wrote it. Placement resolves the
// selectors, which need the Placement and the SyncTarget's labels, and
// the syncer applies the actions to the object it has, so that a change
// of the object reaches each target already overridden, and the syncer
// reads nothing it did not read before.
const OverridesAnnotationPrefix = "overrides.workload.canopy.dev/"

// OverridesAnnotation is the annotation holding the overrides of a hub
// object at the target of key.
func OverridesAnnotation(key string) string { return OverridesAnnotationPrefix + key }

// ObjectOverride is what an override changes in the object a target
// receives. The parts set apply in the order of the fields: image,
// replicas, resources, labels, annotations, then the JSON patch.
type ObjectOverride struct {
	// Image rewrites the image of every container and init container of
	// the object's pod template.
	// +optional
	Image *ImageOverride `json:"image,omitempty"`
	// Replicas sets spec.replicas, after placement's share of them.
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`
	// Resources set the requests and limits they name, for the
	// containers they name, leaving the others as they are.
	// +optional
	// +listType=atomic
	Resources []ContainerResourcesOverride `json:"resources,omitempty"`
	// Labels are set on the object; an empty value removes the label.
	// +optional
	Labels map[string]string `json:"labels,omitempty"`
	// Annotations are set on the object; an empty value removes the
	// annotation.
	// +optional
	Annotations map[string]string `json:"annotations,omitempty"`
	// JSONPatch is an RFC 6902 JSON patch applied last, as
	// kubectl patch --type json applies one; every operation must apply,
	// or the target receives nothing new and its syncer says why.
	// +optional
	// +listType=atomic
	JSONPatch []JSONPatchOperation `json:"jsonPatch,omitempty"`
}

// ImageOverride rewrites container images, as
// registry.example.com/team/app:1.2 is made of its registry
// (registry.example.com), repository (team/app) and tag (1.2).
type ImageOverride struct {
	// Registry replaces the registry, or adds one to an image that names
	// none (Docker Hub's).
	// +optional
	Registry string `json:"registry,omitempty"`
	// Tag replaces the tag, or adds one; an image pinned by digest keeps
	// its digest, which the runtime pulls by.
	// +optional
	Tag string `json:"tag,omitempty"`
}

// ContainerResourcesOverride sets resources of one container, or of all.
type ContainerResourcesOverride struct {
	// Container names the container or init container; empty means
	// every one.
	// +optional
	Container string `json:"container,omitempty"`
	// Requests set these requests.
	// +optional
	Requests corev1.ResourceList `json:"requests,omitempty"`
	// Limits set these limits.
	// +optional
	Limits corev1.ResourceList `json:"limits,omitempty"`
}

// JSONPatchOperation is one operation of an RFC 6902 JSON patch.
type JSONPatchOperation struct {
	// Op is add, remove, replace, move, copy or test.
	Op string `json:"op"`
	// Path is the JSON pointer the operation applies to, as
	// /spec/template/spec/priorityClassName.
	Path string `json:"path"`
	// From is the source pointer of move and copy.
	// +optional
	From string `json:"from,omitempty"`
	// Value is the value of add, replace and test.
	// +optional
	Value *apiextensionsv1.JSON `json:"value,omitempty"`
}

// The annotations of a progressive rollout (pkg/controller/rollout): the
// hub keeps on a hub object the specs some target runs, and the revision
// each target runs, so that a target not yet reached keeps the previous
// spec while the hub object has the new one, and a hub that restarts
// finds the rollout where it was.
const (
	// RevisionAnnotationPrefix + a target's key names the revision of
	// the object's spec the target runs; its syncer applies the spec of
	// SpecAnnotationPrefix + that revision instead of the hub object's.
	// Without it, the target runs the hub object's spec.
	RevisionAnnotationPrefix = "revision.workload.canopy.dev/"
	// SpecAnnotationPrefix + a revision holds, as JSON, the spec of that
	// revision.
	SpecAnnotationPrefix = "spec.workload.canopy.dev/"
	// RolloutAnnotation holds, as JSON, the state of the object's
	// rollout (placement.RolloutState): placement writes it as the
	// rollout moves, and hub rollout pause, resume and undo change its
	// phase.
	RolloutAnnotation = "workload.canopy.dev/rollout"
	// AppliedRevisionAnnotation, on a downstream object, is the revision
	// its syncer applied; the syncer reports it with the target's status
	// as ReportRevisionField.
	AppliedRevisionAnnotation = "workload.canopy.dev/revision"
	// ReportRevisionField is the field of a target's status report
	// (StatusAnnotation) naming the revision it reports on. It is the
	// hub's bookkeeping, not part of the object's status.
	ReportRevisionField = "canopyRevision"
)

// RevisionAnnotation is the annotation naming the revision the target of
// key runs.
func RevisionAnnotation(key string) string { return RevisionAnnotationPrefix + key }

// SpecAnnotation is the annotation holding the spec of revision rev.
func SpecAnnotation(rev string) string { return SpecAnnotationPrefix + rev }
