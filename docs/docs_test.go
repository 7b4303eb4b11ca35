// Package docs holds clausewatch's reference pages; its test keeps README a
// page a newcomer reads in five minutes and every link between the pages
// working.
package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

const (
	maxReadmeLines = 150
	maxLineLength  = 120
)

// pages are README and every page of docs/, as paths relative to this
// directory.
func pages(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) == 0 {
		t.Fatal("no page in docs/")
	}
	return append([]string{filepath.Join("..", "README.md")}, docs...)
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestReadmeIsShort(t *testing.T) {
	readme := mustRead(t, filepath.Join("..", "README.md"))
	if n := strings.Count(readme, "\n"); n > maxReadmeLines {
		t.Errorf("README.md has %d lines, at most %d: move reference to docs/", n, maxReadmeLines)
	}
}

func TestNoLongLinesOutsideCode(t *testing.T) {
	for _, path := range pages(t) {
		for _, l := range proseLines(mustRead(t, path)) {
			if n := len([]rune(l.text)); n > maxLineLength {
				t.Errorf("%s:%d is %d characters, at most %d outside code blocks", path, l.number, n, maxLineLength)
			}
		}
	}
}

func TestRelativeLinksResolve(t *testing.T) {
	anchors := map[string]map[string]bool{}
	for _, path := range pages(t) {
		anchors[filepath.Clean(path)] = headingAnchors(mustRead(t, path))
	}
	for _, path := range pages(t) {
		for _, l := range proseLines(mustRead(t, path)) {
			for _, target := range links(l.text) {
				if err := checkLink(path, target, anchors); err != "" {
					t.Errorf("%s:%d: link %q: %s", path, l.number, target, err)
				}
			}
		}
	}
}

// checkLink says what is wrong with a link from page from, or "" when it
// resolves: a file that exists and, for a Markdown page, a heading the
// fragment names. Links to other sites are not followed (no network in tests).
func checkLink(from, target string, anchors map[string]map[string]bool) string {
	if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
		return ""
	}
	file, fragment, _ := strings.Cut(target, "#")
	dest := filepath.Clean(from)
	if file != "" {
		dest = filepath.Join(filepath.Dir(from), file)
		if _, err := os.Stat(dest); err != nil {
			return "no such file"
		}
	}
	if fragment == "" || !strings.HasSuffix(dest, ".md") {
		return ""
	}
	known, ok := anchors[dest]
	if !ok {
		return "" // a Markdown file outside README and docs/: its headings are not ours to check
	}
	if !known[fragment] {
		return "no heading #" + fragment
	}
	return ""
}

type line struct {
	number int
	text   string
}

// proseLines are the lines of a Markdown page outside fenced code blocks.
func proseLines(page string) []line {
	var out []line
	inCode := false
	for i, text := range strings.Split(page, "\n") {
		if strings.HasPrefix(strings.TrimSpace(text), "```") {
			inCode = !inCode
			continue
		}
		if !inCode {
			out = append(out, line{i + 1, text})
		}
	}
	return out
}

var (
	linkRE     = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	codeSpanRE = regexp.MustCompile("`[^`]*`")
)

// links are the targets of the inline links on a line, code spans left out
// (an example such as `[a](b)` is no link).
func links(text string) []string {
	var out []string
	for _, m := range linkRE.FindAllStringSubmatch(codeSpanRE.ReplaceAllString(text, ""), -1) {
		out = append(out, m[1])
	}
	return out
}

// headingAnchors are the fragments GitHub gives a page's headings: lower
// case, punctuation dropped, spaces as hyphens, repeats numbered.
func headingAnchors(page string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, l := range proseLines(page) {
		if !strings.HasPrefix(l.text, "#") {
			continue
		}
		title := strings.TrimSpace(strings.TrimLeft(l.text, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(title) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		anchor := b.String()
		if n := seen[anchor]; n > 0 {
			seen[anchor]++
			anchor += "-" + strconv.Itoa(n)
		} else {
			seen[anchor] = 1
		}
		out[anchor] = true
	}
	return out
}
