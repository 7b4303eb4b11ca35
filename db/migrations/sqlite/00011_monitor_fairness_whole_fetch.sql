-- +goose Up
-- When a monitor's page was last fetched whole (answered other than 304):
-- a check sends no validators once this is a day old, so a server that
-- keeps answering 304 cannot hide a change for longer. NULL (monitors
-- created before) fetches whole at the next check.
ALTER TABLE monitors ADD COLUMN whole_fetch_at DATETIME;
-- The scheduler's claim counts each account's checks in flight (leased
-- rows, in every process) to prefer the accounts with the fewest; only
-- leased rows are in this index, at most every process's workers.
CREATE INDEX monitors_leased ON monitors (account_id) WHERE lease_owner IS NOT NULL;
