package rest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"fmt"
	"html/template"
	"net/http"
	"strings"
	"time"

	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/monitor"
)

// The Atom 1.0 feeds (RFC 4287) of an account's alerts and of one monitor's:
// GET /feeds/{token}/alerts and GET /feeds/{token}/monitors/{id}. The feed
// token in the path is the only credential; it reads nothing else. Each
// entry is one alert: its summary, how it moved the grade, the findings it
// added and removed, and a link to the alert in the portal. The answer
// carries an ETag of its bytes; a request naming it in If-None-Match is
// answered 304 without a body.

type atomFeed struct {
	XMLName xml.Name    `xml:"http://www.w3.org/2005/Atom feed"`
	ID      string      `xml:"id"`
	Title   string      `xml:"title"`
	Updated string      `xml:"updated"`
	Author  atomPerson  `xml:"author"`
	Gen     string      `xml:"generator"`
	Links   []atomLink  `xml:"link"`
	Entries []atomEntry `xml:"entry"`
}

type atomPerson struct {
	Name string `xml:"name"`
}

type atomLink struct {
	Rel  string `xml:"rel,attr"`
	Type string `xml:"type,attr,omitempty"`
	Href string `xml:"href,attr"`
}

type atomText struct {
	Type string `xml:"type,attr"`
	Body string `xml:",chardata"`
}

type atomCategory struct {
	Term string `xml:"term,attr"`
}

type atomEntry struct {
	ID         string         `xml:"id"`
	Title      string         `xml:"title"`
	Updated    string         `xml:"updated"`
	Published  string         `xml:"published"`
	Link       atomLink       `xml:"link"`
	Summary    atomText       `xml:"summary"`
	Content    atomText       `xml:"content"`
	Categories []atomCategory `xml:"category"`
}

func (s *server) handleFeed(w http.ResponseWriter, r *http.Request) error {
	f, err := s.mon.ReadFeed(r.Context(), r.PathValue("token"), r.PathValue("id"))
	if err != nil {
		return err
	}
	body, err := renderFeed(f, s.origin(r), r.URL.Path)
	if err != nil {
		return app.Internal(err)
	}
	sum := sha256.Sum256(body)
	etag := `"` + hex.EncodeToString(sum[:16]) + `"`
	h := w.Header()
	h.Set("ETag", etag)
	// The URL holds a credential: no shared cache may keep the answer.
	h.Set("Cache-Control", "private, no-cache")
	if etagMatches(r.Header.Get("If-None-Match"), etag) {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	h.Set("Content-Type", "application/atom+xml; charset=utf-8")
	_, err = w.Write(body)
	return err
}

// etagMatches is If-None-Match's weak comparison (RFC 9110 13.1.2).
func etagMatches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == etag {
			return true
		}
	}
	return false
}

// origin is where the portal is reached: the configured public URL, else
// the request's own host.
func (s *server) origin(r *http.Request) string {
	if s.publicURL != "" {
		return s.publicURL
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

const atomTime = time.RFC3339

// renderFeed writes f as an Atom document read at self (a path).
func renderFeed(f *monitor.Feed, origin, self string) ([]byte, error) {
	feed := atomFeed{ID: "urn:clausewatch:alerts:" + f.AccountID, Title: "clausewatch alerts",
		Author: atomPerson{Name: "clausewatch"}, Gen: "clausewatch",
		Links: []atomLink{{Rel: "self", Type: "application/atom+xml", Href: origin + self},
			{Rel: "alternate", Type: "text/html", Href: origin + "/#monitors"}}}
	updated := f.Since
	if f.Monitor != nil {
		feed.ID = "urn:clausewatch:monitor:" + f.Monitor.ID
		feed.Title = "clausewatch alerts: " + f.Names[f.Monitor.ID]
		updated = f.Monitor.CreatedAt
	}
	for _, a := range f.Alerts {
		if a.DetectedAt.After(updated) {
			updated = a.DetectedAt
		}
		name := f.Names[a.MonitorID]
		if name == "" {
			name = a.URL
		}
		link := origin + "/#monitors/alert/" + a.ID
		content, err := entryHTML(a, name, link)
		if err != nil {
			return nil, err
		}
		at := a.DetectedAt.UTC().Format(atomTime)
		e := atomEntry{ID: "urn:uuid:" + a.ID, Title: name + ": " + gradeMove(a) + a.Summary, Updated: at, Published: at,
			Link:    atomLink{Rel: "alternate", Type: "text/html", Href: link},
			Summary: atomText{Type: "text", Body: gradeMove(a) + a.Summary}, Content: atomText{Type: "html", Body: content}}
		if a.GradeAfter != "" {
			e.Categories = append(e.Categories, atomCategory{Term: "grade-" + a.GradeAfter})
		}
		feed.Entries = append(feed.Entries, e)
	}
	feed.Updated = updated.UTC().Format(atomTime)
	var buf bytes.Buffer
	buf.WriteString(xml.Header)
	enc := xml.NewEncoder(&buf)
	enc.Indent("", "  ")
	if err := enc.Encode(feed); err != nil {
		return nil, err
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}

// gradeMove is "Grade B → D. " when the alert moved the grade, "Grade B
// (unchanged). " when it did not, and "" on alerts stored before grades.
func gradeMove(a monitor.Alert) string {
	switch {
	case a.GradeBefore == "" || a.GradeAfter == "":
		return ""
	case a.GradeBefore == a.GradeAfter:
		return fmt.Sprintf("Grade %s (unchanged). ", a.GradeAfter)
	}
	return fmt.Sprintf("Grade %s → %s. ", a.GradeBefore, a.GradeAfter)
}

var entryTemplate = template.Must(template.New("entry").Parse(`<p>{{.Move}}{{.A.Summary}}</p>
<p>Document: <a href="{{.A.URL}}">{{.Name}}</a> · {{.A.Added}} lines added, {{.A.Removed}} removed</p>
{{- if .A.FindingsAdded}}
<h3>New findings</h3><ul>{{range .A.FindingsAdded}}<li><strong>{{.Title}}</strong> ({{.Severity}})<blockquote>{{.Quote}}</blockquote></li>{{end}}</ul>
{{- if .A.FindingsAddedOmitted}}
<p>… and {{.A.FindingsAddedOmitted}} more new findings, less severe, not shown.</p>
{{- end}}
{{- end}}
{{- if .A.FindingsRemoved}}
<h3>Findings gone</h3><ul>{{range .A.FindingsRemoved}}<li><strong>{{.Title}}</strong> ({{.Severity}})<blockquote>{{.Quote}}</blockquote></li>{{end}}</ul>
{{- if .A.FindingsRemovedOmitted}}
<p>… and {{.A.FindingsRemovedOmitted}} more findings gone, less severe, not shown.</p>
{{- end}}
{{- end}}
<p><a href="{{.Link}}">See the change in clausewatch</a></p>`))

// entryHTML is an entry's content: HTML, escaped by html/template, which
// the feed then carries as text.
func entryHTML(a monitor.Alert, name, link string) (string, error) {
	var b strings.Builder
	err := entryTemplate.Execute(&b, struct {
		A          monitor.Alert
		Name, Link string
		Move       string
	}{a, name, link, gradeMove(a)})
	return b.String(), err
}
