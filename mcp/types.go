package mcp

import (
	"github.com/clausewatch/clausewatch/internal/app"
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
