package extract

import (
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"
)

// ContentHash is the hex SHA-256 of the normalised text. The normalisation
// removes what changes between two fetches of an unchanged document: white
// space, tracking parameters in URLs, and the dates of
// "last visited", "printed on", "generated at" style notes. Dates that
// belong to the document itself ("last updated", "effective") are kept, so
// a new version still changes the hash.
func ContentHash(text string) string {
	sum := sha256.Sum256([]byte(NormalizeForHash(text)))
	return hex.EncodeToString(sum[:])
}

var (
	// A date or time in the usual spellings: 2024-05-01, 01/05/2024,
	// 1 May 2024, May 1st, 2024, 10:42:07 AM UTC, Monday, ...
	dateRe = `(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s*)?` +
		`(?:\d{4}-\d{1,2}-\d{1,2}(?:[t ]\d{1,2}:\d{2}(?::\d{2})?(?:\.\d+)?(?:z|[+-]\d{2}:?\d{2})?)?` +
		`|\d{1,2}[./-]\d{1,2}[./-]\d{2,4}` +
		`|\d{1,2}(?:st|nd|rd|th)?\.?\s+(?:of\s+)?[a-zäéû]{3,9}\.?,?\s+\d{4}` +
		`|[a-zäéû]{3,9}\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4})` +
		`(?:,?\s*(?:at\s+)?\d{1,2}:\d{2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)?(?:\s*(?:utc|gmt|[a-z]{2,4}t|[+-]\d{2}:?\d{2}))?)?` +
		`|\d{1,2}:\d{2}(?::\d{2})?\s*(?:am|pm)?(?:\s*(?:utc|gmt|[a-z]{2,4}t))?`

	dateStartRe = regexp.MustCompile(`(?i)\d|\b(?:mon|tue|wed|thu|fri|sat|sun)`)

	noiseRe = regexp.MustCompile(`(?i)\b(?:last\s+(?:visited|accessed|viewed|retrieved|checked|crawled|fetched)|(?:page\s+)?(?:printed|generated|retrieved|accessed|downloaded|rendered|exported)|as\s+of\s+today|today(?:'s date)?\s+is|current\s+(?:date|time)|zuletzt\s+(?:besucht|abgerufen)|abgerufen\s+am|gedruckt\s+am|consulté\s+le|imprimé\s+le|généré\s+le)(?:\s+(?:on|at|am|le|:))?\s*:?\s*(?:` + dateRe + `)`)
)

// trackingParams are query parameters that identify a campaign or a click,
// not a document.
var trackingParams = map[string]bool{
	"fbclid": true, "gclid": true, "dclid": true, "gbraid": true, "wbraid": true, "msclkid": true,
	"mc_cid": true, "mc_eid": true, "_ga": true, "_gl": true, "yclid": true, "igshid": true,
	"twclid": true, "ttclid": true, "li_fat_id": true, "_hsenc": true, "_hsmi": true,
	"mkt_tok": true, "oly_anon_id": true, "oly_enc_id": true, "vero_id": true, "ref_src": true,
	"spm": true, "scid": true, "s_cid": true, "cmpid": true, "sessionid": true, "sid": true,
	"ved": true, "ei": true,
}

func isTrackingParam(k string) bool {
	k = strings.ToLower(k)
	return trackingParams[k] || strings.HasPrefix(k, "utm_") || strings.HasPrefix(k, "pk_") || strings.HasPrefix(k, "hsa_")
}

// NormalizeForHash is the text ContentHash hashes (exported for tests and
// for callers that diff documents).
func NormalizeForHash(text string) string {
	text = replaceURLs(text)
	// "Printed on <date>" style notes stand on their own short line; the
	// dates inside long paragraphs are the document's own (a citation's
	// "last accessed"), and the noise pattern is costly, so only short
	// lines holding one of its key words are searched.
	var sb strings.Builder
	last := 0
	for pos := 0; pos < len(text); {
		nl := strings.IndexByte(text[pos:], '\n')
		end := len(text)
		if nl >= 0 {
			end = pos + nl
		}
		line := text[pos:end]
		if len(line) <= maxNoiseLine {
			if lower := strings.ToLower(line); len(lower) == len(line) && hasNoiseWord(lower) {
				if repl := noiseRe.ReplaceAllStringFunc(line, dropDate); repl != line {
					sb.WriteString(text[last:pos])
					sb.WriteString(repl)
					last = end
				}
			}
		}
		pos = end + 1
	}
	if last > 0 {
		sb.WriteString(text[last:])
		text = sb.String()
	}
	return collapseSpaceASCII(text)
}

// collapseSpaceASCII trims text, replaces each run of white space with one
// space and drops invisible characters, as the rendered text does; ASCII
// takes the short way.
func collapseSpaceASCII(s string) string {
	var sb strings.Builder
	sb.Grow(len(s))
	pending := false
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			if isSpace(rune(c)) {
				pending = true
				continue
			}
			if pending && sb.Len() > 0 {
				sb.WriteByte(' ')
			}
			pending = false
			sb.WriteByte(c)
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if isSpace(r) {
			pending = true
			continue
		}
		if isInvisible(r) {
			continue
		}
		if pending && sb.Len() > 0 {
			sb.WriteByte(' ')
		}
		pending = false
		sb.WriteString(s[i-size : i])
	}
	return sb.String()
}

// maxNoiseLine is the longest line searched for date noise.
const maxNoiseLine = 300

// noiseWords are the key words of noiseRe, lower-cased.
var noiseWords = []string{
	"visited", "accessed", "viewed", "retrieved", "checked", "crawled", "fetched", "printed",
	"generated", "downloaded", "rendered", "exported", "today", "current date", "current time",
	"besucht", "abgerufen", "gedruckt", "consulté", "imprimé", "généré",
}

// replaceURLs strips tracking parameters from every http(s) URL in text.
func replaceURLs(text string) string {
	var sb strings.Builder
	last := 0
	for pos := 0; pos < len(text); {
		i := indexFold(text[pos:], "http")
		if i < 0 {
			break
		}
		i += pos
		rest := text[i:]
		if i > 0 && isWordByte(text[i-1]) || !(hasPrefixFold(rest, "http://") || hasPrefixFold(rest, "https://")) {
			pos = i + 4
			continue
		}
		end := i
		for end < len(text) && !strings.ContainsRune(" \t\r\n\f<>\"')]", rune(text[end])) {
			end++
		}
		sb.WriteString(text[last:i])
		sb.WriteString(stripTracking(text[i:end]))
		last, pos = end, end
	}
	if last == 0 {
		return text
	}
	sb.WriteString(text[last:])
	return sb.String()
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// indexFold finds an ASCII lower-case needle in s, ignoring case.
func indexFold(s, needle string) int {
	for i := 0; i+len(needle) <= len(s); {
		j := strings.IndexAny(s[i:], needle[:1]+strings.ToUpper(needle[:1]))
		if j < 0 {
			return -1
		}
		i += j
		if hasPrefixFold(s[i:], needle) {
			return i
		}
		i++
	}
	return -1
}

func hasNoiseWord(lower string) bool {
	for _, w := range noiseWords {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// dropDate keeps the label of a "printed on <date>" note and drops the date.
func dropDate(m string) string {
	loc := dateStartRe.FindStringIndex(m)
	if loc == nil {
		return m
	}
	return strings.TrimSpace(m[:loc[0]])
}

func stripTracking(raw string) string {
	trail := ""
	for len(raw) > 0 && strings.ContainsRune(".,;:!?", rune(raw[len(raw)-1])) {
		trail = raw[len(raw)-1:] + trail
		raw = raw[:len(raw)-1]
	}
	u, err := url.Parse(raw)
	if err != nil || u.RawQuery == "" && u.Fragment == "" {
		return raw + trail
	}
	q := u.Query()
	changed := false
	for k := range q {
		if isTrackingParam(k) {
			q.Del(k)
			changed = true
		}
	}
	if changed {
		u.RawQuery = q.Encode()
	}
	if strings.HasPrefix(u.Fragment, ":~:") { // text fragment links
		u.Fragment = ""
		changed = true
	}
	if !changed {
		return raw + trail
	}
	return u.String() + trail
}
