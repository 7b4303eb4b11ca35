package app_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
)

// panickyStore panics in the usage log's first prune.
type panickyStore struct {
	apptest.Store
	prunes atomic.Int32
}

func (s *panickyStore) PruneRequests(ctx context.Context, before time.Time) (int64, error) {
	if s.prunes.Add(1) == 1 {
		panic("prune bug")
	}
	return s.Store.PruneRequests(ctx, before)
}

// A background loop that panics is logged once and started again; Run
// goes on and ends cleanly.
func TestBackgroundLoopPanicRestarts(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		logs := &apptest.Logs{}
		store := &panickyStore{Store: dbtest.Open(t, d)}
		e := apptest.New(t, store, apptest.LogTo(logs))
		for deadline := time.Now().Add(10 * time.Second); store.prunes.Load() < 2 && time.Now().Before(deadline); {
			time.Sleep(50 * time.Millisecond)
		}
		if n := store.prunes.Load(); n < 2 {
			t.Fatalf("the prune loop ran %d times; not restarted after its panic", n)
		}
		if err := e.Stop(); err != nil {
			t.Errorf("Run: %v", err)
		}
		if n := logs.Panics(); n != 1 {
			t.Errorf("the panic was logged %d times", n)
		}
	})
}

// A batch item whose analysis panics is that item's internal error with its
// scan given back; the other items stand and the process (this test) lives.
func TestBatchItemPanicIsItsError(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		logs := &apptest.Logs{}
		e := apptest.New(t, dbtest.Open(t, d), apptest.LogTo(logs), apptest.PanicOn(t, "BOOM"))
		tok, acct := e.MustAccount("b@example.com")
		e.SetTier(acct.ID, app.TierAdvanced)
		ctx := e.Ctx(e.MustKey(tok, "analyze").RawKey)
		e.Docs.Set("/ok", apptest.Page{ContentType: "text/html", Body: apptest.TermsPage})
		e.Docs.Set("/boom", apptest.Page{ContentType: "text/html", Body: strings.Replace(apptest.TermsPage, "</main>", "<p>BOOM</p></main>", 1)})
		res, err := e.Svc.AnalyzeBatch(ctx, app.BatchInput{Items: []app.AnalyzeInput{{URL: e.Docs.URL("/ok")}, {URL: e.Docs.URL("/boom")}}})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Results[0].OK || res.Results[1].OK || res.Results[1].Error.Code != app.CodeInternal {
			t.Errorf("results: %+v", res.Results)
		}
		if kl, err := e.Svc.KeyLimits(ctx); err != nil || kl.Keys[0].Status.Scans.Remaining != kl.Keys[0].Status.Scans.Limit-1 {
			t.Errorf("scans: %+v, %v; want 1 used (the panicking item's given back)", kl, err)
		}
		if n := logs.Panics(); n != 1 {
			t.Errorf("%d panics logged, want 1", n)
		}
	})
}
