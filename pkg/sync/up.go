package sync

import (
	"context"
	"encoding/json"
	"fmt"

	"go.opentelemetry.io/otel/trace"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/sync/status"
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
	st, ok := status.FromDownstream(h.Unstructured, down, s.key)
	if !ok {
		return nil
	}
	w, err := status.Decide(h.Unstructured, s.withRejection(k, h, st), s.key, down.GetAnnotations()[workloadv1alpha1.AppliedRevisionAnnotation])
	if err != nil || w.None() {
		return err
	}
	r := s.resources[k.resource]
	// Only a write is traced: most syncs find nothing to write, with no
	// request.
	ctx, span := s.tracer.Start(ctx, spanUp, trace.WithAttributes(append(append(s.objectAttributes(k), hubIdentity(h.Unstructured)...), downstreamIdentity(down)...)...))
	if w.SetReport {
		// Where other targets share the status, the hub aggregates what
		// each reports (pkg/controller/statusaggregation).
		err = s.patchReport(ctx, r.gvr, k.origin, w.Report)
	}
	if err == nil && w.Status != nil {
		if _, err = s.patchHubStatus(ctx, r.gvr, k.origin, w.Status); ignoreNotFound(err) != nil {
			err = fmt.Errorf("updating the hub object's status: %w", err)
		}
	}
	endSpan(span, err)
	if err != nil {
		return ignoreNotFound(err)
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
