package fetch

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// The examples and rules of RFC 9309 section 2, one robots.txt per case.
func TestRobotsRules(t *testing.T) {
	tests := []struct {
		name, robots, agent, path string
		want                      bool
	}{
		{"no rules", "", "clausewatch", "/terms", true},
		{"disallow all for us", "User-agent: clausewatch\nDisallow: /", "clausewatch", "/terms", false},
		{"agent matched without case", "User-Agent: ClauseWatch\nDisallow: /", "clausewatch", "/terms", false},
		{"agent with a version", "user-agent: clausewatch/1.0\ndisallow: /", "clausewatch", "/terms", false},
		{"other agent only", "User-agent: otherbot\nDisallow: /", "clausewatch", "/terms", true},
		{"star group", "User-agent: *\nDisallow: /private", "clausewatch", "/private/x", false},
		{"our group replaces the star group", "User-agent: *\nDisallow: /\n\nUser-agent: clausewatch\nDisallow: /drafts", "clausewatch", "/terms", true},
		{"groups for us are merged", "User-agent: clausewatch\nDisallow: /a\n\nUser-agent: otherbot\nDisallow: /\n\nUser-agent: clausewatch\nDisallow: /terms", "clausewatch", "/terms", false},
		{"several agents share a group", "User-agent: a\nUser-agent: clausewatch\nUser-agent: b\nDisallow: /terms", "clausewatch", "/terms", false},
		{"blank lines do not end a group", "User-agent: clausewatch\n\nDisallow: /terms", "clausewatch", "/terms", false},
		{"a user-agent after rules starts a group", "User-agent: clausewatch\nDisallow: /x\nUser-agent: other\nDisallow: /terms", "clausewatch", "/terms", true},
		{"rules before any group are ignored", "Disallow: /\nUser-agent: other\nDisallow: /", "clausewatch", "/terms", true},
		{"longest match wins: allow", "User-agent: *\nDisallow: /legal\nAllow: /legal/terms", "clausewatch", "/legal/terms", true},
		{"longest match wins: disallow", "User-agent: *\nAllow: /legal\nDisallow: /legal/terms", "clausewatch", "/legal/terms", false},
		{"allow wins a tie", "User-agent: *\nDisallow: /terms\nAllow: /terms", "clausewatch", "/terms", true},
		{"empty disallow allows", "User-agent: *\nDisallow:", "clausewatch", "/terms", true},
		{"star in the middle", "User-agent: *\nDisallow: /*/terms", "clausewatch", "/en/terms", false},
		{"star does not need a character", "User-agent: *\nDisallow: /te*rms", "clausewatch", "/terms", false},
		{"dollar ends the path", "User-agent: *\nDisallow: /*.pdf$", "clausewatch", "/terms.pdf", false},
		{"dollar refuses a longer path", "User-agent: *\nDisallow: /*.pdf$", "clausewatch", "/terms.pdf?v=2", true},
		{"query is matched", "User-agent: *\nDisallow: /terms?print", "clausewatch", "/terms?print=1", false},
		{"prefix only", "User-agent: *\nDisallow: /terms", "clausewatch", "/terms-of-service", false},
		{"case-sensitive path", "User-agent: *\nDisallow: /Terms", "clausewatch", "/terms", true},
		{"comments", "User-agent: * # everyone\nDisallow: /terms # not this", "clausewatch", "/terms", false},
		{"percent-encoded unreserved", "User-agent: *\nDisallow: /%7Ejoe", "clausewatch", "/~joe/terms", false},
		{"utf-8 pattern", "User-agent: *\nDisallow: /foo/bar/ツ", "clausewatch", "/foo/bar/%E3%83%84", false},
		{"robots.txt itself", "User-agent: *\nDisallow: /", "clausewatch", "/robots.txt", true},
		{"CRLF lines", "User-agent: *\r\nDisallow: /terms\r\n", "clausewatch", "/terms", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rules := ParseRobots([]byte(tt.robots)).For(tt.agent)
			if got := rules.Allowed(mustURL(t, "https://example.com"+tt.path)); got != tt.want {
				t.Errorf("Allowed(%s) = %v, want %v", tt.path, got, tt.want)
			}
		})
	}
}

func TestRobotsCrawlDelay(t *testing.T) {
	r := ParseRobots([]byte("User-agent: *\nCrawl-delay: 10\n\nUser-agent: clausewatch\nCrawl-delay: 2.5\nDisallow: /x"))
	if got := r.For("clausewatch").CrawlDelay; got != 2500*time.Millisecond {
		t.Errorf("our crawl delay = %v, want 2.5s", got)
	}
	if got := r.For("otherbot").CrawlDelay; got != 10*time.Second {
		t.Errorf("the star group's crawl delay = %v, want 10s", got)
	}
}

// A Crawl-delay past MaxCrawlDelay, however large, is read as
// MaxCrawlDelay: the site asking for the most patience gets the most.
// What is not a positive number is no delay.
func TestRobotsCrawlDelayCapped(t *testing.T) {
	for value, want := range map[string]time.Duration{
		"31": MaxCrawlDelay, "999999": MaxCrawlDelay, "1e6": MaxCrawlDelay, "1e300": MaxCrawlDelay,
		"1e400": MaxCrawlDelay, "inf": MaxCrawlDelay, "30": 30 * time.Second,
		"0": 0, "-5": 0, "NaN": 0, "-inf": 0, "soon": 0, "1e-400": 0,
	} {
		r := ParseRobots([]byte("User-agent: *\nCrawl-delay: " + value))
		if got := r.For(RobotsToken).CrawlDelay; got != want {
			t.Errorf("Crawl-delay: %s read as %v, want %v", value, got, want)
		}
	}
}

// Matching is linear: whatever the stars, a pattern looks at most at
// 2 × len(path) + len(pattern) bytes. Each case would cost len(path) ×
// len(pattern) steps (a billion here) to a matcher that tracks every
// place a star can end.
func TestRobotsPatternIsLinear(t *testing.T) {
	path := "/" + strings.Repeat("a", 2000)
	for name, c := range map[string]struct {
		pattern, path string
		want          bool
	}{
		"500 KiB of stars":           {"/" + strings.Repeat("*", 500<<10), path, true},
		"500 KiB of stars, then $":   {"/" + strings.Repeat("*", 500<<10) + "b$", path, false},
		"stars and letters":          {"/" + strings.Repeat("*a", 250<<10), path, false},
		"stars and letters, matched": {"/" + strings.Repeat("*a", 1000), path, true},
		"a long part, not found":     {"/*" + strings.Repeat("a", 1500) + "b", path, false},
		"anchored, many parts":       {"/" + strings.Repeat("*a", 1000) + "*b$", path + "b", true},
	} {
		t.Run(name, func(t *testing.T) {
			ok, steps := matchPattern(c.path, c.pattern)
			if ok != c.want {
				t.Errorf("matched %v, want %v", ok, c.want)
			}
			if bound := 2*len(c.path) + len(c.pattern); steps > bound {
				t.Errorf("%d steps, over 2 × %d + %d", steps, len(c.path), len(c.pattern))
			}
		})
	}
}

// The costliest check of the robots.txt a site may serve: one rule of
// 500 KiB of stars against a 2,000-character path (about a second a check
// when matching tracked every place a star could end).
func BenchmarkRobotsStarRule(b *testing.B) {
	rules := ParseRobots([]byte("User-agent: *\nDisallow: /" + strings.Repeat("*", MaxRobotsBytes-40) + "b\n")).For(RobotsToken)
	u := &url.URL{Scheme: "https", Host: "example.com", Path: "/" + strings.Repeat("a", 2000)}
	for b.Loop() {
		if !rules.Allowed(u) {
			b.Fatal("disallowed")
		}
	}
}

// RFC 9309 section 2.3.1: a 4xx means no robots.txt (all allowed); a 5xx
// or 429 means the site is unreachable (all disallowed).
func TestFetchRobots(t *testing.T) {
	status := http.StatusOK
	s := mustServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		if r.Header.Get("User-Agent") != DefaultUserAgent {
			t.Errorf("user agent %q", r.Header.Get("User-Agent"))
		}
		w.WriteHeader(status)
		w.Write([]byte("User-agent: clausewatch\nDisallow: /private\nCrawl-delay: 3\n"))
	})
	c := mustClient(t, Options{Timeout: time.Second}, s)
	for _, tt := range []struct {
		status             int
		publicOK, privatOK bool
	}{
		{200, true, false},
		{404, true, true},
		{401, true, true},
		{429, false, false},
		{503, false, false},
	} {
		status = tt.status
		r, err := c.Robots(context.Background(), s.URL+"/terms?x=1")
		if err != nil {
			t.Fatalf("%d: %v", tt.status, err)
		}
		rules := r.For(RobotsToken)
		if got := rules.Allowed(mustURL(t, s.URL+"/terms")); got != tt.publicOK {
			t.Errorf("%d: /terms allowed = %v", tt.status, got)
		}
		if got := rules.Allowed(mustURL(t, s.URL+"/private/terms")); got != tt.privatOK {
			t.Errorf("%d: /private/terms allowed = %v", tt.status, got)
		}
	}
	if _, err := New(Options{}).Robots(context.Background(), "https://x.invalid/terms"); err == nil {
		t.Error("robots.txt of a host that does not resolve: no error")
	}
}
