-- +goose Up
CREATE TABLE analyses (
    id            TEXT PRIMARY KEY,
    account_id    TEXT NOT NULL REFERENCES accounts (id),
    key_id        TEXT,
    url           TEXT NOT NULL DEFAULT '',
    content_hash  TEXT NOT NULL,
    grade         TEXT NOT NULL,
    score         INTEGER NOT NULL,
    body          TEXT NOT NULL,
    created_at    DATETIME NOT NULL
);
CREATE INDEX analyses_account_created ON analyses (account_id, created_at DESC, id DESC);
