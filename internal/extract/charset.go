package extract

import (
	"bytes"
	"mime"
	"strings"
	"unicode/utf8"

	"github.com/gogs/chardet"
	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/unicode"
)

// toUTF8 converts raw to UTF-8. The charset comes from, in order: a byte
// order mark, the Content-Type header, a <meta> declaration (HTML only),
// and else from the bytes themselves (valid UTF-8, or a statistical guess).
func toUTF8(raw []byte, contentType string, isHTML bool) []byte {
	switch {
	case bytes.HasPrefix(raw, []byte("\xef\xbb\xbf")):
		return valid(raw[3:])
	case bytes.HasPrefix(raw, []byte("\xff\xfe")):
		return decode(unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM), raw)
	case bytes.HasPrefix(raw, []byte("\xfe\xff")):
		return decode(unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM), raw)
	}
	isUTF8 := utf8.Valid(raw)
	if _, params, err := mime.ParseMediaType(contentType); err == nil {
		if cs := params["charset"]; cs != "" {
			if e, name := charset.Lookup(cs); e != nil {
				if readAsUTF8(name, isUTF8, raw) {
					return validUTF8(raw, isUTF8)
				}
				return decode(e, raw)
			}
		}
	}
	if isHTML {
		head := raw
		if len(head) > 4096 {
			head = head[:4096]
		}
		if e, name, _ := charset.DetermineEncoding(head, "text/html"); e != nil && declaresCharset(head) {
			if name == "utf-8" && !isUTF8 {
				// Declared UTF-8 but not: legacy pages saved in a
				// Windows code page under a template's UTF-8 meta.
				return decode(guessEncoding(raw), raw)
			}
			if readAsUTF8(name, isUTF8, raw) {
				return validUTF8(raw, isUTF8)
			}
			return decode(e, raw)
		}
	}
	if isUTF8 {
		return raw
	}
	return decode(guessEncoding(raw), raw)
}

// readAsUTF8: bytes declared as name are read as UTF-8 when that is the
// declaration, or when a Latin-1 label (servers often send it by default)
// sits on bytes that are valid UTF-8 beyond ASCII.
func readAsUTF8(name string, isUTF8 bool, raw []byte) bool {
	return name == "utf-8" || isUTF8 && latin1(name) && hasHighBit(raw)
}

// validUTF8 is valid without scanning again bytes already known to be UTF-8.
func validUTF8(raw []byte, isUTF8 bool) []byte {
	if isUTF8 {
		return raw
	}
	return valid(raw)
}

func latin1(name string) bool {
	return name == "windows-1252" || name == "iso-8859-1" || name == "us-ascii" || name == "iso-8859-15"
}

func hasHighBit(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return true
		}
	}
	return false
}

// declaresCharset reports a <meta charset> or http-equiv declaration in the
// head (DetermineEncoding also guesses, which we do ourselves).
func declaresCharset(head []byte) bool {
	return bytes.Contains(bytes.ToLower(head), []byte("charset"))
}

func guessEncoding(raw []byte) encoding.Encoding {
	sample := raw
	if len(sample) > 64<<10 {
		sample = sample[:64<<10]
	}
	if res, err := chardet.NewTextDetector().DetectBest(sample); err == nil && res != nil && res.Confidence >= 30 {
		if e, _ := charset.Lookup(strings.ToLower(res.Charset)); e != nil {
			return e
		}
	}
	e, _ := charset.Lookup("windows-1252")
	return e
}

func decode(e encoding.Encoding, raw []byte) []byte {
	out, err := e.NewDecoder().Bytes(raw)
	if err != nil {
		return valid(raw)
	}
	return valid(out)
}

func valid(b []byte) []byte {
	if utf8.Valid(b) {
		return b
	}
	return bytes.ToValidUTF8(b, []byte("\uFFFD"))
}
