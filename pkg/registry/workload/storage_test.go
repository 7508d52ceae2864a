package workload

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/canopy-dev/canopy/internal/fieldtest"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
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

func TestValidateLogicalClusters(t *testing.T) {
	for _, tc := range []struct {
		name     string
		clusters []string
		want     string
	}{
		{"none", nil, ""},
		{"its own", []string{"root:org"}, ""},
		{"below it", []string{"root:org:team", "root:org:other"}, ""},
		{"above it", []string{"root"}, "spec.logicalClusters[0]"},
		{"beside it", []string{"root:org:team", "root:organic"}, "spec.logicalClusters[1]"},
		{"not a path", []string{"org"}, "spec.logicalClusters[0]"},
		{"twice", []string{"root:org:team", "root:org:team"}, "spec.logicalClusters[1]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := &workloadv1alpha1.SyncTarget{Spec: workloadv1alpha1.SyncTargetSpec{Resources: workloadv1alpha1.DefaultResources, LogicalClusters: tc.clusters}}
			logicalcluster.SetOn(st, "root:org")
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

func TestValidateTaints(t *testing.T) {
	for _, tc := range []struct {
		name   string
		taints []corev1.Taint
		want   string
	}{
		{"none", nil, ""},
		{"both effects", []corev1.Taint{{Key: "example.com/maintenance", Value: "yes", Effect: corev1.TaintEffectNoSchedule}, {Key: "example.com/maintenance", Effect: corev1.TaintEffectNoExecute}}, ""},
		{"no key", []corev1.Taint{{Effect: corev1.TaintEffectNoSchedule}}, "spec.taints[0].key"},
		{"bad key", []corev1.Taint{{Key: "a b", Effect: corev1.TaintEffectNoSchedule}}, "spec.taints[0].key"},
		{"bad value", []corev1.Taint{{Key: "a", Value: "-x-", Effect: corev1.TaintEffectNoSchedule}}, "spec.taints[0].value"},
		{"no effect", []corev1.Taint{{Key: "a"}}, "spec.taints[0].effect"},
		{"PreferNoSchedule", []corev1.Taint{{Key: "a", Effect: corev1.TaintEffectPreferNoSchedule}}, "spec.taints[0].effect"},
		{"twice", []corev1.Taint{{Key: "a", Value: "1", Effect: corev1.TaintEffectNoSchedule}, {Key: "a", Value: "2", Effect: corev1.TaintEffectNoSchedule}}, "spec.taints[1]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := &workloadv1alpha1.SyncTarget{Spec: workloadv1alpha1.SyncTargetSpec{Resources: workloadv1alpha1.DefaultResources, Taints: tc.taints}}
			fieldtest.OnlyField(t, validateSyncTarget(st), tc.want)
		})
	}
}

func TestStampTaints(t *testing.T) {
	then := metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	now := then.Add(time.Hour)
	old := &workloadv1alpha1.SyncTarget{Spec: workloadv1alpha1.SyncTargetSpec{Taints: []corev1.Taint{
		{Key: "kept", Effect: corev1.TaintEffectNoExecute, TimeAdded: &then},
	}}}
	st := &workloadv1alpha1.SyncTarget{Spec: workloadv1alpha1.SyncTargetSpec{Taints: []corev1.Taint{
		{Key: "kept", Effect: corev1.TaintEffectNoExecute},
		{Key: "new", Effect: corev1.TaintEffectNoExecute},
		{Key: "given", Effect: corev1.TaintEffectNoExecute, TimeAdded: &then},
		{Key: "schedule", Effect: corev1.TaintEffectNoSchedule},
	}}}
	stampTaints(st, old, now)
	for i, want := range []*time.Time{&then.Time, &now, &then.Time, nil} {
		got := st.Spec.Taints[i].TimeAdded
		if (got == nil) != (want == nil) || got != nil && !got.Time.Equal(*want) {
			t.Errorf("%s: timeAdded %v, want %v", st.Spec.Taints[i].Key, got, want)
		}
	}
}
