package extract

import (
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"regexp"
	"strings"

	"golang.org/x/text/unicode/norm"
)

// ContentHash is the hex SHA-256 of the normalised text. The normalisation
// removes what changes between two fetches of an unchanged document: white
// space and Unicode form, tracking parameters in URLs, and the dates of
// "last visited", "printed on", "generated at" style notes. Dates that
// belong to the document itself ("last updated", "effective") are kept, so
// a new version still changes the hash.
func ContentHash(text string) string {
	sum := sha256.Sum256([]byte(NormalizeForHash(text)))
	return hex.EncodeToString(sum[:])
}

var (
	urlRe = regexp.MustCompile(`(?i)\bhttps?://[^\s<>"')\]]+`)

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
	text = norm.NFKC.String(text)
	text = urlRe.ReplaceAllStringFunc(text, stripTracking)
	text = noiseRe.ReplaceAllStringFunc(text, func(m string) string {
		// keep the label, drop the date
		loc := dateStartRe.FindStringIndex(m)
		if loc == nil {
			return m
		}
		return strings.TrimSpace(m[:loc[0]])
	})
	return strings.Join(strings.Fields(text), " ")
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
