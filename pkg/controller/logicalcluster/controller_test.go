package logicalcluster

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	tenancyv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/tenancy/v1alpha1"
)

func TestNeedsWork(t *testing.T) {
	ready := func(generation, observed int64) *tenancyv1alpha1.LogicalCluster {
		return &tenancyv1alpha1.LogicalCluster{
			ObjectMeta: metav1.ObjectMeta{Name: "a", Generation: generation},
			Status:     tenancyv1alpha1.LogicalClusterStatus{Phase: tenancyv1alpha1.LogicalClusterReady, ObservedGeneration: observed},
		}
	}
	deleted := ready(1, 1)
	deleted.DeletionTimestamp = &metav1.Time{}
	initializing := ready(1, 0)
	initializing.Status.Phase = tenancyv1alpha1.LogicalClusterInitializing
	for _, tc := range []struct {
		name string
		lc   *tenancyv1alpha1.LogicalCluster
		want bool
	}{
		{"ready at its generation", ready(2, 2), false},
		{"ready before generations were counted", ready(0, 0), false},
		{"with a spec not applied yet", ready(3, 2), true},
		{"initializing", initializing, true},
		{"deleted", deleted, true},
	} {
		if got := needsWork(tc.lc); got != tc.want {
			t.Errorf("%s: needsWork %v, want %v", tc.name, got, tc.want)
		}
	}
}
