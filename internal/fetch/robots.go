package fetch

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Robots is a site's robots.txt as RFC 9309 reads it: groups of rules,
// each for the user agents its user-agent lines name.
type Robots struct {
	groups []robotsGroup
	// Status is the HTTP status robots.txt was answered with (0: parsed
	// from bytes). When it is 429 or 5xx the site is unreachable and
	// every path is disallowed (RFC 9309 section 2.3.1.4); any other
	// 4xx means there is no robots.txt, and every path is allowed.
	Status int
}

type robotsGroup struct {
	agents     []string // product tokens, lower case; "*" for every crawler
	rules      []robotsRule
	crawlDelay time.Duration
}

type robotsRule struct {
	allow   bool
	pattern string // normalised (see normalisePath)
}

// Rules are the rules of robots.txt that apply to one crawler.
type Rules struct {
	rules       []robotsRule
	disallowAll bool
	// CrawlDelay is the Crawl-delay of the crawler's group (0: none), at
	// most MaxCrawlDelay. It is not part of RFC 9309; it is honoured as
	// crawlers long have.
	CrawlDelay time.Duration
}

// MaxCrawlDelay is the longest Crawl-delay honoured: a site asking for
// more is asked as seldom as this allows, not ignored.
const MaxCrawlDelay = 30 * time.Second

// MaxRobotsBytes is how much of a robots.txt is parsed: RFC 9309 section
// 2.5 asks for at least 500 KiB.
const MaxRobotsBytes = 500 << 10

// ParseRobots parses a robots.txt body (RFC 9309 section 2.2). Lines are
// "key: value"; comments start with #. A group is one or more user-agent
// lines followed by rules; a user-agent line after a rule starts a new
// group; blank lines and unknown keys change nothing. Rules before any
// user-agent line belong to no group and are ignored.
func ParseRobots(body []byte) *Robots {
	if len(body) > MaxRobotsBytes {
		body = body[:MaxRobotsBytes]
	}
	body = bytes.TrimPrefix(body, []byte("\xef\xbb\xbf")) // a UTF-8 byte order mark
	r := &Robots{}
	var cur *robotsGroup
	inRules := false
	for _, line := range strings.FieldsFunc(string(body), func(c rune) bool { return c == '\n' || c == '\r' }) {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		key, value = strings.ToLower(strings.TrimSpace(key)), strings.TrimSpace(value)
		switch key {
		case "user-agent":
			if cur == nil || inRules {
				r.groups = append(r.groups, robotsGroup{})
				cur, inRules = &r.groups[len(r.groups)-1], false
			}
			cur.agents = append(cur.agents, agentToken(value))
		case "allow", "disallow":
			if cur == nil {
				continue
			}
			inRules = true
			if value == "" {
				continue // an empty rule matches nothing
			}
			cur.rules = append(cur.rules, robotsRule{allow: key == "allow", pattern: normalisePath(value)})
		case "crawl-delay":
			if cur == nil {
				continue
			}
			inRules = true
			// Past the float range ParseFloat gives ±Inf with ErrRange,
			// still a delay (an infinite one); NaN is none.
			if secs, err := strconv.ParseFloat(value, 64); (err == nil || errors.Is(err, strconv.ErrRange)) && secs > 0 {
				cur.crawlDelay = time.Duration(min(secs, MaxCrawlDelay.Seconds()) * float64(time.Second))
			}
		}
	}
	return r
}

// agentToken is the product token a user-agent line names: its leading
// letters, '_' and '-', in lower case; "*" stays "*".
func agentToken(v string) string {
	if strings.HasPrefix(v, "*") {
		return "*"
	}
	end := 0
	for end < len(v) {
		c := v[end]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '-') {
			break
		}
		end++
	}
	return strings.ToLower(v[:end])
}

// For returns the rules for the crawler whose product token is token
// (RFC 9309 section 2.2.1): every group naming it, merged, matched without
// regard to case; else every group naming "*", merged; else none (every
// path allowed).
func (r *Robots) For(token string) Rules {
	if r.Status == http.StatusTooManyRequests || r.Status >= 500 {
		return Rules{disallowAll: true}
	}
	token = strings.ToLower(token)
	pick := func(want string) (Rules, bool) {
		var out Rules
		found := false
		for _, g := range r.groups {
			for _, a := range g.agents {
				if a == want {
					found = true
					out.rules = append(out.rules, g.rules...)
					out.CrawlDelay = max(out.CrawlDelay, g.crawlDelay)
					break
				}
			}
		}
		return out, found
	}
	if rules, ok := pick(token); ok {
		return rules
	}
	rules, _ := pick("*")
	return rules
}

// Allowed reports whether the rules let the crawler fetch u (Verdict).
func (r Rules) Allowed(u *url.URL) bool {
	allowed, _ := r.Verdict(u)
	return allowed
}

// Verdict is whether the rules let the crawler fetch u, and the rule that
// decided ("Disallow: /private"; "" when no rule matched, or robots.txt
// could not be read and every page is disallowed for now). Of the rules
// whose pattern matches the path and query the one with the longest
// pattern wins, and Allow wins a tie; no matching rule allows (RFC 9309
// section 2.2.2). /robots.txt itself is always allowed.
func (r Rules) Verdict(u *url.URL) (allowed bool, rule string) {
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	if path == "/robots.txt" {
		return true, ""
	}
	if r.disallowAll {
		return false, ""
	}
	if u.RawQuery != "" {
		path += "?" + u.RawQuery
	}
	path = normalisePath(path)
	best, won := -1, robotsRule{}
	for _, rule := range r.rules {
		if len(rule.pattern) < best {
			continue
		}
		if ok, _ := matchPattern(path, rule.pattern); !ok {
			continue
		}
		if len(rule.pattern) > best || rule.allow { // a tie: allow wins
			best, won = len(rule.pattern), rule
		}
	}
	if best < 0 {
		return true, ""
	}
	if won.allow {
		return true, "Allow: " + won.pattern
	}
	return false, "Disallow: " + won.pattern
}

// matchPattern reports whether pattern matches path from its start: '*'
// matches any run of characters, and a '$' ending the pattern matches the
// end of the path (RFC 9309 section 2.2.3). The parts between the stars
// are found in turn, each at its first place after the one before: the
// first place leaves the most room for the parts after it, so if that
// fails every later place fails too. Each search starts where the last one
// ended and every part is read once, so steps, the bytes of path and
// pattern looked at, is at most 2 × len(path) + len(pattern) (a part not
// found ends the match) however the stars fall.
func matchPattern(path, pattern string) (ok bool, steps int) {
	anchored := strings.HasSuffix(pattern, "$")
	if anchored {
		pattern = pattern[:len(pattern)-1]
	}
	first, rest, star := strings.Cut(pattern, "*")
	steps = len(first)
	if !strings.HasPrefix(path, first) {
		return false, steps
	}
	if !star {
		return !anchored || len(path) == len(first), steps
	}
	pos := len(first)
	for {
		trimmed := strings.TrimLeft(rest, "*") // a run of stars is one star
		steps += len(rest) - len(trimmed)
		var part string
		part, rest, star = strings.Cut(trimmed, "*")
		steps += len(part)
		if !star && anchored { // the last part ends the path
			return len(path)-pos >= len(part) && strings.HasSuffix(path, part), steps
		}
		i := strings.Index(path[pos:], part)
		if i < 0 {
			return false, steps + len(path) - pos
		}
		steps += i + len(part)
		pos += i + len(part)
		if !star {
			return true, steps
		}
	}
}

// normalisePath brings a pattern or a path to one form (RFC 9309 section
// 2.2.2): octets outside printable US-ASCII are percent-encoded, and
// percent-encodings of unreserved characters are decoded, with the others'
// hex digits in upper case, so "/%7ejoe", "/~joe" and "/%7Ejoe" compare
// equal.
func normalisePath(s string) string {
	var b strings.Builder
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			v := unhex(s[i+1])<<4 | unhex(s[i+2])
			if isUnreserved(v) {
				b.WriteByte(v)
			} else {
				b.WriteByte('%')
				b.WriteByte(hex[v>>4])
				b.WriteByte(hex[v&15])
			}
			i += 2
		case c <= ' ' || c >= 0x7f:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

func isUnreserved(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

// RobotsURL is the robots.txt of the site serving pageURL.
func RobotsURL(pageURL string) (string, error) {
	u, err := url.Parse(pageURL)
	if err != nil {
		return "", newErr(KindInvalid, err, "the URL is not valid")
	}
	return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: "/robots.txt"}).String(), nil
}

// Robots fetches and parses the robots.txt of the site serving pageURL,
// under the same guards as Fetch (RFC 9309 section 2.3): redirects are
// followed (up to five), a body is parsed up to MaxRobotsBytes, and any
// status is an answer (see Robots.Status). Only a failure to reach the
// site at all is an error.
func (c *Client) Robots(ctx context.Context, pageURL string) (*Robots, error) {
	raw, err := RobotsURL(pageURL)
	if err != nil {
		return nil, err
	}
	req, cancel, err := c.newGet(ctx, raw, "text/plain,*/*;q=0.5")
	if err != nil {
		return nil, err
	}
	defer cancel()
	ctx, u := req.Context(), req.URL
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, c.classify(ctx, err, u.Hostname())
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return &Robots{Status: resp.StatusCode}, nil
	}
	rd, done, err := decoded(resp)
	if err != nil {
		return nil, err
	}
	defer done()
	body, err := io.ReadAll(io.LimitReader(rd, MaxRobotsBytes))
	if err != nil && len(body) == 0 {
		return nil, c.classify(ctx, err, u.Hostname())
	}
	r := ParseRobots(body)
	r.Status = resp.StatusCode
	return r, nil
}
