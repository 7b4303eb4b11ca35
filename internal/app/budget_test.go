package app_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
)

// The budget rules of README "Budgets" and decisions.md "Budgets", on the
// service: scans per UTC day, AI units per UTC month, batches admitted whole,
// refunds for what fails after admission, and what the account pool draws on.

var shortText = app.AnalyzeInput{Text: "We may change these terms at any time without notice."}

func TestDailyScanWindow(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := apptest.New(t, dbtest.Open(t, d))
		e.Clock.Set(time.Date(2026, 11, 22, 15, 30, 0, 0, time.UTC))
		tok, _ := e.MustAccount("")
		k := e.MustKey(tok)
		ctx := e.Ctx(k.RawKey)
		for i := range 5 {
			_, err := e.Svc.Analyze(ctx, shortText)
			wantCode(t, fmt.Sprint("scan ", i+1), err, "")
		}
		_, err := e.Svc.Analyze(ctx, shortText)
		wantCode(t, "sixth scan", err, app.CodeRateLimited)
		wantData(t, "sixth scan", err, map[string]any{"scansRemaining": 0, "scansLimit": 5,
			"scansResetsAt": time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC).UnixMilli()})
		_, err = e.Svc.Extract(ctx, app.ExtractInput{URL: e.Docs.URL("/terms")})
		wantCode(t, "extract from the spent pool", err, app.CodeRateLimited)
		_, err = e.Svc.Analyze(e.Ctx(e.MustKey(tok).RawKey), shortText)
		wantCode(t, "another key of the account", err, "")

		e.Clock.Set(time.Date(2026, 11, 23, 0, 0, 1, 0, time.UTC))
		_, err = e.Svc.Analyze(ctx, shortText)
		wantCode(t, "the next UTC day", err, "")
		if got := e.ScansUsed(k.Key.ID); got != 1 {
			t.Errorf("the new day's window has %d scans used, want 1", got)
		}
	})
}

func TestMonthlyAIWindow(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := apptest.New(t, dbtest.Open(t, d), apptest.WithLLM(apptest.FakeLLM(t, `{"summary":"ok","quotes":[]}`)))
		tok, _ := e.MustAccount("")
		k := e.MustKey(tok)
		ctx := e.Ctx(k.RawKey)
		ai := app.AnalyzeInput{Text: "We may change these terms.", AI: true}
		// Five AI calls over January's last days (a day has only 5 scans).
		for i := range 5 {
			e.Clock.Set(time.Date(2027, 1, 27+i, 12, 0, 0, 0, time.UTC))
			_, err := e.Svc.Analyze(ctx, ai)
			wantCode(t, fmt.Sprint("AI call ", i+1), err, "")
		}
		e.Clock.Set(time.Date(2027, 1, 31, 23, 59, 59, 0, time.UTC))
		_, err := e.Svc.Analyze(ctx, ai)
		wantCode(t, "sixth AI call in January", err, app.CodeRateLimited)
		wantData(t, "sixth AI call in January", err, map[string]any{"aiRemaining": 0, "aiLimit": 5,
			"aiResetsAt": time.Date(2027, 2, 1, 0, 0, 0, 0, time.UTC).UnixMilli()})
		if got := e.ScansUsed(k.Key.ID); got != 1 {
			t.Errorf("the refused AI call kept its scan: %d used today, want 1", got)
		}
		e.Clock.Set(time.Date(2027, 2, 1, 0, 0, 0, 0, time.UTC))
		_, err = e.Svc.Analyze(ctx, ai)
		wantCode(t, "first AI call in February", err, "")
	})
}

func TestAdvancedAIIsUnlimited(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := apptest.New(t, dbtest.Open(t, d), apptest.WithLLM(apptest.FakeLLM(t, `{"summary":"ok","quotes":[]}`)))
		tok, acct := e.MustAccount("")
		e.SetTier(acct.ID, app.TierAdvanced)
		k := e.MustKey(tok)
		for i := range 8 {
			_, err := e.Svc.Analyze(e.Ctx(k.RawKey), app.AnalyzeInput{Text: "We may sell your data.", AI: true})
			wantCode(t, fmt.Sprint("AI call ", i+1), err, "")
		}
		lim, err := e.Svc.KeyLimits(e.Ctx(tok))
		if err != nil {
			t.Fatal(err)
		}
		st := lim.Keys[0].Status
		if lim.Tier != app.TierAdvanced || st.AI.Limit != -1 || st.AI.Remaining != -1 || !st.AI.Allowed || st.Scans.Limit != 100 || st.Scans.Remaining != 92 {
			t.Errorf("advanced snapshot %+v", lim)
		}
	})
}

func TestBatchIsAdmittedWhole(t *testing.T) {
	items := func(n int) app.BatchInput {
		in := app.BatchInput{Items: make([]app.AnalyzeInput, n)}
		for i := range in.Items {
			in.Items[i] = app.AnalyzeInput{Text: fmt.Sprintf("Clause %d: we may terminate your account at any time.", i)}
		}
		return in
	}
	invalid := []struct {
		name  string
		in    app.BatchInput
		field string
	}{
		{"no items", items(0), "items"},
		{"six items", items(6), "items"},
		{"an item with url and text", app.BatchInput{Items: []app.AnalyzeInput{{Text: "x"}, {URL: "https://example.com", Text: "both"}}}, "items[1].url"},
		{"an item with a private URL", app.BatchInput{Items: []app.AnalyzeInput{{Text: "x"}, {Text: "y"}, {URL: "http://10.0.0.1/terms"}}}, "items[2].url"},
		{"an item with AI, none configured", app.BatchInput{Items: []app.AnalyzeInput{{Text: "x", AI: true}}}, ""},
	}
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := apptest.New(t, dbtest.Open(t, d))
		tok, _ := e.MustAccount("")
		k := e.MustKey(tok)
		ctx := e.Ctx(k.RawKey)
		for _, c := range invalid {
			_, err := e.Svc.AnalyzeBatch(ctx, c.in)
			if c.field == "" {
				wantCode(t, c.name, err, app.CodeUnavailable)
				continue
			}
			wantCode(t, c.name, err, app.CodeInvalid)
			if e := app.AsError(err); len(e.Fields) != 1 || e.Fields[0].Field != c.field {
				t.Errorf("%s: fields %+v, want one naming %s", c.name, e.Fields, c.field)
			}
		}
		if got := e.ScansUsed(k.Key.ID); got != 0 {
			t.Fatalf("invalid batches used %d scans", got)
		}
		res, err := e.Svc.AnalyzeBatch(ctx, items(2))
		if err != nil || len(res.Results) != 2 || !res.Results[0].OK || !res.Results[1].OK {
			t.Fatalf("batch of 2: %+v %v", res, err)
		}
		_, err = e.Svc.AnalyzeBatch(ctx, items(4))
		wantCode(t, "a batch of 4 with 3 scans left", err, app.CodeRateLimited)
		if data := app.AsError(err).Data; data["scansRemaining"] != 3 || data["scansLimit"] != 5 || data["scansResetsAt"] == nil {
			t.Errorf("a batch of 4 with 3 scans left: %v, want the true remainder scansRemaining 3 beside scansLimit and scansResetsAt", data)
		}
		if got := e.ScansUsed(k.Key.ID); got != 2 {
			t.Fatalf("after the refused batch: %d used, want 2", got)
		}
		// A failing item gives its own scan back; the others stand.
		res, err = e.Svc.AnalyzeBatch(ctx, app.BatchInput{Items: []app.AnalyzeInput{{Text: "We may sell your data."}, {URL: e.Docs.URL("/broken")}}})
		if err != nil || !res.Results[0].OK || res.Results[1].OK || res.Results[1].Error.Code != app.CodeUpstream {
			t.Fatalf("mixed batch: %+v %v", res, err)
		}
		if got := e.ScansUsed(k.Key.ID); got != 3 {
			t.Errorf("after the mixed batch: %d used, want 3", got)
		}
	})
}

// Anything failing after admission gives its scan back, and the budget
// reported for the RateLimit headers is the one after the refund.
func TestFailuresGiveTheScanBack(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := apptest.New(t, dbtest.Open(t, d), apptest.FetchTimeout(300*time.Millisecond))
		e.Docs.Handle("/slow", http.HandlerFunc(apptest.Stall))
		tok, _ := e.MustAccount("")
		k := e.MustKey(tok)
		cases := []struct {
			name string
			call func(context.Context) error
			want app.Code
		}{
			{"extract, upstream 500", extract(e, "/broken"), app.CodeUpstream},
			{"extract, upstream 404", extract(e, "/missing"), app.CodeUpstream},
			{"extract, not a document", extract(e, "/image"), app.CodeUnreadable},
			{"extract, upstream too slow", extract(e, "/slow"), app.CodeTimeout},
			{"analyze, upstream 500", analyzeURL(e, "/broken"), app.CodeUpstream},
			{"analyze, not a document", analyzeURL(e, "/image"), app.CodeUnreadable},
			{"analyze, upstream too slow", analyzeURL(e, "/slow"), app.CodeTimeout},
		}
		for _, c := range cases {
			var last app.RateLimit
			ctx := app.WithRateLimitObserver(e.Ctx(k.RawKey), func(rl app.RateLimit) { last = rl })
			wantCode(t, c.name, c.call(ctx), c.want)
			if last.Limit != 5 || last.Remaining != 5 {
				t.Errorf("%s: reported %+v, want the whole pool of 5 after the refund", c.name, last)
			}
		}
		if got := e.ScansUsed(k.Key.ID); got != 0 {
			t.Errorf("failed requests kept %d scans", got)
		}
	})
}

func extract(e *apptest.Env, path string) func(context.Context) error {
	return func(ctx context.Context) error {
		_, err := e.Svc.Extract(ctx, app.ExtractInput{URL: e.Docs.URL(path)})
		return err
	}
}

func analyzeURL(e *apptest.Env, path string) func(context.Context) error {
	return func(ctx context.Context) error {
		_, err := e.Svc.Analyze(ctx, app.AnalyzeInput{URL: e.Docs.URL(path)})
		return err
	}
}

// Invalid requests (4xx other than 429) never consume, not even for a moment.
func TestInvalidInputConsumesNothing(t *testing.T) {
	cases := []struct {
		name string
		in   any // app.ExtractInput or app.AnalyzeInput
		want app.Code
	}{
		{"extract, no url", app.ExtractInput{}, app.CodeInvalid},
		{"extract, ftp url", app.ExtractInput{URL: "ftp://example.com/x"}, app.CodeInvalid},
		{"extract, private address", app.ExtractInput{URL: "http://10.0.0.1/terms"}, app.CodeInvalid},
		{"extract, loopback not allowed", app.ExtractInput{URL: "http://127.0.0.2:9/x"}, app.CodeInvalid},
		{"analyze, url and text", app.AnalyzeInput{URL: "https://example.com", Text: "both"}, app.CodeInvalid},
		{"analyze, neither", app.AnalyzeInput{Title: "t"}, app.CodeInvalid},
		{"analyze, blank text", app.AnalyzeInput{Text: " \n "}, app.CodeInvalid},
		{"analyze, unknown document type", app.AnalyzeInput{Text: "x", DocumentType: "novel"}, app.CodeInvalid},
		{"analyze, private url", app.AnalyzeInput{URL: "http://192.168.1.1/"}, app.CodeInvalid},
		{"analyze, AI not configured", app.AnalyzeInput{Text: "x", AI: true}, app.CodeUnavailable},
	}
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := apptest.New(t, dbtest.Open(t, d))
		tok, acct := e.MustAccount("")
		k := e.MustKey(tok)
		for _, bearer := range []string{k.RawKey, tok} {
			ctx := e.Ctx(bearer)
			for _, c := range cases {
				var err error
				switch in := c.in.(type) {
				case app.ExtractInput:
					_, err = e.Svc.Extract(ctx, in)
				case app.AnalyzeInput:
					_, err = e.Svc.Analyze(ctx, in)
				}
				wantCode(t, c.name, err, c.want)
			}
		}
		for _, owner := range []string{k.Key.ID, acct.ID} {
			if s, ai := e.ScansUsed(owner), e.AIUsed(owner); s != 0 || ai != 0 {
				t.Errorf("invalid requests used %d scans and %d AI units of %s", s, ai, owner)
			}
		}
	})
}

// A failed AI summary leaves the analysis standing (the scan is spent) and
// gives its AI unit back, once per item, in a batch too.
func TestFailedSummaryGivesTheAIUnitBack(t *testing.T) {
	cases := []struct {
		name   string
		handle http.HandlerFunc
	}{
		{"provider stalls", apptest.Stall},
		{"provider answers 500", func(w http.ResponseWriter, r *http.Request) { http.Error(w, `{"error":{"message":"overloaded"}}`, 500) }},
		{"provider answers garbage", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("not json")) }},
	}
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		for _, c := range cases {
			client, _ := apptest.LLMServer(t, 300*time.Millisecond, c.handle)
			e := apptest.New(t, dbtest.Open(t, d), apptest.WithLLM(client))
			tok, _ := e.MustAccount("")
			k := e.MustKey(tok)
			a, err := e.Svc.Analyze(e.Ctx(k.RawKey), app.AnalyzeInput{Text: "We may sell your data.", AI: true})
			if err != nil || a.AI != nil || a.AIError == "" {
				t.Fatalf("%s: %+v %v, want the analysis with aiError", c.name, a, err)
			}
			res, err := e.Svc.AnalyzeBatch(e.Ctx(k.RawKey), app.BatchInput{Items: []app.AnalyzeInput{
				{Text: "We may sell your data.", AI: true}, {Text: "We may change these terms.", AI: true}}})
			if err != nil || !res.Results[0].OK || !res.Results[1].OK {
				t.Fatalf("%s: batch %+v %v", c.name, res, err)
			}
			if s, ai := e.ScansUsed(k.Key.ID), e.AIUsed(k.Key.ID); s != 3 || ai != 0 {
				t.Errorf("%s: %d scans and %d AI units used, want 3 and 0", c.name, s, ai)
			}
		}
	})
}

// An account session draws on the account's own pool, then on its credits;
// a failure paid with a credit gives the credit back; keys never draw credits.
func TestAccountPoolThenCredits(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := apptest.New(t, dbtest.Open(t, d))
		e.Clock.Set(time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC))
		tok, acct := e.MustAccount("")
		if err := e.Store.AddCredits(context.Background(), acct.ID, 2); err != nil {
			t.Fatal(err)
		}
		session := e.Ctx(tok)
		steps := []struct {
			name               string
			want               app.Code
			credits, poolScans int // after the step
		}{
			{"pool 1", "", 2, 1}, {"pool 2", "", 2, 2}, {"pool 3", "", 2, 3}, {"pool 4", "", 2, 4}, {"pool 5", "", 2, 5},
			{"credit 1", "", 1, 5}, {"credit 2", "", 0, 5},
			{"pool and credits spent", app.CodeRateLimited, 0, 5},
		}
		for _, s := range steps {
			_, err := e.Svc.Analyze(session, shortText)
			wantCode(t, s.name, err, s.want)
			if c, p := e.Account(acct.ID).Credits, e.ScansUsed(acct.ID); c != s.credits || p != s.poolScans {
				t.Errorf("after %s: %d credits, %d pool scans; want %d, %d", s.name, c, p, s.credits, s.poolScans)
			}
		}
		_, err := e.Svc.Analyze(session, shortText)
		if app.AsError(err).Message != "Daily scan limit reached for this account" {
			t.Errorf("the account's 429 says %q", app.AsError(err).Message)
		}
		e.Store.AddCredits(context.Background(), acct.ID, 1)
		wantCode(t, "failing extract paid by a credit", extract(e, "/broken")(session), app.CodeUpstream)
		if got := e.Account(acct.ID).Credits; got != 1 {
			t.Errorf("the credit was not given back: %d", got)
		}
		k := e.MustKey(tok)
		for i := range 6 {
			_, err := e.Svc.Analyze(e.Ctx(k.RawKey), shortText)
			if i == 5 {
				wantCode(t, "the key's sixth scan", err, app.CodeRateLimited)
			}
		}
		if got := e.Account(acct.ID).Credits; got != 1 {
			t.Errorf("a key drew on credits: %d left", got)
		}
	})
}

// The tier is read with the caller on every call: an upgrade applies to
// the very next request.
func TestTierIsReadOnEveryCall(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := apptest.New(t, dbtest.Open(t, d))
		tok, acct := e.MustAccount("")
		k := e.MustKey(tok)
		for range 5 {
			e.Svc.Analyze(e.Ctx(k.RawKey), shortText)
		}
		_, err := e.Svc.Analyze(e.Ctx(k.RawKey), shortText)
		wantCode(t, "free key's sixth scan", err, app.CodeRateLimited)
		e.SetTier(acct.ID, app.TierBase)
		_, err = e.Svc.Analyze(e.Ctx(k.RawKey), shortText)
		wantCode(t, "the first call after the upgrade", err, "")
		lim, err := e.Svc.KeyLimits(e.Ctx(k.RawKey))
		if err != nil || lim.Tier != app.TierBase || lim.Keys[0].Status.Scans.Limit != 25 || lim.Keys[0].Status.Scans.Remaining != 19 {
			t.Errorf("limits after the upgrade: %+v %v", lim, err)
		}
		e.SetTier(acct.ID, app.TierFree)
		_, err = e.Svc.Analyze(e.Ctx(k.RawKey), shortText)
		wantCode(t, "the first call after the downgrade", err, app.CodeRateLimited)
	})
}

// Each consumption is one conditional statement: exact under any
// concurrency, also across two processes sharing PostgreSQL.
func TestConcurrentScansAdmitExactlyTheBudget(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		a := apptest.New(t, dbtest.Open(t, d))
		envs := []*apptest.Env{a}
		if d == dbtest.Postgres {
			envs = append(envs, apptest.New(t, dbtest.Open(t, d)))
		}
		tok, _ := a.MustAccount("")
		k := a.MustKey(tok)
		var mu sync.Mutex
		var wg sync.WaitGroup
		got := map[app.Code]int{}
		for i := range 50 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				e := envs[i%len(envs)]
				p, err := e.Svc.Authenticate(context.Background(), k.RawKey)
				if err == nil {
					_, err = e.Svc.Analyze(app.WithPrincipal(context.Background(), p), shortText)
				}
				mu.Lock()
				got[codeOf(err)]++
				mu.Unlock()
			}()
		}
		wg.Wait()
		if len(got) != 2 || got[""] != 5 || got[app.CodeRateLimited] != 45 {
			t.Fatalf("50 concurrent scans over %d processes on a budget of 5: %v", len(envs), got)
		}
	})
}

// KeyLimits shows the account's own pool beside the keys': what the portal
// draws on (5 scans a day on Free), counted apart from every key's, with the
// purchased credits that take over when it is spent.
func TestKeyLimitsShowTheAccountPool(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := apptest.New(t, dbtest.Open(t, d))
		e.Clock.Set(time.Date(2027, 3, 9, 15, 0, 0, 0, time.UTC))
		tok, acct := e.MustAccount("")
		k := e.MustKey(tok)
		for range 2 {
			_, err := e.Svc.Analyze(e.Ctx(tok), app.AnalyzeInput{Text: "We may terminate your account at any time."})
			wantCode(t, "analyze with the session", err, "")
		}
		_, err := e.Svc.Analyze(e.Ctx(k.RawKey), app.AnalyzeInput{Text: "We may sell your data."})
		wantCode(t, "analyze with the key", err, "")
		if _, err := e.Store.GrantCredits(context.Background(), "cs_pool_test", acct.ID, 7, e.Clock.Now()); err != nil {
			t.Fatal(err)
		}

		for _, who := range []struct{ name, bearer string }{{"session", tok}, {"key", k.RawKey}} {
			lim, err := e.Svc.KeyLimits(e.Ctx(who.bearer))
			if err != nil {
				t.Fatal(err)
			}
			end := time.Date(2027, 3, 10, 0, 0, 0, 0, time.UTC).UnixMilli()
			want := app.AccountPool{
				Scans:   app.Budget{Allowed: true, Remaining: 3, Limit: 5, ResetsAt: end, WindowEnd: end},
				AI:      app.Budget{Allowed: true, Remaining: 5, Limit: 5, ResetsAt: time.Date(2027, 4, 1, 0, 0, 0, 0, time.UTC).UnixMilli(), WindowEnd: time.Date(2027, 4, 1, 0, 0, 0, 0, time.UTC).UnixMilli()},
				Credits: 7,
			}
			if lim.Account != want {
				t.Errorf("%s: account pool %+v, want %+v", who.name, lim.Account, want)
			}
			if len(lim.Keys) != 1 || lim.Keys[0].Status.Scans.Remaining != 4 {
				t.Errorf("%s: the key's pool is its own: %+v", who.name, lim.Keys)
			}
		}

		// Spent: the pool says so, and an upgrade lifts its limit at once.
		for range 3 {
			_, err := e.Svc.Analyze(e.Ctx(tok), app.AnalyzeInput{Text: "We may terminate your account at any time."})
			wantCode(t, "analyze with the session", err, "")
		}
		lim, err := e.Svc.KeyLimits(e.Ctx(tok))
		if err != nil {
			t.Fatal(err)
		}
		if s := lim.Account.Scans; s.Allowed || s.Remaining != 0 || s.Limit != 5 {
			t.Errorf("spent pool %+v", s)
		}
		e.SetTier(acct.ID, app.TierBase)
		if lim, err = e.Svc.KeyLimits(e.Ctx(tok)); err != nil {
			t.Fatal(err)
		}
		if s := lim.Account.Scans; !s.Allowed || s.Remaining != 20 || s.Limit != 25 {
			t.Errorf("after the upgrade %+v", s)
		}
	})
}
