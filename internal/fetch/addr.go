package fetch

import (
	"net/netip"
	"strings"
)

// nonPublic lists the address blocks a fetch may never reach: they are not
// on the public internet, or they are the well-known addresses of cloud
// instance-metadata services. IPv6 blocks that carry an IPv4 address
// (IPv4-mapped, 6to4, NAT64, Teredo) are handled in IsPublicIP by checking
// the embedded address.
var nonPublic = mustPrefixes(
	// IPv4
	"0.0.0.0/8",          // "this network", unspecified
	"10.0.0.0/8",         // private
	"100.64.0.0/10",      // carrier-grade NAT (also Alibaba metadata 100.100.100.200)
	"127.0.0.0/8",        // loopback
	"169.254.0.0/16",     // link-local (AWS/GCP/Azure metadata 169.254.169.254)
	"172.16.0.0/12",      // private
	"192.0.0.0/24",       // IETF protocol assignments (Oracle metadata 192.0.0.192)
	"192.0.2.0/24",       // documentation TEST-NET-1
	"192.31.196.0/24",    // AS112
	"192.52.193.0/24",    // AMT
	"192.88.99.0/24",     // 6to4 relay anycast
	"192.168.0.0/16",     // private
	"192.175.48.0/24",    // AS112 direct delegation
	"198.18.0.0/15",      // benchmarking
	"198.51.100.0/24",    // documentation TEST-NET-2
	"203.0.113.0/24",     // documentation TEST-NET-3
	"224.0.0.0/4",        // multicast
	"240.0.0.0/4",        // reserved, broadcast
	"168.63.129.16/32",   // Azure wire server / platform metadata
	"100.100.100.200/32", // Alibaba Cloud metadata (inside CGNAT too)
	// IPv6
	"::/128",         // unspecified
	"::1/128",        // loopback
	"::/96",          // deprecated IPv4-compatible
	"64:ff9b:1::/48", // local-use NAT64
	"100::/64",       // discard-only
	"2001:2::/48",    // benchmarking
	"2001:10::/28",   // ORCHID
	"2001:20::/28",   // ORCHIDv2
	"2001:db8::/32",  // documentation
	"3fff::/20",      // documentation (RFC 9637)
	"5f00::/16",      // segment routing SIDs
	"fc00::/7",       // unique local (AWS metadata fd00:ec2::254)
	"fe80::/10",      // link-local
	"fec0::/10",      // deprecated site-local
	"ff00::/8",       // multicast
)

var (
	globalUnicast6 = netip.MustParsePrefix("2000::/3")
	nat64          = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour      = netip.MustParsePrefix("2002::/16")
	teredo         = netip.MustParsePrefix("2001::/32")
)

func mustPrefixes(ss ...string) []netip.Prefix {
	out := make([]netip.Prefix, len(ss))
	for i, s := range ss {
		out[i] = netip.MustParsePrefix(s)
	}
	return out
}

// IsPublicIP reports whether ip is an address on the public internet that a
// fetch may connect to. It is a pure function: it never resolves or dials.
// Loopback, private, link-local, carrier-grade NAT, multicast, unspecified,
// documentation, benchmarking and other special-purpose blocks are refused,
// as are cloud metadata addresses and any IPv6 form (IPv4-mapped, 6to4,
// NAT64, Teredo) that embeds a refused IPv4 address.
func IsPublicIP(ip netip.Addr) bool {
	if !ip.IsValid() || ip.Zone() != "" {
		return false
	}
	ip = ip.Unmap() // ::ffff:a.b.c.d
	if ip.Is6() {
		b := ip.As16()
		switch {
		case nat64.Contains(ip):
			return IsPublicIP(netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}))
		case sixToFour.Contains(ip):
			return IsPublicIP(netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]}))
		case teredo.Contains(ip):
			server := netip.AddrFrom4([4]byte{b[4], b[5], b[6], b[7]})
			client := netip.AddrFrom4([4]byte{^b[12], ^b[13], ^b[14], ^b[15]})
			return IsPublicIP(server) && IsPublicIP(client)
		}
		if !globalUnicast6.Contains(ip) {
			return false
		}
	}
	for _, p := range nonPublic {
		if p.Contains(ip) {
			return false
		}
	}
	return true
}

// numericHost reports whether host (no port, no brackets) is written as a
// number rather than a name: a canonical dotted quad, or one of the legacy
// forms inet_aton accepts such as 2130706433, 0x7f.1 or 0177.0.0.1, or any
// name whose last label is numeric (never a valid DNS name).
func numericHost(host string) bool {
	host = strings.TrimSuffix(host, ".")
	labels := strings.Split(host, ".")
	last := labels[len(labels)-1]
	return isNumberLabel(last)
}

func isNumberLabel(s string) bool {
	if s == "" {
		return false
	}
	if len(s) > 2 && (s[:2] == "0x" || s[:2] == "0X") {
		for _, c := range s[2:] {
			if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
				return false
			}
		}
		return true
	}
	if s == "0x" || s == "0X" {
		return true
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// canonicalIPv4 reports whether host is a plain dotted-decimal IPv4 address
// without leading zeros (the only numeric form we accept).
func canonicalIPv4(host string) (netip.Addr, bool) {
	ip, err := netip.ParseAddr(host)
	if err != nil || !ip.Is4() {
		return netip.Addr{}, false
	}
	return ip, ip.String() == host
}
