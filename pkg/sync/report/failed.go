package report

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	authorizationv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/sync/spec"
)

// FailedReason is the reason of the Warning Event recorded on a hub
// object that the physical cluster refused, and the type of the
// condition saying so while it lasts, for the kinds whose status has
// conditions.
const FailedReason = workloadv1alpha1.ConditionSyncFailed

// rejection is a hub object that the physical cluster refused for good:
// the object, by UID, as it was to be applied, by the hash stamped on
// it (spec.Stamp), so that only a change that reaches downstream tries again.
type rejection struct {
	uid     types.UID
	applied string
	reason  metav1.StatusReason
	message string
	// since is when the SyncFailed condition turned True, which every
	// write of it keeps, so that writing it again changes nothing.
	since metav1.Time
	// evented is that its Warning Event was recorded: a condition write
	// that fails, as on a conflict with another write of the hub object
	// such as the hub's own revision bookkeeping, is made again without
	// a second Event.
	evented  bool
	reported bool
}

// DownstreamWrite names a write to the physical cluster for the message
// of its rejection, with the access it needs, which tells a rejection of
// admission from one of the syncer's credential.
type DownstreamWrite struct {
	what   string
	access []authorizationv1.ResourceAttributes
}

// ApplyWrite is the server-side apply of desired, of gvr: a patch that
// creates the object when it is missing.
func ApplyWrite(gvr schema.GroupVersionResource, desired *unstructured.Unstructured) DownstreamWrite {
	attributes := func(verb string) authorizationv1.ResourceAttributes {
		return authorizationv1.ResourceAttributes{Verb: verb, Group: gvr.Group, Resource: gvr.Resource,
			Namespace: desired.GetNamespace(), Name: desired.GetName()}
	}
	return DownstreamWrite{
		what:   fmt.Sprintf("apply %s %s/%s", gvr.GroupResource(), desired.GetNamespace(), desired.GetName()),
		access: []authorizationv1.ResourceAttributes{attributes("patch"), attributes("create")},
	}
}

// NamespaceWrite is the creation of downstream namespace name.
func NamespaceWrite(name string) DownstreamWrite {
	return DownstreamWrite{
		what:   "create namespace " + name,
		access: []authorizationv1.ResourceAttributes{{Verb: "create", Resource: "namespaces"}},
	}
}

// terminalReason is the reason of err, a downstream write's error, when
// sending the same write again would be refused again: a 422, a 400, or
// a 403 other than that of a namespace being deleted, which passes. It
// is "" for any other error, which is retried. A 403 may still be the
// syncer's credential rather than a policy; rejectionReason tells which.
func terminalReason(err error) metav1.StatusReason {
	switch {
	case err == nil:
		return ""
	case apierrors.IsInvalid(err):
		return metav1.StatusReasonInvalid
	case apierrors.IsBadRequest(err):
		return metav1.StatusReasonBadRequest
	case apierrors.IsForbidden(err) && !apierrors.HasStatusCause(err, corev1.NamespaceTerminatingCause):
		return metav1.StatusReasonForbidden
	}
	return ""
}

// rejectionReason is the reason the physical cluster refused w for good
// with err, or "" with the error to retry. A 403 is the physical
// cluster's policy, an admission plugin, policy or webhook, only when
// the syncer's credential may make the write: if it may not, it is the
// syncer's configuration that is wrong, for its operator to fix, not the
// object; it is retried, and once granted the write succeeds unchanged.
func (r *Reporter) rejectionReason(ctx context.Context, w DownstreamWrite, err error) (metav1.StatusReason, error) {
	reason := terminalReason(err)
	if reason == "" {
		return "", err
	}
	if reason != metav1.StatusReasonForbidden {
		return reason, nil
	}
	for _, a := range w.access {
		review, reviewErr := r.downKube.AuthorizationV1().SelfSubjectAccessReviews().Create(ctx, &authorizationv1.SelfSubjectAccessReview{
			Spec: authorizationv1.SelfSubjectAccessReviewSpec{ResourceAttributes: &a},
		}, metav1.CreateOptions{})
		if reviewErr != nil {
			return "", fmt.Errorf("%w; asking the physical cluster whether the syncer may %s %s: %v", err, a.Verb, a.Resource, reviewErr)
		}
		if !review.Status.Allowed {
			return "", fmt.Errorf("the syncer's credential in the physical cluster may not %s %s; grant it there: %w", a.Verb, a.Resource, err)
		}
	}
	return reason, nil
}

// Failed handles err, the error of downstream write w for hub object obj
// of ref, as desired: a rejection for good is recorded, so that
// nothing more is sent until the object changes, reported, and nil
// returned, for the key to be done rather than retried; any other error
// is returned.
func (r *Reporter) Failed(ctx context.Context, ref Ref, obj, desired *unstructured.Unstructured, w DownstreamWrite, err error) error {
	reason, retried := r.rejectionReason(ctx, w, err)
	if reason == "" {
		return retried
	}
	f := rejection{
		uid:     obj.GetUID(),
		applied: desired.GetAnnotations()[spec.AppliedAnnotation],
		reason:  reason,
		message: fmt.Sprintf("SyncTarget %s:%s: the physical cluster refused to %s: %s. The syncer tries again when this object changes",
			r.targetCluster, r.targetName, w.what, statusMessage(err)),
		since: metav1.Now(),
	}
	klog.InfoS("The physical cluster refused an object; not sent again until it changes at the hub",
		"resource", ref.Resource.String(), "cluster", ref.Cluster, "namespace", ref.Namespace, "name", ref.Name, "reason", reason, "message", statusMessage(err))
	r.rejectionsMu.Lock()
	r.rejections[ref] = f
	r.rejectionsMu.Unlock()
	return r.reportRejection(ctx, ref, obj, f)
}

// statusMessage is the message of the API's answer err.
func statusMessage(err error) string {
	var status apierrors.APIStatus
	if errors.As(err, &status) && status.Status().Message != "" {
		return status.Status().Message
	}
	return err.Error()
}

// rejectionOf is the rejection recorded for the hub object of ref, of
// UID uid, as stamped with applied; false where there is none, or one
// of another UID or object, which is tried anew.
func (r *Reporter) rejectionOf(ref Ref, uid types.UID, applied string) (rejection, bool) {
	r.rejectionsMu.Lock()
	defer r.rejectionsMu.Unlock()
	f, ok := r.rejections[ref]
	return f, ok && f.uid == uid && (applied == "" || f.applied == applied)
}

// ForgetRejection forgets any rejection of the hub object of ref, synced,
// deleted or no longer assigned.
func (r *Reporter) ForgetRejection(ref Ref) {
	r.rejectionsMu.Lock()
	delete(r.rejections, ref)
	r.rejectionsMu.Unlock()
}

// reportRejection reports rejection f of hub object obj of ref, unless
// it was reported already: the SyncFailed condition, for a kind whose
// status has conditions, and a Warning Event. As for a conflict, an
// object found with the condition as it would be written, as after a
// restart, gets no Event again; the Event first, so that a crash before
// the condition write records both again rather than neither, while a
// condition write that fails is made again alone.
func (r *Reporter) reportRejection(ctx context.Context, ref Ref, obj *unstructured.Unstructured, f rejection) error {
	if f.reported {
		return nil
	}
	keeps := keepsConditions(obj.GroupVersionKind())
	shared := len(workloadv1alpha1.Targets(obj.GetLabels())) > 1
	var status map[string]any
	if keeps {
		status = r.statusOf(ref, obj, shared)
	}
	conditioned, changed := withRejectedCondition(obj.GroupVersionKind(), status, f)
	if (!keeps || changed) && !f.evented {
		if err := r.recordEvent(ctx, ref, obj, FailedReason, f.message); err != nil {
			return fmt.Errorf("recording the rejection of the physical cluster at the hub: %w", err)
		}
		r.updateRejection(ref, f, func(r *rejection) { r.evented = true })
	}
	if keeps && changed {
		if err := r.writeStatusOf(ctx, ref, obj, shared, conditioned); err != nil {
			return fmt.Errorf("setting the %s condition at the hub: %w", FailedReason, err)
		}
	}
	r.updateRejection(ref, f, func(r *rejection) {
		r.reported = true
		// The condition found in place, from before a restart, keeps its
		// time, which the status copied up must then carry too.
		r.since = transitionTime(conditioned, r.since)
	})
	return nil
}

// updateRejection applies update to the rejection recorded for the hub
// object of ref while it is still f's, of the same UID and object:
// a newer one, recorded meanwhile, is left as it is.
func (r *Reporter) updateRejection(ref Ref, f rejection, update func(*rejection)) {
	r.rejectionsMu.Lock()
	defer r.rejectionsMu.Unlock()
	if current, ok := r.rejections[ref]; ok && current.uid == f.uid && current.applied == f.applied {
		update(&current)
		r.rejections[ref] = current
	}
}

// transitionTime is the lastTransitionTime of the SyncFailed condition
// in status, or otherwise.
func transitionTime(status map[string]any, otherwise metav1.Time) metav1.Time {
	conditions, _, _ := unstructured.NestedSlice(status, "conditions")
	for _, c := range conditions {
		if c, ok := c.(map[string]any); ok && c["type"] == FailedReason {
			if t, err := time.Parse(time.RFC3339, fmt.Sprint(c["lastTransitionTime"])); err == nil {
				return metav1.NewTime(t)
			}
		}
	}
	return otherwise
}

// Applied clears any rejection of hub object obj of ref, which the
// physical cluster now holds as it is: the record, and the SyncFailed
// condition, which is written away only where obj has it.
func (r *Reporter) Applied(ctx context.Context, ref Ref, obj *unstructured.Unstructured) error {
	r.ForgetRejection(ref)
	// Only the kinds that keep conditions have one to remove.
	shared := len(workloadv1alpha1.Targets(obj.GetLabels())) > 1
	status := r.statusOf(ref, obj, shared)
	cleared, had := withoutCondition(&unstructured.Unstructured{Object: map[string]any{"status": status}}, FailedReason)
	if !had {
		return nil
	}
	status, _, _ = unstructured.NestedMap(cleared.Object, "status")
	if err := r.writeStatusOf(ctx, ref, obj, shared, status); err != nil {
		return fmt.Errorf("removing the %s condition at the hub: %w", FailedReason, err)
	}
	return nil
}

// statusOf is the status of hub object obj at the target: its own, or,
// where it is shared with other targets, the target's report of it.
func (r *Reporter) statusOf(ref Ref, obj *unstructured.Unstructured, shared bool) map[string]any {
	if !shared {
		status, _, _ := unstructured.NestedMap(obj.Object, "status")
		return status
	}
	var report map[string]any
	if raw, ok := r.reports.Held(ref.Cluster, ref.Resource.GroupResource(), obj); ok {
		// Only this syncer writes it: a bad one is written anew.
		_ = json.Unmarshal(raw, &report)
	}
	return report
}

// writeStatusOf writes status as the status of hub object obj of ref
// at the target: its status, or where it is shared, the target's
// report, removed when status is empty.
func (r *Reporter) writeStatusOf(ctx context.Context, ref Ref, obj *unstructured.Unstructured, shared bool, status map[string]any) error {
	if !shared {
		updated := obj.DeepCopy()
		if err := unstructured.SetNestedMap(updated.Object, status, "status"); err != nil {
			return err
		}
		return r.hub.WriteStatus(ctx, ref.Resource, ref.Cluster, obj, updated)
	}
	var report []byte
	if len(status) > 0 {
		var err error
		if report, err = json.Marshal(status); err != nil {
			return err
		}
	}
	return r.reports.Write(ctx, ref.Resource, ref.Cluster, obj, report)
}

// WithRejection is status, of hub object h of ref at the target, with
// the SyncFailed condition while a rejection of it is recorded, so that
// the status copied up from the object downstream, from before the
// rejection, keeps saying why it is not what the hub asks.
func (r *Reporter) WithRejection(ref Ref, h *unstructured.Unstructured, status map[string]any) map[string]any {
	f, ok := r.rejectionOf(ref, h.GetUID(), "")
	if !ok || !keepsConditions(h.GroupVersionKind()) {
		return status
	}
	conditioned, _ := withRejectedCondition(h.GroupVersionKind(), status, f)
	return conditioned
}

// withRejectedCondition is status, of kind gvk, with the SyncFailed
// condition of f, and whether that changes it. The condition is as the
// hub answers with it, after its round trip through the typed status:
// a Deployment's lastUpdateTime is null, say, and the status copied up,
// compared with the hub's, must be equal where nothing changed.
func withRejectedCondition(gvk schema.GroupVersionKind, status map[string]any, f rejection) (map[string]any, bool) {
	if status == nil {
		status = map[string]any{}
	}
	u, changed := withCondition(&unstructured.Unstructured{Object: map[string]any{"status": status}}, FailedReason, string(f.reason), f.message, f.since)
	out, _, _ := unstructured.NestedMap(u.Object, "status")
	if !changed {
		return out, false
	}
	conditions, _, _ := unstructured.NestedSlice(out, "conditions")
	for i, c := range conditions {
		if c, ok := c.(map[string]any); ok && c["type"] == FailedReason {
			conditions[i] = typedCondition(gvk, c)
		}
	}
	_ = unstructured.SetNestedSlice(out, conditions, "conditions")
	return out, true
}

// typedCondition is condition c as the status of kind gvk keeps it, or c
// where the kind keeps no conditions.
func typedCondition(gvk schema.GroupVersionKind, c map[string]any) map[string]any {
	if kept, ok := keptConditions(gvk, []any{c}); ok && len(kept) == 1 {
		return kept[0].(map[string]any)
	}
	return c
}
