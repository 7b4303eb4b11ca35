package graph_test

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
	"github.com/clausewatch/clausewatch/internal/monitor"
)

const monitorPage = `<html><head><title>Terms of Service</title></head><body><main><h1>Terms of Service</h1>
<p>By using the service you agree to these terms.</p>
<p>You may close your account whenever you like.</p>
%s</main></body></html>`

const monitorFields = `id url name intervalSeconds status createdAt lastCheckedAt nextCheckAt lastChangedAt lastError lastErrorCode blockedBy consecutiveFailures`

// The monitor operations over GraphQL: the same service, scopes and errors
// as REST, with the version history REST does not have.
func TestMonitorOperations(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d, options{})
		serve := func(extra string) {
			e.Docs.Set("/terms", apptest.Page{ContentType: "text/html", Body: strings.Replace(monitorPage, "%s", extra, 1)})
		}
		serve("")
		tok, _ := e.MustAccount("")
		raw := e.MustKey(tok, app.ScopeMonitor).RawKey

		var created struct {
			CreateMonitor struct {
				ID, URL, Status, CreatedAt, NextCheckAt string
				IntervalSeconds                         int
				LastError                               *string
			}
		}
		e.mustData(t, raw, `mutation($url: String!) { createMonitor(input: {url: $url, name: "t", intervalSeconds: 7200}) { `+monitorFields+` } }`,
			map[string]any{"url": e.Docs.URL("/terms")}, &created)
		m := created.CreateMonitor
		if m.Status != "active" || m.IntervalSeconds != 7200 || m.LastError != nil || !strings.HasSuffix(m.CreatedAt, "Z") {
			t.Errorf("created %+v", m)
		}
		serve(`<p>Any dispute shall be resolved by binding arbitration and you waive any class action.</p>`)
		var checked struct {
			CheckMonitor struct{ LastChangedAt *string }
		}
		e.mustData(t, raw, `mutation($id: ID!) { checkMonitor(id: $id) { lastChangedAt } }`, map[string]any{"id": m.ID}, &checked)
		if checked.CheckMonitor.LastChangedAt == nil {
			t.Error("check saw no change")
		}
		var got struct {
			Monitor struct {
				Versions struct {
					Versions []struct {
						ContentHash, FirstSeenAt string
						WordCount                int
					}
					NextCursor *string
				}
			}
			Alerts struct {
				Alerts []struct {
					ID, Summary, Diff    string
					Added                int
					FindingsAdded        []struct{ Category, Severity, Quote string }
					FindingsAddedOmitted *int
				}
				NextCursor *string
			}
		}
		e.mustData(t, raw, `query($id: ID!) { monitor(id: $id) { versions(limit: 10) { versions { contentHash firstSeenAt lastSeenAt wordCount } nextCursor } }
			alerts(unread: true, monitorId: $id) { alerts { id summary diff added findingsAdded { category severity title quote } findingsAddedOmitted } nextCursor } }`,
			map[string]any{"id": m.ID}, &got)
		if v := got.Monitor.Versions; len(v.Versions) != 2 || v.NextCursor != nil || v.Versions[0].WordCount == 0 {
			t.Errorf("versions %+v", v)
		}
		if a := got.Alerts.Alerts; len(a) != 1 || a[0].Added != 1 || len(a[0].FindingsAdded) == 0 || a[0].FindingsAdded[0].Category != "arbitration" ||
			a[0].FindingsAddedOmitted == nil || *a[0].FindingsAddedOmitted != 0 || got.Alerts.NextCursor != nil {
			t.Fatalf("alerts %+v", got.Alerts)
		}
		var upd struct{ UpdateAlerts struct{ Updated int } }
		e.mustData(t, raw, `mutation($ids: [ID!]!) { updateAlerts(ids: $ids, read: true) { updated } }`, map[string]any{"ids": []string{got.Alerts.Alerts[0].ID}}, &upd)
		if upd.UpdateAlerts.Updated != 1 {
			t.Errorf("updated %d", upd.UpdateAlerts.Updated)
		}

		// A failed check says why: its code and the bot protection.
		e.Docs.Set("/terms", apptest.Page{Status: 403, ContentType: "text/html", Header: http.Header{"Cf-Mitigated": {"challenge"}, "Server": {"cloudflare"}},
			Body: "<html><head><title>Just a moment...</title></head><body></body></html>"})
		var failed struct {
			CheckMonitor struct{ LastError, LastErrorCode, BlockedBy *string }
		}
		e.mustData(t, raw, `mutation($id: ID!) { checkMonitor(id: $id) { lastError lastErrorCode blockedBy } }`, map[string]any{"id": m.ID}, &failed)
		if f := failed.CheckMonitor; f.LastError == nil || f.LastErrorCode == nil || *f.LastErrorCode != "blocked" || f.BlockedBy == nil || *f.BlockedBy != "cloudflare" {
			t.Errorf("failed check: %+v", f)
		}

		// Errors carry the same codes as REST's statuses.
		other, _ := e.MustAccount("")
		otherKey := e.MustKey(other, app.ScopeMonitor).RawKey
		for _, c := range []struct {
			name, bearer, query string
			vars                map[string]any
			code                string
		}{
			{"interval too short", raw, `mutation { createMonitor(input: {url: "https://example.com/terms", intervalSeconds: 5}) { id } }`, nil, "INVALID"},
			{"private url", raw, `mutation { createMonitor(input: {url: "http://10.1.1.1/terms"}) { id } }`, nil, "INVALID"},
			{"limit 101", raw, `{ alerts(limit: 101) { nextCursor } }`, nil, "INVALID"},
			{"tampered cursor", raw, `{ alerts(cursor: "eHl6") { nextCursor } }`, nil, "INVALID"},
			{"no ids", raw, `mutation { updateAlerts(ids: [], read: true) { updated } }`, nil, "INVALID"},
			{"another account reads", otherKey, `query($id: ID!) { monitor(id: $id) { id } }`, map[string]any{"id": m.ID}, "NOT_FOUND"},
			{"another account checks", otherKey, `mutation($id: ID!) { checkMonitor(id: $id) { id } }`, map[string]any{"id": m.ID}, "NOT_FOUND"},
			{"no alertOn", raw, `mutation($id: ID!) { updateMonitor(id: $id, input: {}) { id } }`, map[string]any{"id": m.ID}, "INVALID"},
			{"alertOn sometimes", raw, `mutation($id: ID!) { updateMonitor(id: $id, input: {alertOn: "sometimes"}) { id } }`, map[string]any{"id": m.ID}, "INVALID"},
			{"another account updates", otherKey, `mutation($id: ID!) { updateMonitor(id: $id, input: {alertOn: "risk"}) { id } }`, map[string]any{"id": m.ID}, "NOT_FOUND"},
			{"another account deletes", otherKey, `mutation($id: ID!) { deleteMonitor(id: $id) { deleted } }`, map[string]any{"id": m.ID}, "NOT_FOUND"},
		} {
			if r := e.do(t, c.bearer, c.query, c.vars); r.code() != c.code {
				t.Errorf("%s: %s, want %s", c.name, r.body, c.code)
			}
		}
		var updated struct{ UpdateMonitor struct{ AlertOn string } }
		e.mustData(t, raw, `mutation($id: ID!) { updateMonitor(id: $id, input: {alertOn: "risk"}) { alertOn } }`, map[string]any{"id": m.ID}, &updated)
		if updated.UpdateMonitor.AlertOn != "risk" {
			t.Errorf("updateMonitor: alertOn %q, want risk", updated.UpdateMonitor.AlertOn)
		}
		// An interval past the range, however it is written, is INVALID
		// naming intervalSeconds: never wrapped into a short one, never
		// taken past GraphQL's 32-bit Int.
		const withInterval = `mutation($i: Int) { createMonitor(input: {url: "https://example.com/terms", intervalSeconds: $i}) { id } }`
		for _, c := range []struct {
			name, query string
			vars        map[string]any
		}{
			{"variable wrapping to 5s", withInterval, map[string]any{"i": 18446744079}},
			{"variable 2^31", withInterval, map[string]any{"i": 1 << 31}},
			{"variable -2^31-1", withInterval, map[string]any{"i": -(1 << 31) - 1}},
			{"literal wrapping to 5s", `mutation { createMonitor(input: {url: "https://example.com/terms", intervalSeconds: 18446744079}) { id } }`, nil},
			{"literal 2^31", `mutation { createMonitor(input: {url: "https://example.com/terms", intervalSeconds: 2147483648}) { id } }`, nil},
		} {
			r := e.do(t, raw, c.query, c.vars)
			if r.code() != "INVALID" || !strings.Contains(r.body, `"field":"intervalSeconds"`) {
				t.Errorf("%s: %s, want INVALID naming intervalSeconds", c.name, r.body)
			}
		}
		// Past what a Go int holds, gqlparser refuses the variable itself
		// before any resolver runs.
		if r := e.do(t, raw, withInterval, map[string]any{"i": json.Number("99999999999999999999")}); r.code() != "GRAPHQL_VALIDATION_FAILED" {
			t.Errorf("variable past int64: %s, want GRAPHQL_VALIDATION_FAILED", r.body)
		}

		var del struct{ DeleteMonitor struct{ Deleted bool } }
		e.mustData(t, raw, `mutation($id: ID!) { deleteMonitor(id: $id) { deleted } }`, map[string]any{"id": m.ID}, &del)
		var list struct{ Monitors []struct{ ID string } }
		e.mustData(t, raw, `{ monitors { id } }`, nil, &list)
		if !del.DeleteMonitor.Deleted || len(list.Monitors) != 0 {
			t.Errorf("after delete: %+v %+v", del, list)
		}
	})
}

// versionDiffSetup makes a monitor of two versions on a free monitor key and
// returns the key, the query variables of their diff (older to newer) and
// a query of n aliases of it, d0 to dn-1.
func versionDiffSetup(t *testing.T, e *env) (k *app.CreatedKey, vars map[string]any, diff func(n int) string) {
	t.Helper()
	e.Docs.Set("/terms", apptest.Page{ContentType: "text/html", Body: strings.Replace(monitorPage, "%s", "", 1)})
	tok, _ := e.MustAccount("")
	k = e.MustKey(tok, app.ScopeMonitor)
	var created struct{ CreateMonitor struct{ ID string } }
	e.mustData(t, k.RawKey, `mutation($url: String!) { createMonitor(input: {url: $url}) { id } }`, map[string]any{"url": e.Docs.URL("/terms")}, &created)
	e.Docs.Set("/terms", apptest.Page{ContentType: "text/html", Body: strings.Replace(monitorPage, "%s", "<p>Any dispute shall be resolved by binding arbitration.</p>", 1)})
	if _, err := e.Mon.CheckMonitor(e.Ctx(k.RawKey), created.CreateMonitor.ID); err != nil {
		t.Fatal(err)
	}
	page, err := e.Mon.FindMonitorVersions(e.Ctx(k.RawKey), monitor.VersionFilter{MonitorID: created.CreateMonitor.ID})
	if err != nil || len(page.Versions) != 2 {
		t.Fatalf("versions: %v %v", page, err)
	}
	vars = map[string]any{"id": created.CreateMonitor.ID, "from": page.Versions[1].ContentHash, "to": page.Versions[0].ContentHash}
	diff = func(n int) string {
		var q strings.Builder
		q.WriteString("query($id: ID!, $from: String!, $to: String!) {")
		for i := range n {
			q.WriteString(" d" + strconv.Itoa(i) + ": monitorVersionDiff(monitorId: $id, from: $from, to: $to) { gradeAfter }")
		}
		return q.String() + " }"
	}
	return k, vars, diff
}

// A version diff analyzes two whole documents, so it draws a scan: one
// diff is charged one, a diff that fails (an unknown version) draws
// nothing, and past the key's daily scans a diff is refused.
func TestVersionDiffsDrawScans(t *testing.T) {
	e := newEnv(t, dbtest.SQLite, options{})
	k, vars, diff := versionDiffSetup(t, e)
	used := e.ScansUsed(k.Key.ID) // the monitor's first check and the second
	r := e.do(t, k.RawKey, diff(1), vars)
	if r.code() != "" || e.ScansUsed(k.Key.ID) != used+1 {
		t.Fatalf("one diff: %s, %d scans used, want %d", r.body, e.ScansUsed(k.Key.ID), used+1)
	}
	unknown := map[string]any{"id": vars["id"], "from": strings.Repeat("0", 64), "to": vars["to"]}
	if r := e.do(t, k.RawKey, diff(1), unknown); r.code() != "NOT_FOUND" || e.ScansUsed(k.Key.ID) != used+1 {
		t.Errorf("an unknown version: %s, %d scans used, want %d", r.body, e.ScansUsed(k.Key.ID), used+1)
	}
	// The free plan's 5 scans a day: what is left is answered, then refused.
	for n := used + 1; n < 5; n++ {
		if r := e.do(t, k.RawKey, diff(1), vars); r.code() != "" {
			t.Fatalf("diff with scans left: %s", r.body)
		}
	}
	if r := e.do(t, k.RawKey, diff(1), vars); r.code() != "RATE_LIMITED" || e.ScansUsed(k.Key.ID) != 5 {
		t.Errorf("a diff past the scans: %s, %d scans used, want 5", r.body, e.ScansUsed(k.Key.ID))
	}
}

// versionReads counts the versions read whole, two for each diff computed.
type versionReads struct {
	apptest.Store
	n atomic.Int64
}

func (s *versionReads) FindVersion(ctx context.Context, monitorID, hash string) (*monitor.MonitorVersion, error) {
	s.n.Add(1)
	return s.Store.FindVersion(ctx, monitorID, hash)
}

// A request computes one version diff (graph.MaxVersionDiffs): 60 aliases
// of one cost 9.1 s of a replica's processor time. The first diff in the
// document, fragments followed, is answered; each later one is null with
// an INVALID error naming its path, reads no version, draws no scan; and
// the rest of the operation is answered.
func TestOneVersionDiffARequest(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		reads := &versionReads{}
		e := newEnv(t, d, options{wrap: func(s apptest.Store) apptest.Store { reads.Store = s; return reads }})
		k, vars, diff := versionDiffSetup(t, e)
		// Each case below draws one scan: base's key has them to spare.
		e.SetTier(k.Key.AccountID, app.TierBase)
		twoAndMore := strings.TrimSuffix(diff(2), "}") + "viewer { id } }"
		skipped := `query($id: ID!, $from: String!, $to: String!, $skip: Boolean!) {
			dx: monitorVersionDiff(monitorId: $id, from: $from, to: $to) @skip(if: $skip) { gradeAfter }
			d0: monitorVersionDiff(monitorId: $id, from: $from, to: $to) { gradeAfter }
			d1: monitorVersionDiff(monitorId: $id, from: $from, to: $to) { gradeAfter } }`
		for _, c := range []struct{ name, query, first, second string }{
			{"two aliases and another field", twoAndMore, "d0", "d1"},
			{"a skipped diff is not the first", skipped, "d0", "d1"},
			{"the first in the document, not by name", strings.Replace(strings.Replace(diff(2), "d0:", "dx:", 1), "d1:", "d0:", 1),
				"dx", "d0"},
			{"through a fragment, spread first", `query($id: ID!, $from: String!, $to: String!) { ...q d0: monitorVersionDiff(monitorId: $id, from: $from, to: $to) { gradeAfter } }
				fragment q on Query { d1: monitorVersionDiff(monitorId: $id, from: $from, to: $to) { gradeAfter } }`, "d1", "d0"},
		} {
			used, read := e.ScansUsed(k.Key.ID), reads.n.Load()
			vs := maps.Clone(vars)
			if strings.Contains(c.query, "$skip") {
				vs["skip"] = true
			}
			r := e.do(t, k.RawKey, c.query, vs)
			var data map[string]json.RawMessage
			if err := json.Unmarshal(r.Data, &data); err != nil {
				t.Fatalf("%s: %s", c.name, r.body)
			}
			var first struct{ GradeAfter *string }
			if json.Unmarshal(data[c.first], &first) != nil || first.GradeAfter == nil || string(data[c.second]) != "null" {
				t.Errorf("%s: %s answered, %s null; got %s", c.name, c.first, c.second, r.body)
			}
			if v, ok := data["viewer"]; strings.Contains(c.query, "viewer") && (!ok || !strings.Contains(string(v), `"id":"`)) {
				t.Errorf("%s: the rest of the operation unanswered: %s", c.name, r.body)
			}
			if len(r.Errors) != 1 || r.code() != "INVALID" || len(r.Errors[0].Path) != 1 || r.Errors[0].Path[0] != c.second ||
				!strings.Contains(r.Errors[0].Message, "at most 1 version diff") {
				t.Errorf("%s: errors %s, want one INVALID at %s", c.name, r.body, c.second)
			}
			if got := e.ScansUsed(k.Key.ID) - used; got != 1 {
				t.Errorf("%s: %d scans drawn, want 1", c.name, got)
			}
			if got := reads.n.Load() - read; got != 2 {
				t.Errorf("%s: %d versions read, want 2 (one diff computed)", c.name, got)
			}
		}
	})
}

// alertReads records whether each alert read asked for the diffs.
type alertReads struct {
	apptest.Store
	withoutDiff []bool
}

func (s *alertReads) FindAlerts(ctx context.Context, q monitor.AlertQuery) ([]monitor.Alert, error) {
	s.withoutDiff = append(s.withoutDiff, q.WithoutDiff)
	return s.Store.FindAlerts(ctx, q)
}

// An alerts query reads (and decompresses) the diffs only when its
// selection shows them.
func TestAlertsReadDiffsOnlyWhenSelected(t *testing.T) {
	reads := &alertReads{}
	e := newEnv(t, dbtest.SQLite, options{wrap: func(s apptest.Store) apptest.Store { reads.Store = s; return reads }})
	tok, _ := e.MustAccount("")
	raw := e.MustKey(tok, app.ScopeMonitor).RawKey
	var got any
	e.mustData(t, raw, `{ alerts { alerts { id summary findingsAdded { title } } } }`, nil, &got)
	e.mustData(t, raw, `query { alerts { alerts { ...d } } } fragment d on Alert { diff }`, nil, &got)
	if !slices.Equal(reads.withoutDiff, []bool{true, false}) {
		t.Errorf("reads without diff %v, want [true false] (a selection without diff, then one with it)", reads.withoutDiff)
	}
}
