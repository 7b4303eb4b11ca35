-- +goose Up
-- A monitor watches one public URL for an account. Deleting one sets
-- deleted_at: it is never fetched again, and its alerts stay readable.
-- lease_owner/lease_until are the scheduler's claim (see db/monitor.go).
CREATE TABLE monitors (
    id                   TEXT PRIMARY KEY,
    account_id           TEXT NOT NULL REFERENCES accounts (id),
    url                  TEXT NOT NULL,
    name                 TEXT NOT NULL DEFAULT '',
    interval_seconds     INTEGER NOT NULL CHECK (interval_seconds > 0),
    created_at           DATETIME NOT NULL,
    next_check_at        DATETIME NOT NULL,
    last_checked_at      DATETIME,
    last_changed_at      DATETIME,
    last_error           TEXT NOT NULL DEFAULT '',
    consecutive_failures INTEGER NOT NULL DEFAULT 0,
    content_hash         TEXT NOT NULL,
    -- when the current version was last seen; copied to its monitor_versions
    -- row when the version changes, so an unchanged check writes one row
    content_seen_at      DATETIME NOT NULL,
    etag                 TEXT NOT NULL DEFAULT '',
    last_modified        TEXT NOT NULL DEFAULT '',
    -- the latest version's raw page, gzip-compressed, for re-extraction
    raw_gz               BLOB NOT NULL,
    raw_type             TEXT NOT NULL DEFAULT '',
    raw_url              TEXT NOT NULL DEFAULT '',
    lease_owner          TEXT,
    lease_until          DATETIME,
    deleted_at           DATETIME
);
-- The scheduler's claim walks this index in due order.
CREATE INDEX monitors_due ON monitors (next_check_at) WHERE deleted_at IS NULL;
CREATE INDEX monitors_account ON monitors (account_id, created_at DESC) WHERE deleted_at IS NULL;

-- Each distinct extracted text of a monitor, once (by content hash).
CREATE TABLE monitor_versions (
    monitor_id        TEXT NOT NULL REFERENCES monitors (id),
    content_hash      TEXT NOT NULL,
    extractor_version TEXT NOT NULL,
    text_gz           BLOB NOT NULL,
    word_count        INTEGER NOT NULL,
    first_seen_at     DATETIME NOT NULL,
    last_seen_at      DATETIME NOT NULL,
    PRIMARY KEY (monitor_id, content_hash)
);
CREATE INDEX monitor_versions_first_seen ON monitor_versions (monitor_id, first_seen_at DESC, content_hash DESC);

CREATE TABLE alerts (
    id               TEXT PRIMARY KEY,
    account_id       TEXT NOT NULL REFERENCES accounts (id),
    monitor_id       TEXT NOT NULL REFERENCES monitors (id),
    url              TEXT NOT NULL,
    detected_at      DATETIME NOT NULL,
    read             BOOLEAN NOT NULL DEFAULT false,
    summary          TEXT NOT NULL,
    diff             TEXT NOT NULL,
    added            INTEGER NOT NULL,
    removed          INTEGER NOT NULL,
    findings_added   TEXT NOT NULL,
    findings_removed TEXT NOT NULL
);
CREATE INDEX alerts_account_detected ON alerts (account_id, detected_at DESC, id DESC);
