package analyze

// paragraphs groups sentences into the units privacy practices are decided
// on, cut the way the labelled paragraphs the privacy detector learns from
// were cut (cmd/eval-privacy): the sentences of one block, with the
// headings right above it and, when it introduces a list (its last sentence
// ends with a colon) or is a list item, the list items that follow. A list
// item starts with a marker ("- ", "1. ") or, without one, follows the
// previous line with no blank line between (a list pasted as plain lines).
// It returns the index of each paragraph's first sentence, then len(spans).
func paragraphs(rs []rune, spans []Span) []int {
	var starts []int
	bl := blocks(rs)
	b := 0
	heading, open, list, colon := false, false, false, false
	for i := 0; i < len(spans); {
		for bl[b].End <= spans[i].Start {
			b++
		}
		j := i + 1
		for j < len(spans) && spans[j].Start < bl[b].End {
			j++
		}
		item := startsListItem(rs, bl[b]) || b > 0 && !blankLine(rs[bl[b-1].End:bl[b].Start])
		switch {
		case item && open && (list || colon):
			list = true
		case j == i+1 && isHeading(rs[spans[i].Start:spans[i].End]):
			if !heading {
				starts = append(starts, i)
			}
			heading, open = true, false
		default:
			if !heading {
				starts = append(starts, i)
			}
			heading, open, list = false, true, startsListItem(rs, bl[b])
		}
		last := spans[j-1]
		colon = rs[last.End-1] == ':'
		i = j
	}
	return append(starts, len(spans))
}

// blankLine reports whether the text between two blocks holds an empty line.
func blankLine(between []rune) bool {
	n := 0
	for _, r := range between {
		if r == '\n' {
			n++
		}
	}
	return n >= 2
}
