package extract

// One definition of white space serves everything that normalises text:
// the rendered text, titles, plain text and the content hash. Were they to
// disagree, a page and the same words pasted would hash differently, and a
// monitor would report changes no reader can see.

// isSpace reports whether r is white space: the ASCII spaces and Unicode's
// space separators, line and paragraph separators. A run of them is one space.
func isSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\v', '\f', '\r', 0x85, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000:
		return true
	}
	return 0x2000 <= r && r <= 0x200a
}

// isInvisible reports whether r is a zero-width or formatting character:
// it is dropped, since inside a word it joins the letters or marks where a
// line may break, and never stands for a space.
func isInvisible(r rune) bool {
	switch r {
	case 0xad, 0x200b, 0x200c, 0x200d, 0x2060, 0xfeff:
		return true
	}
	return false
}
