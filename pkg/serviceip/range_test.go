package serviceip

import (
	"net/netip"
	"testing"
)

// TestRange checks which addresses of a range Services get: all but the
// network address, the first, and the IPv4 broadcast address.
func TestRange(t *testing.T) {
	for _, tc := range []struct {
		prefix      string
		size        uint64
		first, last string
	}{
		{"10.96.0.0/12", 1<<20 - 3, "10.96.0.2", "10.111.255.254"},
		{"10.0.0.0/24", 253, "10.0.0.2", "10.0.0.254"},
		{"10.0.0.0/30", 1, "10.0.0.2", "10.0.0.2"},
		{"10.0.0.0/31", 0, "", ""},
		{"fd00::/120", 254, "fd00::2", "fd00::ff"},
		{"fd00::/48", 1<<62 - 2, "fd00::2", "fd00::3fff:ffff:ffff:ffff"},
	} {
		p := netip.MustParsePrefix(tc.prefix)
		if got := Size(p); got != tc.size {
			t.Errorf("Size(%s) = %d, want %d", tc.prefix, got, tc.size)
		}
		if tc.size == 0 {
			continue
		}
		first, last := Nth(p, 0), Nth(p, tc.size-1)
		if first.String() != tc.first || last.String() != tc.last || !p.Contains(first) || !p.Contains(last) {
			t.Errorf("%s: first %s, last %s; want %s, %s", tc.prefix, first, last, tc.first, tc.last)
		}
	}
}
