package web

import (
	"net/http"
	"net/netip"
	"strings"
)

// https reports whether the browser reached the portal over TLS: the public
// URL says so when it is set; otherwise this process terminated TLS, or a
// trusted proxy did and said so in X-Forwarded-Proto. Anyone else's header
// is ignored: a client could send it to us directly.
func (s *server) https(r *http.Request) bool {
	if s.publicURL != "" {
		return strings.HasPrefix(s.publicURL, "https:")
	}
	if r.TLS != nil {
		return true
	}
	// The proxy that faces the browser puts its scheme first.
	proto, _, _ := strings.Cut(r.Header.Get("X-Forwarded-Proto"), ",")
	return strings.EqualFold(strings.TrimSpace(proto), "https") && s.fromTrustedProxy(r)
}

func (s *server) fromTrustedProxy(r *http.Request) bool {
	peer, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	for _, p := range s.trustedProxies {
		if p.Contains(peer.Addr().Unmap()) {
			return true
		}
	}
	return false
}

// origin is the portal's own origin, the one its pages send in Origin.
func (s *server) origin(r *http.Request) string {
	if s.publicURL != "" {
		return s.publicURL
	}
	if s.https(r) {
		return "https://" + r.Host
	}
	return "http://" + r.Host
}

// fromOwnPage reports whether r comes from one of the portal's own pages, or
// from no page at all (a client that is not a browser). A foreign Origin
// always fails. Browsers send Origin on every POST but not on a plain GET, so
// a request without it that is to act on the session (acts) must not come,
// by its Sec-Fetch-Site, from another site or origin; with neither header it
// is an old browser or no browser, and the JSON-only rule still keeps forms out.
func (s *server) fromOwnPage(r *http.Request, acts bool) bool {
	if o := r.Header.Get("Origin"); o != "" {
		return strings.EqualFold(o, s.origin(r))
	}
	if !acts {
		return true
	}
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin":
		return true
	}
	return false
}

// fromPortal lets only the portal's own pages sign in and out: another page
// could otherwise sign a visitor in to its own account, or out of theirs.
func (s *server) fromPortal(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !s.fromOwnPage(r, true) {
			writeError(w, http.StatusForbidden, "sign-in and sign-out are accepted only from the portal's own pages")
			return
		}
		next(w, r)
	}
}
