package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/clausewatch/clausewatch/internal/analyze"
	"github.com/clausewatch/clausewatch/internal/analyze/train"
)

// labelledDocs groups the labels by document, in their order.
func labelledDocs(ls []Label) (sources []string, bySource map[string][]Label) {
	bySource = map[string][]Label{}
	for _, l := range ls {
		if bySource[l.Source] == nil {
			sources = append(sources, l.Source)
		}
		bySource[l.Source] = append(bySource[l.Source], l)
	}
	return sources, bySource
}

// analyzeDocs runs engine on the labelled documents whose service keep
// accepts and matches its case findings to their labels.
func analyzeDocs(engine *analyze.Engine, texts map[string]string, ls []Label, keep func(service string) bool) []scored {
	sources, bySource := labelledDocs(ls)
	var out []scored
	for _, src := range sources {
		dl := bySource[src]
		if !keep(dl[0].Service) {
			continue
		}
		dt := "terms"
		if dl[0].Type == "Privacy Policy" {
			dt = "privacy"
		}
		text := texts[src]
		out = append(out, match(text, engine.Analyze(text, analyze.Options{DocumentType: dt}).Findings, dl)...)
	}
	return out
}

// tosdrNames returns, per labelled service's key, the ToS;DR service names
// that are the same service (equal keys, as points.jsonl's sameService).
func tosdrNames(services []string, d train.ToSDR) map[string][]string {
	out := map[string][]string{}
	want := map[string]bool{}
	for _, s := range services {
		want[serviceKey(s)] = true
	}
	for _, p := range d.Points {
		if k := serviceKey(p.Service); want[k] && !slices.Contains(out[k], p.Service) {
			out[k] = append(out[k], p.Service)
		}
	}
	return out
}

// inTraining reports the labelled services with a ToS;DR point that can
// train the case detector (a case, not declined): the shipped model has
// seen their quotes.
func inTraining(services []string, d train.ToSDR, names map[string][]string) []string {
	trained := map[string]bool{}
	for _, p := range d.Points {
		if p.Case != "" && p.Status != "declined" {
			trained[p.Service] = true
		}
	}
	var out []string
	for _, s := range services {
		if slices.ContainsFunc(names[serviceKey(s)], func(n string) bool { return trained[n] }) {
			out = append(out, s)
		}
	}
	return out
}

// score runs the evaluation: the shipped analyzer on every labelled
// document, then, with folds > 0, the honest version: the labelled
// services in folds groups, each scored by an analyzer whose case model
// was trained without that group's ToS;DR points and corpus documents.
func score(w io.Writer, ls []Label, data string, rating map[string]string, folds int) error {
	d, err := train.ReadCaseData(data)
	if err != nil {
		return err
	}
	texts, err := readTexts(data)
	if err != nil {
		return err
	}
	var services []string
	for _, l := range ls {
		if !slices.Contains(services, l.Service) {
			services = append(services, l.Service)
		}
	}
	names := tosdrNames(services, d.ToSDR)
	seen := inTraining(services, d.ToSDR, names)

	ms, err := analyze.Embedded()
	if err != nil {
		return err
	}
	engine, err := analyze.New(ms)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\n== shipped analyzer, not cross-validated: %d of %d labelled services (%s) have ToS;DR points the shipped case model was trained on, so its numbers are optimistic\n\n",
		len(seen), len(services), strings.Join(seen, ", "))
	shipped := analyzeDocs(engine, texts, ls, func(string) bool { return true })
	printScores(w, shipped, rating)
	if dumpPath != "" {
		if err := dump(dumpPath, shipped, services, max(folds, 5)); err != nil {
			return err
		}
	}
	if folds <= 0 {
		return nil
	}

	var all []scored
	for f := range folds {
		held := map[string]bool{}
		var fold []string
		for i, s := range services {
			if i%folds == f {
				fold = append(fold, s)
				held[s] = true
				for _, n := range names[serviceKey(s)] {
					held[n] = true
				}
			}
		}
		m, _ := train.TrainCases(d.ToSDR, d.Clauses, d.Corpus, train.CaseConfig, func(s string) bool { return held[s] })
		ms.Cases = train.RaiseBlockers(m, train.BlockerOffset)
		e, err := analyze.New(ms)
		if err != nil {
			return err
		}
		all = append(all, analyzeDocs(e, texts, ls, func(s string) bool { return slices.Contains(fold, s) })...)
		fmt.Fprintf(w, "fold %d of %d trained without %s\n", f+1, folds, strings.Join(fold, ", "))
	}
	fmt.Fprintf(w, "\n== cross-validated by service (%d folds): each service scored by a case model trained without its ToS;DR points and corpus documents\n\n", folds)
	printScores(w, all, rating)
	graded, err := gradedServices(data)
	if err != nil {
		return err
	}
	return calibrate(w, all, graded)
}

// dumpPath is -dump's file: with it, the shipped analyzer's scored
// sentences are written there for reading misses and false alarms fold by
// fold (a fold's services are those with index i, in label order, with
// i%folds == fold).
var dumpPath string

func dump(path string, ss []scored, services []string, folds int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	for _, s := range ss {
		err := enc.Encode(struct {
			Fold int `json:"fold"`
			Label
			Found    []string `json:"found"`
			Actor    string   `json:"readActor"`
			Modality string   `json:"readModality"`
			Negated  bool     `json:"readNegated"`
		}{slices.Index(services, s.Service) % folds, s.Label, s.found, s.read.Actor.String(), s.read.Modality.String(), s.read.Negated})
		if err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}
