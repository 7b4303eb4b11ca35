package app

import "time"

// The billing state the payment provider's events (internal/billing) write
// through the Store.

// Invoice is a paid invoice as recorded.
type Invoice struct {
	ID             string
	AccountID      *string
	CustomerID     string
	SubscriptionID string
	AmountPaid     int64
	Currency       string
	Status         string
	CreatedAt      time.Time
}

// BillingUpdate changes an account's billing state; nil fields stay.
type BillingUpdate struct {
	CustomerID     *string
	Tier           *Tier
	Status         *string
	SubscriptionID *string
	// Event, when set, orders the update among the subscription events
	// already applied to the account; it may then change nothing.
	Event *SubscriptionEvent
}

// SubscriptionEvent places a billing update in the account's subscription
// history. Deliveries arrive in any order and retried, so the provider's
// created time decides, never arrival, and the subscription's own state
// breaks a tie: an update applies only if it is not older than the last one
// applied; an ended subscription is never revived, even by an update from
// the same second as its end; an end of a subscription the account no longer
// holds changes nothing; an update naming no subscription follows an end
// only if it is newer.
type SubscriptionEvent struct {
	At           int64  // the provider's created time, Unix seconds
	Subscription string // the subscription it is about; "" when it names none
	Ends         bool   // deleted, canceled or expired: the subscription is over
}
