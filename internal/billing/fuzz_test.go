package billing_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v76/webhook"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
)

// FuzzPaymentEvent: any correctly signed body is applied or refused with
// an app error (invalid, or "Webhook handler failed" so the provider
// retries), never a panic or a raw error.
func FuzzPaymentEvent(f *testing.F) {
	e := apptest.New(f, dbtest.Open(f, dbtest.SQLite))
	_, acct := e.MustAccount("fuzz@example.com")
	for _, ev := range []map[string]any{
		{"id": "evt_1", "object": "event", "type": "checkout.session.completed", "created": 1, "data": map[string]any{"object": map[string]any{
			"object": "checkout.session", "mode": "payment", "client_reference_id": acct.ID, "metadata": map[string]any{"credits": "5"}}}},
		{"id": "evt_2", "object": "event", "type": "customer.subscription.updated", "created": 1, "data": map[string]any{"object": map[string]any{
			"object": "subscription", "customer": "cus_1", "status": "active", "items": map[string]any{"data": []any{map[string]any{"price": map[string]any{"lookup_key": "base"}}}}}}},
		{"id": "evt_3", "type": "invoice.paid", "data": nil},
	} {
		b, _ := json.Marshal(ev)
		f.Add(b)
	}
	f.Add([]byte(`{"id":"evt_4","type":"checkout.session.completed","data":{"object":{"metadata":{"credits":"-9999999999999"}}}}`))
	f.Add([]byte(`not json`))
	f.Fuzz(func(t *testing.T, payload []byte) {
		sig := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: apptest.WebhookSecret, Timestamp: time.Now()}).Header
		err := e.Billing.HandlePaymentEvent(context.Background(), payload, sig)
		if err == nil {
			return
		}
		switch ae := app.AsError(err); {
		case ae.Code == app.CodeInvalid:
		case (ae.Code == app.CodeInternal || ae.Code == app.CodeRetryLater) && ae.Message == "Webhook handler failed":
		default:
			t.Errorf("%q: %v (code %s)", payload, err, ae.Code)
		}
	})
}
