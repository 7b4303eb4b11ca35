package db

import (
	"context"
	"encoding/json"
	"time"

	"github.com/clausewatch/clausewatch/internal/app"
)

const createAnalysisSQL = `INSERT INTO analyses (id, account_id, key_id, url, content_hash, grade, score, body, text, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

// CreateAnalysis implements app.Store. The analysis is kept as JSON, its
// text apart (lists leave it out); the columns beside them are what lists
// and monitors query.
func (s *Store) CreateAnalysis(ctx context.Context, accountID string, keyID *string, a *app.Analysis) error {
	body, err := json.Marshal(storedAnalysisOf(a))
	if err != nil {
		return app.Internal(err)
	}
	_, err = s.exec(ctx, createAnalysisSQL, a.ID, accountID, keyID, a.Source.URL, a.Source.ContentHash, a.Grade, a.Score, string(body), []byte(a.Text), a.CreatedAt.UTC())
	return err
}

// findAnalysisSQL reads the columns of one analysis that parts asks for:
// the others are read as empty, so their bytes never leave the database.
func findAnalysisSQL(parts app.AnalysisParts) string {
	body, text := `''`, `NULL`
	if parts.Body {
		body = `body`
	}
	if parts.Text {
		text = `text`
	}
	return `SELECT id, grade, score, ` + body + ` AS body, ` + text + ` AS text FROM analyses WHERE id = ? AND account_id = ?`
}

// FindAnalysis implements app.Store.
func (s *Store) FindAnalysis(ctx context.Context, accountID, id string, parts app.AnalysisParts) (*app.Analysis, error) {
	var row analysisPartsRow
	if err := s.get(ctx, &row, findAnalysisSQL(parts), id, accountID); err != nil {
		if app.ErrorCode(err) == app.CodeNotFound {
			return nil, app.Errorf(app.CodeNotFound, "analysis not found")
		}
		return nil, err
	}
	if !parts.Body {
		return &app.Analysis{ID: row.ID, Grade: row.Grade, Score: row.Score, Text: string(row.Text)}, nil
	}
	a, err := row.analysisRow.analysis()
	if err != nil {
		return nil, err
	}
	return &a, nil
}

// analysisPartsRow is one analysis read by FindAnalysis: the body may be
// left out, and the columns beside it then stand for it.
type analysisPartsRow struct {
	ID    string `db:"id"`
	Grade string `db:"grade"`
	Score int    `db:"score"`
	analysisRow
}

// A page of analyses, optionally with their texts, optionally after a
// keyset cursor: rows strictly after the cursor's (created_at, id).
var (
	findAnalysesSQL              = analysesPageSQL("NULL", "")
	findAnalysesWithTextSQL      = analysesPageSQL("text", "")
	findAnalysesAfterSQL         = analysesPageSQL("NULL", afterCursor)
	findAnalysesWithTextAfterSQL = analysesPageSQL("text", afterCursor)
)

const afterCursor = ` AND (created_at < ? OR (created_at = ? AND id < ?))`

func analysesPageSQL(text, after string) string {
	return `SELECT body, ` + text + ` AS text FROM analyses WHERE account_id = ?` + after + ` ORDER BY created_at DESC, id DESC LIMIT ?`
}

type analysisRow struct {
	Body string `db:"body"`
	Text []byte `db:"text"`
}

func (r analysisRow) analysis() (app.Analysis, error) {
	var b storedAnalysis
	if err := json.Unmarshal([]byte(r.Body), &b); err != nil {
		return app.Analysis{}, app.Internal(err)
	}
	return b.analysis(string(r.Text)), nil
}

// storedAnalysis is the analyses.body column: the shape every stored row
// has, whatever the API or the engines look like now. Its json names are
// frozen (testdata/analysis-body.json holds a row as written); a change
// here must still read the rows already written.
type storedAnalysis struct {
	ID     string       `json:"id"`
	Source storedSource `json:"source"`
	Grade  string       `json:"grade"`
	Score  int          `json:"score"`
	// Basis and Cases came with ToS;DR's rule: rows written before have
	// neither, and read back without a basis.
	Basis       *storedBasis      `json:"basis,omitempty"`
	Cases       []storedCase      `json:"cases,omitempty"`
	Findings    []storedFinding   `json:"findings"`
	Guidance    []string          `json:"guidance"`
	Readability storedReadability `json:"readability"`
	// Coverage and Confidence came with issue 21: rows written before have
	// neither and read back with zero values.
	Coverage   float64          `json:"coverage,omitempty"`
	Confidence string           `json:"confidence,omitempty"`
	AI         *storedAISummary `json:"ai"`
	AIError    string           `json:"aiError,omitempty"`
	Disclaimer string           `json:"disclaimer"`
	CreatedAt  storedTime       `json:"createdAt"`
	// Text is always empty: the text has its own column (00005). The member
	// stays so the bytes written are those rows before and after it hold.
	Text string `json:"text"`
}

type storedSource struct {
	URL          string `json:"url,omitempty"`
	Title        string `json:"title"`
	DocumentType string `json:"documentType"`
	Language     string `json:"language"`
	WordCount    int    `json:"wordCount"`
	ContentHash  string `json:"contentHash"`
}

type storedFinding struct {
	Category    string  `json:"category"`
	Severity    string  `json:"severity"`
	Title       string  `json:"title"`
	Explanation string  `json:"explanation"`
	Guidance    string  `json:"guidance"`
	Quote       string  `json:"quote"`
	Start       int     `json:"start"`
	End         int     `json:"end"`
	Confidence  float64 `json:"confidence"`
	Case        string  `json:"case,omitempty"`
}

type storedBasis struct {
	Good    int `json:"good"`
	Neutral int `json:"neutral"`
	Bad     int `json:"bad"`
	Blocker int `json:"blocker"`
	Balance int `json:"balance"`
}

type storedCase struct {
	Title    string `json:"title"`
	Rating   string `json:"rating"`
	Category string `json:"category"`
}

type storedReadability struct {
	FleschKincaidGrade float64 `json:"fleschKincaidGrade"`
	ReadingMinutes     float64 `json:"readingMinutes"`
}

type storedAISummary struct {
	Summary string   `json:"summary"`
	Model   string   `json:"model"`
	Quotes  []string `json:"quotes,omitempty"`
}

// storedAnalysisOf and analysis map the stored shape to and from app's by
// conversion: the field lists match, so a field added to one without the
// other stops the build instead of silently changing the stored rows.
func storedAnalysisOf(a *app.Analysis) storedAnalysis {
	b := storedAnalysis{
		ID: a.ID, Source: storedSource(a.Source), Grade: a.Grade, Score: a.Score,
		Findings: make([]storedFinding, len(a.Findings)), Guidance: a.Guidance,
		Readability: storedReadability(a.Readability), Coverage: a.Coverage, Confidence: a.Confidence,
		AIError: a.AIError, Disclaimer: a.Disclaimer, CreatedAt: storedTime(a.CreatedAt),
	}
	for i, f := range a.Findings {
		b.Findings[i] = storedFinding(f)
	}
	if a.Basis != nil {
		basis := storedBasis(*a.Basis)
		b.Basis = &basis
	}
	for _, c := range a.Cases {
		b.Cases = append(b.Cases, storedCase(c))
	}
	if a.AI != nil {
		ai := storedAISummary(*a.AI)
		b.AI = &ai
	}
	return b
}

func (b storedAnalysis) analysis(text string) app.Analysis {
	a := app.Analysis{
		ID: b.ID, Source: app.Source(b.Source), Grade: b.Grade, Score: b.Score,
		Findings: make([]app.Finding, len(b.Findings)), Guidance: b.Guidance,
		Readability: app.Readability(b.Readability), Coverage: b.Coverage, Confidence: b.Confidence,
		AIError: b.AIError, Disclaimer: b.Disclaimer, CreatedAt: time.Time(b.CreatedAt).UTC(), Text: text,
	}
	for i, f := range b.Findings {
		a.Findings[i] = app.Finding(f)
	}
	if b.Basis != nil {
		basis := app.GradeBasis(*b.Basis)
		a.Basis = &basis
		a.Cases = make([]app.Case, len(b.Cases))
		for i, c := range b.Cases {
			a.Cases[i] = app.Case(c)
		}
	}
	if b.AI != nil {
		ai := app.AISummary(*b.AI)
		a.AI = &ai
	}
	return a
}

// FindAnalyses implements app.Store.
func (s *Store) FindAnalyses(ctx context.Context, accountID string, after *app.PageCursor, limit int, withText bool) ([]app.Analysis, error) {
	var rows []analysisRow
	var err error
	if after == nil {
		q := findAnalysesSQL
		if withText {
			q = findAnalysesWithTextSQL
		}
		err = s.selectAll(ctx, &rows, q, accountID, limit)
	} else {
		q := findAnalysesAfterSQL
		if withText {
			q = findAnalysesWithTextAfterSQL
		}
		at := after.At.UTC()
		err = s.selectAll(ctx, &rows, q, accountID, at, at, after.ID, limit)
	}
	if err != nil {
		return nil, err
	}
	out := make([]app.Analysis, len(rows))
	for i, r := range rows {
		if out[i], err = r.analysis(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// storedTime is how rows hold a time: UTC with exactly three fractional
// digits (time.Time's own JSON would drop trailing zeros).
type storedTime time.Time

const storedTimeFormat = "2006-01-02T15:04:05.000Z07:00"

func (t storedTime) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Time(t).UTC().Format(storedTimeFormat))
}

func (t *storedTime) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := time.Parse(time.RFC3339Nano, s)
	*t = storedTime(v)
	return err
}
