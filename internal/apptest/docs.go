package apptest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// TermsPage is the HTML served at /terms: navigation around a main part
// holding clauses of several categories.
const TermsPage = `<!doctype html><html><head><title>Example Terms of Service</title></head><body>
<nav><a href="/">Home</a> <a href="/pricing">Pricing</a></nav>
<main><h1>Terms of Service</h1>
<p>By using the service you agree to these terms.</p>
<p>We may change these terms at any time without notice.</p>
<p>We may terminate your account at any time for any reason.</p>
<p>Any dispute shall be resolved by binding arbitration and you waive any class action.</p>
<p>These terms are governed by the laws of the State of Delaware.</p>
<p>In no event shall we be liable for any indirect or consequential damages.</p>
</main><footer>© Example</footer></body></html>`

// NavPage is a page with no sentence read as a clause: a text that is not a
// legal document (it gets no grade).
const NavPage = `<html><head><title>Shop</title></head><body><main><h1>Shop</h1>
<p>Home</p><p>Pricing</p><p>About us</p></main></body></html>`

// Page is what the document server answers at one path. Like a real server
// it answers 304 to a conditional GET naming its ETag.
type Page struct {
	Status      int // 0 is 200
	ContentType string
	Body        string
	Header      http.Header // extra response headers (ETag, Last-Modified, ...)
}

// ServeHTTP writes the page.
func (p Page) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	for k, v := range p.Header {
		w.Header()[k] = v
	}
	if etag := p.Header.Get("ETag"); etag != "" && r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	if p.ContentType != "" {
		w.Header().Set("Content-Type", p.ContentType)
	}
	status := p.Status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	io.WriteString(w, p.Body)
}

// Docs is the public web as the tests see it: an HTTP server on 127.0.0.1,
// allowlisted in the service's fetcher. Pages can be set per path at any
// time; unknown paths answer 404. It counts the requests per path.
//
// Served from the start: /terms (TermsPage), /broken (500), /image (a PNG,
// unreadable as a document).
type Docs struct {
	srv   *httptest.Server
	mu    sync.Mutex
	pages map[string]http.Handler
	hits  map[string]int
}

func newDocs(t testing.TB) *Docs {
	d := &Docs{pages: map[string]http.Handler{}, hits: map[string]int{}}
	d.Set("/terms", Page{ContentType: "text/html; charset=utf-8", Body: TermsPage})
	d.Set("/broken", Page{Status: http.StatusInternalServerError, ContentType: "text/plain", Body: "boom"})
	d.Set("/image", Page{ContentType: "image/png", Body: "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"})
	d.srv = httptest.NewServer(http.HandlerFunc(d.serve))
	t.Cleanup(d.srv.Close)
	return d
}

func (d *Docs) serve(w http.ResponseWriter, r *http.Request) {
	d.mu.Lock()
	h, ok := d.pages[r.URL.Path]
	d.hits[r.URL.Path]++
	d.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	h.ServeHTTP(w, r)
}

// Set serves p at path from now on.
func (d *Docs) Set(path string, p Page) { d.Handle(path, p) }

// Handle serves path with h from now on (stalls, per-request answers, ...).
func (d *Docs) Handle(path string, h http.Handler) {
	d.mu.Lock()
	d.pages[path] = h
	d.mu.Unlock()
}

// Hits is how many requests path has had.
func (d *Docs) Hits(path string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.hits[path]
}

// URL is the absolute URL of path.
func (d *Docs) URL(path string) string { return d.srv.URL + path }

// Addr is the server's host:port, as an allow-list names it.
func (d *Docs) Addr() string { return strings.TrimPrefix(d.srv.URL, "http://") }

// Stall holds a request until the client gives up (or a long backstop
// passes, so a broken client cannot hang the server's Close).
func Stall(w http.ResponseWriter, r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-time.After(10 * time.Second):
	}
}
