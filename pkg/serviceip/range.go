package serviceip

import (
	"encoding/binary"
	"net/netip"
)

// maxBits bounds the addresses of a range that are used, so that their
// count fits a uint64: an IPv6 /64 offers 2^62 of its 2^64.
const maxBits = 62

// Size is how many addresses of p a Service may get: all but the network
// address and the first one after it, which kube-apiserver gives the
// kubernetes Service, and, in IPv4, the broadcast address; of an IPv6
// range, 2^62 at most.
func Size(p netip.Prefix) uint64 {
	bits := p.Addr().BitLen() - p.Bits()
	if bits > maxBits {
		bits = maxBits
	}
	total := uint64(1) << bits
	reserved := uint64(2)
	if p.Addr().Is4() && bits == p.Addr().BitLen()-p.Bits() {
		reserved++
	}
	if total <= reserved {
		return 0
	}
	return total - reserved
}

// Nth is the address a Service may get numbered n, from 0, of p.
func Nth(p netip.Prefix, n uint64) netip.Addr {
	a := p.Masked().Addr().As16()
	lo := binary.BigEndian.Uint64(a[8:])
	sum := lo + n + 2
	binary.BigEndian.PutUint64(a[8:], sum)
	if sum < lo {
		binary.BigEndian.PutUint64(a[:8], binary.BigEndian.Uint64(a[:8])+1)
	}
	addr := netip.AddrFrom16(a)
	if p.Addr().Is4() {
		return addr.Unmap()
	}
	return addr
}
