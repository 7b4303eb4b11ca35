package rest_test

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
)

// Caller input with NUL bytes can neither stop usage recording nor fail an analysis.
func TestNULInputIsHarmless(t *testing.T) {
	forEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d)
		tok, _ := e.mustAccount("nul@example.com")
		k := e.mustKey(tok)
		if res := e.do("DELETE", "/api/developer/keys/%00", k.RawKey, nil); res.status != http.StatusNotFound {
			t.Fatalf("NUL id: %d", res.status)
		}
		res := e.do("POST", "/api/analyze", k.RawKey, map[string]any{"text": "We may sell\u0000 your data.", "title": "a\u0000b"})
		if res.status != http.StatusOK {
			t.Fatalf("NUL text: %d %s", res.status, res.body)
		}
		if err := e.svc.FlushUsage(context.Background()); err != nil {
			t.Fatalf("usage flush after NUL input: %v", err)
		}
		st := e.do("GET", "/api/developer/usage?days=1", tok, nil).json(t)["stats"].(map[string]any)
		if st["totalRequests"].(float64) < 3 || len(st["recentErrors"].([]any)) != 1 {
			t.Errorf("usage after NUL input: %v", st)
		}
	})
}

func TestRateLimitResetFollowsTheServiceClock(t *testing.T) {
	e := newEnv(t, dbtest.SQLite)
	e.setClock(time.Date(2026, 11, 22, 23, 0, 0, 0, time.UTC)) // an hour to midnight
	tok, _ := e.mustAccount("reset@example.com")
	k := e.mustKey(tok)
	res := e.do("POST", "/api/analyze", k.RawKey, shortText)
	if got := res.header.Get("RateLimit-Reset"); got != "3600" {
		t.Errorf("RateLimit-Reset %q, want 3600", got)
	}
	for range 4 {
		e.do("POST", "/api/analyze", k.RawKey, shortText)
	}
	res = e.do("POST", "/api/analyze", k.RawKey, shortText)
	if res.status != http.StatusTooManyRequests || res.header.Get("Retry-After") != "3600" || res.header.Get("RateLimit-Remaining") != "0" {
		t.Errorf("429: %d Retry-After %q", res.status, res.header.Get("Retry-After"))
	}
}

func TestAdvancedSnapshotShowsUnlimitedAI(t *testing.T) {
	forEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d)
		tok, acct := e.mustAccount("adv@example.com")
		adv := app.TierAdvanced
		if err := e.store.UpdateBilling(context.Background(), acct.ID, app.BillingUpdate{Tier: &adv}); err != nil {
			t.Fatal(err)
		}
		e.mustKey(tok)
		m := e.do("GET", "/api/developer/usage/per-key", tok, nil).json(t)
		st := m["keys"].([]any)[0].(map[string]any)["status"].(map[string]any)
		ai, scans := st["ai"].(map[string]any), st["scans"].(map[string]any)
		if m["tier"] != "advanced" || ai["limit"] != -1.0 || ai["remaining"] != -1.0 || ai["allowed"] != true || scans["limit"] != 100.0 {
			t.Errorf("advanced snapshot %v", m)
		}
	})
}

func TestAI429BodyIsExact(t *testing.T) {
	e := newEnvOn(t, dbtest.Open(t, dbtest.SQLite), func(o *app.Options) { o.LLM = fakeLLM(t, `{"summary":"ok","quotes":[]}`) })
	tok, acct := e.mustAccount("ai429@example.com")
	base := app.TierBase // 25 scans a day, 30 AI a month
	e.store.UpdateBilling(context.Background(), acct.ID, app.BillingUpdate{Tier: &base})
	k := e.mustKey(tok)
	e.setClock(time.Date(2026, 11, 2, 12, 0, 0, 0, time.UTC))
	body := map[string]any{"text": "We may change these terms.", "ai": true}
	for i := range 30 {
		e.setClock(time.Date(2026, 11, 2+i/20, 12, 0, 0, 0, time.UTC))
		if res := e.do("POST", "/api/analyze", k.RawKey, body); res.status != http.StatusOK {
			t.Fatalf("AI call %d: %d %s", i, res.status, res.body)
		}
	}
	res := e.do("POST", "/api/analyze", k.RawKey, body)
	m := res.json(t)
	want := map[string]any{"error": "Monthly AI limit reached for this API key", "aiRemaining": 0.0, "aiLimit": 30.0,
		"aiResetsAt": float64(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC).UnixMilli())}
	if res.status != http.StatusTooManyRequests || len(m) != len(want) {
		t.Fatalf("%d %s", res.status, res.body)
	}
	for f, v := range want {
		if m[f] != v {
			t.Errorf("%s = %v, want %v", f, m[f], v)
		}
	}
}

// A failed AI summary gives its AI unit back, once, in a batch too.
func TestBatchAIFailureRefundsOnce(t *testing.T) {
	e := newEnvOn(t, dbtest.Open(t, dbtest.SQLite), func(o *app.Options) { o.LLM = fakeLLM(t, "garbage") })
	tok, _ := e.mustAccount("batchai@example.com")
	k := e.mustKey(tok)
	items := map[string]any{"items": []any{
		map[string]any{"text": "We may sell your data.", "ai": true},
		map[string]any{"text": "We may change these terms.", "ai": true},
	}}
	res := e.do("POST", "/api/analyze/batch", k.RawKey, items)
	if res.status != http.StatusOK {
		t.Fatalf("%d %s", res.status, res.body)
	}
	for _, r := range res.json(t)["results"].([]any) {
		a := r.(map[string]any)["analysis"].(map[string]any)
		if a["ai"] != nil || a["aiError"] == nil {
			t.Errorf("item %v", r)
		}
	}
	m := e.do("GET", "/api/developer/usage/per-key", tok, nil).json(t)
	st := m["keys"].([]any)[0].(map[string]any)["status"].(map[string]any)
	if st["ai"].(map[string]any)["remaining"] != 5.0 || st["scans"].(map[string]any)["remaining"] != 3.0 {
		t.Errorf("after a batch whose summaries failed: %v", st)
	}
}

// Subscription events that arrive before the checkout linking their
// customer are refused (500) so the provider retries; the retry applies.
func TestSubscriptionBeforeCheckoutIsRetried(t *testing.T) {
	forEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d)
		_, acct := e.mustAccount("early@example.com")
		cus := "cus_early_" + string(d)
		now := time.Now().Unix()
		sub := e.deliver(event("evt_early_sub_"+string(d), "customer.subscription.created", now, subscription(cus, "active", "advanced")))
		if sub.status != http.StatusInternalServerError {
			t.Fatalf("subscription before checkout: %d %s", sub.status, sub.body)
		}
		co := e.deliver(event("evt_early_co_"+string(d), "checkout.session.completed", now, map[string]any{
			"id": "cs_e", "object": "checkout.session", "mode": "subscription", "customer": cus, "client_reference_id": acct.ID,
		}))
		if co.status != http.StatusOK {
			t.Fatalf("checkout: %d %s", co.status, co.body)
		}
		if res := e.deliver(event("evt_early_sub_"+string(d), "customer.subscription.created", now, subscription(cus, "active", "advanced"))); res.status != http.StatusOK {
			t.Fatalf("retry: %d %s", res.status, res.body)
		}
		if a := e.account(acct.ID); a.Tier != app.TierAdvanced || a.SubscriptionStatus != "active" {
			t.Errorf("after retry: %s %q", a.Tier, a.SubscriptionStatus)
		}
	})
}

// Two updates delivered at once, in either order: the newer one wins.
func TestConcurrentSubscriptionUpdatesNewestWins(t *testing.T) {
	forEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d)
		for round := range 10 {
			_, acct := e.mustAccount(fmt.Sprintf("race%d@example.com", round))
			cus := fmt.Sprintf("cus_race_%s_%d", d, round)
			e.deliver(event(fmt.Sprintf("evt_rco_%s_%d", d, round), "checkout.session.completed", 1, map[string]any{
				"id": "cs", "object": "checkout.session", "mode": "payment", "customer": cus, "client_reference_id": acct.ID,
			}))
			older := event(fmt.Sprintf("evt_old_%s_%d", d, round), "customer.subscription.updated", 1000, subscription(cus, "active", "advanced"))
			newer := event(fmt.Sprintf("evt_new_%s_%d", d, round), "customer.subscription.updated", 2000, subscription(cus, "active", "base"))
			var wg sync.WaitGroup
			for _, p := range [][]byte{older, newer} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if res := e.deliver(p); res.status != http.StatusOK {
						t.Errorf("delivery: %d %s", res.status, res.body)
					}
				}()
			}
			wg.Wait()
			if a := e.account(acct.ID); a.Tier != app.TierBase || a.SubscriptionEventAt != 2000 {
				t.Fatalf("round %d: tier %s at %s, want base at 2000", round, a.Tier, strconv.FormatInt(a.SubscriptionEventAt, 10))
			}
		}
	})
}
