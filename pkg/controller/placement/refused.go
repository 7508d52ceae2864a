package placement

import (
	"context"
	"fmt"
	"hash/fnv"
	"maps"
	"slices"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/klog/v2"
)

const (
	// ReasonAssignmentRefused is the reason of the Warning Event recorded
	// on an object whose assignment the hub refused to write, as an
	// admission policy of its logical cluster, or of an ancestor, may.
	ReasonAssignmentRefused = "AssignmentRefused"
	// refusalBackoff and maxRefusalBackoff bound how long placement waits
	// before it writes a refused assignment again: doubling from the one
	// to the other, since nothing changes until someone changes the
	// policy or the object, and the object's change queues it anyway.
	refusalBackoff    = time.Second
	maxRefusalBackoff = 5 * time.Minute
)

// refused tells, on obj of ref, that the hub refused to write outcome
// out, err saying why, in a Warning Event (once per reason), and tries
// the object again after a backoff that grows with each refusal.
func (c *Controller) refused(ctx context.Context, ref objectRef, obj runtime.Object, out outcome, err error) error {
	why := err.Error()
	if status, ok := err.(apierrors.APIStatus); ok {
		why = status.Status().Message
	}
	targets := slices.Sorted(maps.Keys(out.placed))
	message := fmt.Sprintf("The hub refused placement's assignment of it to SyncTargets [%s]: %s", strings.Join(targets, ", "), why)
	h := fnv.New64a()
	h.Write([]byte(message))
	if err := c.recordWarning(ctx, ref, obj, ReasonAssignmentRefused, message, fmt.Sprintf("refused-%x", h.Sum64())); err != nil {
		return err
	}
	delay := c.refusals.When(ref)
	klog.V(2).InfoS("The hub refused an assignment; trying again later", "resource", ref.resource, "cluster", ref.cluster,
		"namespace", ref.namespace, "name", ref.name, "targets", out.placed, "after", delay, "reason", why)
	c.objects.AddAfter(ref, delay)
	return nil
}
