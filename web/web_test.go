package web_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"encoding/base64"
	"encoding/json"
	"io/fs"
	"log/slog"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/graph"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
	"github.com/clausewatch/clausewatch/internal/session"
	"github.com/clausewatch/clausewatch/web"
)

func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }

var secret = []byte("web-test-secret-0123456789abcdef")

// env is the server's wiring: /graphql behind the session cookie, and the portal.
type env struct {
	svc *app.Service
	h   http.Handler
}

func newEnv(t *testing.T, d dbtest.Dialect) *env {
	return newEnvWith(t, d, session.NewHS256(secret, "", ""))
}

func newEnvWith(t *testing.T, d dbtest.Dialect, sessions app.SessionVerifier) *env {
	return newEnvOn(t, dbtest.Open(t, d), sessions, web.Options{})
}

// newEnvOn is one server process on store, its portal configured by portal
// (Service and Logger are filled in).
func newEnvOn(t *testing.T, store apptest.Store, sessions app.SessionVerifier, portal web.Options) *env {
	t.Helper()
	log := slog.New(slog.DiscardHandler)
	e := apptest.New(t, store, apptest.Configure(func(o *app.Options) { o.Sessions = sessions }))
	svc := e.Svc
	mux := http.NewServeMux()
	// Introspection on, as in the zero-setup mode: GET /graphql is then a page,
	// the most that a GET could ever get.
	portal.Service, portal.Logger = svc, log
	mux.Handle("/graphql", web.WithSessionCookie(portal, graph.NewHandler(graph.Options{Service: svc, Monitors: e.Mon, Logger: log, Introspection: true})))
	web.Register(mux, portal)
	return &env{svc: svc, h: mux}
}

// account makes an account and returns its email, a session token and an API key.
func (e *env) account(t *testing.T, name string) (email, token, key string) {
	t.Helper()
	email = name + "@example.com"
	a, err := e.svc.EnsureAccount(context.Background(), app.Identity{Subject: "test|" + name, Email: email})
	if err != nil {
		t.Fatal(err)
	}
	token = mint(t, "test|"+name, email, time.Hour)
	ck, err := e.svc.CreateKey(app.WithPrincipal(context.Background(), &app.Principal{Account: *a}), app.KeyCreate{Name: "k"})
	if err != nil {
		t.Fatal(err)
	}
	return email, token, ck.RawKey
}

func mint(t *testing.T, sub, email string, ttl time.Duration) string {
	t.Helper()
	tok, err := session.MintHS256(secret, sub, email, "", "", ttl)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func (e *env) serve(r *http.Request) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, r)
	return rec
}

func eachDialect(t *testing.T, f func(t *testing.T, e *env)) {
	for _, d := range dbtest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			f(t, newEnv(t, d))
		})
	}
}

const viewerQuery = `{"query":"{ viewer { email } }"}`

// The cookie is a credential only on a JSON POST without an Authorization
// header; anything a cross-site page could send with it runs unauthenticated.
func TestSessionCookieOnGraphQL(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		email, token, key := e.account(t, "alice")
		bobEmail, _, bobKey := e.account(t, "bob")
		expired := mint(t, "test|alice", email, -time.Hour)
		cases := []struct {
			name        string
			method      string
			contentType string
			body        string
			cookie      string
			bearer      string
			wantStatus  int
			wantEmail   string
		}{
			{"session cookie, JSON POST", "POST", "application/json", viewerQuery, token, "", 200, email},
			{"session cookie, JSON POST with charset", "POST", "application/json; charset=utf-8", viewerQuery, token, "", 200, email},
			{"session cookie, form-encoded POST", "POST", "application/x-www-form-urlencoded", "query=%7Bviewer%7Bemail%7D%7D", token, "", 401, ""},
			{"session cookie, text/plain POST", "POST", "text/plain", viewerQuery, token, "", 401, ""},
			{"session cookie, POST without content type", "POST", "", viewerQuery, token, "", 401, ""},
			{"session cookie, GET runs nothing", "GET", "", "", token, "", 200, ""},
			{"API key in the cookie", "POST", "application/json", viewerQuery, key, "", 401, ""},
			{"expired session in the cookie", "POST", "application/json", viewerQuery, expired, "", 401, ""},
			{"no cookie", "POST", "application/json", viewerQuery, "", "", 401, ""},
			{"bearer header wins over the cookie", "POST", "application/json", viewerQuery, token, bobKey, 200, bobEmail},
			{"bad bearer header is not rescued by the cookie", "POST", "application/json", viewerQuery, token, "nonsense", 401, ""},
		}
		for _, c := range cases {
			target := "/graphql"
			if c.method == "GET" {
				target += "?query=%7Bviewer%7Bemail%7D%7D"
			}
			r := httptest.NewRequest(c.method, target, strings.NewReader(c.body))
			if c.contentType != "" {
				r.Header.Set("Content-Type", c.contentType)
			}
			if c.cookie != "" {
				r.AddCookie(&http.Cookie{Name: web.CookieName, Value: c.cookie})
			}
			if c.bearer != "" {
				r.Header.Set("Authorization", "Bearer "+c.bearer)
			}
			rec := e.serve(r)
			if rec.Code != c.wantStatus {
				t.Errorf("%s: status %d, want %d (%s)", c.name, rec.Code, c.wantStatus, rec.Body)
				continue
			}
			if c.wantEmail == "" {
				if strings.Contains(rec.Body.String(), "@example.com") {
					t.Errorf("%s: the viewer leaked: %s", c.name, rec.Body)
				}
				continue
			}
			var got struct {
				Data struct{ Viewer struct{ Email string } }
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil || got.Data.Viewer.Email != c.wantEmail {
				t.Errorf("%s: viewer %q, want %q (%s)", c.name, got.Data.Viewer.Email, c.wantEmail, rec.Body)
			}
		}
	})
}

func TestSignIn(t *testing.T) {
	eachDialect(t, func(t *testing.T, e *env) {
		email, token, key := e.account(t, "carol")
		cases := []struct {
			name        string
			contentType string
			body        string
			tls         bool
			wantStatus  int
		}{
			{"session token", "application/json", `{"token":"` + token + `"}`, false, 200},
			{"session token over TLS", "application/json", `{"token":"` + token + `"}`, true, 200},
			{"form-encoded, as a cross-site form would", "application/x-www-form-urlencoded", "token=" + token, false, 415},
			{"API key", "application/json", `{"token":"` + key + `"}`, false, 401},
			{"expired session", "application/json", `{"token":"` + mint(t, "test|carol", email, -time.Hour) + `"}`, false, 401},
			{"session signed with another secret", "application/json", `{"token":"` + forged(t) + `"}`, false, 401},
			{"empty token", "application/json", `{"token":""}`, false, 401},
			{"not JSON", "application/json", `token`, false, 400},
		}
		for _, c := range cases {
			r := httptest.NewRequest("POST", "/session", strings.NewReader(c.body))
			r.Header.Set("Content-Type", c.contentType)
			if c.tls {
				r.TLS = &tls.ConnectionState{}
			}
			rec := e.serve(r)
			if rec.Code != c.wantStatus {
				t.Errorf("%s: status %d, want %d (%s)", c.name, rec.Code, c.wantStatus, rec.Body)
			}
			cookies := rec.Result().Cookies()
			if c.wantStatus != 200 {
				var body struct{ Error string }
				if len(cookies) != 0 || json.Unmarshal(rec.Body.Bytes(), &body) != nil || body.Error == "" {
					t.Errorf("%s: cookies %v, body %s: want no cookie and an error in words", c.name, cookies, rec.Body)
				}
				continue
			}
			if len(cookies) != 1 {
				t.Fatalf("%s: cookies %v", c.name, cookies)
			}
			k := cookies[0]
			if k.Name != web.CookieName || k.Value != token || !k.HttpOnly || k.SameSite != http.SameSiteStrictMode || k.Path != "/" || k.Secure != c.tls {
				t.Errorf("%s: cookie %+v", c.name, k)
			}
			if d := time.Until(k.Expires); d < 59*time.Minute || d > time.Hour {
				t.Errorf("%s: cookie expires in %v, want the token's hour", c.name, d)
			}
		}
	})
}

func forged(t *testing.T) string {
	tok, err := session.MintHS256([]byte("another-secret-0123456789abcdef!!"), "test|carol", "carol@example.com", "", "", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// With an identity provider configured, its token signs in the same way: the
// key set is served on loopback and the token is RS256.
func TestSignInWithIdentityProvider(t *testing.T) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	b64 := base64.RawURLEncoding.EncodeToString
	jwks, _ := json.Marshal(map[string]any{"keys": []any{map[string]any{
		"kty": "RSA", "kid": "k1", "alg": "RS256", "use": "sig", "n": b64(key.N.Bytes()), "e": b64(big.NewInt(int64(key.E)).Bytes()),
	}}})
	idp := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(jwks)
	}))
	defer idp.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	v, err := session.NewJWKS(ctx, idp.URL, "https://idp.test", "clausewatch")
	if err != nil {
		t.Fatal(err)
	}
	tok := jwt.NewWithClaims(jwt.SigningMethodRS256, jwt.MapClaims{"sub": "idp|7", "email": "dana@example.com",
		"iss": "https://idp.test", "aud": "clausewatch", "exp": time.Now().Add(time.Hour).Unix()})
	tok.Header["kid"] = "k1"
	token, err := tok.SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	e := newEnvWith(t, dbtest.SQLite, v)

	r := httptest.NewRequest("POST", "/session", strings.NewReader(`{"token":"`+token+`"}`))
	r.Header.Set("Content-Type", "application/json")
	rec := e.serve(r)
	cookies := rec.Result().Cookies()
	if rec.Code != 200 || len(cookies) != 1 || cookies[0].Value != token {
		t.Fatalf("sign in: %d %s, cookies %v", rec.Code, rec.Body, cookies)
	}
	r = httptest.NewRequest("POST", "/graphql", strings.NewReader(viewerQuery))
	r.Header.Set("Content-Type", "application/json")
	r.AddCookie(cookies[0])
	if rec := e.serve(r); rec.Code != 200 || !strings.Contains(rec.Body.String(), "dana@example.com") {
		t.Fatalf("graphql with the provider's cookie: %d %s", rec.Code, rec.Body)
	}
}

func TestSignOutClearsTheCookie(t *testing.T) {
	e := newEnv(t, dbtest.SQLite)
	rec := e.serve(httptest.NewRequest("DELETE", "/session", nil))
	cookies := rec.Result().Cookies()
	if rec.Code != http.StatusNoContent || len(cookies) != 1 || cookies[0].Name != web.CookieName || cookies[0].MaxAge >= 0 || cookies[0].Value != "" {
		t.Fatalf("status %d, cookies %+v", rec.Code, cookies)
	}
}

func TestPages(t *testing.T) {
	e := newEnv(t, dbtest.SQLite)
	rec := e.serve(httptest.NewRequest("GET", "/", nil))
	if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
		t.Fatalf("GET /: %d %s", rec.Code, rec.Header().Get("Content-Type"))
	}
	if csp := rec.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "frame-ancestors 'none'") {
		t.Errorf("CSP %q", csp)
	}
	etag := rec.Header().Get("ETag")
	r := httptest.NewRequest("GET", "/", nil)
	r.Header.Set("If-None-Match", etag)
	if rec := e.serve(r); etag == "" || rec.Code != http.StatusNotModified {
		t.Errorf("revalidation with ETag %q: %d, want 304", etag, rec.Code)
	}
	if rec := e.serve(httptest.NewRequest("POST", "/", nil)); rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST /: %d", rec.Code)
	}
	if rec := e.serve(httptest.NewRequest("GET", "/no-such-file.js", nil)); rec.Code != http.StatusNotFound {
		t.Errorf("GET /no-such-file.js: %d", rec.Code)
	}
}

// Browsers ask for /favicon.ico on pages that name no icon (/docs,
// /graphql): it is the portal's own icon, not a 404.
func TestFaviconIco(t *testing.T) {
	e := newEnv(t, dbtest.SQLite)
	want, err := os.ReadFile(filepath.Join("static", "favicon.svg"))
	if err != nil {
		t.Fatal(err)
	}
	rec := e.serve(httptest.NewRequest("GET", "/favicon.ico", nil))
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "image/svg+xml" || rec.Body.String() != string(want) {
		t.Errorf("GET /favicon.ico: %d %q, %d bytes", rec.Code, rec.Header().Get("Content-Type"), rec.Body.Len())
	}
}

// The first page is index.html and what it references: all of it local, all
// of it requested at once (modules are preloaded, so no import waits on
// another), and under 200 KB even uncompressed.
func TestFirstPageIsLocalAndSmall(t *testing.T) {
	e := newEnv(t, dbtest.SQLite)
	index := e.serve(httptest.NewRequest("GET", "/", nil)).Body.String()
	total := len(index)
	refs := regexp.MustCompile(`(?:src|href)="([^"#]+)"`).FindAllStringSubmatch(index, -1)
	if len(refs) == 0 {
		t.Fatal("index.html references nothing")
	}
	listed := map[string]bool{}
	for _, m := range refs {
		ref := m[1]
		if strings.Contains(ref, "//") {
			t.Errorf("index.html loads %s from elsewhere", ref)
			continue
		}
		listed["/"+strings.TrimPrefix(ref, "/")] = true
		rec := e.serve(httptest.NewRequest("GET", "/"+strings.TrimPrefix(ref, "/"), nil))
		if rec.Code != 200 {
			t.Errorf("%s: %d", ref, rec.Code)
		}
		total += rec.Body.Len()
	}
	if total > 200_000 {
		t.Errorf("first page is %d bytes, want under 200 KB", total)
	}
	// Every module the pages import is preloaded by index.html.
	_ = fs.WalkDir(os.DirFS("static"), ".", func(path string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".js") && !strings.HasPrefix(path, "vendor/") && !listed["/"+path] {
			t.Errorf("%s is not preloaded by index.html", path)
		}
		return err
	})
	t.Logf("first page: %d bytes in %d files", total, len(refs)+1)
}
