-- +goose Up
-- Why the latest check failed, in one word (internal/fetch's codes, and
-- structure_changed), and which bot protection refused it when the code is
-- blocked. Both are '' while the monitor's checks succeed.
ALTER TABLE monitors ADD COLUMN last_error_code text NOT NULL DEFAULT '';
ALTER TABLE monitors ADD COLUMN blocked_by text NOT NULL DEFAULT '';

-- Politeness shared by every replica: one row per host (host:port), the
-- earliest time (Unix milliseconds) any process may ask it again, taken
-- with one conditional UPDATE (db/host.go). delay_ms is the host's current
-- spacing (grown by its response time, its Crawl-delay and its errors);
-- errors counts its failures in a row.
CREATE TABLE host_schedule (
    host     text PRIMARY KEY,
    next_ms  bigint NOT NULL,
    delay_ms bigint NOT NULL DEFAULT 0,
    errors   integer NOT NULL DEFAULT 0
);
