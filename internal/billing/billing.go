// Package billing applies the payment provider's webhook deliveries to
// accounts: it verifies each against the raw body, records it once and
// applies its effect (a plan, a subscription's state, credit packs, an
// invoice) in the same transaction. It is built on the service layer (app)
// for the store, the accounts and the errors, and knows nothing of HTTP.
package billing

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/stripe/stripe-go/v76"
	"github.com/stripe/stripe-go/v76/webhook"

	"github.com/clausewatch/clausewatch/internal/app"
)

// Options configure billing.
type Options struct {
	Store app.Store
	// WebhookSecret is the payment provider's signing secret (whsec_...);
	// empty: every delivery is an internal error.
	WebhookSecret string
	// Prices maps provider price ids to tiers, besides a price's own metadata.
	Prices map[string]string
	Logger *slog.Logger     // nil: slog.Default
	Now    func() time.Time // nil: time.Now; tests inject the service's clock
}

// Service applies payment events.
type Service struct {
	store  app.Store
	secret string
	prices map[string]string
	log    *slog.Logger
	clock  func() time.Time
}

// New builds billing from o.
func New(o Options) *Service {
	s := &Service{store: o.Store, secret: o.WebhookSecret, prices: o.Prices, log: o.Logger, clock: o.Now}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.clock == nil {
		s.clock = time.Now
	}
	return s
}

func (s *Service) now() time.Time { return s.clock().UTC() }

// maxCreditPack bounds the credits one checkout may add; a value outside
// 1..maxCreditPack is a mistake in the price's metadata, not a purchase.
const maxCreditPack = 1_000_000

// webhookTolerance is how old a signed delivery may be (replay window).
const webhookTolerance = 5 * time.Minute

// signedAt is the t= timestamp of a payment-signature header.
func signedAt(header string) (time.Time, bool) {
	for part := range strings.SplitSeq(header, ",") {
		if v, ok := strings.CutPrefix(part, "t="); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			return time.Unix(n, 0), err == nil
		}
	}
	return time.Time{}, false
}

var errDuplicateEvent = errors.New("duplicate payment event")

// earlyEvent is a payment event that arrived before the one it depends on:
// it is rolled back and refused, and the provider's retry applies it.
type earlyEvent struct{ reason string }

func (e *earlyEvent) Error() string { return e.reason }

// HandlePaymentEvent verifies one payment-provider delivery against the raw
// body and applies it exactly once. The event record, its processing and its
// effects commit in one transaction: a duplicate (sequential or concurrent)
// hits the unique event id and changes nothing; a failure rolls everything
// back and returns an error, so the provider's retry applies it again.
func (s *Service) HandlePaymentEvent(ctx context.Context, payload []byte, signature string) error {
	if s == nil || s.secret == "" {
		return &app.Error{Code: app.CodeInternal, Message: "Webhook secret not configured"}
	}
	if signature == "" {
		return app.Errorf(app.CodeInvalid, "Missing payment-signature header")
	}
	// stripe-go checks only that a signature is not too old; one dated
	// further ahead than the tolerance is refused here, so a leaked future
	// signature cannot be replayed for longer than the window.
	if at, ok := signedAt(signature); ok && at.After(time.Now().Add(webhookTolerance)) {
		return &app.Error{Code: app.CodeInvalid, Message: "Invalid signature", Err: fmt.Errorf("signed at %s, in the future", at)}
	}
	ev, err := webhook.ConstructEventWithOptions(payload, signature, s.secret, webhook.ConstructEventOptions{
		Tolerance: webhookTolerance, IgnoreAPIVersionMismatch: true,
	})
	if err != nil || ev.ID == "" || ev.Type == "" {
		return &app.Error{Code: app.CodeInvalid, Message: "Invalid signature", Err: err}
	}
	err = s.store.InTx(ctx, func(tx app.Store) error {
		err := tx.RecordPaymentEvent(ctx, ev.ID, string(ev.Type), ev.Livemode, s.now())
		if app.ErrorCode(err) == app.CodeConflict {
			return errDuplicateEvent
		}
		if err != nil {
			return err
		}
		return s.applyPaymentEvent(ctx, tx, ev)
	})
	var early *earlyEvent
	switch {
	case errors.Is(err, errDuplicateEvent):
		return nil
	case errors.As(err, &early):
		// An ordering the provider produces every day, not a fault: the
		// refusal only asks for the retry that will apply it.
		s.log.Info("payment event refused until the event it needs arrives; the provider retries it",
			"event", ev.ID, "type", ev.Type, "reason", early.reason)
		return &app.Error{Code: app.CodeRetryLater, Message: "Webhook handler failed", Err: err}
	case err != nil:
		return &app.Error{Code: app.CodeInternal, Message: "Webhook handler failed", Err: err}
	}
	return nil
}

func (s *Service) applyPaymentEvent(ctx context.Context, tx app.Store, ev stripe.Event) error {
	if ev.Data == nil {
		return nil
	}
	raw := ev.Data.Raw
	switch ev.Type {
	case "checkout.session.completed":
		var cs stripe.CheckoutSession
		if err := json.Unmarshal(raw, &cs); err != nil {
			return err
		}
		return s.applyCheckout(ctx, tx, ev, &cs)
	case "customer.subscription.created", "customer.subscription.updated", "customer.subscription.deleted":
		var sub stripe.Subscription
		if err := json.Unmarshal(raw, &sub); err != nil {
			return err
		}
		return s.applySubscription(ctx, tx, ev, &sub)
	case "invoice.paid":
		var inv stripe.Invoice
		if err := json.Unmarshal(raw, &inv); err != nil {
			return err
		}
		// An invoice of no known account is still recorded, unlinked.
		acct, err := accountForCustomer(ctx, tx, customerID(inv.Customer), inv.Metadata)
		if err != nil && app.ErrorCode(err) != app.CodeNotFound {
			return err
		}
		rec := &app.Invoice{ID: inv.ID, CustomerID: customerID(inv.Customer), AmountPaid: inv.AmountPaid,
			Currency: string(inv.Currency), Status: string(inv.Status), CreatedAt: time.Unix(inv.Created, 0).UTC()}
		if inv.Subscription != nil {
			rec.SubscriptionID = inv.Subscription.ID
		}
		if acct != nil {
			rec.AccountID = &acct.ID
		}
		return tx.SaveInvoice(ctx, rec)
	case "invoice.payment_failed":
		var inv stripe.Invoice
		if err := json.Unmarshal(raw, &inv); err != nil {
			return err
		}
		acct, err := accountForCustomer(ctx, tx, customerID(inv.Customer), inv.Metadata)
		if app.ErrorCode(err) == app.CodeNotFound {
			return nil // no account to mark past due
		}
		if err != nil {
			return err
		}
		status, at := "past_due", &app.SubscriptionEvent{At: ev.Created}
		if inv.Subscription != nil {
			at.Subscription = inv.Subscription.ID
		}
		return tx.UpdateBilling(ctx, acct.ID, app.BillingUpdate{Status: &status, Event: at})
	default:
		// Recorded, so the provider stops retrying; nothing to do.
		return nil
	}
}

func (s *Service) applyCheckout(ctx context.Context, tx app.Store, ev stripe.Event, cs *stripe.CheckoutSession) error {
	id := cs.ClientReferenceID
	if !app.ValidID(id) {
		id = cs.Metadata["accountId"]
	}
	if !app.ValidID(id) {
		s.log.Warn("checkout without an account reference", "event", ev.ID, "session", cs.ID)
		return nil
	}
	credits, isPack := cs.Metadata["credits"]
	isPack = isPack && cs.Mode == stripe.CheckoutSessionModePayment
	n, err := strconv.Atoi(credits)
	if isPack && (err != nil || n < 1 || n > maxCreditPack || cs.ID == "") {
		// Recorded and answered 200, the account unchanged: a retry would
		// not make it valid, so a 500 would only repeat it for 72 hours.
		s.log.Warn("payment event skipped: credits out of range or no checkout session", "event", ev.ID,
			"session", cs.ID, "credits", credits, "range", fmt.Sprintf("1..%d", maxCreditPack))
		return nil
	}
	acct, err := tx.FindAccount(ctx, id)
	if app.ErrorCode(err) == app.CodeNotFound {
		s.log.Warn("checkout for an unknown account", "event", ev.ID, "session", cs.ID)
		return nil
	}
	if err != nil {
		return err
	}
	if c := customerID(cs.Customer); c != "" {
		if err := tx.UpdateBilling(ctx, acct.ID, app.BillingUpdate{CustomerID: &c}); err != nil {
			return err
		}
	}
	switch cs.Mode {
	case stripe.CheckoutSessionModeSubscription:
		upd := app.BillingUpdate{Event: &app.SubscriptionEvent{At: ev.Created}}
		var tier app.Tier
		if cs.LineItems != nil && len(cs.LineItems.Data) > 0 {
			tier = s.tierOf(cs.LineItems.Data[0].Price)
		}
		if tier == "" {
			tier = app.Tier(cs.Metadata["tier"])
		}
		if tier.Valid() {
			active := "active"
			upd.Tier, upd.Status = &tier, &active
		}
		if cs.Subscription != nil && cs.Subscription.ID != "" {
			upd.SubscriptionID, upd.Event.Subscription = &cs.Subscription.ID, cs.Subscription.ID
		}
		if upd.Tier == nil && upd.SubscriptionID == nil {
			return nil
		}
		return tx.UpdateBilling(ctx, acct.ID, upd)
	case stripe.CheckoutSessionModePayment:
		if !isPack {
			return nil
		}
		// Keyed by the checkout, not the event: the same checkout re-sent
		// under new event ids adds its credits once.
		granted, err := tx.GrantCredits(ctx, cs.ID, acct.ID, n, s.now())
		if err == nil && !granted {
			s.log.Info("payment event skipped: checkout's credits already granted", "event", ev.ID, "session", cs.ID)
		}
		return err
	}
	return nil
}

func (s *Service) applySubscription(ctx context.Context, tx app.Store, ev stripe.Event, sub *stripe.Subscription) error {
	acct, err := accountForCustomer(ctx, tx, customerID(sub.Customer), sub.Metadata)
	if app.ErrorCode(err) == app.CodeNotFound {
		// Subscription events often arrive before the checkout that links
		// the customer: fail, so the provider retries once it is linked.
		return &earlyEvent{fmt.Sprintf("subscription %s: customer %q is not linked to an account yet (its checkout has not arrived)", sub.ID, customerID(sub.Customer))}
	}
	if err != nil {
		return err
	}
	ends := ev.Type == "customer.subscription.deleted" || sub.Status == stripe.SubscriptionStatusCanceled ||
		sub.Status == stripe.SubscriptionStatusIncompleteExpired
	status := string(sub.Status)
	if ev.Type == "customer.subscription.deleted" && status == "" {
		status = "canceled"
	}
	upd := app.BillingUpdate{Status: &status, SubscriptionID: &sub.ID,
		Event: &app.SubscriptionEvent{At: ev.Created, Subscription: sub.ID, Ends: ends}}
	if c := customerID(sub.Customer); c != "" && acct.CustomerID == nil {
		upd.CustomerID = &c
	}
	var tier app.Tier
	switch {
	case ends:
		tier = app.TierFree
	case sub.Items != nil && len(sub.Items.Data) > 0:
		tier = s.tierOf(sub.Items.Data[0].Price)
	}
	if tier.Valid() {
		upd.Tier = &tier
	}
	return tx.UpdateBilling(ctx, acct.ID, upd)
}

// tierOf reads a price's plan: its metadata.tier, its lookup_key, or the
// configured price map.
func (s *Service) tierOf(p *stripe.Price) app.Tier {
	if p == nil {
		return ""
	}
	for _, t := range []app.Tier{app.Tier(p.Metadata["tier"]), app.Tier(p.LookupKey), app.Tier(s.prices[p.ID])} {
		if t.Valid() {
			return t
		}
	}
	return ""
}

// accountForCustomer finds the account of a provider customer, falling back
// to metadata.accountId; app.CodeNotFound when neither names one.
func accountForCustomer(ctx context.Context, tx app.Store, customer string, meta map[string]string) (*app.Account, error) {
	if customer != "" {
		a, err := tx.FindAccountByCustomer(ctx, customer)
		if app.ErrorCode(err) != app.CodeNotFound {
			return a, err
		}
	}
	if id := meta["accountId"]; app.ValidID(id) {
		a, err := tx.FindAccount(ctx, id)
		if app.ErrorCode(err) != app.CodeNotFound {
			return a, err
		}
	}
	return nil, app.Errorf(app.CodeNotFound, "no account for customer %q", customer)
}

func customerID(c *stripe.Customer) string {
	if c == nil {
		return ""
	}
	return c.ID
}
