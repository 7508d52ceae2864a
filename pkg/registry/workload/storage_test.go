package workload

import (
	"testing"

	"github.com/canopy-dev/canopy/internal/fieldtest"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

func TestValidateSyncTarget(t *testing.T) {
	deployments := workloadv1alpha1.GroupResource{Group: "apps", Resource: "deployments"}
	for _, tc := range []struct {
		name      string
		resources []workloadv1alpha1.GroupResource
		want      string
	}{
		{"defaults", workloadv1alpha1.DefaultResources, ""},
		{"no resource", []workloadv1alpha1.GroupResource{{Group: "apps"}}, "spec.resources[0].resource"},
		{"twice", []workloadv1alpha1.GroupResource{deployments, deployments}, "spec.resources[1]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := &workloadv1alpha1.SyncTarget{Spec: workloadv1alpha1.SyncTargetSpec{Resources: tc.resources}}
			fieldtest.OnlyField(t, validateSyncTarget(st), tc.want)
		})
	}
}

func TestDefaultResources(t *testing.T) {
	st := &workloadv1alpha1.SyncTarget{}
	defaultResources(st)
	if len(st.Spec.Resources) != len(workloadv1alpha1.DefaultResources) {
		t.Fatalf("defaulted resources %v, want %v", st.Spec.Resources, workloadv1alpha1.DefaultResources)
	}
	st.Spec.Resources[0].Resource = "changed"
	if workloadv1alpha1.DefaultResources[0].Resource == "changed" {
		t.Fatal("defaulting shares the default list with the object")
	}
}
