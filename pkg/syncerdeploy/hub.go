package syncerdeploy

import (
	"context"
	"fmt"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/retry"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// SyncTarget is t's SyncTarget. It is all the hub needs: the hub itself
// confines the syncer's credential to the target's scope
// (pkg/syncerscope), with no RBAC object in any logical cluster.
func (t Target) SyncTarget() *workloadv1alpha1.SyncTarget {
	return &workloadv1alpha1.SyncTarget{
		ObjectMeta: metav1.ObjectMeta{Name: t.Name, Labels: t.Labels},
		Spec:       workloadv1alpha1.SyncTargetSpec{Resources: t.Resources},
	}
}

// Register creates t's SyncTarget in its logical cluster at the hub that
// admin, a kubeconfig's client configuration whose server may address any
// logical cluster, reaches, or updates it where it exists, so that
// registering a target again brings it up to date; it keeps what revokes
// older credentials. It returns the SyncTarget's UID, which the syncer's
// credential is bound to.
func Register(ctx context.Context, admin *rest.Config, t Target) (types.UID, error) {
	targets, err := syncTargets(admin, t)
	if err != nil {
		return "", err
	}
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(t.SyncTarget())
	if err != nil {
		return "", err
	}
	want := &unstructured.Unstructured{Object: u}
	want.SetGroupVersionKind(workloadv1alpha1.SchemeGroupVersion.WithKind("SyncTarget"))
	got, err := targets.Create(ctx, want, metav1.CreateOptions{})
	if apierrors.IsAlreadyExists(err) {
		var current *unstructured.Unstructured
		if current, err = targets.Get(ctx, t.Name, metav1.GetOptions{}); err == nil {
			want.SetResourceVersion(current.GetResourceVersion())
			keepSpec(want, current)
			got, err = targets.Update(ctx, want, metav1.UpdateOptions{})
		}
	}
	if err != nil {
		return "", fmt.Errorf("registering SyncTarget %s in logical cluster %s: %w", t.Name, t.Cluster, err)
	}
	return got.GetUID(), nil
}

// UID is the UID of t's SyncTarget at the hub admin reaches.
func UID(ctx context.Context, admin *rest.Config, t Target) (types.UID, error) {
	targets, err := syncTargets(admin, t)
	if err != nil {
		return "", err
	}
	st, err := targets.Get(ctx, t.Name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return "", fmt.Errorf("SyncTarget %s does not exist in logical cluster %s; register it with hub synctarget create %s --logical-cluster %s", t.Name, t.Cluster, t.Name, t.Cluster)
	}
	if err != nil {
		return "", fmt.Errorf("reading SyncTarget %s in logical cluster %s: %w", t.Name, t.Cluster, err)
	}
	return st.GetUID(), nil
}

// Revoke revokes every syncer credential of t's SyncTarget issued before
// notBefore, by its spec.credentialsNotBefore.
func Revoke(ctx context.Context, admin *rest.Config, t Target, notBefore time.Time) error {
	targets, err := syncTargets(admin, t)
	if err != nil {
		return err
	}
	patch := fmt.Sprintf(`{"spec":{"credentialsNotBefore":%q}}`, notBefore.UTC().Format(time.RFC3339))
	if _, err := targets.Patch(ctx, t.Name, types.MergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
		return fmt.Errorf("revoking the older credentials of SyncTarget %s in logical cluster %s: %w", t.Name, t.Cluster, err)
	}
	return nil
}

// Evict marks t's SyncTarget evicted at now, for the hub to let go of
// what it held at once (pkg/controller/losttarget), rather than after the
// eviction timeout.
func Evict(ctx context.Context, admin *rest.Config, t Target, now time.Time) error {
	targets, err := syncTargets(admin, t)
	if err != nil {
		return err
	}
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		u, err := targets.Get(ctx, t.Name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		st := &workloadv1alpha1.SyncTarget{}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, st); err != nil {
			return err
		}
		if workloadv1alpha1.IsEvicted(st) {
			return nil
		}
		meta.SetStatusCondition(&st.Status.Conditions, metav1.Condition{
			Type:               workloadv1alpha1.ConditionEvicted,
			Status:             metav1.ConditionTrue,
			Reason:             workloadv1alpha1.ReasonEvictedByAdmin,
			Message:            "Evicted by an admin with hub synctarget evict: the hub released what the target held",
			LastTransitionTime: metav1.NewTime(now),
			ObservedGeneration: st.Generation,
		})
		obj, err := runtime.DefaultUnstructuredConverter.ToUnstructured(st)
		if err != nil {
			return err
		}
		_, err = targets.UpdateStatus(ctx, &unstructured.Unstructured{Object: obj}, metav1.UpdateOptions{})
		return err
	})
}

// syncTargets is the client of SyncTargets in t's logical cluster.
func syncTargets(admin *rest.Config, t Target) (dynamic.ResourceInterface, error) {
	cfg := rest.CopyConfig(admin)
	base, _, _ := strings.Cut(strings.TrimSuffix(admin.Host, "/"), logicalcluster.PathPrefix)
	cfg.Host = base + logicalcluster.PathPrefix + string(t.Cluster)
	client, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	return client.Resource(workloadv1alpha1.SchemeGroupVersion.WithResource("synctargets")), nil
}

// keepSpec keeps in want what the current SyncTarget's spec says beyond
// the resources registering names: its cordon, taints, the logical
// clusters it serves and its credential revocation were set by an admin
// since, and registering again must neither lift nor undo them.
func keepSpec(want, current *unstructured.Unstructured) {
	spec, _, _ := unstructured.NestedMap(current.Object, "spec")
	if spec == nil {
		spec = map[string]any{}
	}
	delete(spec, "resources")
	if resources, ok, _ := unstructured.NestedFieldCopy(want.Object, "spec", "resources"); ok {
		spec["resources"] = resources
	}
	_ = unstructured.SetNestedMap(want.Object, spec, "spec")
}
