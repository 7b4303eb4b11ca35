-- +goose Up
-- A monitor watches one public URL for an account. Deleting one sets
-- deleted_at: it is never fetched again, and its alerts stay readable.
-- lease_owner/lease_until are the scheduler's claim (see db/monitor.go).
CREATE TABLE monitors (
    id                   uuid PRIMARY KEY,
    account_id           uuid NOT NULL REFERENCES accounts (id),
    url                  text NOT NULL,
    name                 text NOT NULL DEFAULT '',
    interval_seconds     integer NOT NULL CHECK (interval_seconds > 0),
    created_at           timestamptz NOT NULL,
    next_check_at        timestamptz NOT NULL,
    last_checked_at      timestamptz,
    last_changed_at      timestamptz,
    last_error           text NOT NULL DEFAULT '',
    consecutive_failures integer NOT NULL DEFAULT 0,
    content_hash         text NOT NULL,
    -- when the current version was last seen; copied to its monitor_versions
    -- row when the version changes, so an unchanged check writes one row
    content_seen_at      timestamptz NOT NULL,
    etag                 text NOT NULL DEFAULT '',
    last_modified        text NOT NULL DEFAULT '',
    -- the latest version's raw page, gzip-compressed, for re-extraction
    raw_gz               bytea NOT NULL,
    raw_type             text NOT NULL DEFAULT '',
    raw_url              text NOT NULL DEFAULT '',
    lease_owner          uuid,
    lease_until          timestamptz,
    deleted_at           timestamptz
);
-- The scheduler's claim walks this index in due order.
CREATE INDEX monitors_due ON monitors (next_check_at) WHERE deleted_at IS NULL;
CREATE INDEX monitors_account ON monitors (account_id, created_at DESC) WHERE deleted_at IS NULL;

-- Each distinct extracted text of a monitor, once (by content hash).
CREATE TABLE monitor_versions (
    monitor_id        uuid NOT NULL REFERENCES monitors (id),
    content_hash      text NOT NULL,
    extractor_version text NOT NULL,
    text_gz           bytea NOT NULL,
    word_count        integer NOT NULL,
    first_seen_at     timestamptz NOT NULL,
    last_seen_at      timestamptz NOT NULL,
    PRIMARY KEY (monitor_id, content_hash)
);
CREATE INDEX monitor_versions_first_seen ON monitor_versions (monitor_id, first_seen_at DESC, content_hash DESC);

CREATE TABLE alerts (
    id               uuid PRIMARY KEY,
    account_id       uuid NOT NULL REFERENCES accounts (id),
    monitor_id       uuid NOT NULL REFERENCES monitors (id),
    url              text NOT NULL,
    detected_at      timestamptz NOT NULL,
    read             boolean NOT NULL DEFAULT false,
    summary          text NOT NULL,
    diff             text NOT NULL,
    added            integer NOT NULL,
    removed          integer NOT NULL,
    findings_added   text NOT NULL,
    findings_removed text NOT NULL
);
CREATE INDEX alerts_account_detected ON alerts (account_id, detected_at DESC, id DESC);
