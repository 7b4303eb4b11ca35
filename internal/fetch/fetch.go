// Package fetch is the service's only way to reach the network: an HTTP
// client for public documents that cannot be turned against private
// networks (SSRF). Every URL is checked before the request and on each
// redirect, and every address is checked again when the connection is made,
// so a DNS answer that changes between the check and the dial (DNS
// rebinding) cannot slip through.
package fetch

import (
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// RobotsToken is the product token robots.txt groups name the service by
// (RFC 9309 section 2.2.1).
const RobotsToken = "clausewatch"

// DefaultUserAgent names the service to the sites it reads, with the
// address of a page saying what it is and why it reads them.
const DefaultUserAgent = RobotsToken + "/0.1 (+https://github.com/clausewatch/clausewatch/blob/main/docs/monitoring.md#monitoring-politeness-and-failure-codes)"

const (
	defaultTimeout  = 15 * time.Second
	defaultMaxBytes = 10 << 20
	maxRedirects    = 5
	connectTimeout  = 5 * time.Second
)

// Options configure a Client. The zero value is usable.
type Options struct {
	// AllowHosts are "host:port" pairs fetched even though they are private
	// or loopback, or use another port than 80/443 (tests, intranets).
	AllowHosts []string
	// Timeout bounds one whole fetch, redirects and body included (default 15s).
	Timeout time.Duration
	// MaxBytes caps the body after decompression (default 10 MiB).
	MaxBytes int64
	// UserAgent defaults to DefaultUserAgent.
	UserAgent string
}

// Request is one document to fetch. When ETag or LastModified (values from
// an earlier Response) are set, the request is conditional.
type Request struct {
	URL, ETag, LastModified string
}

// Response is a fetched document. Body is the decompressed body, in the
// charset the server sent (extract converts it to UTF-8).
type Response struct {
	URL, FinalURL, ContentType string
	Body                       []byte
	ETag, LastModified         string
	NotModified                bool // conditional request answered 304; Body is empty
	FetchedAt                  time.Time
}

// Kind classifies a fetch failure so the API can choose its status code.
type Kind int

const (
	// KindInvalid: bad or unsupported URL, or an address that is not public (400).
	KindInvalid Kind = iota + 1
	// KindUpstream: the site is unreachable or answered an error status (502).
	KindUpstream
	// KindTimeout: the site did not answer in time (504).
	KindTimeout
	// KindUnreadable: the response is not a document we can read (422).
	KindUnreadable
	// KindTooLarge: the body is larger than the cap (422).
	KindTooLarge
)

func (k Kind) String() string {
	switch k {
	case KindInvalid:
		return "invalid"
	case KindUpstream:
		return "upstream"
	case KindTimeout:
		return "timeout"
	case KindUnreadable:
		return "unreadable"
	case KindTooLarge:
		return "too_large"
	}
	return "unknown"
}

// Error is a classified fetch failure. Msg is safe to show to the user and
// says what they can do; Err is the cause, for logs. Code says why the
// fetch failed in one word (see the Code constants); BlockedBy names the
// bot protection that refused it (Code blocked); RetryAfter is the wait a
// 429 or 503 asked for (0: none given).
type Error struct {
	Kind       Kind
	Code       Code
	BlockedBy  string
	RetryAfter time.Duration
	Msg        string
	Err        error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return e.Msg + ": " + e.Err.Error()
	}
	return e.Msg
}

func (e *Error) Unwrap() error { return e.Err }

func newErr(k Kind, err error, format string, args ...any) *Error {
	return &Error{Kind: k, Code: defaultCode(k), Msg: fmt.Sprintf(format, args...), Err: err}
}

// coded sets e's Code and returns it.
func (e *Error) coded(c Code) *Error {
	e.Code = c
	return e
}

// Client fetches public documents. It is safe for concurrent use.
type Client struct {
	opts  Options
	allow map[string]bool
	hc    *http.Client
}

// errBlockedAddr is returned by the dialer's Control hook.
type errBlockedAddr struct{ addr string }

func (e errBlockedAddr) Error() string { return "address " + e.addr + " is not public" }

// New returns a Client with the given options.
func New(o Options) *Client {
	if o.Timeout <= 0 {
		o.Timeout = defaultTimeout
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = defaultMaxBytes
	}
	if o.UserAgent == "" {
		o.UserAgent = DefaultUserAgent
	}
	c := &Client{opts: o, allow: map[string]bool{}}
	for _, h := range o.AllowHosts {
		h = strings.ToLower(strings.TrimSpace(h))
		if h != "" {
			c.allow[h] = true
		}
	}
	ct := min(connectTimeout, o.Timeout)
	open := &net.Dialer{Timeout: ct, KeepAlive: 30 * time.Second}
	guarded := &net.Dialer{Timeout: ct, KeepAlive: 30 * time.Second, Control: guardControl}
	tr := &http.Transport{
		Proxy: nil, // never a proxy from the environment: it would bypass the dial check
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			if host, _, err := net.SplitHostPort(addr); err == nil && specialUseName(host) {
				// RFC 6761 section 6.4: resolvers answer these at once, negatively.
				return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
			}
			if c.allow[strings.ToLower(addr)] {
				return open.DialContext(ctx, network, addr)
			}
			return guarded.DialContext(ctx, network, addr)
		},
		TLSClientConfig:       &tls.Config{MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout:   min(10*time.Second, o.Timeout),
		ResponseHeaderTimeout: o.Timeout,
		DisableCompression:    true, // we decompress ourselves, under the size cap
		MaxIdleConns:          32,
		IdleConnTimeout:       60 * time.Second,
		ForceAttemptHTTP2:     true,
	}
	c.hc = &http.Client{
		Transport: tr,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > maxRedirects {
				return newErr(KindUpstream, nil, "the page redirects more than %d times; use the final address of the document", maxRedirects)
			}
			return c.checkURL(req.URL)
		},
	}
	return c
}

// specialUseName reports whether host is under .invalid, a name that never
// resolves (RFC 6761 section 6.4): it is refused without asking DNS.
func specialUseName(host string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	return host == "invalid" || strings.HasSuffix(host, ".invalid")
}

// guardControl runs after DNS resolution, on the exact address being
// dialled: this is what makes the guard safe against DNS rebinding.
func guardControl(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return errBlockedAddr{address}
	}
	if !IsPublicIP(ap.Addr()) {
		return errBlockedAddr{address}
	}
	if p := ap.Port(); p != 80 && p != 443 {
		return errBlockedAddr{address}
	}
	return nil
}

// checkURL validates a URL before it is requested (the first one and every
// redirect target).
func (c *Client) checkURL(u *url.URL) error {
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return newErr(KindInvalid, nil, "only http and https URLs can be fetched (got %q)", u.Scheme)
	}
	if u.User != nil {
		return newErr(KindInvalid, nil, "URLs with a user name or password are not fetched; remove the credentials from the URL")
	}
	host := strings.ToLower(u.Hostname())
	if host == "" {
		return newErr(KindInvalid, nil, "the URL has no host name")
	}
	port := u.Port()
	if port == "" {
		port = "80"
		if scheme == "https" {
			port = "443"
		}
	}
	hostPort := net.JoinHostPort(host, port)
	if c.allow[hostPort] {
		return nil
	}
	if port != "80" && port != "443" {
		return newErr(KindInvalid, nil, "port %s is not allowed; only public documents on the standard ports 80 and 443 can be fetched", port)
	}
	if strings.Contains(host, ":") { // IPv6 literal
		ip, err := netip.ParseAddr(host)
		if err != nil || !IsPublicIP(ip) {
			return newErr(KindInvalid, err, "the address %s is not a public internet address", host)
		}
		return nil
	}
	if numericHost(host) {
		ip, ok := canonicalIPv4(host)
		if !ok {
			return newErr(KindInvalid, nil, "the host %q is written as a number; use the site's domain name", u.Hostname())
		}
		if !IsPublicIP(ip) {
			return newErr(KindInvalid, nil, "the address %s is not a public internet address", host)
		}
		return nil
	}
	h := strings.TrimSuffix(host, ".")
	if h == "localhost" || strings.HasSuffix(h, ".localhost") || !strings.Contains(h, ".") {
		return newErr(KindInvalid, nil, "the host %q is not a public internet name; use the document's public URL", u.Hostname())
	}
	return nil
}

// Check reports, without touching the network, whether a URL may be
// fetched at all (syntax, scheme, port, host form), so callers can refuse a
// bad URL before spending anything on it. Addresses are checked at dial time.
func (c *Client) Check(rawURL string) error {
	_, err := c.parse(rawURL)
	return err
}

func (c *Client) parse(rawURL string) (*url.URL, error) {
	raw := strings.TrimSpace(rawURL)
	u, err := url.Parse(raw)
	if err != nil || raw == "" {
		return nil, newErr(KindInvalid, err, "the URL is not valid; give a full address such as https://example.com/terms")
	}
	if u.Scheme == "" {
		return nil, newErr(KindInvalid, nil, "the URL must be absolute, such as https://example.com/terms")
	}
	if err := c.checkURL(u); err != nil {
		return nil, err
	}
	u.Fragment = ""
	return u, nil
}

// newGet is a GET of rawURL under the client's guards: the URL checked
// (parse), the whole exchange bounded by the timeout (cancel ends it), our
// user agent, and only the encodings decoded undoes. accept is what the
// caller can read.
func (c *Client) newGet(ctx context.Context, rawURL, accept string) (*http.Request, context.CancelFunc, error) {
	u, err := c.parse(rawURL)
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		cancel()
		return nil, nil, newErr(KindInvalid, err, "the URL is not valid")
	}
	req.Header.Set("User-Agent", c.opts.UserAgent)
	req.Header.Set("Accept", accept)
	req.Header.Set("Accept-Encoding", "gzip, deflate")
	return req, cancel, nil
}

// Fetch downloads one document.
func (c *Client) Fetch(ctx context.Context, r Request) (*Response, error) {
	req, cancel, err := c.newGet(ctx, r.URL, "text/html,application/xhtml+xml,application/pdf;q=0.9,text/plain;q=0.8,*/*;q=0.5")
	if err != nil {
		return nil, err
	}
	defer cancel()
	ctx, u := req.Context(), req.URL
	if r.ETag != "" {
		req.Header.Set("If-None-Match", r.ETag)
	}
	if r.LastModified != "" {
		req.Header.Set("If-Modified-Since", r.LastModified)
	}

	// A fresh cookie jar per fetch: some sites set a cookie and redirect
	// to the same page, which would otherwise loop; nothing is kept.
	hc := *c.hc
	hc.Jar, _ = cookiejar.New(nil)
	resp, err := hc.Do(req)
	if err != nil {
		return nil, c.classify(ctx, err, u.Hostname())
	}
	defer resp.Body.Close()

	out := &Response{
		URL:          r.URL,
		FinalURL:     resp.Request.URL.String(),
		ContentType:  resp.Header.Get("Content-Type"),
		ETag:         resp.Header.Get("ETag"),
		LastModified: resp.Header.Get("Last-Modified"),
		FetchedAt:    time.Now().UTC(),
	}
	if resp.StatusCode == http.StatusNotModified && (r.ETag != "" || r.LastModified != "") {
		out.NotModified = true
		if out.ETag == "" {
			out.ETag = r.ETag
		}
		if out.LastModified == "" {
			out.LastModified = r.LastModified
		}
		return out, nil
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, statusError(resp, time.Now())
	}
	if k, why := unreadableType(out.ContentType); k {
		return nil, unreadable(why)
	}
	if resp.ContentLength > c.opts.MaxBytes {
		return nil, c.tooLarge()
	}

	body, err := c.readBody(resp)
	if err != nil {
		return nil, c.classify(ctx, err, u.Hostname())
	}
	out.Body = body
	// A missing or generic type is sniffed, and so is a page labelled as
	// text, which may still hold an image or an archive.
	if ct, _, _ := mime.ParseMediaType(out.ContentType); ct == "" || ct == "application/octet-stream" ||
		strings.HasPrefix(ct, "text/") || strings.Contains(ct, "html") || strings.Contains(ct, "xml") {
		sniffed := http.DetectContentType(body)
		if k, why := unreadableType(sniffed); k {
			return nil, unreadable(why)
		}
		if out.ContentType == "" {
			out.ContentType = sniffed
		}
	}
	return out, nil
}

func unreadable(what string) *Error {
	return newErr(KindUnreadable, nil, "the URL serves %s, not a document we can read (HTML, PDF or plain text)", what)
}

func (c *Client) tooLarge() *Error {
	return newErr(KindTooLarge, nil, "the document is larger than %d MiB; link to a smaller page or the document itself", c.opts.MaxBytes>>20)
}

// readBody decompresses and reads the body, stopping one byte past the cap
// so a decompression bomb costs at most MaxBytes of memory.
func (c *Client) readBody(resp *http.Response) ([]byte, error) {
	rd, done, err := decoded(resp)
	if err != nil {
		return nil, err
	}
	defer done()
	body, err := io.ReadAll(io.LimitReader(rd, c.opts.MaxBytes+1))
	if int64(len(body)) > c.opts.MaxBytes {
		return nil, c.tooLarge()
	}
	if err != nil {
		if errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) || errors.Is(err, zlib.ErrChecksum) || errors.As(err, new(flate.CorruptInputError)) {
			return nil, newErr(KindUpstream, err, "the site sent a corrupt compressed response; try again later")
		}
		return nil, err
	}
	return body, nil
}

// decoded is the body with its Content-Encoding undone; done closes the
// decoder.
func decoded(resp *http.Response) (rd io.Reader, done func(), err error) {
	rd, done = resp.Body, func() {}
	switch enc := strings.ToLower(strings.TrimSpace(resp.Header.Get("Content-Encoding"))); enc {
	case "", "identity":
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(resp.Body)
		if err != nil {
			return nil, nil, newErr(KindUpstream, err, "the site sent a corrupt compressed response; try again later")
		}
		return zr, func() { zr.Close() }, nil
	case "deflate":
		// "deflate" is meant to be zlib-wrapped, but some servers send raw deflate.
		buf := make([]byte, 2)
		n, _ := io.ReadFull(resp.Body, buf)
		head := io.MultiReader(strings.NewReader(string(buf[:n])), resp.Body)
		if n == 2 && (uint16(buf[0])<<8|uint16(buf[1]))%31 == 0 && buf[0]&0x0f == 8 {
			zr, err := zlib.NewReader(head)
			if err != nil {
				return nil, nil, newErr(KindUpstream, err, "the site sent a corrupt compressed response; try again later")
			}
			return zr, func() { zr.Close() }, nil
		}
		fr := flate.NewReader(head)
		return fr, func() { fr.Close() }, nil
	default:
		return nil, nil, newErr(KindUnreadable, nil, "the site sent the document in an encoding we cannot decode (%s)", enc)
	}
	return rd, done, nil
}

// classify maps a transport error to a Kind and a message.
func (c *Client) classify(ctx context.Context, err error, host string) *Error {
	var fe *Error
	if errors.As(err, &fe) {
		return fe
	}
	var blocked errBlockedAddr
	if errors.As(err, &blocked) {
		return newErr(KindInvalid, err, "%s resolves to an address that is not public; only documents on the public internet can be fetched", host)
	}
	if errors.Is(err, context.DeadlineExceeded) || ctx.Err() == context.DeadlineExceeded {
		return newErr(KindTimeout, err, "the site did not answer within %s; try again later", c.opts.Timeout)
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return newErr(KindTimeout, err, "the site did not answer in time; try again later")
	}
	if errors.Is(err, context.Canceled) {
		return newErr(KindUpstream, err, "the fetch was cancelled")
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		if dnsErr.IsNotFound {
			return newErr(KindUpstream, err, "the host %s does not exist; check the spelling of the URL", host).coded(CodeDNS)
		}
		return newErr(KindUpstream, err, "the host name %s could not be resolved; try again later", host).coded(CodeDNS)
	}
	var certErr *tls.CertificateVerificationError
	if errors.As(err, &certErr) {
		return newErr(KindUpstream, err, "the site's TLS certificate is not valid for %s", host).coded(CodeTLS)
	}
	if isTLSError(err) {
		return newErr(KindUpstream, err, "the TLS handshake with %s failed; the site's HTTPS is misconfigured", host).coded(CodeTLS)
	}
	return newErr(KindUpstream, err, "could not connect to %s; check the URL or try again later", host).coded(CodeConnect)
}

// unreadableType reports whether a Content-Type is certainly not a
// document (images, audio, video, fonts, archives).
func unreadableType(contentType string) (bool, string) {
	ct, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		ct = strings.ToLower(strings.TrimSpace(strings.SplitN(contentType, ";", 2)[0]))
	}
	switch {
	case strings.HasPrefix(ct, "image/"):
		return true, "an image"
	case strings.HasPrefix(ct, "audio/"):
		return true, "audio"
	case strings.HasPrefix(ct, "video/"):
		return true, "a video"
	case strings.HasPrefix(ct, "font/"):
		return true, "a font"
	case ct == "application/zip", ct == "application/x-gzip", ct == "application/gzip",
		ct == "application/x-rar-compressed", ct == "application/x-7z-compressed",
		ct == "application/wasm", ct == "application/vnd.rar":
		return true, "an archive (" + ct + ")"
	}
	return false, ""
}

func statusText(code int) string {
	if t := http.StatusText(code); t != "" {
		return strconv.Itoa(code) + " " + t
	}
	return strconv.Itoa(code)
}
