package fetch

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/clausewatch/clausewatch/internal/extract"
)

// Every network test talks to httptest servers on 127.0.0.1 only, made
// reachable through Options.AllowHosts.

type hitServer struct {
	*httptest.Server
	hits atomic.Int64
}

func mustServer(t *testing.T, h http.HandlerFunc) *hitServer {
	t.Helper()
	s := &hitServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func hostPort(t *testing.T, s *hitServer) string {
	t.Helper()
	u, err := url.Parse(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	return u.Host
}

func mustClient(t *testing.T, o Options, servers ...*hitServer) *Client {
	t.Helper()
	for _, s := range servers {
		o.AllowHosts = append(o.AllowHosts, hostPort(t, s))
	}
	return New(o)
}

func wantKind(t *testing.T, err error, k Kind) *Error {
	t.Helper()
	var fe *Error
	if !errors.As(err, &fe) {
		t.Fatalf("error = %v (%T), want *fetch.Error of kind %v", err, err, k)
	}
	if fe.Kind != k {
		t.Fatalf("kind = %v (%q), want %v", fe.Kind, fe.Error(), k)
	}
	if fe.Msg == "" {
		t.Fatal("empty user message")
	}
	return fe
}

const page = `<!doctype html><html><head><title>Terms</title></head><body><main><h1>Terms of Service</h1><p>These terms apply.</p></main></body></html>`

func TestFetchPage(t *testing.T) {
	var ua atomic.Value
	s := mustServer(t, func(w http.ResponseWriter, r *http.Request) {
		ua.Store(r.Header.Get("User-Agent"))
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("ETag", `"v1"`)
		w.Header().Set("Last-Modified", "Mon, 02 Jan 2026 15:04:05 GMT")
		fmt.Fprint(w, page)
	})
	c := mustClient(t, Options{}, s)
	resp, err := c.Fetch(context.Background(), Request{URL: s.URL + "/terms#top"})
	if err != nil {
		t.Fatal(err)
	}
	if string(resp.Body) != page {
		t.Errorf("body = %q", resp.Body)
	}
	if resp.ContentType != "text/html; charset=utf-8" || resp.ETag != `"v1"` || resp.LastModified == "" {
		t.Errorf("headers not kept: %+v", resp)
	}
	if resp.FinalURL != s.URL+"/terms" || resp.URL != s.URL+"/terms#top" {
		t.Errorf("URL %q, FinalURL %q", resp.URL, resp.FinalURL)
	}
	if resp.FetchedAt.IsZero() || resp.NotModified {
		t.Errorf("FetchedAt %v NotModified %v", resp.FetchedAt, resp.NotModified)
	}
	if got := ua.Load(); got != DefaultUserAgent {
		t.Errorf("User-Agent = %q", got)
	}
}

func TestConditionalGet(t *testing.T) {
	s := mustServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") == `"v1"` || r.Header.Get("If-Modified-Since") != "" {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", `"v1"`)
		fmt.Fprint(w, page)
	})
	c := mustClient(t, Options{}, s)
	for _, req := range []Request{{URL: s.URL, ETag: `"v1"`}, {URL: s.URL, LastModified: "Mon, 02 Jan 2026 15:04:05 GMT"}} {
		resp, err := c.Fetch(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if !resp.NotModified || len(resp.Body) != 0 {
			t.Errorf("%+v: NotModified = %v, body %d bytes", req, resp.NotModified, len(resp.Body))
		}
		if resp.ETag != req.ETag && req.ETag != "" {
			t.Errorf("ETag = %q", resp.ETag)
		}
	}
}

func TestSameHostRedirect(t *testing.T) {
	s := mustServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/old":
			http.Redirect(w, r, "/mid", http.StatusMovedPermanently)
		case "/mid":
			http.Redirect(w, r, "/new", http.StatusFound)
		default:
			fmt.Fprint(w, page)
		}
	})
	c := mustClient(t, Options{}, s)
	resp, err := c.Fetch(context.Background(), Request{URL: s.URL + "/old"})
	if err != nil {
		t.Fatal(err)
	}
	if resp.FinalURL != s.URL+"/new" {
		t.Errorf("FinalURL = %q", resp.FinalURL)
	}
}

// Sites that set a cookie and redirect back to the page work; the cookie
// is not kept for the next fetch.
func TestCookieRedirect(t *testing.T) {
	s := mustServer(t, func(w http.ResponseWriter, r *http.Request) {
		if _, err := r.Cookie("seen"); err != nil {
			http.SetCookie(w, &http.Cookie{Name: "seen", Value: "1", Path: "/"})
			http.Redirect(w, r, r.URL.Path, http.StatusFound)
			return
		}
		fmt.Fprint(w, page)
	})
	c := mustClient(t, Options{}, s)
	for i := 0; i < 2; i++ {
		if _, err := c.Fetch(context.Background(), Request{URL: s.URL + "/terms"}); err != nil {
			t.Fatal(err)
		}
	}
	if got := s.hits.Load(); got != 4 {
		t.Errorf("hits = %d, want 4 (cookies not kept between fetches)", got)
	}
}

func TestTooManyRedirects(t *testing.T) {
	s := mustServer(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Path+"x", http.StatusFound)
	})
	c := mustClient(t, Options{}, s)
	_, err := c.Fetch(context.Background(), Request{URL: s.URL + "/r"})
	wantKind(t, err, KindUpstream)
	if got := s.hits.Load(); got != maxRedirects+1 {
		t.Errorf("hits = %d, want %d", got, maxRedirects+1)
	}
}

// A public-looking page that redirects to a loopback address must be
// refused before the second server is ever contacted.
func TestRedirectToBlockedAddress(t *testing.T) {
	target := mustServer(t, func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "secret")
	})
	_, port, _ := net.SplitHostPort(hostPort(t, target))
	for _, loc := range []string{
		"http://127.0.0.2:" + port + "/",
		"http://localhost:" + port + "/",
		"http://127.0.0.1:" + port + "/", // same address, but this host:port is not allowlisted
		"http://[::1]:" + port + "/",
		"http://2130706433:" + port + "/",
		"http://169.254.169.254/latest/meta-data/",
		"http://0x7f.1/",
		"file:///etc/passwd",
	} {
		t.Run(loc, func(t *testing.T) {
			front := mustServer(t, func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, loc, http.StatusFound)
			})
			c := mustClient(t, Options{}, front) // only the front server is allowed
			_, err := c.Fetch(context.Background(), Request{URL: front.URL})
			wantKind(t, err, KindInvalid)
			if front.hits.Load() != 1 {
				t.Errorf("front hits = %d", front.hits.Load())
			}
		})
	}
	if got := target.hits.Load(); got != 0 {
		t.Fatalf("blocked target was fetched %d times", got)
	}
}

// The dial-time guard sees the resolved address: a name that resolves to
// loopback is refused by the dialer's Control hook before connecting.
func TestDialGuardRefusesResolvedLoopback(t *testing.T) {
	var conns atomic.Int64
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			c.Close()
		}
	}()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	c := New(Options{})
	tr := c.hc.Transport.(*http.Transport)
	for _, addr := range []string{"localhost:" + port, "127.0.0.1:" + port} {
		conn, err := tr.DialContext(context.Background(), "tcp", addr)
		if err == nil {
			conn.Close()
			t.Fatalf("dial %s succeeded", addr)
		}
		var blocked errBlockedAddr
		if !errors.As(err, &blocked) {
			t.Errorf("dial %s: %v, want errBlockedAddr", addr, err)
		}
	}
	time.Sleep(50 * time.Millisecond)
	if conns.Load() != 0 {
		t.Fatalf("listener accepted %d connections", conns.Load())
	}
}

func TestInvalidURLs(t *testing.T) {
	c := New(Options{})
	for _, u := range []string{
		"",
		"not a url",
		"/relative/path",
		"ftp://example.com/terms",
		"file:///etc/passwd",
		"gopher://example.com/",
		"javascript:alert(1)",
		"http://user:pass@example.com/",
		"http://example.com:8080/terms", // non-standard port, not allowlisted
		"http://localhost/",
		"http://sub.localhost/",
		"http://intranet/",
		"http://127.0.0.1/",
		"http://127.1/",
		"http://2130706433/",
		"http://0x7f.1/",
		"http://0x7f000001/",
		"http://0177.0.0.1/",
		"http://017700000001/",
		"http://10.0.0.1/",
		"http://169.254.169.254/latest/meta-data/",
		"http://100.100.100.200/",
		"http://[::1]/",
		"http://[::ffff:127.0.0.1]/",
		"http://[fd00:ec2::254]/",
		"http://[64:ff9b::a9fe:a9fe]/",
		"http://192.168.0.1./",
	} {
		_, err := c.Fetch(context.Background(), Request{URL: u})
		var fe *Error
		if !errors.As(err, &fe) || fe.Kind != KindInvalid {
			t.Errorf("Fetch(%q) = %v, want KindInvalid", u, err)
		}
	}
}

// An invalid URL's message names what is wrong with it.
func TestInvalidURLMessages(t *testing.T) {
	c := New(Options{})
	for u, want := range map[string]string{
		"file:///etc/passwd":  "only http and https",
		"javascript:alert(1)": "only http and https",
		"ftp://example.com/x": "only http and https",
		"/relative/path":      "must be absolute",
		"example.com/terms":   "must be absolute",
		"http:///terms":       "no host name",
	} {
		if err := c.Check(u); err == nil || !strings.Contains(err.(*Error).Msg, want) {
			t.Errorf("Check(%q) = %v, want a message saying %q", u, err, want)
		}
	}
}

func TestTimeout(t *testing.T) {
	s := mustServer(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	})
	c := mustClient(t, Options{Timeout: 200 * time.Millisecond}, s)
	start := time.Now()
	_, err := c.Fetch(context.Background(), Request{URL: s.URL})
	wantKind(t, err, KindTimeout)
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("timeout took %v", d)
	}
}

// A body that starts quickly but trickles forever is cut by the total timeout.
func TestTimeoutSlowBody(t *testing.T) {
	s := mustServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		for i := 0; i < 100; i++ {
			if _, err := fmt.Fprint(w, "<p>x</p>"); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	})
	c := mustClient(t, Options{Timeout: 300 * time.Millisecond}, s)
	_, err := c.Fetch(context.Background(), Request{URL: s.URL})
	wantKind(t, err, KindTimeout)
}

func TestUpstreamErrors(t *testing.T) {
	s := mustServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/404":
			http.NotFound(w, r)
		default:
			http.Error(w, "boom", http.StatusInternalServerError)
		}
	})
	c := mustClient(t, Options{}, s)
	for _, p := range []string{"/404", "/500"} {
		_, err := c.Fetch(context.Background(), Request{URL: s.URL + p})
		fe := wantKind(t, err, KindUpstream)
		if !strings.Contains(fe.Msg, strings.TrimPrefix(p, "/")) {
			t.Errorf("message %q does not name the status", fe.Msg)
		}
	}
	// A closed port: connection refused.
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	c = New(Options{AllowHosts: []string{addr}})
	_, err := c.Fetch(context.Background(), Request{URL: "http://" + addr + "/"})
	wantKind(t, err, KindUpstream)
}

func TestOversizedBody(t *testing.T) {
	big := strings.Repeat("<p>legal text</p>", 1000) // 17 kB
	s := mustServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		if r.URL.Path == "/chunked" {
			w.(http.Flusher).Flush() // no Content-Length
		}
		fmt.Fprint(w, big)
	})
	c := mustClient(t, Options{MaxBytes: 4096}, s)
	for _, p := range []string{"/", "/chunked"} {
		_, err := c.Fetch(context.Background(), Request{URL: s.URL + p})
		wantKind(t, err, KindTooLarge)
	}
	// exactly at the cap is fine
	c = mustClient(t, Options{MaxBytes: int64(len(big))}, s)
	if _, err := c.Fetch(context.Background(), Request{URL: s.URL}); err != nil {
		t.Fatal(err)
	}
}

func TestCompressedBodies(t *testing.T) {
	bomb := func(enc string) []byte {
		var buf bytes.Buffer
		var zw interface {
			Write([]byte) (int, error)
			Close() error
		}
		if enc == "gzip" {
			zw = gzip.NewWriter(&buf)
		} else {
			zw = zlib.NewWriter(&buf)
		}
		chunk := make([]byte, 1<<20)
		for i := 0; i < 16; i++ { // 16 MiB of zeros, ~16 kB compressed: 16x the cap
			zw.Write(chunk)
		}
		zw.Close()
		return buf.Bytes()
	}
	small := func(enc string) []byte {
		var buf bytes.Buffer
		if enc == "gzip" {
			zw := gzip.NewWriter(&buf)
			zw.Write([]byte(page))
			zw.Close()
		} else {
			zw := zlib.NewWriter(&buf)
			zw.Write([]byte(page))
			zw.Close()
		}
		return buf.Bytes()
	}
	bombs := map[string][]byte{"gzip": bomb("gzip"), "deflate": bomb("deflate")}
	var gotAE atomic.Value
	s := mustServer(t, func(w http.ResponseWriter, r *http.Request) {
		gotAE.Store(r.Header.Get("Accept-Encoding"))
		enc := strings.Trim(filepath.Dir(r.URL.Path), "/")
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", enc)
		if filepath.Base(r.URL.Path) == "bomb" {
			w.Write(bombs[enc])
			return
		}
		w.Write(small(enc))
	})
	c := mustClient(t, Options{MaxBytes: 1 << 20}, s)
	for _, enc := range []string{"gzip", "deflate"} {
		resp, err := c.Fetch(context.Background(), Request{URL: s.URL + "/" + enc + "/page"})
		if err != nil {
			t.Fatalf("%s page: %v", enc, err)
		}
		if string(resp.Body) != page {
			t.Errorf("%s page decoded to %q", enc, resp.Body)
		}
		_, err = c.Fetch(context.Background(), Request{URL: s.URL + "/" + enc + "/bomb"})
		wantKind(t, err, KindTooLarge)
	}
	if ae, _ := gotAE.Load().(string); strings.Contains(ae, "br") {
		t.Errorf("Accept-Encoding %q advertises brotli, which we cannot decode", ae)
	}
}

func TestImageIsUnreadable(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89")
	s := mustServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/typed":
			w.Header().Set("Content-Type", "image/png")
		case "/octet":
			w.Header().Set("Content-Type", "application/octet-stream")
		case "/lying":
			w.Header().Set("Content-Type", "text/html")
		}
		w.Write(png)
	})
	c := mustClient(t, Options{}, s)
	for _, p := range []string{"/typed", "/octet", "/lying"} {
		_, err := c.Fetch(context.Background(), Request{URL: s.URL + p})
		wantKind(t, err, KindUnreadable)
	}
}

// Fetched documents in legacy charsets and as PDFs come out as clean UTF-8
// text once extracted.
func TestFetchThenExtract(t *testing.T) {
	pdfBytes, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "data", "extract", "018.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	sjis := []byte("<html><head><meta charset=\"Shift_JIS\"><title>\x97\x98\x97\x70\x8b\x4b\x96\xf1</title></head><body><main><h1>\x97\x98\x97\x70\x8b\x4b\x96\xf1</h1><p>\x82\xb1\x82\xcc\x8b\x4b\x96\xf1\x82\xcd\x83\x54\x81\x5b\x83\x72\x83\x58\x82\xcc\x97\x98\x97\x70\x82\xc9\x93\x4b\x97\x70\x82\xb3\x82\xea\x82\xdc\x82\xb7\x81\x42</p></main></body></html>")
	cp1252 := []byte("<html><body><main><h1>Conditions g\xe9n\xe9rales</h1><p>L\x92utilisateur accepte les conditions \x96 voir \x93article 3\x94.</p></main></body></html>")
	s := mustServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/doc.pdf":
			w.Header().Set("Content-Type", "application/pdf")
			w.Write(pdfBytes)
		case "/sjis":
			w.Header().Set("Content-Type", "text/html")
			w.Write(sjis)
		case "/cp1252":
			w.Header().Set("Content-Type", "text/html; charset=windows-1252")
			w.Write(cp1252)
		}
	})
	c := mustClient(t, Options{}, s)
	// The compiled PDF reader is cached where serve keeps it by default.
	var dir string
	if cache, err := os.UserCacheDir(); err == nil {
		dir = filepath.Join(cache, "clausewatch", "wazero")
	}
	x, err := extract.New(extract.Options{CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	tests := []struct{ path, want string }{
		{"/doc.pdf", "Acceptable Use Policy"},
		{"/sjis", "この規約はサービスの利用に適用されます。"},
		{"/cp1252", "L’utilisateur accepte les conditions – voir “article 3”."},
	}
	for _, tt := range tests {
		resp, err := c.Fetch(context.Background(), Request{URL: s.URL + tt.path})
		if err != nil {
			t.Fatalf("%s: %v", tt.path, err)
		}
		doc, err := x.Extract(resp.Body, resp.ContentType, resp.FinalURL)
		if err != nil {
			t.Fatalf("%s: extract: %v", tt.path, err)
		}
		if !strings.Contains(doc.Text, tt.want) {
			t.Errorf("%s: text %.200q lacks %q", tt.path, doc.Text, tt.want)
		}
	}
}

func TestKindString(t *testing.T) {
	for k, want := range map[Kind]string{KindInvalid: "invalid", KindUpstream: "upstream", KindTimeout: "timeout", KindUnreadable: "unreadable", KindTooLarge: "too_large", 0: "unknown"} {
		if k.String() != want {
			t.Errorf("%d.String() = %q", k, k.String())
		}
	}
	e := &Error{Kind: KindUpstream, Msg: "m", Err: context.Canceled}
	if !errors.Is(e, context.Canceled) || e.Error() != "m: context canceled" {
		t.Errorf("Error/Unwrap: %v", e)
	}
}
