package analyze

// paragraphs groups sentences into the units privacy practices are decided
// on, cut the way the labelled paragraphs the privacy detector learns from
// were cut (cmd/eval-privacy): the sentences of one block, with the
// headings right above it and, when it introduces a list (its last sentence
// ends with a colon) or is a list item, the list items that follow. A list
// item starts with a marker ("- ", "1. ") or, without one, follows the
// previous line with no blank line between (a list pasted as plain lines).
// It returns the index of each paragraph's first sentence, then len(spans).
func paragraphs(d *doc) []int {
	var starts []int
	spans, bl := d.spans, d.blocks
	var rs []rune // a heading's code points, reused
	b := 0
	heading, open, list, colon := false, false, false, false
	for i := 0; i < len(spans); {
		for bl[b].runes.End <= spans[i].Start {
			b++
		}
		j := i + 1
		for j < len(spans) && spans[j].Start < bl[b].runes.End {
			j++
		}
		item := bl[b].item || bl[b].joined
		alone := false // a block of this one sentence, read as a heading
		if j == i+1 {
			rs = d.appendRunes(rs[:0], i)
			alone = isHeading(rs)
		}
		switch {
		case item && open && (list || colon):
			list = true
		case alone:
			if !heading {
				starts = append(starts, i)
			}
			heading, open = true, false
		default:
			if !heading {
				starts = append(starts, i)
			}
			heading, open, list = false, true, bl[b].item
		}
		colon = d.last(j-1) == ':'
		i = j
	}
	return append(starts, len(spans))
}
