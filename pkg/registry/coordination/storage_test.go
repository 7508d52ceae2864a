package coordination

import (
	"context"
	"testing"

	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/canopy-dev/canopy/internal/fieldtest"
	"github.com/canopy-dev/canopy/pkg/registry/upstream"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/coordination/lease"
)

// TestValidateLease checks that Leases are validated by upstream's
// strategy, which names the field to fix.
func TestValidateLease(t *testing.T) {
	for _, tc := range []struct {
		name string
		spec coordinationv1.LeaseSpec
		want string
	}{
		{"valid", coordinationv1.LeaseSpec{HolderIdentity: ptr.To("a"), LeaseDurationSeconds: ptr.To[int32](15)}, ""},
		{"empty", coordinationv1.LeaseSpec{}, ""},
		{"duration 0", coordinationv1.LeaseSpec{LeaseDurationSeconds: ptr.To[int32](0)}, "spec.leaseDurationSeconds"},
		{"transitions", coordinationv1.LeaseSpec{LeaseTransitions: ptr.To[int32](-1)}, "spec.leaseTransitions"},
		{"preferred without strategy", coordinationv1.LeaseSpec{PreferredHolder: ptr.To("b")}, "spec.preferredHolder"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: "lock", Namespace: "default"}, Spec: tc.spec}
			fieldtest.OnlyField(t, upstream.For(lease.Strategy).Validate(context.Background(), l), tc.want)
		})
	}
}
