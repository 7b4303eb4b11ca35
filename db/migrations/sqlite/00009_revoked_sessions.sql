-- +goose Up
-- Account sessions signed out before they expire, by the SHA-256 of the
-- token: every replica reads this on each use of a session and refuses the
-- token. A row is pruned once the token has expired anyway.
CREATE TABLE revoked_sessions (
    token_hash BLOB PRIMARY KEY,
    expires_at DATETIME NOT NULL
);
CREATE INDEX revoked_sessions_expires ON revoked_sessions (expires_at);
