package tenancy

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	tenancyv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/tenancy/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

func lc(name string) *tenancyv1alpha1.LogicalCluster {
	return &tenancyv1alpha1.LogicalCluster{ObjectMeta: metav1.ObjectMeta{Name: name}}
}

func TestValidateLogicalCluster(t *testing.T) {
	for _, tc := range []struct {
		parent logicalcluster.Name
		name   string
	}{
		{"root", "a"},
		{"root:org", "team"},
		{"root:a:b", "c-1"},
		{"root", strings.Repeat("x", 63)},
	} {
		if errs := ValidateLogicalCluster(tc.parent, lc(tc.name)); len(errs) != 0 {
			t.Errorf("%q in %s: %v", tc.name, tc.parent, errs)
		}
	}
	for _, tc := range []struct {
		parent logicalcluster.Name
		name   string
	}{
		{"root", ""},
		{"root", "A"},
		{"root", "a.b"},
		{"root", "a:b"},
		{"root", "a_b"},
		{"root", "-a"},
		{"root:org", strings.Repeat("x", 64)},
	} {
		if errs := ValidateLogicalCluster(tc.parent, lc(tc.name)); len(errs) == 0 {
			t.Errorf("%q in %s was accepted", tc.name, tc.parent)
		}
	}
}

func TestValidateLogicalClusterStatus(t *testing.T) {
	ok := lc("a")
	ok.Status.Phase = tenancyv1alpha1.LogicalClusterTerminating
	if errs := ValidateLogicalCluster("root", ok); len(errs) != 0 {
		t.Errorf("phase Terminating: %v", errs)
	}
	bad := lc("a")
	bad.Status.Phase = "Sleeping"
	if errs := ValidateLogicalCluster("root", bad); len(errs) != 1 || errs[0].Field != "status.phase" {
		t.Errorf("phase Sleeping: %v", errs)
	}
}

func TestValidateLogicalClusterUpdate(t *testing.T) {
	old := lc("a")
	old.ResourceVersion = "1"
	renamed := old.DeepCopy()
	renamed.Name = "b"
	if errs := ValidateLogicalClusterUpdate("root", renamed, old); len(errs) == 0 {
		t.Error("a rename was accepted")
	}
	labeled := old.DeepCopy()
	labeled.Labels = map[string]string{"team": "x"}
	if errs := ValidateLogicalClusterUpdate("root", labeled, old); len(errs) != 0 {
		t.Errorf("adding a label: %v", errs)
	}
}

func TestStrategy(t *testing.T) {
	var s strategy
	obj := lc("a")
	obj.Status = tenancyv1alpha1.LogicalClusterStatus{Phase: tenancyv1alpha1.LogicalClusterReady, URL: "https://forged"}
	s.PrepareForCreate(t.Context(), obj)
	if obj.Status.Phase != tenancyv1alpha1.LogicalClusterInitializing || obj.Status.URL != "" {
		t.Errorf("a client set the status on create: %+v", obj.Status)
	}
	if len(obj.Finalizers) != 1 || obj.Finalizers[0] != tenancyv1alpha1.LogicalClusterFinalizer {
		t.Errorf("finalizers on create: %v", obj.Finalizers)
	}
	s.PrepareForCreate(t.Context(), obj)
	if len(obj.Finalizers) != 1 {
		t.Errorf("the finalizer was added twice: %v", obj.Finalizers)
	}

	old := obj.DeepCopy()
	updated := obj.DeepCopy()
	updated.Status.Phase = tenancyv1alpha1.LogicalClusterReady
	s.PrepareForUpdate(t.Context(), updated, old)
	if updated.Status != old.Status {
		t.Errorf("an update of the main resource changed the status to %+v", updated.Status)
	}
	statusUpdate := obj.DeepCopy()
	statusUpdate.Status.Phase = tenancyv1alpha1.LogicalClusterReady
	statusStrategy{s}.PrepareForUpdate(t.Context(), statusUpdate, old)
	if statusUpdate.Status.Phase != tenancyv1alpha1.LogicalClusterReady {
		t.Errorf("a status update did not change the status: %+v", statusUpdate.Status)
	}
}
