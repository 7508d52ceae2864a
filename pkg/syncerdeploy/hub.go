package syncerdeploy

import (
	"context"
	"fmt"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

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
// registering a target again brings it up to date.
func Register(ctx context.Context, admin *rest.Config, t Target) error {
	cfg := rest.CopyConfig(admin)
	base, _, _ := strings.Cut(strings.TrimSuffix(admin.Host, "/"), logicalcluster.PathPrefix)
	cfg.Host = base + logicalcluster.PathPrefix + string(t.Cluster)
	client, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return err
	}
	targets := client.Resource(workloadv1alpha1.SchemeGroupVersion.WithResource("synctargets"))
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(t.SyncTarget())
	if err != nil {
		return err
	}
	want := &unstructured.Unstructured{Object: u}
	want.SetGroupVersionKind(workloadv1alpha1.SchemeGroupVersion.WithKind("SyncTarget"))
	_, err = targets.Create(ctx, want, metav1.CreateOptions{})
	if apierrors.IsAlreadyExists(err) {
		var current *unstructured.Unstructured
		if current, err = targets.Get(ctx, t.Name, metav1.GetOptions{}); err == nil {
			want.SetResourceVersion(current.GetResourceVersion())
			_, err = targets.Update(ctx, want, metav1.UpdateOptions{})
		}
	}
	if err != nil {
		return fmt.Errorf("registering SyncTarget %s in logical cluster %s: %w", t.Name, t.Cluster, err)
	}
	return nil
}
