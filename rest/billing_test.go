package rest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/iotest"
	"time"

	"github.com/stripe/stripe-go/v76/webhook"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
	"github.com/clausewatch/clausewatch/internal/billing"
)

// event builds a provider event of typ around object.
func event(id, typ string, created int64, object map[string]any) []byte {
	b, _ := json.Marshal(map[string]any{
		"id": id, "object": "event", "type": typ, "created": created, "livemode": false,
		"api_version": "2020-08-27", "data": map[string]any{"object": object},
	})
	return b
}

func sign(payload []byte, secret string, at time.Time) string {
	return webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret, Timestamp: at}).Header
}

func (e *env) deliver(payload []byte) response {
	e.T.Helper()
	return e.do("POST", "/api/webhooks/payment", "", payload, "payment-signature", sign(payload, apptest.WebhookSecret, time.Now()))
}

func subscription(customer, status, tier string) map[string]any {
	return map[string]any{"id": "sub_1", "object": "subscription", "customer": customer, "status": status,
		"items": map[string]any{"object": "list", "data": []any{map[string]any{"id": "si_1", "price": map[string]any{"id": "price_x", "lookup_key": tier}}}}}
}

func TestWebhookSignature(t *testing.T) {
	e := newEnv(t, dbtest.SQLite)
	payload := event("evt_sig", "invoice.paid", time.Now().Unix(), map[string]any{"id": "in_1", "object": "invoice"})
	cases := []struct {
		name   string
		body   []byte
		header string
		want   string
	}{
		{"missing header", payload, "", "Missing payment-signature header"},
		{"wrong secret", payload, sign(payload, "whsec_other", time.Now()), "Invalid signature"},
		{"stale timestamp", payload, sign(payload, apptest.WebhookSecret, time.Now().Add(-6*time.Minute)), "Invalid signature"},
		{"timestamp an hour ahead", payload, sign(payload, apptest.WebhookSecret, time.Now().Add(time.Hour)), "Invalid signature"},
		{"timestamp 6 minutes ahead", payload, sign(payload, apptest.WebhookSecret, time.Now().Add(6*time.Minute)), "Invalid signature"},
		{"body altered by one byte", append(bytes.Clone(payload[:len(payload)-1]), ' '), sign(payload, apptest.WebhookSecret, time.Now()), "Invalid signature"},
		{"garbage header", payload, "t=1,v1=zz", "Invalid signature"},
	}
	for _, c := range cases {
		var hdr []string
		if c.header != "" {
			hdr = []string{"payment-signature", c.header}
		}
		res := e.do("POST", "/api/webhooks/payment", "", c.body, hdr...)
		if res.status != http.StatusBadRequest || res.json(t)["error"] != c.want {
			t.Errorf("%s: %d %s, want 400 %q", c.name, res.status, res.body, c.want)
		}
	}
	// Nothing was recorded: a correctly signed delivery of the same id still applies.
	if res := e.deliver(payload); res.status != http.StatusOK {
		t.Fatalf("valid delivery: %d %s", res.status, res.body)
	}
}

func TestWebhookSecretNotConfigured(t *testing.T) {
	e := newEnvOn(t, dbtest.Open(t, dbtest.SQLite), apptest.Billing(func(o *billing.Options) { o.WebhookSecret = "" }))
	payload := event("evt_x", "invoice.paid", time.Now().Unix(), map[string]any{"id": "in_1"})
	res := e.deliver(payload)
	if res.status != http.StatusInternalServerError || res.json(t)["error"] != "Webhook secret not configured" {
		t.Fatalf("%d %s", res.status, res.body)
	}
}

func TestWebhookEvents(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d)
		tok, acct := e.MustAccount("pay@example.com")
		k := e.MustKey(tok)
		cus := "cus_" + acct.ID[:8]
		now := time.Now().Unix()

		// checkout links the customer and sets the tier from metadata.
		res := e.deliver(event("evt_co_"+string(d), "checkout.session.completed", now, map[string]any{
			"id": "cs_1", "object": "checkout.session", "mode": "subscription", "customer": cus,
			"client_reference_id": acct.ID, "subscription": "sub_1", "metadata": map[string]any{"tier": "base"},
		}))
		if res.status != http.StatusOK {
			t.Fatalf("checkout: %d %s", res.status, res.body)
		}
		a := e.Account(acct.ID)
		if a.Tier != app.TierBase || a.CustomerID == nil || *a.CustomerID != cus {
			t.Fatalf("after checkout: tier %s customer %v", a.Tier, a.CustomerID)
		}
		// The very next call uses the new tier.
		snap := e.do("GET", "/api/developer/usage/per-key", k.RawKey, nil).json(t)
		if snap["tier"] != "base" || snap["keys"].([]any)[0].(map[string]any)["status"].(map[string]any)["scans"].(map[string]any)["limit"] != 25.0 {
			t.Errorf("per-key after upgrade: %v", snap)
		}

		steps := []struct {
			id, typ    string
			created    int64
			object     map[string]any
			wantTier   app.Tier
			wantStatus string
		}{
			{"evt_s1", "customer.subscription.created", now + 1, subscription(cus, "active", "advanced"), app.TierAdvanced, "active"},
			{"evt_s2", "customer.subscription.updated", now + 3, subscription(cus, "active", "base"), app.TierBase, "active"},
			// Older than the last applied: recorded, changes nothing.
			{"evt_s_old", "customer.subscription.updated", now + 2, subscription(cus, "active", "advanced"), app.TierBase, "active"},
			{"evt_fail", "invoice.payment_failed", now + 4, map[string]any{"id": "in_2", "object": "invoice", "customer": cus}, app.TierBase, "past_due"},
			{"evt_paid", "invoice.paid", now + 5, map[string]any{"id": "in_3", "object": "invoice", "customer": cus, "amount_paid": 900, "currency": "usd", "status": "paid", "created": now}, app.TierBase, "past_due"},
			{"evt_del", "customer.subscription.deleted", now + 6, subscription(cus, "canceled", "base"), app.TierFree, "canceled"},
			// An update retried from the second of the deletion does not revive it.
			{"evt_s_retried", "customer.subscription.updated", now + 6, subscription(cus, "active", "advanced"), app.TierFree, "canceled"},
			{"evt_unknown", "customer.tax_id.created", now + 7, map[string]any{"id": "txi_1"}, app.TierFree, "canceled"},
		}
		for _, s := range steps {
			if res := e.deliver(event(s.id+"_"+string(d), s.typ, s.created, s.object)); res.status != http.StatusOK {
				t.Fatalf("%s: %d %s", s.id, res.status, res.body)
			}
			a := e.Account(acct.ID)
			if a.Tier != s.wantTier || a.SubscriptionStatus != s.wantStatus {
				t.Errorf("after %s: tier %s status %q, want %s %q", s.id, a.Tier, a.SubscriptionStatus, s.wantTier, s.wantStatus)
			}
		}

		// Credit packs: a payment checkout adds credits, once, even re-sent
		// under new event ids; out of range credits are a recorded, skipped
		// event: 200, nothing added.
		pack := func(session, credits string) map[string]any {
			return map[string]any{"id": session, "object": "checkout.session", "mode": "payment", "customer": cus,
				"metadata": map[string]any{"accountId": acct.ID, "credits": credits}}
		}
		for i := range 3 {
			credits := event(fmt.Sprintf("evt_credits_%s_%d", d, i), "checkout.session.completed", now, pack("cs_2", "50"))
			for range 2 {
				if res := e.deliver(credits); res.status != http.StatusOK {
					t.Fatalf("credits: %d %s", res.status, res.body)
				}
			}
		}
		for i, bad := range []string{"99999999999", "-50", "lots"} {
			if res := e.deliver(event(fmt.Sprintf("evt_bad_credits_%s_%d", d, i), "checkout.session.completed", now, pack(fmt.Sprintf("cs_bad_%d", i), bad))); res.status != http.StatusOK {
				t.Errorf("credits %q: %d %s, want 200", bad, res.status, res.body)
			}
		}
		if got := e.Account(acct.ID).Credits; got != 50 {
			t.Errorf("credits after one checkout under three event ids and three bad ones: %d, want 50", got)
		}
	})
}

func TestWebhookConcurrentDuplicatesApplyOnce(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d)
		_, acct := e.MustAccount("dup@example.com")
		payload := event("evt_dup_"+string(d), "checkout.session.completed", time.Now().Unix(), map[string]any{
			"id": "cs_d", "object": "checkout.session", "mode": "payment",
			"metadata": map[string]any{"accountId": acct.ID, "credits": "10"},
		})
		var wg sync.WaitGroup
		var ok atomic.Int32
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if res := e.deliver(payload); res.status == http.StatusOK {
					ok.Add(1)
				} else {
					t.Errorf("delivery: %d %s", res.status, res.body)
				}
			}()
		}
		wg.Wait()
		if ok.Load() != 8 {
			t.Errorf("%d of 8 deliveries answered 200", ok.Load())
		}
		if got := e.Account(acct.ID).Credits; got != 10 {
			t.Fatalf("credits after 8 concurrent deliveries: %d, want 10", got)
		}
	})
}

// failingStore makes UpdateBilling fail while fail is set, also inside
// transactions (db's transaction is a whole store, monitoring's part too).
type failingStore struct {
	apptest.Store
	fail *atomic.Bool
}

func (f failingStore) InTx(ctx context.Context, fn func(app.Store) error) error {
	return f.Store.InTx(ctx, func(tx app.Store) error { return fn(failingStore{Store: tx.(apptest.Store), fail: f.fail}) })
}

func (f failingStore) UpdateBilling(ctx context.Context, id string, u app.BillingUpdate) error {
	if f.fail.Load() {
		return errors.New("disk on fire")
	}
	return f.Store.UpdateBilling(ctx, id, u)
}

func TestWebhookFailureRollsBackAndRetryApplies(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		fail := &atomic.Bool{}
		fail.Store(true)
		e := newEnvOn(t, failingStore{Store: dbtest.Open(t, d), fail: fail})
		_, acct := e.MustAccount("fail@example.com")
		payload := event("evt_rollback_"+string(d), "checkout.session.completed", time.Now().Unix(), map[string]any{
			"id": "cs_f", "object": "checkout.session", "mode": "payment", "customer": "cus_fail_" + string(d),
			"client_reference_id": acct.ID, "metadata": map[string]any{"credits": "7"},
		})
		res := e.deliver(payload)
		if res.status != http.StatusInternalServerError || res.json(t)["error"] != "Webhook handler failed" {
			t.Fatalf("failing delivery: %d %s", res.status, res.body)
		}
		if got := e.Account(acct.ID).Credits; got != 0 {
			t.Fatalf("failed delivery left %d credits", got)
		}
		fail.Store(false)
		for range 2 {
			if res := e.deliver(payload); res.status != http.StatusOK {
				t.Fatalf("retry: %d %s", res.status, res.body)
			}
		}
		if got := e.Account(acct.ID).Credits; got != 7 {
			t.Fatalf("after retry and duplicate: %d credits, want 7", got)
		}
	})
}

// Subscription events that arrive before the checkout linking their
// customer are refused (500) so the provider retries; the retry applies.
func TestSubscriptionBeforeCheckoutIsRetried(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d)
		_, acct := e.MustAccount("early@example.com")
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
		if a := e.Account(acct.ID); a.Tier != app.TierAdvanced || a.SubscriptionStatus != "active" {
			t.Errorf("after retry: %s %q", a.Tier, a.SubscriptionStatus)
		}
	})
}

// Two updates delivered at once, in either order: the newer one wins.
func TestConcurrentSubscriptionUpdatesNewestWins(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := newEnv(t, d)
		for round := range 10 {
			_, acct := e.MustAccount(fmt.Sprintf("race%d@example.com", round))
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
			if a := e.Account(acct.ID); a.Tier != app.TierBase || a.SubscriptionEventAt != 2000 {
				t.Fatalf("round %d: tier %s at %s, want base at 2000", round, a.Tier, strconv.FormatInt(a.SubscriptionEventAt, 10))
			}
		}
	})
}

// Only a body over the limit is 413; a body that cannot be read (the
// connection dropped mid-delivery) is 400 and applies nothing.
func TestWebhookBodyReadErrors(t *testing.T) {
	e := newEnv(t, dbtest.SQLite)
	_, acct := e.MustAccount("dropped@example.com")
	payload := event("evt_dropped", "checkout.session.completed", time.Now().Unix(), map[string]any{
		"id": "cs_dropped", "object": "checkout.session", "mode": "payment",
		"metadata": map[string]any{"accountId": acct.ID, "credits": "3"},
	})
	sig := sign(payload, apptest.WebhookSecret, time.Now())
	cases := []struct {
		name string
		body io.Reader
		want int
	}{
		{"over 1 MiB", bytes.NewReader(bytes.Repeat([]byte(" "), 1<<20+1)), http.StatusRequestEntityTooLarge},
		{"connection dropped", io.MultiReader(bytes.NewReader(payload[:20]), iotest.ErrReader(io.ErrUnexpectedEOF)), http.StatusBadRequest},
	}
	for _, c := range cases {
		req := httptest.NewRequest("POST", "/api/webhooks/payment", c.body)
		req.Header.Set("payment-signature", sig)
		rec := httptest.NewRecorder()
		e.h.ServeHTTP(rec, req)
		if rec.Code != c.want || !strings.Contains(rec.Body.String(), `"error"`) {
			t.Errorf("%s: %d %s, want %d with an error message", c.name, rec.Code, rec.Body, c.want)
		}
	}
	if got := e.Account(acct.ID).Credits; got != 0 {
		t.Fatalf("an unread delivery applied: %d credits", got)
	}
	if res := e.deliver(payload); res.status != http.StatusOK || e.Account(acct.ID).Credits != 3 {
		t.Fatalf("the provider's retry: %d %s", res.status, res.body)
	}
}
