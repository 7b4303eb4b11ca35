package fetch

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// Each failure code from a loopback server that produces it. The dns case
// names a host under .invalid, which the client answers itself (RFC 6761):
// no query leaves the machine.
func TestFailureCodes(t *testing.T) {
	page := func(status int, header http.Header, body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			for k, v := range header {
				w.Header()[k] = v
			}
			w.WriteHeader(status)
			w.Write([]byte(body))
		}
	}
	cfChallenge := `<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title></head><body>
<noscript>Enable JavaScript and cookies to continue</noscript>
<script>(function(){window._cf_chl_opt={cvId: '3',cZone: 'example.com'};var a=document.createElement('script');a.src='/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1?ray=8f0c';})();</script></body></html>`
	akamaiDenied := `<HTML><HEAD>
<TITLE>Access Denied</TITLE>
</HEAD><BODY>
<H1>Access Denied</H1>
You don't have permission to access "http&#58;&#47;&#47;example&#46;com&#47;terms" on this server.<P>
Reference&#32;&#35;18&#46;7a1d2c17&#46;1718409600&#46;3f9b21e
<P>https&#58;&#47;&#47;errors&#46;edgesuite&#46;net&#47;18&#46;7a1d2c17&#46;1718409600&#46;3f9b21e</P>
</BODY></HTML>`
	akamaiPlain := "<HTML><HEAD><TITLE>Access Denied</TITLE></HEAD><BODY><H1>Access Denied</H1>You don't have permission to access this server.<P>Reference #18.7a1d2c17.1718409600.3f9b21e</BODY></HTML>"
	dataDome := `<html><head><title>example.com</title></head><body style="margin:0">
<p id="cmsg">Please enable JS and disable any ad blocker</p>
<script data-cfasync="false">var dd={'rt':'c','cid':'AHrlqAAAAAMA','hsh':'2211F522B61E269B869FA6EAFFB5E1','t':'fe','s':46743,'host':'geo.captcha-delivery.com'}</script>
<script data-cfasync="false" src="https://ct.captcha-delivery.com/c.js"></script></body></html>`
	tests := []struct {
		name    string
		h       http.HandlerFunc
		code    Code
		blocked string
	}{
		{"403", page(403, nil, "forbidden"), CodeHTTP403, ""},
		{"404", page(404, nil, "not found"), CodeHTTP404, ""},
		{"410", page(410, nil, "gone"), CodeHTTP410, ""},
		{"429", page(429, http.Header{"Retry-After": {"7"}}, "slow down"), CodeHTTP429, ""},
		{"500", page(500, nil, "boom"), CodeHTTP5xx, ""},
		{"503", page(503, nil, "down"), CodeHTTP5xx, ""},
		{"401", page(401, nil, "who"), CodeHTTPOther, ""},
		{"cloudflare challenge", page(403, http.Header{"Cf-Mitigated": {"challenge"}, "Server": {"cloudflare"}, "Content-Type": {"text/html"}}, cfChallenge), CodeBlocked, BlockedCloudflare},
		{"cloudflare 503 without the header", page(503, http.Header{"Server": {"cloudflare"}, "Content-Type": {"text/html"}}, "<title>Just a moment...</title>"), CodeBlocked, BlockedCloudflare},
		{"akamai", page(403, http.Header{"Server": {"AkamaiGHost"}, "Content-Type": {"text/html"}}, akamaiDenied), CodeBlocked, BlockedAkamai},
		{"akamai, entity-encoded, no server header", page(403, http.Header{"Content-Type": {"text/html"}}, akamaiDenied), CodeBlocked, BlockedAkamai},
		{"akamai reference only", page(403, http.Header{"Content-Type": {"text/html"}}, akamaiPlain), CodeBlocked, BlockedAkamai},
		{"datadome header", page(403, http.Header{"X-Datadome": {"protected"}, "X-Dd-B": {"1"}}, `{"url":"https://geo.captcha-delivery.com/captcha/?initialCid=x"}`), CodeBlocked, BlockedDataDome},
		{"datadome page", page(403, http.Header{"Content-Type": {"text/html"}}, dataDome), CodeBlocked, BlockedDataDome},
		{"incapsula", page(403, nil, `<html><body><iframe src="/_Incapsula_Resource?CWUDNSAI=9"></iframe>Request unsuccessful. Incapsula incident ID: 1</body></html>`), CodeBlocked, BlockedUnknown},
		{"generic captcha", page(429, nil, `<html><body>Please solve this CAPTCHA to continue</body></html>`), CodeBlocked, BlockedUnknown},
		{"not a document", page(200, http.Header{"Content-Type": {"image/png"}}, "\x89PNG\r\n\x1a\n"), CodeNotADocument, ""},
		{"too large", page(200, http.Header{"Content-Type": {"text/html"}}, strings.Repeat("x", 2048)), CodeTooLarge, ""},
		{"timeout", func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		}, CodeTimeout, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustServer(t, tt.h)
			c := mustClient(t, Options{Timeout: 300 * time.Millisecond, MaxBytes: 1024}, s)
			_, err := c.Fetch(context.Background(), Request{URL: s.URL + "/terms"})
			var fe *Error
			if !errors.As(err, &fe) {
				t.Fatalf("err = %v, want a *fetch.Error", err)
			}
			if fe.Code != tt.code || fe.BlockedBy != tt.blocked {
				t.Errorf("code %q blockedBy %q, want %q %q (%v)", fe.Code, fe.BlockedBy, tt.code, tt.blocked, err)
			}
			if tt.code == CodeHTTP429 && fe.RetryAfter != 7*time.Second {
				t.Errorf("retry after %v, want 7s", fe.RetryAfter)
			}
		})
	}

	t.Run("dns", func(t *testing.T) {
		c := New(Options{Timeout: time.Second})
		_, err := c.Fetch(context.Background(), Request{URL: "https://terms.clausewatch-test.invalid/terms"})
		if fe := new(Error); !errors.As(err, &fe) || fe.Code != CodeDNS {
			t.Fatalf("err = %v, want code dns", err)
		}
	})
	t.Run("connect", func(t *testing.T) {
		s := mustServer(t, func(http.ResponseWriter, *http.Request) {})
		c := mustClient(t, Options{Timeout: time.Second}, s)
		s.Close() // nothing listens there any more
		_, err := c.Fetch(context.Background(), Request{URL: s.URL + "/terms"})
		if fe := new(Error); !errors.As(err, &fe) || fe.Code != CodeConnect {
			t.Fatalf("err = %v, want code connect", err)
		}
	})
	t.Run("tls", func(t *testing.T) {
		s := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("hi")) }))
		defer s.Close()
		u, _ := url.Parse(s.URL)
		c := New(Options{Timeout: time.Second, AllowHosts: []string{u.Host}}) // its certificate is not trusted
		_, err := c.Fetch(context.Background(), Request{URL: s.URL + "/terms"})
		if fe := new(Error); !errors.As(err, &fe) || fe.Code != CodeTLS {
			t.Fatalf("err = %v, want code tls", err)
		}
	})
}

// DetectBlock is pure: shapes that are not a challenge stay ordinary errors.
func TestDetectBlockOrdinaryErrors(t *testing.T) {
	for _, tt := range []struct {
		status int
		h      http.Header
		body   string
	}{
		{403, http.Header{"Server": {"nginx"}}, "<h1>403 Forbidden</h1>"},
		{503, http.Header{"Server": {"cloudflare"}}, "<h1>Origin is unreachable</h1>"}, // Cloudflare passing on the origin's failure
		{404, http.Header{"Server": {"AkamaiGHost"}}, "Not Found"},
		{200, http.Header{"Cf-Mitigated": {"challenge"}}, "a page"}, // a 200 is the page
	} {
		if got := DetectBlock(tt.status, tt.h, []byte(tt.body)); got != "" {
			t.Errorf("DetectBlock(%d, %v, %q) = %q, want none", tt.status, tt.h, tt.body, got)
		}
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		v    string
		want time.Duration
	}{
		{"", 0}, {"120", 2 * time.Minute}, {" 5 ", 5 * time.Second}, {"-3", 0}, {"soon", 0},
		{"Wed, 25 Nov 2026 12:01:30 GMT", 90 * time.Second},
		{"Wed, 25 Nov 2026 11:00:00 GMT", 0},
	} {
		if got := ParseRetryAfter(tt.v, now); got != tt.want {
			t.Errorf("ParseRetryAfter(%q) = %v, want %v", tt.v, got, tt.want)
		}
	}
}
