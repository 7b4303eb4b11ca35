package db_test

import (
	"bytes"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
)

// goldenAnalysis is the analysis testdata/analysis-body.json stores: every
// part an analysis may have, findings, readability, an AI summary and an
// aiError, and non-ASCII quotes.
func goldenAnalysis() *app.Analysis {
	return &app.Analysis{
		ID: "6f1c1f8e-0000-4000-8000-00000000a001",
		Source: app.Source{URL: "https://example.com/terms", Title: "Example Terms", DocumentType: "terms",
			Language: "en", WordCount: 24, ContentHash: "sha256:0f3a"},
		Grade: "D", Score: 47,
		Findings: []app.Finding{
			{Category: "unilateral_termination", Severity: "bad", Title: "They can close your account",
				Explanation: "You may lose access at any time.", Guidance: "Check what happens to your data.",
				Quote: "We may terminate your account at any time.", Start: 0, End: 42, Confidence: 0.93},
			{Category: "arbitration", Severity: "blocker", Title: "Binding arbitration",
				Explanation: "You give up court.", Guidance: "Look for an opt-out.",
				Quote: "Disputes go to binding arbitration in Zürich 🚀.", Start: 43, End: 90, Confidence: 0.875},
		},
		Guidance:    []string{"Check what happens to your data.", "Look for an opt-out."},
		Readability: app.Readability{FleschKincaidGrade: 9.4, ReadingMinutes: 0.1},
		AI: &app.AISummary{Summary: "You can lose your account and must arbitrate.", Model: "test-model",
			Quotes: []string{"We may terminate your account at any time."}},
		AIError:    "the AI provider did not answer in time",
		Disclaimer: app.Disclaimer,
		CreatedAt:  time.Date(2026, 11, 22, 9, 30, 15, 123_000_000, time.UTC),
		Text:       "We may terminate your account at any time. Disputes go to binding arbitration in Zürich 🚀.",
	}
}

// The stored body is a format of its own: an analysis is written as the
// golden bytes (captured from the code before the stored shape had a type
// of its own), and a row holding those bytes reads back as the same
// analysis, so rows already stored keep reading whatever app or the API
// become.
func TestStoredAnalysisBodyIsGolden(t *testing.T) {
	golden, err := os.ReadFile("testdata/analysis-body.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dbtest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			s := dbtest.Open(t, d)
			ctx := t.Context()
			acct := &app.Account{ID: "6f1c1f8e-0000-4000-8000-0000000000cc", Subject: "golden|" + string(d), Tier: app.TierFree}
			if err := s.CreateAccount(ctx, acct); err != nil {
				t.Fatal(err)
			}
			want := goldenAnalysis()
			if err := s.CreateAnalysis(ctx, acct.ID, nil, want); err != nil {
				t.Fatal(err)
			}
			got, err := s.AnalysisBody(ctx, want.ID)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, golden) {
				t.Errorf("stored body changed:\n got %s\nwant %s", got, golden)
			}

			// A row as the earlier code wrote it reads back whole, one by
			// one and in a page.
			if err := s.SetAnalysisBody(ctx, want.ID, golden); err != nil {
				t.Fatal(err)
			}
			one, err := s.FindAnalysis(ctx, acct.ID, want.ID, app.AllParts)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(one, want) {
				t.Errorf("FindAnalysis:\n got %+v\nwant %+v", one, want)
			}
			page, err := s.FindAnalyses(ctx, acct.ID, nil, 10, true)
			if err != nil {
				t.Fatal(err)
			}
			if len(page) != 1 || !reflect.DeepEqual(&page[0], want) {
				t.Errorf("FindAnalyses: got %+v, want [%+v]", page, want)
			}
		})
	}
}

// An analysis graded by ToS;DR's rule keeps its basis and cases, its
// coverage and confidence; one with a basis and no case reads back with an
// empty list, not as an old row.
func TestStoredAnalysisKeepsGradeBasis(t *testing.T) {
	for _, d := range dbtest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			s := dbtest.Open(t, d)
			ctx := t.Context()
			acct := &app.Account{ID: "6f1c1f8e-0000-4000-8000-0000000000cd", Subject: "basis|" + string(d), Tier: app.TierFree}
			if err := s.CreateAccount(ctx, acct); err != nil {
				t.Fatal(err)
			}
			graded := goldenAnalysis()
			graded.ID = "6f1c1f8e-0000-4000-8000-00000000a003"
			graded.Basis = &app.GradeBasis{Good: 1, Bad: 2, Balance: -1}
			graded.Coverage, graded.Confidence = 0.87, "high"
			graded.Cases = []app.Case{
				{Title: "The service can delete your account without prior notice and without a reason", Rating: "bad", Category: "unilateral_termination"},
				{Title: "You waive your right to a class action.", Rating: "bad", Category: "arbitration"},
				{Title: "This service does not sell your personal data", Rating: "good", Category: "data_sale"},
			}
			empty := goldenAnalysis()
			empty.ID = "6f1c1f8e-0000-4000-8000-00000000a002"
			empty.Basis, empty.Cases = &app.GradeBasis{}, []app.Case{}
			for _, want := range []*app.Analysis{graded, empty} {
				if err := s.CreateAnalysis(ctx, acct.ID, nil, want); err != nil {
					t.Fatal(err)
				}
				got, err := s.FindAnalysis(ctx, acct.ID, want.ID, app.AllParts)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("FindAnalysis:\n got %+v\nwant %+v", got, want)
				}
			}
		})
	}
}

// FindAnalysis reads the parts asked for: id, grade and score always, the
// body and the text only when asked.
func TestFindAnalysisReadsThePartsAskedFor(t *testing.T) {
	for _, d := range dbtest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			s := dbtest.Open(t, d)
			ctx := t.Context()
			acct := &app.Account{ID: "6f1c1f8e-0000-4000-8000-0000000000ce", Subject: "parts|" + string(d), Tier: app.TierFree}
			if err := s.CreateAccount(ctx, acct); err != nil {
				t.Fatal(err)
			}
			whole := goldenAnalysis()
			whole.ID, whole.Text = "6f1c1f8e-0000-4000-8000-00000000a004", "the analyzed text"
			if err := s.CreateAnalysis(ctx, acct.ID, nil, whole); err != nil {
				t.Fatal(err)
			}
			columns := &app.Analysis{ID: whole.ID, Grade: whole.Grade, Score: whole.Score}
			body := *whole
			body.Text = ""
			for _, c := range []struct {
				parts app.AnalysisParts
				want  *app.Analysis
			}{
				{app.AnalysisParts{}, columns},
				{app.AnalysisParts{Text: true}, &app.Analysis{ID: whole.ID, Grade: whole.Grade, Score: whole.Score, Text: whole.Text}},
				{app.AnalysisParts{Body: true}, &body},
				{app.AllParts, whole},
			} {
				got, err := s.FindAnalysis(ctx, acct.ID, whole.ID, c.parts)
				if err != nil || !reflect.DeepEqual(got, c.want) {
					t.Errorf("%+v: got %+v, %v\nwant %+v", c.parts, got, err, c.want)
				}
				if _, err := s.FindAnalysis(ctx, "6f1c1f8e-0000-4000-8000-0000000000cf", whole.ID, c.parts); app.ErrorCode(err) != app.CodeNotFound {
					t.Errorf("%+v, another account: %v, want not_found", c.parts, err)
				}
			}
		})
	}
}
