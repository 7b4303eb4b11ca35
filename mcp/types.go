package mcp

import (
	"time"

	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/monitor"
)

type extractIn struct {
	URL string `json:"url" jsonschema:"the public http(s) URL of the document"`
}

type analyzeIn struct {
	URL          string `json:"url,omitempty" jsonschema:"a public http(s) URL to fetch and analyze (give url or text)"`
	Text         string `json:"text,omitempty" jsonschema:"the document's text to analyze (give url or text)"`
	Title        string `json:"title,omitempty" jsonschema:"the document's title, for a text"`
	DocumentType string `json:"documentType,omitempty" jsonschema:"terms or privacy; detected when absent"`
	AI           bool   `json:"ai,omitempty" jsonschema:"add an AI summary (one AI unit of the monthly budget)"`
}

func (in analyzeIn) input() app.AnalyzeInput {
	return app.AnalyzeInput{URL: in.URL, Text: in.Text, Title: in.Title, DocumentType: in.DocumentType, AI: in.AI}
}

type batchIn struct {
	Items []analyzeIn `json:"items" jsonschema:"1 to 5 documents, each a url or a text"`
}

type monitorIn struct {
	URL             string  `json:"url" jsonschema:"the public http(s) URL to watch"`
	Name            string  `json:"name,omitempty" jsonschema:"a name for the monitor"`
	IntervalSeconds *int    `json:"intervalSeconds,omitempty" jsonschema:"seconds between checks; default a day"`
	AlertOn         *string `json:"alertOn,omitempty" jsonschema:"which changes raise an alert: any (default) or risk (only a change in findings or grade)"`
}

type monitorUpdateIn struct {
	ID      string `json:"id" jsonschema:"the monitor's id"`
	AlertOn string `json:"alertOn" jsonschema:"which changes raise an alert: any or risk (only a change in findings or grade)"`
}

type alertsIn struct {
	Unread    bool   `json:"unread,omitempty" jsonschema:"only unread alerts"`
	MonitorID string `json:"monitorId,omitempty" jsonschema:"only this monitor's alerts"`
	Limit     *int   `json:"limit,omitempty" jsonschema:"1 to 100; default 20"`
	Cursor    string `json:"cursor,omitempty" jsonschema:"a previous page's nextCursor"`
}

type markIn struct {
	IDs  []string `json:"ids" jsonschema:"the alerts' ids, at most 100"`
	Read *bool    `json:"read,omitempty" jsonschema:"true (default) marks read, false unread"`
}

type extractionOut struct {
	URL          string `json:"url"`
	FinalURL     string `json:"finalUrl"`
	Title        string `json:"title"`
	DocumentType string `json:"documentType"`
	Language     string `json:"language"`
	WordCount    int    `json:"wordCount"`
	ContentHash  string `json:"contentHash"`
	Text         string `json:"text"`
	Markdown     string `json:"markdown"`
}

func extraction(x *app.Extraction) extractionOut {
	return extractionOut{URL: x.URL, FinalURL: x.FinalURL, Title: x.Title, DocumentType: x.DocumentType, Language: x.Language,
		WordCount: x.WordCount, ContentHash: x.ContentHash, Text: x.Text, Markdown: x.Markdown}
}

type findingOut struct {
	Severity    string `json:"severity"`
	Category    string `json:"category"`
	Title       string `json:"title"`
	Quote       string `json:"quote"`
	Explanation string `json:"explanation"`
	Guidance    string `json:"guidance,omitempty"`
	Case        string `json:"case,omitempty"`
	Start       int    `json:"start"`
	End         int    `json:"end"`
}

type analysisOut struct {
	ID       string       `json:"id"`
	Title    string       `json:"title,omitempty"`
	URL      string       `json:"url,omitempty"`
	Grade    string       `json:"grade"`
	Score    int          `json:"score"`
	Why      []string     `json:"why"`
	Findings []findingOut `json:"findings"`
	Summary  string       `json:"aiSummary,omitempty"`
	Notice   string       `json:"disclaimer"`
}

// why is the grade's sentence (Analysis.Why, as the command line prints
// it; none for an analysis graded by an earlier rule), then each ToS;DR
// case found as "rating: title".
func why(a *app.Analysis) []string {
	out := []string{}
	if w := a.Why(); w != "" {
		out = append(out, w)
	}
	for _, c := range a.Cases {
		out = append(out, c.Rating+": "+c.Title)
	}
	return out
}

func analysis(a *app.Analysis) analysisOut {
	out := analysisOut{ID: a.ID, Title: a.Source.Title, URL: a.Source.URL, Grade: a.Grade, Score: a.Score, Why: why(a),
		Findings: make([]findingOut, len(a.Findings)), Notice: a.Disclaimer}
	for i, f := range a.Findings {
		out.Findings[i] = findingOut{Severity: f.Severity, Category: f.Category, Title: f.Title, Quote: f.Quote,
			Explanation: f.Explanation, Guidance: f.Guidance, Case: f.Case, Start: f.Start, End: f.End}
	}
	if a.AI != nil {
		out.Summary = a.AI.Summary
	}
	return out
}

type batchItemOut struct {
	Index    int            `json:"index"`
	OK       bool           `json:"ok"`
	Analysis *analysisOut   `json:"analysis,omitempty"`
	Error    map[string]any `json:"error,omitempty"`
}

type batchOut struct {
	Results      []batchItemOut `json:"results"`
	OverallGrade string         `json:"overallGrade,omitempty"`
}

func batch(b *app.BatchResult) batchOut {
	out := batchOut{Results: make([]batchItemOut, len(b.Results))}
	for i, r := range b.Results {
		it := batchItemOut{Index: r.Index, OK: r.OK}
		if r.Analysis != nil {
			a := analysis(r.Analysis)
			it.Analysis = &a
		}
		if r.Error != nil {
			it.Error = map[string]any{"code": r.Error.Code, "error": r.Error.Message}
		}
		out.Results[i] = it
	}
	if b.Overall != nil {
		out.OverallGrade = b.Overall.Grade
	}
	return out
}

type monitorOut struct {
	ID              string `json:"id"`
	URL             string `json:"url"`
	Name            string `json:"name"`
	IntervalSeconds int    `json:"intervalSeconds"`
	CreatedAt       int64  `json:"createdAt"`
	NextCheckAt     int64  `json:"nextCheckAt"`
	LastCheckedAt   *int64 `json:"lastCheckedAt,omitempty"`
	LastChangedAt   *int64 `json:"lastChangedAt,omitempty"`
	LastError       string `json:"lastError,omitempty"`
	AlertOn         string `json:"alertOn"`
}

type monitorsOut struct {
	Monitors []monitorOut `json:"monitors"`
}

func msp(t *time.Time) *int64 {
	if t == nil {
		return nil
	}
	v := ms(*t)
	return &v
}

func monitorOf(m *monitor.Monitor) monitorOut {
	return monitorOut{ID: m.ID, URL: m.URL, Name: m.Name, IntervalSeconds: m.IntervalSeconds, CreatedAt: ms(m.CreatedAt),
		NextCheckAt: ms(m.NextCheckAt), LastCheckedAt: msp(m.LastCheckedAt), LastChangedAt: msp(m.LastChangedAt), LastError: m.LastError,
		AlertOn: m.AlertOn}
}

type alertFindingOut struct {
	Severity string `json:"severity"`
	Category string `json:"category"`
	Title    string `json:"title"`
	Quote    string `json:"quote"`
}

type alertOut struct {
	ID              string            `json:"id"`
	MonitorID       string            `json:"monitorId"`
	URL             string            `json:"url"`
	DetectedAt      int64             `json:"detectedAt"`
	Read            bool              `json:"read"`
	Summary         string            `json:"summary"`
	Added           int               `json:"linesAdded"`
	Removed         int               `json:"linesRemoved"`
	FindingsAdded   []alertFindingOut `json:"findingsAdded"`
	FindingsRemoved []alertFindingOut `json:"findingsRemoved"`
	// how many findings each list left out (monitor.MaxAlertFindings)
	FindingsAddedOmitted   int `json:"findingsAddedOmitted"`
	FindingsRemovedOmitted int `json:"findingsRemovedOmitted"`
}

type alertsOut struct {
	Alerts     []alertOut `json:"alerts"`
	NextCursor *string    `json:"nextCursor"`
}

func alertFindings(fs []monitor.AlertFinding) []alertFindingOut {
	out := make([]alertFindingOut, len(fs))
	for i, f := range fs {
		out[i] = alertFindingOut{Severity: f.Severity, Category: f.Category, Title: f.Title, Quote: f.Quote}
	}
	return out
}

func alerts(p *monitor.AlertPage) alertsOut {
	out := alertsOut{Alerts: make([]alertOut, len(p.Alerts)), NextCursor: p.NextCursor}
	for i, a := range p.Alerts {
		out.Alerts[i] = alertOut{ID: a.ID, MonitorID: a.MonitorID, URL: a.URL, DetectedAt: ms(a.DetectedAt), Read: a.Read,
			Summary: a.Summary, Added: a.Added, Removed: a.Removed,
			FindingsAdded: alertFindings(a.FindingsAdded), FindingsRemoved: alertFindings(a.FindingsRemoved),
			FindingsAddedOmitted: a.FindingsAddedOmitted, FindingsRemovedOmitted: a.FindingsRemovedOmitted}
	}
	return out
}
