package fetch

import (
	"net/netip"
	"testing"
)

// The classifier is tested as a pure function: no address here is dialled.
func TestIsPublicIP(t *testing.T) {
	tests := []struct {
		ip   string
		want bool
	}{
		// public
		{"93.184.215.14", true},
		{"8.8.8.8", true},
		{"1.1.1.1", true},
		{"2606:4700:4700::1111", true},
		{"2a00:1450:4001:82a::200e", true},
		{"::ffff:8.8.8.8", true},       // IPv4-mapped public
		{"2002:0808:0808::1", true},    // 6to4 of 8.8.8.8
		{"64:ff9b::808:808", true},     // NAT64 of 8.8.8.8
		{"100.63.255.255", true},       // just below CGNAT
		{"100.128.0.0", true},          // just above CGNAT
		{"172.32.0.1", true},           // just above 172.16/12
		{"198.20.0.1", true},           // just above 198.18/15
		{"2001:4860:4860::8888", true}, // Google DNS, inside 2001::/16 but not Teredo
		// loopback, unspecified
		{"127.0.0.1", false},
		{"127.255.255.254", false},
		{"0.0.0.0", false},
		{"0.1.2.3", false},
		{"::1", false},
		{"::", false},
		// private
		{"10.0.0.1", false},
		{"172.16.0.1", false},
		{"172.31.255.255", false},
		{"192.168.1.1", false},
		{"fc00::1", false},
		{"fd12:3456:789a::1", false},
		// link-local, CGNAT
		{"169.254.1.1", false},
		{"fe80::1", false},
		{"100.64.0.1", false},
		{"100.127.255.255", false},
		// cloud metadata
		{"169.254.169.254", false}, // AWS, GCP, Azure, DigitalOcean, ...
		{"169.254.170.2", false},   // ECS task metadata
		{"fd00:ec2::254", false},   // AWS IPv6 metadata
		{"100.100.100.200", false}, // Alibaba
		{"168.63.129.16", false},   // Azure wire server
		{"192.0.0.192", false},     // Oracle
		// multicast, broadcast, reserved
		{"224.0.0.1", false},
		{"239.255.255.250", false},
		{"255.255.255.255", false},
		{"240.0.0.1", false},
		{"ff02::1", false},
		// documentation, benchmarking, special
		{"192.0.2.1", false},
		{"198.51.100.7", false},
		{"203.0.113.9", false},
		{"198.18.0.1", false},
		{"198.19.255.255", false},
		{"192.88.99.1", false},
		{"2001:db8::1", false},
		{"3fff::1", false},
		{"100::1", false},
		{"fec0::1", false},
		// IPv6 embeddings of refused IPv4 addresses
		{"::ffff:127.0.0.1", false},
		{"::ffff:169.254.169.254", false},
		{"::ffff:10.0.0.1", false},
		{"::127.0.0.1", false},                          // IPv4-compatible (deprecated)
		{"2002:7f00:0001::1", false},                    // 6to4 of 127.0.0.1
		{"2002:a9fe:a9fe::1", false},                    // 6to4 of 169.254.169.254
		{"2002:c0a8:0101::", false},                     // 6to4 of 192.168.1.1
		{"64:ff9b::7f00:1", false},                      // NAT64 of 127.0.0.1
		{"64:ff9b::a9fe:a9fe", false},                   // NAT64 of 169.254.169.254
		{"64:ff9b:1::a00:1", false},                     // local-use NAT64
		{"2001:0:4136:e378:8000:63bf:80ff:fffe", false}, // Teredo, client 127.0.0.1
		{"2001:0:c000:0201::1", false},                  // Teredo, server in 192.0.2/24
		{"fe80::1%eth0", false},                         // zoned
	}
	for _, tt := range tests {
		ip, err := netip.ParseAddr(tt.ip)
		if err != nil {
			t.Fatalf("bad test address %q: %v", tt.ip, err)
		}
		if got := IsPublicIP(ip); got != tt.want {
			t.Errorf("IsPublicIP(%s) = %v, want %v", tt.ip, got, tt.want)
		}
	}
	if IsPublicIP(netip.Addr{}) {
		t.Error("the zero Addr must not be public")
	}
}

func TestNumericHost(t *testing.T) {
	for _, h := range []string{"2130706433", "0x7f.1", "0177.0.0.1", "127.1", "0x7f000001", "127.0.0.1", "1.2.3.4.", "017700000001", "example.123"} {
		if !numericHost(h) {
			t.Errorf("numericHost(%q) = false, want true", h)
		}
	}
	for _, h := range []string{"example.com", "123.example.com", "0x7f.example", "localhost", "xn--bcher-kva.example"} {
		if numericHost(h) {
			t.Errorf("numericHost(%q) = true, want false", h)
		}
	}
}

// guardControl is what the dialer runs on the resolved address, before the
// connection is attempted; it is called directly here, never dialling.
func TestGuardControl(t *testing.T) {
	tests := []struct {
		addr string
		ok   bool
	}{
		{"93.184.215.14:443", true},
		{"93.184.215.14:80", true},
		{"[2606:4700:4700::1111]:443", true},
		{"93.184.215.14:8080", false}, // only the standard ports
		{"127.0.0.1:80", false},
		{"10.1.2.3:443", false},
		{"169.254.169.254:80", false},
		{"[::1]:443", false},
		{"[::ffff:127.0.0.1]:80", false},
		{"[fd00:ec2::254]:80", false},
		{"garbage", false},
	}
	for _, tt := range tests {
		err := guardControl("tcp", tt.addr, nil)
		if (err == nil) != tt.ok {
			t.Errorf("guardControl(%q) = %v, want ok=%v", tt.addr, err, tt.ok)
		}
	}
}
