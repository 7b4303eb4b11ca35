-- +goose Up
-- See the PostgreSQL migration of the same number.
ALTER TABLE monitors ADD COLUMN last_error_code TEXT NOT NULL DEFAULT '';
ALTER TABLE monitors ADD COLUMN blocked_by TEXT NOT NULL DEFAULT '';

CREATE TABLE host_schedule (
    host     TEXT PRIMARY KEY,
    next_ms  INTEGER NOT NULL,
    delay_ms INTEGER NOT NULL DEFAULT 0,
    errors   INTEGER NOT NULL DEFAULT 0
);
