package analyze

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
)

// maxDecisive is how many clauses the why names as deciding the letter.
const maxDecisive = 5

// Why explains a verdict in plain words, in the order a reader asks: the
// few clauses that decided the letter, each with its quote; what was in
// the document's favour and how much it weighed; what would change the
// letter. Rule is the rule itself, for whoever wants it (the CLI folds it
// below the rest, the API sends it after a blank line).
type Why struct {
	Decided, Favour, Change, Rule string
}

// String is the why as the API sends it: its parts one to a paragraph,
// the rule last.
func (w Why) String() string {
	return strings.Join(slices.DeleteFunc([]string{w.Decided, w.Favour, w.Change, w.Rule}, func(s string) bool { return s == "" }), "\n\n")
}

// Explain writes v's why (cuts are the ones v was graded with).
func Explain(v Verdict, cuts Cuts) Why {
	var against, favour []Evidence
	var wAgainst, wFavour float64
	for _, e := range v.Evidence {
		switch {
		case e.Weight < 0:
			against = append(against, e)
			wAgainst -= e.Weight
		case e.Weight > 0:
			favour = append(favour, e)
			wFavour += e.Weight
		}
	}
	heaviest := func(a, b Evidence) int { return cmp.Compare(math.Abs(b.Weight), math.Abs(a.Weight)) }
	slices.SortStableFunc(against, heaviest)
	slices.SortStableFunc(favour, heaviest)
	var w Why
	if len(against) == 0 {
		w.Decided = fmt.Sprintf("%s: no clause against the reader was found.", v.Grade)
	} else {
		var b strings.Builder
		fmt.Fprintf(&b, "%s: %s against the reader, weighing %.1f in all. The heaviest:", v.Grade, plural(len(against), "case"), wAgainst)
		for _, e := range against[:min(maxDecisive, len(against))] {
			fmt.Fprintf(&b, "\n- %s (%s, %.0f%% likely, %s): %q", e.Title, e.Rating, 100*e.Probability, plural(e.Findings, "finding"), clip(e.Quote))
		}
		w.Decided = b.String()
	}
	if len(favour) == 0 {
		w.Favour = "In its favour: nothing was found."
	} else {
		titles := make([]string, 0, maxDecisive)
		for _, e := range favour[:min(maxDecisive, len(favour))] {
			titles = append(titles, fmt.Sprintf("%s (%.0f%% likely)", e.Title, 100*e.Probability))
		}
		more := ""
		if len(favour) > maxDecisive {
			more = fmt.Sprintf(" and %d more", len(favour)-maxDecisive)
		}
		w.Favour = fmt.Sprintf("In its favour: %s weighing %.1f: %s%s.", plural(len(favour), "case"), wFavour, strings.Join(titles, "; "), more)
	}
	w.Change = change(v, cuts)
	w.Rule = fmt.Sprintf("The rule: each case weighs 1 (a ToS;DR blocker 3) times the probability that its clause says what it found, measured on labelled documents; bad and blocker cases count against, good ones for, each case once and each clause once. This document's balance is %+.1f: E below %.0f, D below %.0f or with a ToS;DR blocker, C below %.0f or with any blocker, B with any bad case, else A.",
		v.Balance, cuts.E, cuts.D, cuts.C)
	return w
}

// change says how far the balance is from the letters next to this one.
func change(v Verdict, cuts Cuts) string {
	var parts []string
	if better, at, ok := betterLetter(v, cuts); ok {
		parts = append(parts, fmt.Sprintf("it would be %s with %.1f more in its favour (or that much less against it)", better, at-v.Balance))
	} else if v.Grade != "A" {
		parts = append(parts, blockerNote(v))
	}
	if worse, at, ok := worseLetter(v, cuts); ok {
		parts = append(parts, fmt.Sprintf("%s with %.1f more against it", worse, v.Balance-at))
	}
	if len(parts) == 0 {
		return ""
	}
	return "What would change the letter: " + strings.Join(parts, "; ") + "."
}

// betterLetter is the next better letter a higher balance reaches, and the
// balance it takes; false when a blocker or a bad case holds the letter.
func betterLetter(v Verdict, cuts Cuts) (string, float64, bool) {
	switch v.Grade {
	case "E":
		return "D", cuts.E, true
	case "D":
		return "C", cuts.D, !v.caseBlocker
	case "C":
		return "B", cuts.C, !v.caseBlocker && !v.defaultBlocker
	}
	return "", 0, false
}

func blockerNote(v Verdict) string {
	if v.Grade == "B" {
		return "it cannot be A while it has a bad case"
	}
	return fmt.Sprintf("it cannot be better than %s while it has a blocker", v.Grade)
}

// worseLetter is the next worse letter a lower balance reaches.
func worseLetter(v Verdict, cuts Cuts) (string, float64, bool) {
	switch v.Grade {
	case "A", "B":
		return "C", cuts.C, true
	case "C":
		return "D", cuts.D, true
	case "D":
		return "E", cuts.E, true
	}
	return "", 0, false
}

// clip shortens a quote for the why.
func clip(q string) string {
	const max = 200
	r := []rune(strings.Join(strings.Fields(q), " "))
	if len(r) <= max {
		return string(r)
	}
	return string(r[:max-1]) + "…"
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
