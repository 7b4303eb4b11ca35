package web_test

import (
	"crypto/tls"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/apptest"
	"github.com/clausewatch/clausewatch/internal/session"
	"github.com/clausewatch/clausewatch/web"
)

// request builds a request to e's handler; the zero values leave a header out.
type request struct {
	method, path, body     string
	cookie, bearer, origin string
	fetchSite              string
}

func (r request) build() *http.Request {
	req := httptest.NewRequest(r.method, r.path, strings.NewReader(r.body))
	if r.body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if r.cookie != "" {
		req.AddCookie(&http.Cookie{Name: web.CookieName, Value: r.cookie})
	}
	if r.bearer != "" {
		req.Header.Set("Authorization", "Bearer "+r.bearer)
	}
	if r.origin != "" {
		req.Header.Set("Origin", r.origin)
	}
	if r.fetchSite != "" {
		req.Header.Set("Sec-Fetch-Site", r.fetchSite)
	}
	return req
}

func viewer(cookie, bearer string) request {
	return request{method: "POST", path: "/graphql", body: viewerQuery, cookie: cookie, bearer: bearer}
}

// viewerEmail is the email /graphql answered for, "" when it answered none.
func viewerEmail(t *testing.T, rec *httptest.ResponseRecorder) string {
	t.Helper()
	var got struct {
		Data struct{ Viewer *struct{ Email string } }
	}
	if json.Unmarshal(rec.Body.Bytes(), &got) != nil || got.Data.Viewer == nil {
		return ""
	}
	return got.Data.Viewer.Email
}

// Sign-out ends the session on the server, on every replica: the same token
// is refused afterwards as a cookie and as a bearer, while another session of
// the same account goes on.
func TestSignOutRevokesTheSession(t *testing.T) {
	for _, d := range dbtest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			store := dbtest.Open(t, d)
			other := store
			if d == dbtest.Postgres {
				other = dbtest.Open(t, d) // another process's pool on the same database
			}
			verifier := session.NewHS256(secret, "", "")
			e := newEnvOn(t, store, verifier, web.Options{})
			replica := newEnvOn(t, other, verifier, web.Options{})
			email, token, _ := e.account(t, "erin")
			second := mint(t, "test|erin", email, 2*time.Hour)

			rec := e.serve(request{method: "DELETE", path: "/session", cookie: token}.build())
			cookies := rec.Result().Cookies()
			if rec.Code != http.StatusNoContent || len(cookies) != 1 || cookies[0].MaxAge >= 0 || cookies[0].Value != "" {
				t.Fatalf("sign out: %d %s, cookies %+v", rec.Code, rec.Body, cookies)
			}
			for name, srv := range map[string]*env{"this replica": e, "another replica": replica} {
				for what, r := range map[string]request{"as cookie": viewer(token, ""), "as bearer": viewer("", token)} {
					if rec := srv.serve(r.build()); rec.Code != http.StatusUnauthorized || viewerEmail(t, rec) != "" {
						t.Errorf("%s: signed-out token %s: %d %s, want 401", name, what, rec.Code, rec.Body)
					}
				}
				signIn := request{method: "POST", path: "/session", body: `{"token":"` + token + `"}`}
				if rec := srv.serve(signIn.build()); rec.Code != http.StatusUnauthorized || len(rec.Result().Cookies()) != 0 {
					t.Errorf("%s: signing in again with the signed-out token: %d, want 401 and no cookie", name, rec.Code)
				}
				// Nor in any other spelling of the same signature: base64url's
				// unused low bits of the last character, or padding.
				for _, tok := range apptest.Respellings(t, token) {
					for what, r := range map[string]request{"as cookie": viewer(tok, ""), "as bearer": viewer("", tok)} {
						if rec := srv.serve(r.build()); rec.Code != http.StatusUnauthorized || viewerEmail(t, rec) != "" {
							t.Errorf("%s: signed-out token respelled %s %s: %d %s, want 401", name, tok[len(tok)-4:], what, rec.Code, rec.Body)
						}
					}
					signIn := request{method: "POST", path: "/session", body: `{"token":"` + tok + `"}`}
					if rec := srv.serve(signIn.build()); rec.Code != http.StatusUnauthorized || len(rec.Result().Cookies()) != 0 {
						t.Errorf("%s: signing in with the signed-out token respelled %s: %d, want 401 and no cookie", name, tok[len(tok)-4:], rec.Code)
					}
				}
				if rec := srv.serve(viewer(second, "").build()); viewerEmail(t, rec) != email {
					t.Errorf("%s: the account's other session: %d %s, want it signed in", name, rec.Code, rec.Body)
				}
			}
		})
	}
}

// The cookie is Secure whenever the browser is on https: this process
// terminates TLS, the public URL is https, or a trusted proxy says so in
// X-Forwarded-Proto. The header from anyone else changes nothing.
func TestSecureCookieBehindAProxy(t *testing.T) {
	proxies := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}
	cases := []struct {
		name       string
		portal     web.Options
		tls        bool
		remote     string
		proto      string
		wantSecure bool
	}{
		{"plain http", web.Options{}, false, "192.0.2.1:5000", "", false},
		{"TLS here", web.Options{}, true, "192.0.2.1:5000", "", true},
		{"https public URL", web.Options{PublicURL: "https://cw.example.com"}, false, "192.0.2.1:5000", "", true},
		{"trusted proxy terminated TLS", web.Options{TrustedProxies: proxies}, false, "10.1.2.3:5000", "https", true},
		{"trusted proxy, chain of schemes", web.Options{TrustedProxies: proxies}, false, "10.1.2.3:5000", "https, http", true},
		// Only the first value counts: the proxy facing the browser wrote it.
		{"trusted proxy, chain behind plain http", web.Options{TrustedProxies: proxies}, false, "10.1.2.3:5000", "http, https", false},
		{"trusted proxy on plain http", web.Options{TrustedProxies: proxies}, false, "10.1.2.3:5000", "http", false},
		{"X-Forwarded-Proto from an untrusted peer", web.Options{TrustedProxies: proxies}, false, "192.0.2.1:5000", "https", false},
		{"X-Forwarded-Proto with no proxy trusted", web.Options{}, false, "10.1.2.3:5000", "https", false},
	}
	verifier := session.NewHS256(secret, "", "")
	for _, c := range cases {
		e := newEnvOn(t, dbtest.Open(t, dbtest.SQLite), verifier, c.portal)
		_, token, _ := e.account(t, "frank")
		for _, r := range []request{
			{method: "POST", path: "/session", body: `{"token":"` + token + `"}`},
			{method: "DELETE", path: "/session", cookie: token},
		} {
			req := r.build()
			req.RemoteAddr = c.remote
			if c.tls {
				req.TLS = &tls.ConnectionState{}
			}
			if c.proto != "" {
				req.Header.Set("X-Forwarded-Proto", c.proto)
			}
			rec := e.serve(req)
			cookies := rec.Result().Cookies()
			if rec.Code >= 300 || len(cookies) != 1 || cookies[0].Secure != c.wantSecure {
				t.Errorf("%s: %s /session: %d, cookies %+v; want Secure=%v", c.name, r.method, rec.Code, cookies, c.wantSecure)
			}
		}
	}
}

// A request with the session cookie from another origin is refused, whatever
// its method; without an Origin, Sec-Fetch-Site decides for a request the
// cookie would authenticate. Bearer requests are not the cookie's business.
func TestSessionCookieOnlyFromThePortalsOrigin(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		_, token, key := e.account(t, "gina")
		proxied := newEnvOn(t, dbtest.Open(t, dbtest.SQLite), session.NewHS256(secret, "", ""),
			web.Options{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("192.0.2.0/24")}})
		public := newEnvOn(t, dbtest.Open(t, dbtest.SQLite), session.NewHS256(secret, "", ""),
			web.Options{PublicURL: "https://cw.example.com"})
		_, proxiedToken, _ := proxied.account(t, "gina")
		_, publicToken, _ := public.account(t, "gina")
		get := request{method: "GET", path: "/graphql?query=%7Bviewer%7Bemail%7D%7D", cookie: token}
		withOrigin := func(r request, origin string) request { r.origin = origin; return r }
		withSite := func(r request, site string) request { r.fetchSite = site; return r }
		cases := []struct {
			name       string
			srv        *env
			req        request
			forwarded  bool
			wantStatus int
			wantEmail  bool
		}{
			// httptest's requests are to http://example.com.
			{"the portal's own origin", e, withOrigin(viewer(token, ""), "http://example.com"), false, 200, true},
			{"no Origin, same-origin fetch", e, withSite(viewer(token, ""), "same-origin"), false, 200, true},
			{"no Origin, not a browser", e, viewer(token, ""), false, 200, true},
			{"another site", e, withOrigin(viewer(token, ""), "https://evil.example"), false, 403, false},
			{"a sibling host, same site", e, withOrigin(viewer(token, ""), "http://blog.example.com"), false, 403, false},
			{"another port", e, withOrigin(viewer(token, ""), "http://example.com:8081"), false, 403, false},
			{"another scheme", e, withOrigin(viewer(token, ""), "https://example.com"), false, 403, false},
			{"an opaque origin", e, withOrigin(viewer(token, ""), "null"), false, 403, false},
			{"a GET from another origin", e, withOrigin(get, "https://evil.example"), false, 403, false},
			{"no Origin, same-site fetch", e, withSite(viewer(token, ""), "same-site"), false, 403, false},
			{"no Origin, cross-site fetch", e, withSite(viewer(token, ""), "cross-site"), false, 403, false},
			{"a GET without Origin is a navigation", e, withSite(get, "same-site"), false, 200, false},
			{"bearer from another origin", e, withOrigin(viewer("", key), "https://evil.example"), false, 200, true},
			{"bearer beside the cookie from another origin", e, withOrigin(viewer(token, key), "https://evil.example"), false, 200, true},
			{"https through a trusted proxy", proxied, withOrigin(viewer(proxiedToken, ""), "https://example.com"), true, 200, true},
			{"http Origin through a trusted https proxy", proxied, withOrigin(viewer(proxiedToken, ""), "http://example.com"), true, 403, false},
			{"the public URL", public, withOrigin(viewer(publicToken, ""), "https://cw.example.com"), false, 200, true},
			{"the request's host when a public URL is set", public, withOrigin(viewer(publicToken, ""), "http://example.com"), false, 403, false},
		}
		for _, c := range cases {
			req := c.req.build()
			if c.forwarded {
				req.RemoteAddr = "192.0.2.9:4000"
				req.Header.Set("X-Forwarded-Proto", "https")
			}
			rec := c.srv.serve(req)
			if rec.Code != c.wantStatus {
				t.Errorf("%s: status %d, want %d (%s)", c.name, rec.Code, c.wantStatus, rec.Body)
				continue
			}
			got := viewerEmail(t, rec)
			if c.wantEmail != (got != "") || strings.Contains(rec.Body.String(), "@example.com") && !c.wantEmail {
				t.Errorf("%s: viewer %q (%s)", c.name, got, rec.Body)
			}
			if c.wantStatus == 403 {
				var body struct {
					Errors []struct{ Extensions struct{ Code string } }
				}
				if json.Unmarshal(rec.Body.Bytes(), &body) != nil || len(body.Errors) != 1 || body.Errors[0].Extensions.Code != "FORBIDDEN" {
					t.Errorf("%s: body %s, want one FORBIDDEN error", c.name, rec.Body)
				}
			}
		}
	})
}

// Only the portal's own pages sign in and out: another page can neither sign
// a visitor in to its own account nor out of theirs.
func TestSessionChangesOnlyFromThePortalsOrigin(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		email, token, _ := e.account(t, "hana")
		_, mallory, _ := e.account(t, "mallory1")
		for _, c := range []struct {
			name   string
			origin string
			site   string
		}{
			{"another site", "https://evil.example", ""},
			{"a sibling host", "http://blog.example.com", ""},
			{"no Origin, same-site", "", "same-site"},
			{"no Origin, cross-site", "", "cross-site"},
		} {
			in := request{method: "POST", path: "/session", body: `{"token":"` + mallory + `"}`, origin: c.origin, fetchSite: c.site}
			if rec := e.serve(in.build()); rec.Code != http.StatusForbidden || len(rec.Result().Cookies()) != 0 {
				t.Errorf("%s: sign-in: %d, cookies %v; want 403 and no cookie", c.name, rec.Code, rec.Result().Cookies())
			}
			out := request{method: "DELETE", path: "/session", cookie: token, origin: c.origin, fetchSite: c.site}
			if rec := e.serve(out.build()); rec.Code != http.StatusForbidden || len(rec.Result().Cookies()) != 0 {
				t.Errorf("%s: sign-out: %d, cookies %v; want 403 and no cookie", c.name, rec.Code, rec.Result().Cookies())
			}
		}
		if rec := e.serve(viewer(token, "").build()); viewerEmail(t, rec) != email {
			t.Errorf("after refused sign-outs the session is gone: %d %s", rec.Code, rec.Body)
		}
	})
}

// A sign-in link never silently replaces the session of another account: the
// server answers 409 with both addresses until the portal, having asked the
// person, sends switchAccount. The same account, or no live session, signs in
// at once.
func TestSignInOverAnotherAccountNeedsConfirmation(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		email, token, _ := e.account(t, "ivan")
		malloryEmail, mallory, _ := e.account(t, "mallory2")
		again := mint(t, "test|ivan", email, 2*time.Hour)
		expired := mint(t, "test|ivan", email, -time.Hour)
		signIn := func(cookie, tok string, switchAccount bool) *httptest.ResponseRecorder {
			body, _ := json.Marshal(map[string]any{"token": tok, "switchAccount": switchAccount})
			return e.serve(request{method: "POST", path: "/session", body: string(body), cookie: cookie, origin: "http://example.com"}.build())
		}

		rec := signIn(token, mallory, false)
		var conflict struct{ Error, CurrentEmail, NewEmail string }
		if rec.Code != http.StatusConflict || len(rec.Result().Cookies()) != 0 ||
			json.Unmarshal(rec.Body.Bytes(), &conflict) != nil || conflict.Error == "" ||
			conflict.CurrentEmail != email || conflict.NewEmail != malloryEmail {
			t.Errorf("another account over a live session: %d %s, cookies %v; want 409 naming both and no cookie", rec.Code, rec.Body, rec.Result().Cookies())
		}
		for _, c := range []struct {
			name          string
			cookie, token string
			switchAccount bool
		}{
			{"another account, confirmed", token, mallory, true},
			{"the same account again", token, again, false},
			{"over an expired session", expired, mallory, false},
			{"over no session", "", mallory, false},
		} {
			rec := signIn(c.cookie, c.token, c.switchAccount)
			cookies := rec.Result().Cookies()
			if rec.Code != http.StatusOK || len(cookies) != 1 || cookies[0].Value != c.token {
				t.Errorf("%s: %d %s, cookies %v; want 200 and the new cookie", c.name, rec.Code, rec.Body, cookies)
			}
		}
	})
}

// The sign-in body is exactly {"token", "switchAccount"?}: a key it does not
// know or anything after the object is refused with 400 and no
// cookie, before the token is looked at.
func TestSignInBodyIsStrict(t *testing.T) {
	e := newEnv(t, dbtest.SQLite)
	_, token, _ := e.account(t, "jo")
	for name, body := range map[string]string{
		"unknown key":     `{"token":"` + token + `","admin":true}`,
		"trailing value":  `{"token":"` + token + `"} {}`,
		"trailing bytes":  `{"token":"` + token + `"}x`,
		"not an object":   `["` + token + `"]`,
		"token not text":  `{"token":1}`,
		"empty":           ` `,
		"cut short":       `{"token":"` + token,
		"switch not bool": `{"token":"` + token + `","switchAccount":"yes"}`,
	} {
		rec := e.serve(request{method: "POST", path: "/session", body: body, origin: "http://example.com"}.build())
		if rec.Code != http.StatusBadRequest || len(rec.Result().Cookies()) != 0 {
			t.Errorf("%s: %d %s, cookies %v; want 400 and no cookie", name, rec.Code, rec.Body, rec.Result().Cookies())
		}
	}
	rec := e.serve(request{method: "POST", path: "/session", body: `{"token":"` + token + `"}` + "\n", origin: "http://example.com"}.build())
	if rec.Code != http.StatusOK {
		t.Errorf("the body with a final newline: %d %s, want 200", rec.Code, rec.Body)
	}
}
