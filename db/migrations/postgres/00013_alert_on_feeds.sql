-- +goose Up
-- What a monitor alerts on: 'any' change of its text, or only a 'risk'
-- change (a bad or blocker finding added or removed, or the grade moved).
ALTER TABLE monitors ADD COLUMN alert_on text NOT NULL DEFAULT 'any';
-- An account's feed token, by its SHA-256: read-only access to the Atom
-- feeds of its alerts. One per account; rotating replaces the row, and
-- every replica reads this table on each feed request, so an old token
-- stops working at once.
CREATE TABLE feed_tokens (
    account_id uuid PRIMARY KEY REFERENCES accounts (id),
    token_hash bytea NOT NULL UNIQUE,
    prefix     text NOT NULL,
    created_at timestamptz NOT NULL
);
-- A monitor's feed and alert list read its alerts newest first.
CREATE INDEX alerts_monitor_detected ON alerts (monitor_id, detected_at DESC, id DESC);
