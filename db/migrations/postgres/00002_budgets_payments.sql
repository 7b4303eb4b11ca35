-- +goose Up
-- One row per pool and window: owner is a key (API pools) or an account (its
-- portal pool); kind is scan or ai; period is the UTC day or month.
CREATE TABLE budget_usage (
    owner_id text NOT NULL,
    kind     text NOT NULL,
    period   text NOT NULL,
    used     integer NOT NULL CHECK (used >= 0),
    PRIMARY KEY (owner_id, kind, period)
);

ALTER TABLE accounts ADD COLUMN subscription_id text;
-- Created-time of the newest subscription event applied: older deliveries change nothing.
ALTER TABLE accounts ADD COLUMN subscription_event_at bigint NOT NULL DEFAULT 0;

CREATE TABLE payment_events (
    id          text PRIMARY KEY,
    type        text NOT NULL,
    livemode    boolean NOT NULL DEFAULT false,
    recorded_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE invoices (
    id              text PRIMARY KEY,
    account_id      uuid REFERENCES accounts (id),
    customer_id     text NOT NULL DEFAULT '',
    subscription_id text NOT NULL DEFAULT '',
    amount_paid     bigint NOT NULL DEFAULT 0,
    currency        text NOT NULL DEFAULT '',
    status          text NOT NULL DEFAULT '',
    created_at      timestamptz NOT NULL
);
