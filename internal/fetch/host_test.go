package fetch

import "testing"

// Every spelling of one host is one key; another port is another host.
func TestHostKey(t *testing.T) {
	for raw, want := range map[string]string{
		"https://example.com/terms":       "example.com",
		"https://example.com./terms":      "example.com",
		"https://example.com:443/terms":   "example.com",
		"https://EXAMPLE.Com.:443/terms":  "example.com",
		"HTTPS://example.com:443":         "example.com",
		"https://example.com:/terms":      "example.com",
		"http://example.com:80/":          "example.com",
		"http://example.com:443/":         "example.com:443",
		"https://example.com:80/":         "example.com:80",
		"https://example.com:8443/terms":  "example.com:8443",
		"https://example.com.:8443/terms": "example.com:8443",
		"https://user@example.com/":       "example.com",
		"https://[2001:DB8::1]/terms":     "[2001:db8::1]",
		"https://[2001:db8::1]:443/":      "[2001:db8::1]",
		"https://[2001:db8::1]:8443/":     "[2001:db8::1]:8443",
		"http://192.0.2.1:80/":            "192.0.2.1",
		"http://192.0.2.1:8080/":          "192.0.2.1:8080",
	} {
		if got := HostKey(mustURL(t, raw)); got != want {
			t.Errorf("HostKey(%s) = %q, want %q", raw, got, want)
		}
	}
}
