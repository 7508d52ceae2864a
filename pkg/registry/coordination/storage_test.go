package coordination

import (
	"testing"

	coordinationv1 "k8s.io/api/coordination/v1"
	"k8s.io/utils/ptr"

	"github.com/canopy-dev/canopy/internal/fieldtest"
)

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
			fieldtest.OnlyField(t, validateLease(&coordinationv1.Lease{Spec: tc.spec}), tc.want)
		})
	}
}
