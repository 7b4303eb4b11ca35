package fetch

import (
	"net"
	"net/url"
	"strings"
)

// defaultPorts are the ports a scheme's URLs mean when they name none.
var defaultPorts = map[string]string{"http": "80", "https": "443"}

// HostKey is the one name of the host serving u, for state kept per host
// (the politeness schedule, and with the scheme the robots.txt cache): in
// lower case, without the trailing dot of a fully qualified name, with its
// port only when it is not the scheme's default. So "example.com.",
// "EXAMPLE.com" and "example.com:443" are one host over https, while
// "example.com:8443" is another.
func HostKey(u *url.URL) string {
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	port := u.Port()
	if port == defaultPorts[strings.ToLower(u.Scheme)] {
		port = ""
	}
	if port != "" {
		return net.JoinHostPort(host, port)
	}
	if strings.Contains(host, ":") {
		return "[" + host + "]" // an IPv6 address keeps its brackets
	}
	return host
}
