package extract

import "bytes"

// stripRaw removes the bodies of <script> and <style> elements and whole
// <svg> images before tokenizing. They are the bulk of many modern pages
// (inline bundles, JSON state, icon sprites) and hold no document text;
// skipping them with a fast search rather than the tokenizer's byte-by-byte
// raw-text states roughly doubles throughput. Returns src unchanged when
// there is nothing to strip.
func stripRaw(src []byte) []byte {
	var out []byte
	last := 0
	unclosed := map[string]bool{}
	for pos := 0; pos < len(src); {
		i := bytes.IndexByte(src[pos:], '<')
		if i < 0 {
			break
		}
		i += pos
		name := rawName(src[i+1:])
		if name == "" {
			pos = i + 1
			continue
		}
		// end of the start tag
		gt := bytes.IndexByte(src[i:], '>')
		if gt < 0 {
			break
		}
		gt += i
		if name == "svg" && src[gt-1] == '/' {
			pos = gt + 1
			continue
		}
		if unclosed[name] {
			pos = gt + 1
			continue
		}
		end := indexEndTag(src[gt+1:], name)
		if end < 0 {
			unclosed[name] = true // no end tag anywhere after: stop searching for one
			pos = gt + 1
			continue
		}
		end += gt + 1
		if out == nil {
			out = make([]byte, 0, len(src))
		}
		if name == "svg" {
			out = append(out, src[last:i]...)
			out = append(out, "<svg>"...)
		} else {
			out = append(out, src[last:gt+1]...)
		}
		last = end
		pos = end + 2
	}
	if out == nil {
		return src
	}
	return append(out, src[last:]...)
}

// rawName reports whether b starts with "script", "style" or "svg" (any
// case) followed by the end of a tag name.
func rawName(b []byte) string {
	for _, name := range [...]string{"script", "style", "svg"} {
		if len(b) > len(name) && bytes.EqualFold(b[:len(name)], []byte(name)) {
			switch b[len(name)] {
			case ' ', '\t', '\n', '\r', '\f', '>', '/':
				return name
			}
		}
	}
	return ""
}

// indexEndTag finds "</name" (any case) followed by the end of a tag name.
func indexEndTag(b []byte, name string) int {
	for pos := 0; ; {
		i := bytes.Index(b[pos:], []byte("</"))
		if i < 0 {
			return -1
		}
		i += pos
		rest := b[i+2:]
		if len(rest) > len(name) && bytes.EqualFold(rest[:len(name)], []byte(name)) {
			switch rest[len(name)] {
			case ' ', '\t', '\n', '\r', '\f', '>', '/':
				return i
			}
		}
		pos = i + 2
	}
}
