-- +goose Up
ALTER TABLE accounts ADD COLUMN subscription_ended BOOLEAN NOT NULL DEFAULT false;
UPDATE accounts SET subscription_ended = true WHERE subscription_status IN ('canceled', 'incomplete_expired');

CREATE TABLE credit_grants (
    checkout_session_id TEXT PRIMARY KEY,
    account_id          TEXT NOT NULL REFERENCES accounts (id),
    credits             INTEGER NOT NULL CHECK (credits > 0),
    granted_at          DATETIME NOT NULL
);
