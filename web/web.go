// Package web is the developer portal, the third face of the service beside
// rest and graph: static pages embedded in the binary (plain HTML, CSS and ES
// modules, no build step) that talk only to /graphql, signed in with the
// account session kept in an HttpOnly cookie. It imports only app.
package web

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"log/slog"
	"net/http"
	"net/netip"

	"github.com/clausewatch/clausewatch/internal/app"
)

//go:embed static
var embedded embed.FS

// static is the portal's files, rooted at web/static.
var static, _ = fs.Sub(embedded, "static")

// csp lets the pages load only their own files and talk only to their own
// origin: nothing from a CDN, no inline script, no framing.
const csp = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// Options configures the portal.
type Options struct {
	Service *app.Service
	Logger  *slog.Logger
	// PublicURL is the origin browsers reach the portal at, when a proxy
	// stands in front (config.Config.PublicURL); empty: the request's own.
	PublicURL string
	// TrustedProxies are the peers whose X-Forwarded-Proto is believed.
	TrustedProxies []netip.Prefix
}

type server struct {
	svc            *app.Service
	log            *slog.Logger
	publicURL      string
	trustedProxies []netip.Prefix
}

func newServer(o Options) *server {
	s := &server{svc: o.Service, log: o.Logger, publicURL: o.PublicURL, trustedProxies: o.TrustedProxies}
	if s.log == nil {
		s.log = slog.Default()
	}
	return s
}

// Register mounts the portal on mux: the pages at / and the session at
// /session (POST signs in, DELETE signs out). Mount /graphql through
// WithSessionCookie, with the same Options, so the pages' requests are
// authenticated.
func Register(mux *http.ServeMux, o Options) {
	s := newServer(o)
	mux.HandleFunc("POST /session", s.fromPortal(s.signIn))
	mux.HandleFunc("DELETE /session", s.fromPortal(s.signOut))
	files := pages()
	mux.Handle("/", files)
	// Browsers ask for /favicon.ico on every page that names no icon (/docs,
	// /graphql): the portal's icon answers it.
	mux.Handle("GET /favicon.ico", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r = r.Clone(r.Context())
		r.URL.Path = "/favicon.svg"
		files.ServeHTTP(w, r)
	}))
}

// pages serves the embedded files. They are revalidated on every load (an
// ETag of their content answers 304), so a new binary is never hidden behind
// a stale cache.
func pages() http.Handler {
	etags := map[string]string{}
	_ = fs.WalkDir(static, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(static, path)
		sum := sha256.Sum256(b)
		etags["/"+path] = `"` + hex.EncodeToString(sum[:8]) + `"`
		return err
	})
	etags["/"] = etags["/index.html"]
	files := http.FileServerFS(static)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			writeError(w, http.StatusMethodNotAllowed, "method not allowed")
			return
		}
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-cache")
		if etag, ok := etags[r.URL.Path]; ok {
			h.Set("ETag", etag)
		}
		files.ServeHTTP(w, r)
	})
}
