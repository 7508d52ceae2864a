package sync

import (
	"context"
	"fmt"

	"go.opentelemetry.io/otel/trace"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// syncUp writes the status of k's downstream object to its hub object,
// unless the hub has it already.
func (s *Syncer) syncUp(ctx context.Context, k objectKey) error {
	h, ok, err := s.hubObjectOf(k)
	if err != nil || !ok || h.GetDeletionTimestamp() != nil {
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
