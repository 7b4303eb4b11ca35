package app_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
)

// Requests are recorded off the request path and written in batches; the
// usage aggregate and each key's requestCount/lastUsedAt follow from them.
func TestUsageRecording(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := apptest.New(t, dbtest.Open(t, d))
		now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
		e.Clock.Set(now)
		tok, acct := e.MustAccount("")
		k := e.MustKey(tok)
		rec := func(at time.Time, key bool, path string, status int, msg string) {
			r := app.RequestRecord{At: at, AccountID: acct.ID, Method: "POST", Path: path, Status: status, Error: msg}
			if key {
				r.KeyID, r.KeyPrefix = &k.Key.ID, k.Key.Prefix
			}
			e.Svc.RecordRequest(r)
		}
		rec(now.AddDate(0, 0, -10), true, "/api/analyze", 200, "")         // outside a 7-day window
		rec(now.AddDate(0, 0, -2), true, "/api/analyze", 200, "")          // 200
		rec(now.Add(-time.Hour), true, "/api/extract\x00", 400, "bad\xff") // an error; NUL and invalid UTF-8 are cleaned
		rec(now.Add(-time.Minute), false, "/graphql", 200, "not found")    // a GraphQL error under 200
		rec(now, true, "/api/analyze", 200, "")

		if keys, _ := e.Svc.FindKeys(e.Ctx(tok), false); keys[0].RequestCount != 0 {
			t.Fatalf("counted before the flush: %d", keys[0].RequestCount)
		}
		e.Flush()
		st, err := e.Svc.Usage(e.Ctx(tok), ptr(7))
		if err != nil {
			t.Fatal(err)
		}
		if st.TotalRequests != 4 || st.SuccessCount != 2 || st.ErrorCount != 2 || st.SuccessRate != 50 || st.ErrorRate != 50 {
			t.Errorf("stats %+v", st)
		}
		days := st.DailyRequests
		if len(days) != 7 || days[0].Date != "2026-11-16" || days[6].Date != "2026-11-22" || days[6].Count != 3 || days[4].Count != 1 {
			t.Errorf("dailyRequests %+v", days)
		}
		if len(st.RecentErrors) != 2 || st.RecentErrors[0].Path != "/graphql" || st.RecentErrors[1].Path != "/api/extract" ||
			st.RecentErrors[1].KeyPrefix != k.Key.Prefix || st.RecentErrors[1].Error != "bad\uFFFD" {
			t.Errorf("recentErrors %+v", st.RecentErrors)
		}
		keys, err := e.Svc.FindKeys(e.Ctx(tok), false)
		if err != nil || keys[0].RequestCount != 4 || keys[0].LastUsedAt == nil || !keys[0].LastUsedAt.Equal(now) {
			t.Errorf("key after the flush: %+v %v", keys, err)
		}
		if st, err := e.Svc.Usage(e.Ctx(tok), nil); err != nil || len(st.DailyRequests) != 30 || st.TotalRequests != 5 {
			t.Errorf("default window: %d days, %d requests (%v)", len(st.DailyRequests), st.TotalRequests, err)
		}
		for _, days := range []int{0, -1, 91} {
			_, err := e.Svc.Usage(e.Ctx(tok), &days)
			wantCode(t, fmt.Sprint("days=", days), err, app.CodeInvalid)
		}
	})
}

// Stopping Run (the server's shutdown) flushes the counts still held in memory.
func TestStoppingRunFlushesPendingCounts(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := apptest.New(t, dbtest.Open(t, d))
		tok, acct := e.MustAccount("")
		k := e.MustKey(tok)
		for range 3 {
			e.Svc.RecordRequest(app.RequestRecord{At: time.Now(), AccountID: acct.ID, KeyID: &k.Key.ID, Method: "GET", Path: "/api/developer/keys", Status: 200})
		}
		if err := e.Stop(); err != nil {
			t.Fatal(err)
		}
		keys, err := e.Store.FindKeys(context.Background(), app.KeyFilter{AccountID: acct.ID})
		if err != nil || len(keys) != 1 || keys[0].RequestCount != 3 || keys[0].LastUsedAt == nil {
			t.Fatalf("after Run stopped: %+v %v", keys, err)
		}
	})
}

// Pruning deletes raw request rows past the retention and keeps the per-day counts.
func TestPruneKeepsDailyCounts(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := apptest.New(t, dbtest.Open(t, d))
		now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
		e.Clock.Set(now)
		tok, acct := e.MustAccount("")
		e.Svc.RecordRequest(app.RequestRecord{At: now.AddDate(0, 0, -2), AccountID: acct.ID, Method: "GET", Path: "/x", Status: 404, Error: "no"})
		e.Flush()
		n, err := e.Svc.PruneUsage(context.Background(), 24*time.Hour)
		if err != nil || n < 1 { // PostgreSQL's database is shared by the package's tests
			t.Fatalf("pruned %d rows: %v", n, err)
		}
		st, err := e.Svc.Usage(e.Ctx(tok), ptr(7))
		if err != nil || st.ErrorCount != 1 || len(st.RecentErrors) != 0 {
			t.Errorf("after prune: %+v %v", st, err)
		}
	})
}

func ptr[T any](v T) *T { return &v }

// The usage log keeps a short line of each request, however long its path
// and error message: a client cannot store megabytes for 90 days.
func TestUsageLogCapsStoredText(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := apptest.New(t, dbtest.Open(t, d))
		tok, acct := e.MustAccount("")
		long := strings.Repeat("é", 1<<20)
		e.Svc.RecordRequest(app.RequestRecord{At: time.Now(), AccountID: acct.ID, Method: "POST", Path: "/api/" + long, Status: 400, Error: "bad " + long})
		e.Flush()
		st, err := e.Svc.Usage(e.Ctx(tok), nil)
		if err != nil || len(st.RecentErrors) != 1 {
			t.Fatalf("recentErrors: %+v %v", st, err)
		}
		got := st.RecentErrors[0]
		if n := utf8.RuneCountInString(got.Path); n != app.MaxStoredPath+1 || !strings.HasPrefix(got.Path, "/api/é") || !strings.HasSuffix(got.Path, "…") {
			t.Errorf("stored path of %d characters: %.50s", n, got.Path)
		}
		if n := utf8.RuneCountInString(got.Error); n != app.MaxStoredError+1 || !strings.HasPrefix(got.Error, "bad é") || !strings.HasSuffix(got.Error, "…") {
			t.Errorf("stored error of %d characters: %.50s", n, got.Error)
		}
	})
}
