-- +goose Up
CREATE TABLE accounts (
    id                  TEXT PRIMARY KEY,
    subject             TEXT NOT NULL UNIQUE,
    email               TEXT NOT NULL DEFAULT '',
    tier                TEXT NOT NULL DEFAULT 'free' CHECK (tier IN ('free', 'base', 'advanced')),
    subscription_status TEXT NOT NULL DEFAULT '',
    credits             INTEGER NOT NULL DEFAULT 0 CHECK (credits >= 0),
    customer_id         TEXT UNIQUE,
    created_at          DATETIME NOT NULL,
    updated_at          DATETIME NOT NULL
);

CREATE TABLE api_keys (
    id            TEXT PRIMARY KEY,
    account_id    TEXT NOT NULL REFERENCES accounts (id),
    name          TEXT NOT NULL,
    key_prefix    TEXT NOT NULL,
    key_hash      BLOB NOT NULL UNIQUE,
    scopes        TEXT NOT NULL,
    request_count INTEGER NOT NULL DEFAULT 0,
    last_used_at  DATETIME,
    created_at    DATETIME NOT NULL,
    revoked_at    DATETIME
);
CREATE INDEX api_keys_account ON api_keys (account_id, created_at DESC);

CREATE TABLE request_log (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    at         DATETIME NOT NULL,
    account_id TEXT NOT NULL,
    key_id     TEXT,
    key_prefix TEXT NOT NULL DEFAULT '',
    method     TEXT NOT NULL,
    path       TEXT NOT NULL,
    status     INTEGER NOT NULL,
    error      TEXT NOT NULL DEFAULT ''
);
CREATE INDEX request_log_account_at ON request_log (account_id, at DESC);
CREATE INDEX request_log_at ON request_log (at);

CREATE TABLE usage_daily (
    account_id TEXT NOT NULL,
    day        TEXT NOT NULL,
    total      INTEGER NOT NULL DEFAULT 0,
    errors     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (account_id, day)
);
