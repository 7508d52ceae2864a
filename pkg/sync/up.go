package sync

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"

	"go.opentelemetry.io/otel/trace"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// syncUp writes the status of k's downstream object to its hub object,
// unless the hub has it already: to its status, or, where the object is
// assigned to other targets too, to the target's report of it.
func (s *Syncer) syncUp(ctx context.Context, k objectKey) error {
	h, ok, err := s.hubObjectOf(k)
	if err != nil || !ok || h.GetDeletionTimestamp() != nil || !s.usable(k.cluster) {
		return err
	}
	down, ok, err := s.downstreamOf(k)
	if err != nil || !ok {
		return err
	}
	if o, ours := originOf(down); !ours || o != k.origin {
		return nil
	}
	status, ok := hubStatus(down)
	if !ok {
		return nil
	}
	status = s.withRejection(k, h, status)
	shared := len(workloadv1alpha1.Targets(h.GetLabels())) > 1
	report, err := json.Marshal(reportOf(status, down, shared))
	if err != nil {
		return err
	}
	reported, hasReport := h.GetAnnotations()[workloadv1alpha1.StatusAnnotation(s.key)]
	switch {
	case shared && reported != string(report):
		// Other targets share the status: the hub aggregates what each
		// reports (pkg/controller/statusaggregation).
		return s.writeReport(ctx, k, h, down, report)
	case shared:
		return nil
	case hasReport:
		// Assigned to this target alone again: the status is its own, and
		// its report of it from when it was shared goes.
		if err := s.writeReport(ctx, k, h, down, nil); err != nil {
			return err
		}
	}
	current, _, _ := unstructured.NestedMap(h.Object, "status")
	if equality.Semantic.DeepEqual(current, status) {
		return nil
	}
	updated := h.Unstructured.DeepCopy()
	if err := unstructured.SetNestedMap(updated.Object, status, "status"); err != nil {
		return err
	}
	r := s.resources[k.resource]
	updated.SetGroupVersionKind(r.gvk)
	// Only a write is traced: most syncs find nothing to write, with no
	// request.
	ctx, span := s.tracer.Start(ctx, spanUp, trace.WithAttributes(append(append(s.objectAttributes(k), hubIdentity(h.Unstructured)...), downstreamIdentity(down)...)...))
	err = s.updateHubStatus(ctx, r.gvr, k.cluster, updated)
	endSpan(span, err)
	if err != nil {
		return fmt.Errorf("updating the hub object's status: %w", ignoreNotFound(err))
	}
	observeLatency(ctx, queueUp, r.gvr)
	return nil
}

// reportOf is the target's report of status, that of downstream object
// down: where a rollout gave the target a revision and the object is
// shared, the report names it, for the hub to tell a report of the
// revision it rolls out from one of the revision before.
func reportOf(status map[string]any, down *unstructured.Unstructured, shared bool) map[string]any {
	rev := down.GetAnnotations()[workloadv1alpha1.AppliedRevisionAnnotation]
	if !shared || rev == "" {
		return status
	}
	out := maps.Clone(status)
	if out == nil {
		out = map[string]any{}
	}
	out[workloadv1alpha1.ReportRevisionField] = rev
	return out
}

// writeReport sets the annotation reporting the status of hub object h at
// the target to report, or removes it for nil.
func (s *Syncer) writeReport(ctx context.Context, k objectKey, h *hubObject, down *unstructured.Unstructured, report []byte) error {
	r := s.resources[k.resource]
	ctx, span := s.tracer.Start(ctx, spanUp, trace.WithAttributes(append(append(s.objectAttributes(k), hubIdentity(h.Unstructured)...), downstreamIdentity(down)...)...))
	err := s.patchReport(ctx, r.gvr, k.origin, report)
	endSpan(span, err)
	if err != nil {
		return err
	}
	observeLatency(ctx, queueUp, r.gvr)
	return nil
}

// patchReport sets the annotation reporting the status at the target of
// the hub object of gvr at o to report, or removes it for nil, with a
// merge patch of that annotation alone, which no other target's report
// conflicts with.
func (s *Syncer) patchReport(ctx context.Context, gvr schema.GroupVersionResource, o origin, report []byte) error {
	value := any(nil)
	if report != nil {
		value = string(report)
	}
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{"annotations": map[string]any{workloadv1alpha1.StatusAnnotation(s.key): value}}})
	if err != nil {
		return err
	}
	hub, err := s.hubIn(o.cluster)
	if err != nil {
		return err
	}
	if _, err = hub.Resource(gvr).Namespace(o.namespace).Patch(ctx, o.name, types.MergePatchType, patch, metav1.PatchOptions{FieldManager: FieldManager}); err != nil {
		return fmt.Errorf("reporting the status at the target to the hub object: %w", ignoreNotFound(err))
	}
	return nil
}
