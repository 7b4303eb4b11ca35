package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/clausewatch/clausewatch/internal/analyze"
	"github.com/clausewatch/clausewatch/internal/analyze/corpus"
)

// How the analyzer reads the labelled sentences apart from their cases:
// who a clause binds and how (analyze.ReadSentences, as the gate reads it), what kind of sentence
// it is (the same) and what its gate drops
// (Engine.GateDrops). The rules behind them were written reading the
// sentences of half the services only (read below); the other half is
// reported apart so the rules' fit to what was read shows.

// read reports whether a service's labels were read while writing the
// reading and kind rules: every other service in label order, from the
// first. The rest are held back and never read.
func read(services []string, service string) bool {
	return slices.Index(services, service)%2 == 0
}

// readSentence is a labelled sentence with the analyzer's reading of it.
type readSentence struct {
	Label
	read    analyze.Reading
	kind    analyze.Kind
	dropped []string // the cases of the hits the gate dropped on it
	held    bool     // its service is held back (read)
}

// readDocs reads every labelled sentence of the labelled documents: its
// clause reading (with the document's names for the service), its kind
// and the cases the gate drops on it.
func readDocs(engine *analyze.Engine, texts map[string]string, ls []Label) []readSentence {
	sources, bySource := labelledDocs(ls)
	var services []string
	for _, src := range sources {
		if s := bySource[src][0].Service; !slices.Contains(services, s) {
			services = append(services, s)
		}
	}
	var out []readSentence
	for _, src := range sources {
		dl := bySource[src]
		text := texts[src]
		sr := analyze.ReadSentences(text)
		drops := map[int][]string{}
		for _, d := range engine.GateDrops(text, analyze.Options{DocumentType: docType(dl[0])}) {
			if d.Case != "" && !slices.Contains(drops[d.Sentence], d.Case) {
				drops[d.Sentence] = append(drops[d.Sentence], d.Case)
			}
		}
		for _, l := range dl {
			out = append(out, readSentence{
				Label:   l,
				read:    sr[l.Sentence].Reading,
				kind:    sr[l.Sentence].Kind,
				dropped: drops[l.Sentence],
				held:    !read(services, l.Service),
			})
		}
	}
	return out
}

// docType is the analyzer's document type of a labelled document.
func docType(l Label) string {
	if l.Type == "Privacy Policy" {
		return "privacy"
	}
	return "terms"
}

// readingReport loads the corpus texts and the shipped analyzer, reads
// every labelled sentence and prints printReading's report; with dump set
// it writes the sentences of the read services to that file too.
func readingReport(w io.Writer, ls []Label, data, dump string) error {
	texts, err := readTexts(data)
	if err != nil {
		return err
	}
	engine, err := analyze.Load()
	if err != nil {
		return err
	}
	rs := readDocs(engine, texts, ls)
	printReading(w, rs)
	if dump != "" {
		return dumpReadings(dump, rs)
	}
	return nil
}

// readTexts maps each corpus and silver-set document's source to its text.
func readTexts(data string) (map[string]string, error) {
	texts := map[string]string{}
	for _, dir := range []string{"corpus", "tosdr-silver"} {
		docs, err := corpus.Read(filepath.Join(data, dir, "documents.jsonl.gz"))
		if err != nil {
			return nil, err
		}
		for _, doc := range docs {
			texts[doc.Source] = doc.Text
		}
	}
	return texts, nil
}

// printReading prints the clause reading's accuracy (all, by document
// type, read and held-back services) with its actor and modality confusion
// matrices, the kind detector's precision and recall per kind with its
// confusion matrix, and what the gate drops.
func printReading(w io.Writer, rs []readSentence) {
	subsets := []struct {
		name string
		in   func(readSentence) bool
	}{
		{"all", func(readSentence) bool { return true }},
		{"terms", func(r readSentence) bool { return docType(r.Label) == "terms" }},
		{"privacy", func(r readSentence) bool { return docType(r.Label) == "privacy" }},
		{"read", func(r readSentence) bool { return !r.held }},
		{"held back", func(r readSentence) bool { return r.held }},
	}
	fmt.Fprintf(w, "\nclause reading (analyze.ReadSentences) against the labelled clauses; read: the services whose sentences were read while writing the rules, held back: the others\n")
	fmt.Fprintf(w, "  %-10s %7s  %-36s %-36s %s\n", "clauses", "n", "actor", "modality", "negation")
	for _, sub := range subsets {
		var n, actor, mod, neg int
		for _, r := range rs {
			if r.Kind != "clause" || !sub.in(r) {
				continue
			}
			n++
			actor += boolInt(r.read.Actor.String() == r.Actor)
			mod += boolInt(r.read.Modality.String() == r.Modality)
			neg += boolInt(r.read.Negated == r.Negated)
		}
		fmt.Fprintf(w, "  %-10s %7d  %-36s %-36s %s\n", sub.name, n, frac(actor, n), frac(mod, n), frac(neg, n))
	}
	clauses := func(r readSentence) bool { return r.Kind == "clause" }
	printConfusion(w, "actor, labelled (rows) x read (columns), clauses", actors, rs, clauses,
		func(r readSentence) (string, string) { return r.Actor, r.read.Actor.String() })
	printConfusion(w, "modality, labelled (rows) x read (columns), clauses", modalities[:4], rs, clauses,
		func(r readSentence) (string, string) { return r.Modality, r.read.Modality.String() })

	// The detector does not look for "other" (dates, addresses): such a
	// line read as a heading counts against the heading's precision,
	// though dropping it loses nothing.
	detected := []string{"clause", "heading", "toc", "summary", "cross_reference", "definition", "example"}
	fmt.Fprintf(w, "\nsentence kind (analyze.ReadSentences) against the labels; a clause read as another kind is a lost finding\n")
	fmt.Fprintf(w, "  %-16s %-36s %-36s %s\n", "kind", "precision", "recall", "clauses read as it")
	for _, k := range detected[1:] {
		var tp, fp, fn, lost int
		for _, r := range rs {
			got := r.kind.String() == k
			switch {
			case got && r.Kind == k:
				tp++
			case got:
				fp++
				lost += boolInt(r.Kind == "clause")
			case r.Kind == k:
				fn++
			}
		}
		fmt.Fprintf(w, "  %-16s %-36s %-36s %d\n", k, frac(tp, tp+fp), frac(tp, tp+fn), lost)
	}
	printConfusion(w, "kind, labelled (rows) x detected (columns), all sentences", append(detected, "other"), rs,
		func(readSentence) bool { return true },
		func(r readSentence) (string, string) { return r.Kind, r.kind.String() })

	// The gate's drops, as the case scoring counts them: a dropped case
	// the sentence is labelled with is a positive lost; any other, a false
	// alarm removed. Summary sentences are ignored there, and here.
	var lost, removed, lostKind, removedKind int
	for _, r := range rs {
		if r.Kind == "summary" {
			continue
		}
		for _, c := range r.dropped {
			nonClause := r.kind != analyze.KindClause
			if c == r.Case {
				lost++
				lostKind += boolInt(nonClause)
			} else {
				removed++
				removedKind += boolInt(nonClause)
			}
		}
	}
	fmt.Fprintf(w, "\ngate (Engine.GateDrops), case hits dropped on labelled sentences (summaries ignored):\n")
	fmt.Fprintf(w, "  labelled positives dropped  %4d (%d as not a clause, %d by the reading)\n", lost, lostKind, lost-lostKind)
	fmt.Fprintf(w, "  false alarms removed        %4d (%d as not a clause, %d by the reading)\n", removed, removedKind, removed-removedKind)
}

// printConfusion prints a matrix of labelled (rows) against read
// (columns) values over the sentences in accepts.
func printConfusion(w io.Writer, title string, values []string, rs []readSentence, in func(readSentence) bool, pair func(readSentence) (string, string)) {
	m := map[[2]string]int{}
	for _, r := range rs {
		if in(r) {
			a, b := pair(r)
			m[[2]string{a, b}]++
		}
	}
	fmt.Fprintf(w, "\n%s\n  %-16s", title, "")
	for _, v := range values {
		fmt.Fprintf(w, " %10.10s", v)
	}
	fmt.Fprintln(w)
	for _, a := range values {
		fmt.Fprintf(w, "  %-16s", a)
		for _, b := range values {
			fmt.Fprintf(w, " %10d", m[[2]string{a, b}])
		}
		fmt.Fprintln(w)
	}
}

// dumpReadings writes the read services' sentences with the analyzer's
// reading, kind and gate drops, one JSON object a line, for reading the
// errors; the held-back services' sentences are left out so they stay
// unread.
func dumpReadings(path string, rs []readSentence) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	for _, r := range rs {
		if r.held {
			continue
		}
		err := enc.Encode(struct {
			Label
			Actor    string   `json:"readActor"`
			Modality string   `json:"readModality"`
			Negated  bool     `json:"readNegated"`
			Kind     string   `json:"readKind"`
			Dropped  []string `json:"dropped"`
		}{r.Label, r.read.Actor.String(), r.read.Modality.String(), r.read.Negated, r.kind.String(), r.dropped})
		if err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}
