-- +goose Up
CREATE TABLE budget_usage (
    owner_id TEXT NOT NULL,
    kind     TEXT NOT NULL,
    period   TEXT NOT NULL,
    used     INTEGER NOT NULL CHECK (used >= 0),
    PRIMARY KEY (owner_id, kind, period)
);

ALTER TABLE accounts ADD COLUMN subscription_id TEXT;
ALTER TABLE accounts ADD COLUMN subscription_event_at INTEGER NOT NULL DEFAULT 0;

CREATE TABLE payment_events (
    id          TEXT PRIMARY KEY,
    type        TEXT NOT NULL,
    livemode    BOOLEAN NOT NULL DEFAULT false,
    recorded_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

CREATE TABLE invoices (
    id              TEXT PRIMARY KEY,
    account_id      TEXT REFERENCES accounts (id),
    customer_id     TEXT NOT NULL DEFAULT '',
    subscription_id TEXT NOT NULL DEFAULT '',
    amount_paid     INTEGER NOT NULL DEFAULT 0,
    currency        TEXT NOT NULL DEFAULT '',
    status          TEXT NOT NULL DEFAULT '',
    created_at      DATETIME NOT NULL
);
