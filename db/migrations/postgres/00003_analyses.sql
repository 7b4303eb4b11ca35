-- +goose Up
CREATE TABLE analyses (
    id            uuid PRIMARY KEY,
    account_id    uuid NOT NULL REFERENCES accounts (id),
    key_id        uuid,
    url           text NOT NULL DEFAULT '',
    content_hash  text NOT NULL,
    grade         text NOT NULL,
    score         integer NOT NULL,
    body          jsonb NOT NULL,
    created_at    timestamptz NOT NULL
);
CREATE INDEX analyses_account_created ON analyses (account_id, created_at DESC, id DESC);
