package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/stripe/stripe-go/v76"
	"github.com/stripe/stripe-go/v76/webhook"
)

// Invoice is a paid invoice as recorded.
type Invoice struct {
	ID             string    `db:"id"`
	AccountID      *string   `db:"account_id"`
	CustomerID     string    `db:"customer_id"`
	SubscriptionID string    `db:"subscription_id"`
	AmountPaid     int64     `db:"amount_paid"`
	Currency       string    `db:"currency"`
	Status         string    `db:"status"`
	CreatedAt      time.Time `db:"created_at"`
}

// BillingUpdate changes an account's billing state; nil fields stay.
type BillingUpdate struct {
	CustomerID     *string
	Tier           *Tier
	Status         *string
	SubscriptionID *string
	EventAt        *int64
}

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

// HandlePaymentEvent verifies one payment-provider delivery against the raw
// body and applies it exactly once. The event record, its processing and its
// effects commit in one transaction: a duplicate (sequential or concurrent)
// hits the unique event id and changes nothing; a failure rolls everything
// back and returns an error, so the provider's retry applies it again.
func (s *Service) HandlePaymentEvent(ctx context.Context, payload []byte, signature string) error {
	if s.webhookSecret == "" {
		return &Error{Code: CodeInternal, Message: "Webhook secret not configured"}
	}
	if signature == "" {
		return Errorf(CodeInvalid, "Missing payment-signature header")
	}
	// stripe-go checks only that a signature is not too old; one dated
	// further ahead than the tolerance is refused here, so a leaked future
	// signature cannot be replayed for longer than the window.
	if at, ok := signedAt(signature); ok && at.After(time.Now().Add(webhookTolerance)) {
		return &Error{Code: CodeInvalid, Message: "Invalid signature", Err: fmt.Errorf("signed at %s, in the future", at)}
	}
	ev, err := webhook.ConstructEventWithOptions(payload, signature, s.webhookSecret, webhook.ConstructEventOptions{
		Tolerance: webhookTolerance, IgnoreAPIVersionMismatch: true,
	})
	if err != nil || ev.ID == "" || ev.Type == "" {
		return &Error{Code: CodeInvalid, Message: "Invalid signature", Err: err}
	}
	err = s.store.InTx(ctx, func(tx Store) error {
		err := tx.RecordPaymentEvent(ctx, ev.ID, string(ev.Type), ev.Livemode, s.now())
		if ErrorCode(err) == CodeConflict {
			return errDuplicateEvent
		}
		if err != nil {
			return err
		}
		return s.applyPaymentEvent(ctx, tx, ev)
	})
	switch {
	case errors.Is(err, errDuplicateEvent):
		return nil
	case err != nil:
		return &Error{Code: CodeInternal, Message: "Webhook handler failed", Err: err}
	}
	return nil
}

func (s *Service) applyPaymentEvent(ctx context.Context, tx Store, ev stripe.Event) error {
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
		return s.applyCheckout(ctx, tx, ev.Created, &cs)
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
		acct, err := accountForCustomer(ctx, tx, customerID(inv.Customer), inv.Metadata)
		if err != nil {
			return err
		}
		rec := &Invoice{ID: inv.ID, CustomerID: customerID(inv.Customer), AmountPaid: inv.AmountPaid,
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
		if err != nil || acct == nil || ev.Created < acct.SubscriptionEventAt {
			return err
		}
		status := "past_due"
		return tx.UpdateBilling(ctx, acct.ID, BillingUpdate{Status: &status, EventAt: &ev.Created})
	default:
		// Recorded, so the provider stops retrying; nothing to do.
		return nil
	}
}

func (s *Service) applyCheckout(ctx context.Context, tx Store, created int64, cs *stripe.CheckoutSession) error {
	id := cs.ClientReferenceID
	if !validID(id) {
		id = cs.Metadata["accountId"]
	}
	if !validID(id) {
		s.log.Warn("checkout without an account reference", "session", cs.ID)
		return nil
	}
	acct, err := tx.FindAccount(ctx, id)
	if ErrorCode(err) == CodeNotFound {
		s.log.Warn("checkout for an unknown account", "session", cs.ID)
		return nil
	}
	if err != nil {
		return err
	}
	upd := BillingUpdate{}
	if c := customerID(cs.Customer); c != "" {
		upd.CustomerID = &c
	}
	if cs.Mode == stripe.CheckoutSessionModeSubscription && created >= acct.SubscriptionEventAt {
		var tier Tier
		if cs.LineItems != nil && len(cs.LineItems.Data) > 0 {
			tier = s.tierOf(cs.LineItems.Data[0].Price)
		}
		if tier == "" {
			tier = Tier(cs.Metadata["tier"])
		}
		if tier.Valid() {
			active := "active"
			upd.Tier, upd.Status, upd.EventAt = &tier, &active, &created
		}
		if cs.Subscription != nil && cs.Subscription.ID != "" {
			upd.SubscriptionID = &cs.Subscription.ID
		}
	}
	if err := tx.UpdateBilling(ctx, acct.ID, upd); err != nil {
		return err
	}
	if cs.Mode == stripe.CheckoutSessionModePayment {
		if n, err := strconv.Atoi(cs.Metadata["credits"]); err == nil && n > 0 {
			return tx.AddCredits(ctx, acct.ID, n)
		}
	}
	return nil
}

func (s *Service) applySubscription(ctx context.Context, tx Store, ev stripe.Event, sub *stripe.Subscription) error {
	acct, err := accountForCustomer(ctx, tx, customerID(sub.Customer), sub.Metadata)
	if err != nil {
		return err
	}
	if acct == nil {
		// Subscription events often arrive before the checkout that links
		// the customer: fail, so the provider retries once it is linked.
		return fmt.Errorf("subscription %s: customer %q is not linked to an account yet", sub.ID, customerID(sub.Customer))
	}
	if ev.Created < acct.SubscriptionEventAt {
		return nil // an older state delivered late: recorded, not applied
	}
	status := string(sub.Status)
	upd := BillingUpdate{Status: &status, SubscriptionID: &sub.ID, EventAt: &ev.Created}
	if c := customerID(sub.Customer); c != "" && acct.CustomerID == nil {
		upd.CustomerID = &c
	}
	var tier Tier
	switch {
	case ev.Type == "customer.subscription.deleted", sub.Status == stripe.SubscriptionStatusCanceled,
		sub.Status == stripe.SubscriptionStatusIncompleteExpired:
		tier = TierFree
	case sub.Items != nil && len(sub.Items.Data) > 0:
		tier = s.tierOf(sub.Items.Data[0].Price)
	}
	if ev.Type == "customer.subscription.deleted" && status == "" {
		status = "canceled"
	}
	if tier.Valid() {
		upd.Tier = &tier
	}
	return tx.UpdateBilling(ctx, acct.ID, upd)
}

// tierOf reads a price's plan: its metadata.tier, its lookup_key, or the
// configured price map.
func (s *Service) tierOf(p *stripe.Price) Tier {
	if p == nil {
		return ""
	}
	for _, t := range []Tier{Tier(p.Metadata["tier"]), Tier(p.LookupKey), Tier(s.prices[p.ID])} {
		if t.Valid() {
			return t
		}
	}
	return ""
}

// accountForCustomer finds the account of a provider customer, falling back
// to metadata.accountId; nil when neither names one.
func accountForCustomer(ctx context.Context, tx Store, customer string, meta map[string]string) (*Account, error) {
	if customer != "" {
		a, err := tx.FindAccountByCustomer(ctx, customer)
		if ErrorCode(err) != CodeNotFound {
			return a, err
		}
	}
	if id := meta["accountId"]; validID(id) {
		a, err := tx.FindAccount(ctx, id)
		if ErrorCode(err) != CodeNotFound {
			return a, err
		}
	}
	return nil, nil
}

func customerID(c *stripe.Customer) string {
	if c == nil {
		return ""
	}
	return c.ID
}
