package rest

import (
	"net/http"

	"github.com/clausewatch/clausewatch/internal/app"
)

// AnalysisResponse is an analysis as the contract writes it (decisions.md,
// "Analysis result", plus text). Exported because `clausewatch analyze
// --json` prints this same shape.
type AnalysisResponse struct {
	ID          string              `json:"id"`
	Source      sourceResponse      `json:"source"`
	Grade       string              `json:"grade"`
	Score       int                 `json:"score"`
	Basis       *basisResponse      `json:"basis"` // null on analyses stored before it
	Why         string              `json:"why"`   // "" on analyses stored before it
	Cases       []caseResponse      `json:"cases"`
	Findings    []findingResponse   `json:"findings"`
	Guidance    []string            `json:"guidance"`
	Readability readabilityResponse `json:"readability"`
	Coverage    float64             `json:"coverage"`
	Confidence  string              `json:"confidence"` // "" on analyses stored before it
	AI          *aiSummaryResponse  `json:"ai"`
	AIError     string              `json:"aiError,omitempty"`
	Disclaimer  string              `json:"disclaimer"`
	CreatedAt   Time                `json:"createdAt"`
	Text        string              `json:"text"`
}

type sourceResponse struct {
	URL          string `json:"url,omitempty"`
	Title        string `json:"title"`
	DocumentType string `json:"documentType"`
	Language     string `json:"language"`
	WordCount    int    `json:"wordCount"`
	ContentHash  string `json:"contentHash"`
}

type findingResponse struct {
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

type basisResponse struct {
	Good    int `json:"good"`
	Neutral int `json:"neutral"`
	Bad     int `json:"bad"`
	Blocker int `json:"blocker"`
	Balance int `json:"balance"`
}

type caseResponse struct {
	Title    string `json:"title"`
	Rating   string `json:"rating"`
	Category string `json:"category,omitempty"`
}

// gradingResponse is a batch's overall grade.
type gradingResponse struct {
	Grade string         `json:"grade"`
	Score int            `json:"score"`
	Basis basisResponse  `json:"basis"`
	Cases []caseResponse `json:"cases"`
}

func newCaseResponse(c app.Case) caseResponse { return caseResponse(c) }

type readabilityResponse struct {
	FleschKincaidGrade float64 `json:"fleschKincaidGrade"`
	ReadingMinutes     float64 `json:"readingMinutes"`
}

type aiSummaryResponse struct {
	Summary string   `json:"summary"`
	Model   string   `json:"model"`
	Quotes  []string `json:"quotes,omitempty"`
}

// NewAnalysisResponse maps an analysis to its response. Source, findings,
// readability and summary are conversions: their fields match app's one
// for one, so a field added on one side only stops the build.
func NewAnalysisResponse(a *app.Analysis) *AnalysisResponse {
	res := &AnalysisResponse{
		ID: a.ID, Source: sourceResponse(a.Source), Grade: a.Grade, Score: a.Score,
		Cases:    append([]caseResponse{}, mapAll(a.Cases, newCaseResponse)...), // [] on old rows
		Findings: mapAll(a.Findings, func(f app.Finding) findingResponse { return findingResponse(f) }),
		Guidance: a.Guidance, Readability: readabilityResponse(a.Readability), Coverage: a.Coverage, Confidence: a.Confidence, AIError: a.AIError,
		Disclaimer: a.Disclaimer, CreatedAt: Time(a.CreatedAt), Text: a.Text, Why: a.Why(),
	}
	if a.AI != nil {
		ai := aiSummaryResponse(*a.AI)
		res.AI = &ai
	}
	if a.Basis != nil {
		b := basisResponse(*a.Basis)
		res.Basis = &b
	}
	return res
}

type batchResultResponse struct {
	Results []batchItemResponse `json:"results"`
	Overall *gradingResponse    `json:"overall"` // null when every item failed
}

func newGradingResponse(g *app.Grading) *gradingResponse {
	if g == nil {
		return nil
	}
	return &gradingResponse{Grade: g.Grade, Score: g.Score, Basis: basisResponse(g.Basis), Cases: mapAll(g.Cases, newCaseResponse)}
}

type batchItemResponse struct {
	Index    int                `json:"index"`
	OK       bool               `json:"ok"`
	Analysis *AnalysisResponse  `json:"analysis,omitempty"`
	Error    *itemErrorResponse `json:"error,omitempty"`
}

type itemErrorResponse struct {
	Code    app.Code `json:"code"`
	Message string   `json:"message"`
}

func newBatchItemResponse(it app.BatchItem) batchItemResponse {
	res := batchItemResponse{Index: it.Index, OK: it.OK}
	if it.Analysis != nil {
		res.Analysis = NewAnalysisResponse(it.Analysis)
	}
	if it.Error != nil {
		e := itemErrorResponse(*it.Error)
		res.Error = &e
	}
	return res
}

func (s *server) handleAnalyze(w http.ResponseWriter, r *http.Request) error {
	var in app.AnalyzeInput
	if err := decode(w, r, &in); err != nil {
		return err
	}
	a, err := s.svc.Analyze(r.Context(), in)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, NewAnalysisResponse(a))
}

func (s *server) handleAnalyzeBatch(w http.ResponseWriter, r *http.Request) error {
	var in app.BatchInput
	if err := decode(w, r, &in); err != nil {
		return err
	}
	res, err := s.svc.AnalyzeBatch(r.Context(), in)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, batchResultResponse{Results: mapAll(res.Results, newBatchItemResponse), Overall: newGradingResponse(res.Overall)})
}
