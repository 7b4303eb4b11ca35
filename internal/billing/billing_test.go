package billing_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v76/webhook"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
	"github.com/clausewatch/clausewatch/internal/billing"
)

// payment is one provider event before it is signed.
type payment struct {
	id, typ string
	created int64
	object  map[string]any
}

// mustDeliver signs p as the provider does and hands it to the service,
// failing unless it is answered as success (200).
func mustDeliver(t *testing.T, svc *billing.Service, p payment) {
	t.Helper()
	if err := deliver(svc, p); err != nil {
		t.Fatalf("%s %s: %v", p.typ, p.id, err)
	}
}

func deliver(svc *billing.Service, p payment) error {
	body, _ := json.Marshal(map[string]any{
		"id": p.id, "object": "event", "type": p.typ, "created": p.created, "livemode": false,
		"api_version": "2020-08-27", "data": map[string]any{"object": p.object},
	})
	sig := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: body, Secret: apptest.WebhookSecret, Timestamp: time.Now()}).Header
	return svc.HandlePaymentEvent(context.Background(), body, sig)
}

func sub(id, customer, status, tier string) map[string]any {
	return map[string]any{"id": id, "object": "subscription", "customer": customer, "status": status,
		"items": map[string]any{"object": "list", "data": []any{map[string]any{"id": "si_" + id, "price": map[string]any{"id": "price_x", "lookup_key": tier}}}}}
}

// mustSubscribed links a new account to a customer through a subscription
// checkout of sub_1 on the base plan at created time at; it returns the
// account and the customer id.
func mustSubscribed(t *testing.T, e *apptest.Env, at int64) (*app.Account, string) {
	t.Helper()
	_, acct := e.MustAccount("")
	cus := "cus_" + acct.ID
	mustDeliver(t, e.Billing, payment{"evt_link_" + acct.ID, "checkout.session.completed", at, map[string]any{
		"id": "cs_link_" + acct.ID, "object": "checkout.session", "mode": "subscription", "customer": cus,
		"client_reference_id": acct.ID, "subscription": "sub_1", "metadata": map[string]any{"tier": "base"},
	}})
	return acct, cus
}

// The provider's created time orders subscription events, never arrival,
// and the subscription's own state breaks a same-second tie: an ended
// subscription stays ended. Every delivery is answered 200, applied or not.
func TestSubscriptionEventOrder(t *testing.T) {
	const t0 = 1_700_000_000
	type step struct {
		typ     string
		created int64
		object  func(cus string) map[string]any
	}
	updated := func(at int64, id, status, tier string) step {
		return step{"customer.subscription.updated", at, func(cus string) map[string]any { return sub(id, cus, status, tier) }}
	}
	created := func(at int64, id, tier string) step {
		return step{"customer.subscription.created", at, func(cus string) map[string]any { return sub(id, cus, "active", tier) }}
	}
	deleted := func(at int64, id string) step {
		return step{"customer.subscription.deleted", at, func(cus string) map[string]any { return sub(id, cus, "canceled", "advanced") }}
	}
	failed := func(at int64, id string) step {
		return step{"invoice.payment_failed", at, func(cus string) map[string]any {
			return map[string]any{"id": "in_f", "object": "invoice", "customer": cus, "subscription": id}
		}}
	}
	cases := []struct {
		name       string
		steps      []step
		wantTier   app.Tier
		wantStatus string
	}{
		{"in order", []step{created(t0+1, "sub_1", "advanced"), updated(t0+2, "sub_1", "active", "base")}, app.TierBase, "active"},
		{"an older update after a newer one", []step{updated(t0+3, "sub_1", "active", "base"), updated(t0+2, "sub_1", "active", "advanced")}, app.TierBase, "active"},
		{"deleted, then an update retried from the same second", []step{updated(t0+5, "sub_1", "active", "advanced"), deleted(t0+5, "sub_1"), updated(t0+5, "sub_1", "active", "advanced")}, app.TierFree, "canceled"},
		{"an update and its deletion in the same second, deletion first", []step{deleted(t0+5, "sub_1"), updated(t0+5, "sub_1", "active", "advanced")}, app.TierFree, "canceled"},
		{"an update and its deletion in the same second, update first", []step{updated(t0+5, "sub_1", "active", "advanced"), deleted(t0+5, "sub_1")}, app.TierFree, "canceled"},
		{"canceled by an update, then an older-state update in the same second", []step{updated(t0+5, "sub_1", "canceled", "advanced"), updated(t0+5, "sub_1", "active", "advanced")}, app.TierFree, "canceled"},
		{"a deleted subscription is not revived by a later update", []step{deleted(t0+5, "sub_1"), updated(t0+9, "sub_1", "active", "advanced")}, app.TierFree, "canceled"},
		{"a late checkout of a deleted subscription", []step{deleted(t0+5, "sub_1"), {"checkout.session.completed", t0 + 6, func(cus string) map[string]any {
			return map[string]any{"id": "cs_late", "object": "checkout.session", "mode": "subscription", "customer": cus,
				"subscription": "sub_1", "metadata": map[string]any{"tier": "advanced"}}
		}}}, app.TierFree, "canceled"},
		{"a payment failure in the second of the deletion", []step{deleted(t0+5, "sub_1"), failed(t0+5, "sub_1")}, app.TierFree, "canceled"},
		{"a payment failure before the deletion", []step{failed(t0+4, "sub_1"), deleted(t0+5, "sub_1")}, app.TierFree, "canceled"},
		{"a new subscription in the second of the old one's deletion", []step{deleted(t0+5, "sub_1"), created(t0+5, "sub_2", "advanced")}, app.TierAdvanced, "active"},
		{"the old subscription's deletion after the new one", []step{created(t0+5, "sub_2", "advanced"), deleted(t0+6, "sub_1")}, app.TierAdvanced, "active"},
	}
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := apptest.New(t, dbtest.Open(t, d))
		for _, c := range cases {
			acct, cus := mustSubscribed(t, e, t0)
			for i, s := range c.steps {
				obj := s.object(cus)
				if s.typ == "checkout.session.completed" {
					obj["id"], obj["client_reference_id"] = obj["id"].(string)+acct.ID, acct.ID
				}
				mustDeliver(t, e.Billing, payment{fmt.Sprintf("evt_%s_%d", acct.ID, i), s.typ, s.created, obj})
			}
			if a := e.Account(acct.ID); a.Tier != c.wantTier || a.SubscriptionStatus != c.wantStatus {
				t.Errorf("%s: tier %s status %q, want %s %q", c.name, a.Tier, a.SubscriptionStatus, c.wantTier, c.wantStatus)
			}
		}
	})
}

// Two processes on one PostgreSQL apply a deletion and an update from the
// same second at once: whichever commits first, the subscription stays ended.
func TestSubscriptionDeletionWinsAcrossProcesses(t *testing.T) {
	const t0 = 1_700_000_000
	a := apptest.New(t, dbtest.Open(t, dbtest.Postgres))
	b := apptest.New(t, dbtest.Open(t, dbtest.Postgres))
	for round := range 20 {
		acct, cus := mustSubscribed(t, a, t0)
		var wg sync.WaitGroup
		for i, p := range []struct {
			svc *billing.Service
			p   payment
		}{
			{a.Billing, payment{"evt_del_" + acct.ID, "customer.subscription.deleted", t0 + 5, sub("sub_1", cus, "canceled", "advanced")}},
			{b.Billing, payment{"evt_upd_" + acct.ID, "customer.subscription.updated", t0 + 5, sub("sub_1", cus, "active", "advanced")}},
		} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := deliver(p.svc, p.p); err != nil {
					t.Errorf("round %d, delivery %d: %v", round, i, err)
				}
			}()
		}
		wg.Wait()
		if got := a.Account(acct.ID); got.Tier != app.TierFree || got.SubscriptionStatus != "canceled" {
			t.Fatalf("round %d: tier %s status %q, want free canceled", round, got.Tier, got.SubscriptionStatus)
		}
	}
}

// checkout is a payment-mode checkout of a credit pack.
func checkout(session, accountID, credits string) map[string]any {
	return map[string]any{"id": session, "object": "checkout.session", "mode": "payment", "customer": "cus_" + accountID,
		"client_reference_id": accountID, "metadata": map[string]any{"credits": credits}}
}

// A checkout's credits are added once, however many event ids carry it,
// and concurrently in two processes.
func TestCreditsOncePerCheckout(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		a := apptest.New(t, dbtest.Open(t, d))
		b := a
		if d == dbtest.Postgres {
			b = apptest.New(t, dbtest.Open(t, d))
		}
		_, acct := a.MustAccount("")
		cs := "cs_pack_" + acct.ID
		for i := range 3 {
			mustDeliver(t, a.Billing, payment{fmt.Sprintf("evt_pack_%s_%d", acct.ID, i), "checkout.session.completed", int64(1000 + i), checkout(cs, acct.ID, "50")})
		}
		if got := a.Account(acct.ID).Credits; got != 50 {
			t.Fatalf("one checkout under three event ids: %d credits, want 50", got)
		}

		cs2 := "cs_pack2_" + acct.ID
		var wg sync.WaitGroup
		for i := range 8 {
			svc := []*billing.Service{a.Billing, b.Billing}[i%2]
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := deliver(svc, payment{fmt.Sprintf("evt_pack2_%s_%d", acct.ID, i), "checkout.session.completed", 2000, checkout(cs2, acct.ID, "10")}); err != nil {
					t.Errorf("delivery %d: %v", i, err)
				}
			}()
		}
		wg.Wait()
		if got := a.Account(acct.ID).Credits; got != 60 {
			t.Fatalf("a second checkout under eight event ids at once: %d credits, want 60", got)
		}
	})
}

// records keeps the levels of what the service logged.
type records struct {
	mu     sync.Mutex
	levels []slog.Level
}

func (r *records) Enabled(context.Context, slog.Level) bool { return true }
func (r *records) Handle(_ context.Context, rec slog.Record) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.levels = append(r.levels, rec.Level)
	return nil
}
func (r *records) WithAttrs([]slog.Attr) slog.Handler { return r }
func (r *records) WithGroup(string) slog.Handler      { return r }

func (r *records) count(l slog.Level) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, got := range r.levels {
		if got == l {
			n++
		}
	}
	return n
}

// A credits value out of range is a mistake a retry would repeat: the event
// is recorded and answered 200, the account is unchanged, and it is logged
// as a warning, not an error.
func TestCreditsOutOfRangeSkipped(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		logs := &records{}
		e := apptest.New(t, dbtest.Open(t, d), apptest.Configure(func(o *app.Options) { o.Logger = slog.New(logs) }))
		for _, credits := range []string{"-50", "0", "1000001", "99999999999", "99999999999999999999", "fifty", "", "1e3", "50.5"} {
			_, acct := e.MustAccount("")
			before := logs.count(slog.LevelWarn)
			ev := payment{"evt_bad_" + acct.ID, "checkout.session.completed", 1000, checkout("cs_bad_"+acct.ID, acct.ID, credits)}
			for range 2 { // the redelivery is a duplicate, also 200
				if err := deliver(e.Billing, ev); err != nil {
					t.Errorf("credits %q: %v, want success (200)", credits, err)
				}
			}
			if a := e.Account(acct.ID); a.Credits != 0 || a.CustomerID != nil {
				t.Errorf("credits %q: account has %d credits, customer %v; want unchanged", credits, a.Credits, a.CustomerID)
			}
			if logs.count(slog.LevelWarn) != before+1 {
				t.Errorf("credits %q: %d warnings logged, want 1", credits, logs.count(slog.LevelWarn)-before)
			}
		}
		if n := logs.count(slog.LevelError); n != 0 {
			t.Errorf("%d errors logged, want none", n)
		}

		_, acct := e.MustAccount("")
		mustDeliver(t, e.Billing, payment{"evt_max_" + acct.ID, "checkout.session.completed", 1000, checkout("cs_max_"+acct.ID, acct.ID, "1000000")})
		if got := e.Account(acct.ID).Credits; got != 1_000_000 {
			t.Errorf("the largest pack: %d credits, want 1000000", got)
		}
	})
}

// A subscription event delivered before the checkout that links its
// customer is expected, not a fault: it is refused as retry_later (the
// contract's 500, so the provider retries) with nothing applied, logged at
// INFO with its reason, never as an error; the retry after the checkout
// applies it.
func TestSubscriptionBeforeCheckoutRetriedLater(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		logs := &records{}
		e := apptest.New(t, dbtest.Open(t, d), apptest.Configure(func(o *app.Options) { o.Logger = slog.New(logs) }))
		_, acct := e.MustAccount("")
		cus := "cus_early_" + acct.ID
		early := payment{"evt_early_" + acct.ID, "customer.subscription.created", 1000, sub("sub_early", cus, "active", "advanced")}
		for range 3 { // every retry before the checkout is refused alike
			if code := app.ErrorCode(deliver(e.Billing, early)); code != app.CodeRetryLater {
				t.Fatalf("subscription before its checkout: code %q, want %q", code, app.CodeRetryLater)
			}
		}
		if a := e.Account(acct.ID); a.Tier != app.TierFree || a.CustomerID != nil {
			t.Fatalf("refused event changed the account: %s %v", a.Tier, a.CustomerID)
		}
		if got := logs.count(slog.LevelInfo); got != 3 {
			t.Errorf("%d INFO lines for 3 refusals, want 3", got)
		}
		if n := logs.count(slog.LevelError) + logs.count(slog.LevelWarn); n != 0 {
			t.Errorf("%d warnings or errors logged for an expected ordering, want none", n)
		}

		mustDeliver(t, e.Billing, payment{"evt_early_co_" + acct.ID, "checkout.session.completed", 1001, map[string]any{
			"id": "cs_early_" + acct.ID, "object": "checkout.session", "mode": "subscription", "customer": cus, "client_reference_id": acct.ID,
		}})
		mustDeliver(t, e.Billing, early)
		if a := e.Account(acct.ID); a.Tier != app.TierAdvanced || a.SubscriptionStatus != "active" {
			t.Errorf("after the retry: %s %q, want advanced active", a.Tier, a.SubscriptionStatus)
		}
	})
}

// The signature is checked over the raw body before anything else: a
// missing header, another secret, a timestamp outside 5 minutes either way,
// an altered body or a garbled header is invalid and records nothing; with
// no secret configured (or no billing at all) every delivery is an internal
// error.
func TestPaymentSignature(t *testing.T) {
	e := apptest.New(t, dbtest.Open(t, dbtest.SQLite))
	body, _ := json.Marshal(map[string]any{"id": "evt_sig", "object": "event", "type": "invoice.paid", "created": 1000,
		"api_version": "2020-08-27", "data": map[string]any{"object": map[string]any{"id": "in_1", "object": "invoice"}}})
	sign := func(b []byte, secret string, at time.Time) string {
		return webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: b, Secret: secret, Timestamp: at}).Header
	}
	altered := append(bytes.Clone(body[:len(body)-1]), ' ')
	cases := []struct {
		name      string
		body      []byte
		signature string
	}{
		{"missing header", body, ""},
		{"another secret", body, sign(body, "whsec_other", time.Now())},
		{"6 minutes old", body, sign(body, apptest.WebhookSecret, time.Now().Add(-6*time.Minute))},
		{"6 minutes ahead", body, sign(body, apptest.WebhookSecret, time.Now().Add(6*time.Minute))},
		{"body altered by one byte", altered, sign(body, apptest.WebhookSecret, time.Now())},
		{"garbled header", body, "t=1,v1=zz"},
	}
	for _, c := range cases {
		if code := app.ErrorCode(e.Billing.HandlePaymentEvent(context.Background(), c.body, c.signature)); code != app.CodeInvalid {
			t.Errorf("%s: code %q, want %q", c.name, code, app.CodeInvalid)
		}
	}
	// Nothing was recorded: the correctly signed event still applies.
	if err := e.Billing.HandlePaymentEvent(context.Background(), body, sign(body, apptest.WebhookSecret, time.Now())); err != nil {
		t.Fatalf("signed delivery: %v", err)
	}

	unset := apptest.New(t, dbtest.Open(t, dbtest.SQLite), apptest.Billing(func(o *billing.Options) { o.WebhookSecret = "" }))
	if code := app.ErrorCode(unset.Billing.HandlePaymentEvent(context.Background(), body, sign(body, apptest.WebhookSecret, time.Now()))); code != app.CodeInternal {
		t.Errorf("no secret configured: code %q, want %q", code, app.CodeInternal)
	}
	var none *billing.Service // a server wired without billing
	if code := app.ErrorCode(none.HandlePaymentEvent(context.Background(), body, sign(body, apptest.WebhookSecret, time.Now()))); code != app.CodeInternal {
		t.Errorf("no billing: code %q, want %q", code, app.CodeInternal)
	}
}

// Each event type's effect on the account: a checkout links the customer
// and sets its tier, a failed invoice sets past_due, a paid one changes no
// plan, an unknown type is recorded and answered as success, and a
// duplicate of an applied event changes nothing.
func TestPaymentEventEffects(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := apptest.New(t, dbtest.Open(t, d))
		acct, cus := mustSubscribed(t, e, 1000)
		if a := e.Account(acct.ID); a.Tier != app.TierBase || a.CustomerID == nil || *a.CustomerID != cus {
			t.Fatalf("after checkout: %s %v, want base and %s", a.Tier, a.CustomerID, cus)
		}
		steps := []struct {
			p          payment
			wantTier   app.Tier
			wantStatus string
		}{
			{payment{"evt_fail_" + acct.ID, "invoice.payment_failed", 1001, map[string]any{"id": "in_2", "object": "invoice", "customer": cus}}, app.TierBase, "past_due"},
			{payment{"evt_paid_" + acct.ID, "invoice.paid", 1002, map[string]any{"id": "in_3_" + acct.ID, "object": "invoice", "customer": cus, "amount_paid": 900, "currency": "usd", "status": "paid", "created": 1002}}, app.TierBase, "past_due"},
			{payment{"evt_up_" + acct.ID, "customer.subscription.updated", 1003, sub("sub_1", cus, "active", "advanced")}, app.TierAdvanced, "active"},
			{payment{"evt_unknown_" + acct.ID, "customer.tax_id.created", 1004, map[string]any{"id": "txi_1"}}, app.TierAdvanced, "active"},
		}
		for _, s := range steps {
			mustDeliver(t, e.Billing, s.p)
			if a := e.Account(acct.ID); a.Tier != s.wantTier || a.SubscriptionStatus != s.wantStatus {
				t.Errorf("after %s: %s %q, want %s %q", s.p.typ, a.Tier, a.SubscriptionStatus, s.wantTier, s.wantStatus)
			}
		}
		// The failed invoice again, under its own id: a duplicate, so the
		// account stays active.
		mustDeliver(t, e.Billing, steps[0].p)
		if a := e.Account(acct.ID); a.SubscriptionStatus != "active" {
			t.Errorf("a duplicate changed the account: %q, want active", a.SubscriptionStatus)
		}
	})
}
