-- +goose Up
CREATE TABLE accounts (
    id                  uuid PRIMARY KEY,
    subject             text NOT NULL UNIQUE,
    email               text NOT NULL DEFAULT '',
    tier                text NOT NULL DEFAULT 'free' CHECK (tier IN ('free', 'base', 'advanced')),
    subscription_status text NOT NULL DEFAULT '',
    credits             integer NOT NULL DEFAULT 0 CHECK (credits >= 0),
    customer_id         text UNIQUE,
    created_at          timestamptz NOT NULL,
    updated_at          timestamptz NOT NULL
);

CREATE TABLE api_keys (
    id            uuid PRIMARY KEY,
    account_id    uuid NOT NULL REFERENCES accounts (id),
    name          text NOT NULL,
    key_prefix    text NOT NULL,
    key_hash      bytea NOT NULL UNIQUE,
    scopes        text NOT NULL,
    request_count bigint NOT NULL DEFAULT 0,
    last_used_at  timestamptz,
    created_at    timestamptz NOT NULL,
    revoked_at    timestamptz
);
CREATE INDEX api_keys_account ON api_keys (account_id, created_at DESC);

CREATE TABLE request_log (
    id         bigserial PRIMARY KEY,
    at         timestamptz NOT NULL,
    account_id uuid NOT NULL,
    key_id     uuid,
    key_prefix text NOT NULL DEFAULT '',
    method     text NOT NULL,
    path       text NOT NULL,
    status     integer NOT NULL,
    error      text NOT NULL DEFAULT ''
);
CREATE INDEX request_log_account_at ON request_log (account_id, at DESC);
CREATE INDEX request_log_at ON request_log (at);

-- Per-day counts outlive the raw log rows, which are pruned.
CREATE TABLE usage_daily (
    account_id uuid NOT NULL,
    day        text NOT NULL,
    total      bigint NOT NULL DEFAULT 0,
    errors     bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (account_id, day)
);
