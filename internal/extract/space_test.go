package extract

import (
	"fmt"
	"strings"
	"testing"
)

// One white-space table serves the text and the hash: a white-space
// character reads and hashes as a space, an invisible one as nothing, in a
// page's text, its title, and a text pasted as it is. So a page and the
// same words pasted hash alike, and a monitor sees no change where a reader
// sees none.
func TestOneWhiteSpaceDefinition(t *testing.T) {
	const want = "We may terminate your account at any time."
	wantHash := ContentHash(want)
	spaces := []rune{'\t', '\v', '\f', 0x85, 0xa0, 0x1680, 0x2000, 0x2005, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000}
	invisible := []rune{0xad, 0x200b, 0x200c, 0x200d, 0x2060, 0xfeff}
	var cases []string
	for _, r := range spaces {
		cases = append(cases,
			strings.Replace(want, " your", string(r)+"your", 1),      // in place of a space
			strings.Replace(want, " your", " "+string(r)+" your", 1)) // beside spaces
	}
	for _, r := range invisible {
		cases = append(cases,
			strings.Replace(want, "terminate", "termi"+string(r)+"nate", 1), // inside a word
			strings.Replace(want, " your", " "+string(r)+" your", 1))        // between spaces
	}
	for _, text := range cases {
		name := fmt.Sprintf("%+q", text)
		if got := ContentHash(text); got != wantHash {
			t.Errorf("%s: hash differs; normalised %q", name, NormalizeForHash(text))
		}
		if got := Describe("", text).ContentHash; got != wantHash {
			t.Errorf("%s: pasted text's hash differs", name)
		}
		doc, err := testExtractor(t).Extract([]byte("<html><head><title>"+text+"</title></head><body><main><p>"+text+"</p></main></body></html>"), "text/html", "")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if doc.Text != want || doc.Title != want || doc.ContentHash != wantHash {
			t.Errorf("%s: page text %q, title %q, hash equal %v", name, doc.Text, doc.Title, doc.ContentHash == wantHash)
		}
		if strings.ContainsRune(text, '\v') {
			continue // a file holding a vertical tab is sniffed as binary
		}
		if doc, err := testExtractor(t).Extract([]byte(text), "text/plain", ""); err != nil || doc.ContentHash != wantHash {
			t.Errorf("%s: plain text hash equal %v, %v", name, err == nil && doc.ContentHash == wantHash, err)
		}
	}
}
