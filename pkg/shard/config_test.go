package shard

import (
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/validation"
)

// TestNewChecksConfig checks that New refuses what would break the
// leases' guarantees, saying what to fix.
func TestNewChecksConfig(t *testing.T) {
	var leases Leases = &severable{}
	for _, tc := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"defaults", Config{Leases: leases, Identity: "hub-abcde"}, ""},
		{"no store", Config{Identity: "hub-abcde"}, "Config.Leases is nil"},
		{"no identity", Config{Leases: leases}, "must make a valid Lease name"},
		{"identity unfit for a name", Config{Leases: leases, Identity: "Hub_1"}, "must make a valid Lease name"},
		{"fractional lease duration", Config{Leases: leases, Identity: "a", LeaseDuration: 2500 * time.Millisecond}, "whole number of seconds"},
		{"renew deadline past the lease", Config{Leases: leases, Identity: "a", RenewDeadline: 8 * time.Second}, "renew deadline (8s) < lease duration (8s)"},
		{"retry past the renew deadline", Config{Leases: leases, Identity: "a", RetryPeriod: 6 * time.Second}, "retry period (6s) < renew deadline"},
	} {
		_, err := New(tc.cfg)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: got %v, want an error saying %q", tc.name, err, tc.want)
		}
	}
}

// TestNewIdentity checks that identities make valid Lease names and
// differ from one process to the next.
func TestNewIdentity(t *testing.T) {
	a, b := NewIdentity(), NewIdentity()
	if a == b {
		t.Errorf("two identities are both %q", a)
	}
	if errs := validation.IsDNS1123Subdomain(memberLeasePrefix + a); len(errs) > 0 {
		t.Errorf("identity %q makes an invalid Lease name: %v", a, errs)
	}
}
