package app_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
)

func TestAnalysesArePagedPerAccount(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := apptest.New(t, dbtest.Open(t, d))
		tok, _ := e.MustAccount("")
		other, _ := e.MustAccount("")
		if _, err := e.Svc.Analyze(e.Ctx(other), shortText); err != nil {
			t.Fatal(err)
		}
		ctx := e.Ctx(tok)
		var ids []string
		for i := range 5 {
			e.Clock.Set(time.Date(2026, 11, 22, 10, 0, i, 0, time.UTC))
			a, err := e.Svc.Analyze(ctx, shortText)
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, a.ID)
		}
		var got []string
		cursor, two := "", 2
		for range 4 {
			page, err := e.Svc.FindAnalyses(ctx, app.AnalysisFilter{Limit: &two, Cursor: cursor})
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range page.Analyses {
				got = append(got, a.ID)
				if a.Text != "" {
					t.Errorf("a page carried the analysed text of %s", a.ID)
				}
			}
			if page.NextCursor == nil {
				break
			}
			cursor = *page.NextCursor
		}
		if len(got) != 5 {
			t.Fatalf("paged %d analyses, want 5", len(got))
		}
		for i := range got {
			if got[i] != ids[4-i] {
				t.Errorf("page order %v, want newest first %v", got, ids)
				break
			}
		}
		// A cursor as the API has always written it (base64url of
		// "<RFC 3339 time>|<id>") names the page after that row.
		old := base64.RawURLEncoding.EncodeToString([]byte("2026-11-22T10:00:02Z|" + ids[2]))
		if page, err := e.Svc.FindAnalyses(ctx, app.AnalysisFilter{Limit: &two, Cursor: old}); err != nil || len(page.Analyses) != 2 || page.Analyses[0].ID != ids[1] {
			t.Errorf("a cursor in the original format: %v %+v", err, page)
		}
		for _, bad := range []string{"nope", "Zm9v"} {
			if _, err := e.Svc.FindAnalyses(ctx, app.AnalysisFilter{Limit: &two, Cursor: bad}); app.ErrorCode(err) != app.CodeInvalid {
				t.Errorf("cursor %q: %v", bad, err)
			}
		}
		for _, limit := range []int{0, -1, 101} {
			if _, err := e.Svc.FindAnalyses(ctx, app.AnalysisFilter{Limit: &limit}); app.ErrorCode(err) != app.CodeInvalid {
				t.Errorf("limit %d: %v, want invalid", limit, err)
			}
		}
		if page, err := e.Svc.FindAnalyses(ctx, app.AnalysisFilter{WithText: true}); err != nil || len(page.Analyses) != 5 || page.Analyses[0].Text != shortText.Text {
			t.Errorf("page with texts: %v %+v", err, page)
		}
		if a, err := e.Svc.FindAnalysis(ctx, ids[0], app.AllParts); err != nil {
			t.Errorf("own analysis: %v", err)
		} else if a.Text != shortText.Text {
			t.Errorf("own analysis reads back text %q", a.Text)
		}
		otherCtx := app.WithPrincipal(context.Background(), &app.Principal{Account: app.Account{ID: "6f1c1f8e-0000-4000-8000-000000000000"}})
		if _, err := e.Svc.FindAnalysis(otherCtx, ids[0], app.AllParts); app.ErrorCode(err) != app.CodeNotFound {
			t.Errorf("another account's analysis: %v", err)
		}
	})
}

// batchBound is the number of batch items analyzed at once
// (internal/app/analysis.go, AnalyzeBatch's semaphore).
const batchBound = 3

// A batch runs its items concurrently, never more than batchBound at once,
// and answers in request order whatever order the items finish in.
func TestBatchConcurrencyIsBoundedAndOrdered(t *testing.T) {
	const items = app.MaxBatch
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		var (
			mu                sync.Mutex
			inFlight, maxSeen int
			started           int
			wake              = sync.NewCond(&mu)
		)
		docs := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var i int
			if _, err := fmt.Sscanf(r.URL.Path, "/doc/%d", &i); err != nil {
				http.NotFound(w, r)
				return
			}
			mu.Lock()
			inFlight++
			started++
			maxSeen = max(maxSeen, inFlight)
			wake.Broadcast()
			// Hold each fetch until the bound is reached (or no more items can
			// come), so a bound larger than batchBound would be seen, and a
			// smaller one cannot fill it; the backstop keeps a wrong bound from
			// hanging the test.
			expired := false
			backstop := time.AfterFunc(time.Second, func() { mu.Lock(); expired = true; wake.Broadcast(); mu.Unlock() })
			for inFlight < batchBound && started < items && !expired {
				wake.Wait()
			}
			backstop.Stop()
			mu.Unlock()
			// Earlier items finish later: the answer's order must not follow completion.
			time.Sleep(time.Duration(items-i) * 20 * time.Millisecond)
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, "<html><head><title>Document %d</title></head><body><p>Document %d. We may terminate your account at any time.</p></body></html>", i, i)
			mu.Lock()
			inFlight--
			mu.Unlock()
		})
		e := apptest.New(t, dbtest.Open(t, d), apptest.FetchTimeout(5*time.Second))
		in := app.BatchInput{Items: make([]app.AnalyzeInput, items)}
		for i := range in.Items {
			path := fmt.Sprintf("/doc/%d", i)
			e.Docs.Handle(path, docs)
			in.Items[i] = app.AnalyzeInput{URL: e.Docs.URL(path)}
		}
		tok, _ := e.MustAccount("")
		out, err := e.Svc.AnalyzeBatch(e.Ctx(e.MustKey(tok).RawKey), in)
		if err != nil {
			t.Fatalf("batch: %v", err)
		}
		mu.Lock()
		got := maxSeen
		mu.Unlock()
		if got != batchBound {
			t.Errorf("at most %d items in flight at once, want exactly %d (concurrent, bounded)", got, batchBound)
		}
		if len(out.Results) != items {
			t.Fatalf("%d results for %d items: %+v", len(out.Results), items, out)
		}
		for i, r := range out.Results {
			want := e.Docs.URL(fmt.Sprintf("/doc/%d", i))
			if r.Index != i || !r.OK || r.Analysis == nil || r.Analysis.Source.URL != want || r.Analysis.Source.Title != fmt.Sprintf("Document %d", i) {
				t.Errorf("result %d out of order or failed: %+v", i, r)
			}
		}
	})
}

// With every place for an analysis taken, one more waits a moment, then is
// refused as busy with its scan given back; once a place frees, it runs.
func TestAnalysisConcurrencyBound(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := apptest.New(t, dbtest.Open(t, d), apptest.Configure(func(o *app.Options) {
			o.AnalysisConcurrency, o.AnalysisWait = 2, 50*time.Millisecond
		}))
		tok, _ := e.MustAccount("")
		k := e.MustKey(tok)
		ctx := e.Ctx(k.RawKey)
		in := app.AnalyzeInput{Text: "We may terminate your account at any time."}
		release := e.Svc.FillAnalyses()
		_, err := e.Svc.Analyze(ctx, in)
		wantCode(t, "analyze with every place taken", err, app.CodeBusy)
		res, err := e.Svc.AnalyzeBatch(ctx, app.BatchInput{Items: []app.AnalyzeInput{in, in}})
		if err != nil || res.Results[0].Error == nil || res.Results[0].Error.Code != app.CodeBusy {
			t.Errorf("batch with every place taken: %+v %v, want items failing busy", res, err)
		}
		if n := e.ScansUsed(k.Key.ID); n != 0 {
			t.Errorf("%d scans used by refused analyses, want 0", n)
		}
		release()
		_, err = e.Svc.Analyze(ctx, in)
		wantCode(t, "analyze once places are free", err, "")
	})
}
