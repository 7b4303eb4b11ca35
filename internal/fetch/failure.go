package fetch

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Code says in one word why a fetch failed; monitors record it as their
// lastErrorCode, so a user (or a script) can tell a page that moved from a
// site that refuses robots.
type Code string

// The failure codes. README's "Failure codes" table says what each means
// and what to do about it.
const (
	CodeInvalid       Code = "invalid" // the URL, or an address it resolves or redirects to, may not be fetched
	CodeDNS           Code = "dns"
	CodeConnect       Code = "connect"
	CodeTLS           Code = "tls"
	CodeTimeout       Code = "timeout"
	CodeHTTP403       Code = "http_403"
	CodeHTTP404       Code = "http_404"
	CodeHTTP410       Code = "http_410"
	CodeHTTP429       Code = "http_429"
	CodeHTTP5xx       Code = "http_5xx"
	CodeHTTPOther     Code = "http_other" // another error status, too many redirects, a corrupt body
	CodeBlocked       Code = "blocked"    // bot protection; Error.BlockedBy names it
	CodeRobots        Code = "robots"     // robots.txt disallows the page for our user agent
	CodeTooLarge      Code = "too_large"
	CodeNotADocument  Code = "not_a_document"
	CodeStructChanged Code = "structure_changed" // set by the monitor's check, never by a fetch
)

// The bot protections DetectBlock recognises; any other is BlockedUnknown.
const (
	BlockedCloudflare = "cloudflare"
	BlockedAkamai     = "akamai"
	BlockedDataDome   = "datadome"
	BlockedUnknown    = "unknown"
)

// defaultCode is the code of a failure no more precise one was found for.
func defaultCode(k Kind) Code {
	switch k {
	case KindInvalid:
		return CodeInvalid
	case KindTimeout:
		return CodeTimeout
	case KindUnreadable:
		return CodeNotADocument
	case KindTooLarge:
		return CodeTooLarge
	}
	return CodeHTTPOther
}

// errorBodyPeek is how much of an error response is read to recognise a
// bot protection's challenge page.
const errorBodyPeek = 64 << 10

// statusError classifies an error status: a bot protection's challenge,
// else the status's own code, with the wait a 429 or 503 asked for.
func statusError(resp *http.Response, now time.Time) *Error {
	var body []byte
	if rd, done, err := decoded(resp); err == nil {
		body, _ = io.ReadAll(io.LimitReader(rd, errorBodyPeek))
		done()
	}
	if by := DetectBlock(resp.StatusCode, resp.Header, body); by != "" {
		name := map[string]string{BlockedCloudflare: "Cloudflare", BlockedAkamai: "Akamai", BlockedDataDome: "DataDome"}[by]
		if name == "" {
			name = "a bot protection service"
		}
		e := newErr(KindUpstream, nil, "the site's bot protection (%s) refused the request with %s; the page cannot be read automatically, ask the site to allow %s", name, statusText(resp.StatusCode), RobotsToken)
		e.Code, e.BlockedBy = CodeBlocked, by
		return e
	}
	e := newErr(KindUpstream, nil, "the site answered %s; check that the URL opens in a browser", statusText(resp.StatusCode))
	switch s := resp.StatusCode; {
	case s == http.StatusForbidden:
		e.Code = CodeHTTP403
	case s == http.StatusNotFound:
		e.Code = CodeHTTP404
	case s == http.StatusGone:
		e.Code = CodeHTTP410
	case s == http.StatusTooManyRequests:
		e.Code = CodeHTTP429
	case s >= 500 && s <= 599:
		e.Code = CodeHTTP5xx
	default:
		e.Code = CodeHTTPOther
	}
	if s := resp.StatusCode; s == http.StatusTooManyRequests || s == http.StatusServiceUnavailable {
		e.RetryAfter = ParseRetryAfter(resp.Header.Get("Retry-After"), now)
	}
	return e
}

// ParseRetryAfter reads a Retry-After header (RFC 9110 section 10.2.3):
// delay-seconds or an HTTP date. It is 0 when the header is absent, invalid
// or in the past.
func ParseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n <= 0 {
			return 0
		}
		return time.Duration(min(n, int64(365*24*3600))) * time.Second
	}
	t, err := http.ParseTime(v)
	if err != nil || !t.After(now) {
		return 0
	}
	return t.Sub(now)
}

// DetectBlock recognises a bot protection's challenge or block page by its
// vendor's published shape and returns the vendor (BlockedCloudflare,
// BlockedAkamai, BlockedDataDome, or BlockedUnknown for other services'
// challenges); "" when the answer is an ordinary error. Only error
// statuses are looked at: a page that answers 200 is the page.
//
//   - Cloudflare marks every challenge page with cf-mitigated: challenge;
//     its block and interstitial pages come with server: cloudflare and a
//     403, 429 or 503 whose body is "Just a moment..." or loads the
//     challenge platform (/cdn-cgi/challenge-platform/, _cf_chl_opt).
//   - Akamai's edge answers 403 "Access Denied ... Reference #18.xxxx",
//     served by AkamaiGHost, with links to errors.edgesuite.net.
//   - DataDome's blocks carry the x-datadome (or x-dd-b) header, and the
//     challenge page loads its captcha from captcha-delivery.com.
//
// Others (Imperva/Incapsula, HUMAN/PerimeterX, Sucuri, AWS WAF, DDoS-Guard,
// Kasada, and any page asking for a CAPTCHA) are BlockedUnknown.
func DetectBlock(status int, h http.Header, body []byte) string {
	if status < 400 {
		return ""
	}
	has := func(subs ...string) bool {
		for _, s := range subs {
			if bytes.Contains(body, []byte(s)) {
				return true
			}
		}
		return false
	}
	server := strings.ToLower(h.Get("Server"))
	challengeStatus := status == 403 || status == 429 || status == 503
	switch {
	case strings.EqualFold(strings.TrimSpace(h.Get("Cf-Mitigated")), "challenge"),
		has("/cdn-cgi/challenge-platform/", "_cf_chl_opt", "cf-browser-verification"),
		server == "cloudflare" && challengeStatus && has("Just a moment", "Attention Required! | Cloudflare", "cf-error-details", "Checking your browser"):
		return BlockedCloudflare
	case h.Get("X-Datadome") != "" || h.Get("X-Dd-B") != "" || has("captcha-delivery.com", "geo.captcha-delivery"):
		return BlockedDataDome
	case has("errors.edgesuite.net", "errors&#46;edgesuite&#46;net"),
		status == 403 && has("Reference #", "Reference&#32;&#35;") && (has("Access Denied") || strings.HasPrefix(server, "akamai")),
		status == 403 && strings.HasPrefix(server, "akamaighost"):
		return BlockedAkamai
	case has("_Incapsula_Resource", "Incapsula incident ID", "px-captcha", "_pxCaptcha", "Sucuri WebSite Firewall", "DDoS-Guard", "ddos-guard.net"),
		h.Get("X-Iinfo") != "", h.Get("X-Amzn-Waf-Action") != "", h.Get("X-Kpsdk-Ct") != "",
		h.Get("X-Sucuri-Id") != "" && status == 403,
		challengeStatus && bytes.Contains(bytes.ToLower(body), []byte("captcha")):
		return BlockedUnknown
	}
	return ""
}

// isTLSError reports whether err comes from the TLS handshake.
func isTLSError(err error) bool {
	var (
		rh   tls.RecordHeaderError
		al   tls.AlertError
		ua   x509.UnknownAuthorityError
		he   x509.HostnameError
		ci   x509.CertificateInvalidError
		cver *tls.CertificateVerificationError
	)
	return errors.As(err, &rh) || errors.As(err, &al) || errors.As(err, &ua) || errors.As(err, &he) ||
		errors.As(err, &ci) || errors.As(err, &cver) || strings.Contains(err.Error(), "tls: ")
}
