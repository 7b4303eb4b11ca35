package app_test

import (
	"strings"
	"testing"
	"time"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
	"github.com/clausewatch/clausewatch/internal/monitor"
)

// Every plan-limit refusal states the limit, what is used, when it comes
// back (where it does) and what to do, in the members limit, used, resetsAt
// and hint beside the contract's own.
func TestLimitErrorsSayWhatToDo(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := apptest.New(t, dbtest.Open(t, d), apptest.WithLLM(apptest.FakeLLM(t, `{"summary":"ok","quotes":[]}`)),
			apptest.Monitoring(func(o *monitor.Options) { o.HostInterval = -1 }))
		e.Clock.Set(time.Date(2026, 11, 22, 21, 30, 0, 0, time.UTC))
		midnight := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC).UnixMilli()
		hint := func(what string, err error, parts ...string) {
			t.Helper()
			h, _ := app.AsError(err).Data["hint"].(string)
			for _, p := range parts {
				if !strings.Contains(h, p) {
					t.Errorf("%s: hint %q lacks %q", what, h, p)
				}
			}
		}

		tok, acct := e.MustAccount("")
		k := e.MustKey(tok)
		for range 5 {
			if _, err := e.Svc.Analyze(e.Ctx(k.RawKey), shortText); err != nil {
				t.Fatal(err)
			}
		}
		_, err := e.Svc.Analyze(e.Ctx(k.RawKey), shortText)
		wantData(t, "a key's sixth scan", err, map[string]any{"limit": 5, "used": 5, "resetsAt": midnight})
		hint("a key's sixth scan", err, "5 of 5 scans a day", "free plan", "UTC midnight", "2026-11-23T00:00:00Z", "in 2 h 30 min",
			"scans a day: base 25, advanced 100", "clausewatch account plan")

		k2 := e.MustKey(tok)
		spendOne(t, e, k2.RawKey, 3)
		_, err = e.Svc.AnalyzeBatch(e.Ctx(k2.RawKey), app.BatchInput{Items: []app.AnalyzeInput{shortText, shortText, shortText}})
		wantData(t, "a batch past the rest", err, map[string]any{"limit": 5, "used": 3, "scansRemaining": 2})
		hint("a batch past the rest", err, "3 of 5 scans", "needs 3")

		e.MustKey(tok)
		_, err = e.Svc.CreateKey(e.Ctx(tok), app.KeyCreate{Name: "fourth"})
		wantData(t, "a fourth key", err, map[string]any{"limit": 3, "used": 3, "keyLimit": 3})
		if _, ok := app.AsError(err).Data["resetsAt"]; ok {
			t.Errorf("the key cap never resets by itself, yet resetsAt is set: %v", app.AsError(err).Data)
		}
		hint("a fourth key", err, "3 of 3 active API keys", "Revoke a key", "active keys: base 10, advanced 50")

		e.SetTier(acct.ID, app.TierAdvanced)
		mk := e.MustKey(tok, "monitor")
		e.SetTier(acct.ID, app.TierFree)
		for i := range 3 {
			e.Clock.Set(time.Date(2026, 11, 24+i, 12, 0, 0, 0, time.UTC))
			if _, err := e.Mon.CreateMonitor(e.Ctx(mk.RawKey), monitor.MonitorCreate{URL: e.Docs.URL("/terms")}); err != nil {
				t.Fatal(err)
			}
		}
		_, err = e.Mon.CreateMonitor(e.Ctx(mk.RawKey), monitor.MonitorCreate{URL: e.Docs.URL("/terms")})
		wantData(t, "a fourth monitor", err, map[string]any{"limit": 3, "used": 3, "monitorLimit": 3})
		hint("a fourth monitor", err, "3 of 3 active monitors", "Delete a monitor")

		e.SetTier(acct.ID, app.TierAdvanced)
		_, err = e.Svc.CreateKey(e.Ctx(tok), app.KeyCreate{Name: "no cap"})
		if err != nil {
			t.Fatal(err)
		}
		e.SetTier(acct.ID, app.TierBase)
		ak := e.MustKey(tok)
		for i := range 30 {
			e.Clock.Set(time.Date(2027, 1, 1+i, 12, 0, 0, 0, time.UTC))
			if _, err := e.Svc.Analyze(e.Ctx(ak.RawKey), app.AnalyzeInput{Text: shortText.Text, AI: true}); err != nil {
				t.Fatal(err)
			}
		}
		e.Clock.Set(time.Date(2027, 1, 31, 12, 0, 0, 0, time.UTC))
		_, err = e.Svc.Analyze(e.Ctx(ak.RawKey), app.AnalyzeInput{Text: shortText.Text, AI: true})
		wantData(t, "the 31st AI summary on base", err, map[string]any{"limit": 30, "used": 30,
			"resetsAt": time.Date(2027, 2, 1, 0, 0, 0, 0, time.UTC).UnixMilli()})
		hint("the 31st AI summary on base", err, "30 of 30 AI summaries", "base plan", "AI summaries a month: advanced unlimited")

		e.SetTier(acct.ID, app.TierAdvanced)
		_, err = e.Svc.Analyze(e.Ctx(ak.RawKey), shortText)
		for range 100 {
			if err != nil {
				break
			}
			_, err = e.Svc.Analyze(e.Ctx(ak.RawKey), shortText)
		}
		wantData(t, "advanced's 101st scan", err, map[string]any{"limit": 100, "used": 100})
		if h, _ := app.AsError(err).Data["hint"].(string); strings.Contains(h, "upgrade") {
			t.Errorf("the largest plan is told to upgrade: %q", h)
		}
	})
}

func spendOne(t *testing.T, e *apptest.Env, raw string, n int) {
	t.Helper()
	for range n {
		if _, err := e.Svc.Analyze(e.Ctx(raw), shortText); err != nil {
			t.Fatal(err)
		}
	}
}
