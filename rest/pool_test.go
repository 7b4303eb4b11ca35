package rest_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
)

// The portal's own scans draw on the account pool, then on credits; keys never touch credits.
func TestPortalPoolThenCredits(t *testing.T) {
	forEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d)
		e.setClock(time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC))
		tok, acct := e.mustAccount("portal@example.com")
		if err := e.store.AddCredits(context.Background(), acct.ID, 2); err != nil {
			t.Fatal(err)
		}
		k := e.mustKey(tok)
		for i := 1; i <= 5; i++ {
			if res := e.do("POST", "/api/analyze", tok, shortText); res.status != http.StatusOK {
				t.Fatalf("portal scan %d: %d %s", i, res.status, res.body)
			}
		}
		if got := e.account(acct.ID).Credits; got != 2 {
			t.Fatalf("credits used before the pool was spent: %d left", got)
		}
		for i := 1; i <= 2; i++ {
			if res := e.do("POST", "/api/analyze", tok, shortText); res.status != http.StatusOK {
				t.Fatalf("credit scan %d: %d %s", i, res.status, res.body)
			}
		}
		if got := e.account(acct.ID).Credits; got != 0 {
			t.Fatalf("credits after two credit scans: %d", got)
		}
		res := e.do("POST", "/api/analyze", tok, shortText)
		if res.status != http.StatusTooManyRequests || res.json(t)["error"] != "Daily scan limit reached for this account" {
			t.Fatalf("portal after pool and credits: %d %s", res.status, res.body)
		}
		// A failure paid with a credit gives the credit back.
		e.store.AddCredits(context.Background(), acct.ID, 1)
		if res := e.do("POST", "/api/extract", tok, map[string]string{"url": e.docs.URL + "/broken"}); res.status != http.StatusBadGateway {
			t.Fatalf("failing portal extract: %d", res.status)
		}
		if got := e.account(acct.ID).Credits; got != 1 {
			t.Errorf("credit not given back: %d", got)
		}
		// The key's pool is its own, and its exhaustion never spends credits.
		for range 5 {
			e.do("POST", "/api/analyze", k.RawKey, shortText)
		}
		if res := e.do("POST", "/api/analyze", k.RawKey, shortText); res.status != http.StatusTooManyRequests {
			t.Fatalf("key after 5: %d", res.status)
		}
		if got := e.account(acct.ID).Credits; got != 1 {
			t.Errorf("a key drew on credits: %d left", got)
		}
	})
}

// The monthly AI window ends at the UTC month's end.
func TestAIWindowRollsOverAtMonthEnd(t *testing.T) {
	e := newEnvOn(t, dbtest.Open(t, dbtest.SQLite), func(o *app.Options) {
		o.LLM = fakeLLM(t, `{"summary":"ok","quotes":[]}`)
	})
	tok, _ := e.mustAccount("month@example.com")
	k := e.mustKey(tok)
	body := map[string]any{"text": "We may change these terms.", "ai": true}
	// Five AI calls spread over January's last days (a day's scans are 5).
	for i := range 5 {
		e.setClock(time.Date(2027, 1, 27+i, 12, 0, 0, 0, time.UTC))
		if res := e.do("POST", "/api/analyze", k.RawKey, body); res.status != http.StatusOK {
			t.Fatalf("AI call %d: %d %s", i, res.status, res.body)
		}
	}
	e.setClock(time.Date(2027, 1, 31, 23, 59, 59, 0, time.UTC))
	res := e.do("POST", "/api/analyze", k.RawKey, body)
	if res.status != http.StatusTooManyRequests || res.json(t)["aiResetsAt"] != float64(time.Date(2027, 2, 1, 0, 0, 0, 0, time.UTC).UnixMilli()) {
		t.Fatalf("sixth AI call in January: %d %s", res.status, res.body)
	}
	e.setClock(time.Date(2027, 2, 1, 0, 0, 0, 0, time.UTC))
	if res := e.do("POST", "/api/analyze", k.RawKey, body); res.status != http.StatusOK {
		t.Fatalf("first AI call in February: %d %s", res.status, res.body)
	}
}

func TestAnalysesArePagedPerAccount(t *testing.T) {
	forEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d)
		tok, acct := e.mustAccount("pages@example.com")
		other, _ := e.mustAccount("other@example.com")
		e.do("POST", "/api/analyze", other, shortText)
		var ids []string
		for i := range 5 {
			e.setClock(time.Date(2026, 11, 22, 10, 0, i, 0, time.UTC))
			res := e.do("POST", "/api/analyze", tok, shortText)
			ids = append(ids, res.json(t)["id"].(string))
		}
		ctx := app.WithPrincipal(context.Background(), &app.Principal{Account: *acct})
		var got []string
		cursor, two := "", 2
		for range 4 {
			page, err := e.svc.FindAnalyses(ctx, app.AnalysisFilter{Limit: &two, Cursor: cursor})
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
		for _, bad := range []string{"nope", "Zm9v"} {
			if _, err := e.svc.FindAnalyses(ctx, app.AnalysisFilter{Limit: &two, Cursor: bad}); app.ErrorCode(err) != app.CodeInvalid {
				t.Errorf("cursor %q: %v", bad, err)
			}
		}
		for _, limit := range []int{0, -1, 101} {
			if _, err := e.svc.FindAnalyses(ctx, app.AnalysisFilter{Limit: &limit}); app.ErrorCode(err) != app.CodeInvalid {
				t.Errorf("limit %d: %v, want invalid", limit, err)
			}
		}
		if page, err := e.svc.FindAnalyses(ctx, app.AnalysisFilter{WithText: true}); err != nil || len(page.Analyses) != 5 || page.Analyses[0].Text != shortText["text"] {
			t.Errorf("page with texts: %v %+v", err, page)
		}
		if a, err := e.svc.FindAnalysis(ctx, ids[0]); err != nil {
			t.Errorf("own analysis: %v", err)
		} else if a.Text != shortText["text"] {
			t.Errorf("own analysis reads back text %q", a.Text)
		}
		otherCtx := app.WithPrincipal(context.Background(), &app.Principal{Account: app.Account{ID: "6f1c1f8e-0000-4000-8000-000000000000"}})
		if _, err := e.svc.FindAnalysis(otherCtx, ids[0]); app.ErrorCode(err) != app.CodeNotFound {
			t.Errorf("another account's analysis: %v", err)
		}
	})
}

func TestPruneKeepsDailyCounts(t *testing.T) {
	forEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d)
		tok, _ := e.mustAccount("prune@example.com")
		e.do("GET", "/api/developer/usage/nope", tok, nil)
		e.do("GET", "/api/developer/usage?days=0", tok, nil) // an error, logged
		if err := e.svc.FlushUsage(context.Background()); err != nil {
			t.Fatal(err)
		}
		e.setClock(time.Now().Add(91 * 24 * time.Hour))
		n, err := e.svc.PruneUsage(context.Background(), 90*24*time.Hour)
		if err != nil || n < 1 {
			t.Fatalf("pruned %d rows: %v", n, err)
		}
		e.setClock(time.Time{})
		st := e.do("GET", "/api/developer/usage?days=1", tok, nil).json(t)["stats"].(map[string]any)
		if st["errorCount"].(float64) < 1 || len(st["recentErrors"].([]any)) != 0 {
			t.Errorf("after prune: %v", st)
		}
	})
}
