package graph_test

import (
	"strings"
	"testing"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
	"github.com/clausewatch/clausewatch/internal/monitor"
)

// alertOn, the history (grades and a diff between versions) and the feed
// token over GraphQL: the same service calls as REST.
func TestHistoryAndFeedToken(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d, options{})
		serve := func(extra string) {
			e.Docs.Set("/terms", apptest.Page{ContentType: "text/html", Body: strings.Replace(monitorPage, "%s", extra, 1)})
		}
		serve("")
		tok, _ := e.MustAccount("")
		raw := e.MustKey(tok, app.ScopeMonitor).RawKey

		var created struct{ CreateMonitor struct{ ID, AlertOn string } }
		e.mustData(t, raw, `mutation($url: String!) { createMonitor(input: {url: $url, alertOn: "risk"}) { id alertOn } }`,
			map[string]any{"url": e.Docs.URL("/terms")}, &created)
		if created.CreateMonitor.AlertOn != "risk" {
			t.Errorf("alertOn %q", created.CreateMonitor.AlertOn)
		}
		id := created.CreateMonitor.ID
		serve(`<p>Any dispute shall be resolved by binding arbitration and you waive any class action.</p>`)
		e.mustData(t, raw, `mutation($id: ID!) { checkMonitor(id: $id) { id } }`, map[string]any{"id": id}, &struct{}{})

		var got struct {
			Monitor struct {
				Versions struct {
					Versions []struct{ ContentHash, Grade string }
				}
			}
		}
		e.mustData(t, raw, `query($id: ID!) { monitor(id: $id) { versions { versions { contentHash grade } } } }`, map[string]any{"id": id}, &got)
		vs := got.Monitor.Versions.Versions
		if len(vs) != 2 || vs[0].Grade == "" || vs[1].Grade == "" || vs[0].Grade <= vs[1].Grade {
			t.Fatalf("versions %+v", vs)
		}
		var diff struct {
			MonitorVersionDiff struct {
				Diff, GradeBefore, GradeAfter string
				Added                         int
				From, To                      struct{ ContentHash, Grade string }
				FindingsAdded                 []struct{ Category string }
			}
		}
		e.mustData(t, raw, `query($id: ID!, $a: String!, $b: String!) { monitorVersionDiff(monitorId: $id, from: $a, to: $b) {
			diff added gradeBefore gradeAfter from { contentHash grade } to { contentHash grade } findingsAdded { category } } }`,
			map[string]any{"id": id, "a": vs[1].ContentHash, "b": vs[0].ContentHash}, &diff)
		dd := diff.MonitorVersionDiff
		if dd.Added != 1 || !strings.Contains(dd.Diff, "+Any dispute") || dd.GradeBefore != vs[1].Grade || dd.GradeAfter != vs[0].Grade ||
			dd.To.ContentHash != vs[0].ContentHash || len(dd.FindingsAdded) == 0 || dd.FindingsAdded[0].Category != "arbitration" {
			t.Errorf("diff %+v", dd)
		}
		if r := e.do(t, raw, `query($id: ID!) { monitorVersionDiff(monitorId: $id, from: "x", to: "y") { added } }`, map[string]any{"id": id}); r.code() != "INVALID" {
			t.Errorf("bad hashes: %s", r.body)
		}

		// The feed token: none, then rotated by the session (never a key).
		var none struct{ FeedToken *struct{ Prefix string } }
		e.mustData(t, tok, `{ feedToken { prefix } }`, nil, &none)
		if none.FeedToken != nil {
			t.Errorf("feed token before any: %+v", none.FeedToken)
		}
		if r := e.do(t, raw, `mutation { rotateFeedToken { token } }`, nil); r.code() != "FORBIDDEN" {
			t.Errorf("rotate with a key: %s", r.body)
		}
		var rot struct {
			RotateFeedToken struct{ Token, Prefix, CreatedAt string }
		}
		e.mustData(t, tok, `mutation { rotateFeedToken { token prefix createdAt } }`, nil, &rot)
		if !strings.HasPrefix(rot.RotateFeedToken.Token, monitor.FeedTokenPrefix) || rot.RotateFeedToken.Prefix != rot.RotateFeedToken.Token[:12] {
			t.Errorf("rotated %+v", rot)
		}
		var now struct{ FeedToken struct{ Prefix string } }
		e.mustData(t, raw, `{ feedToken { prefix } }`, nil, &now)
		if now.FeedToken.Prefix != rot.RotateFeedToken.Prefix {
			t.Errorf("feed token %+v", now)
		}
		if _, err := e.Mon.ReadFeed(t.Context(), rot.RotateFeedToken.Token, id); err != nil {
			t.Errorf("the feed with the new token: %v", err)
		}
	})
}
