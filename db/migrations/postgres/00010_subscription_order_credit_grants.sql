-- +goose Up
-- Whether the account's subscription (subscription_id) has ended (deleted,
-- canceled): an update for it, even one from the same second as its end,
-- never revives it. Accounts already canceled start ended.
ALTER TABLE accounts ADD COLUMN subscription_ended boolean NOT NULL DEFAULT false;
UPDATE accounts SET subscription_ended = true WHERE subscription_status IN ('canceled', 'incomplete_expired');

-- One credit grant per checkout session, whatever event ids carry it.
CREATE TABLE credit_grants (
    checkout_session_id text PRIMARY KEY,
    account_id          uuid NOT NULL REFERENCES accounts (id),
    credits             integer NOT NULL CHECK (credits > 0),
    granted_at          timestamptz NOT NULL
);
