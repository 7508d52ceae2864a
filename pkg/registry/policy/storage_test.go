package policy

import (
	"context"
	"testing"

	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/canopy-dev/canopy/internal/fieldtest"
	"github.com/canopy-dev/canopy/pkg/registry/upstream"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/policy/poddisruptionbudget"
)

// TestValidatePodDisruptionBudget checks that budgets are validated by
// upstream's strategy, which names the field to fix.
func TestValidatePodDisruptionBudget(t *testing.T) {
	for _, tc := range []struct {
		name string
		spec policyv1.PodDisruptionBudgetSpec
		want string
	}{
		{"min available", policyv1.PodDisruptionBudgetSpec{MinAvailable: ptr.To(intstr.FromString("50%"))}, ""},
		{"max unavailable", policyv1.PodDisruptionBudgetSpec{MaxUnavailable: ptr.To(intstr.FromInt32(1))}, ""},
		{"both", policyv1.PodDisruptionBudgetSpec{MinAvailable: ptr.To(intstr.FromInt32(1)), MaxUnavailable: ptr.To(intstr.FromInt32(1))}, "spec"},
		{"negative", policyv1.PodDisruptionBudgetSpec{MinAvailable: ptr.To(intstr.FromInt32(-1))}, "spec.minAvailable"},
		{"over 100%", policyv1.PodDisruptionBudgetSpec{MaxUnavailable: ptr.To(intstr.FromString("150%"))}, "spec.maxUnavailable"},
		{"not a percentage", policyv1.PodDisruptionBudgetSpec{MaxUnavailable: ptr.To(intstr.FromString("half"))}, "spec.maxUnavailable"},
		{"selector", policyv1.PodDisruptionBudgetSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "a b"}}}, "spec.selector.matchLabels"},
		{"eviction policy", policyv1.PodDisruptionBudgetSpec{UnhealthyPodEvictionPolicy: ptr.To[policyv1.UnhealthyPodEvictionPolicyType]("Never")}, "spec.unhealthyPodEvictionPolicy"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pdb := &policyv1.PodDisruptionBudget{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"}, Spec: tc.spec}
			fieldtest.OnlyField(t, upstream.For(poddisruptionbudget.Strategy).Validate(context.Background(), pdb), tc.want)
		})
	}
}
