-- +goose Up
-- Alert diffs are kept gzip-compressed in diff_gz; alerts written before
-- have it NULL and their diff, uncompressed, in diff (new rows write '').
ALTER TABLE alerts ADD COLUMN diff_gz BLOB;
-- How many successful checks in a row saw the text change: a page that
-- changes on every check is noted as changing constantly in its alerts.
ALTER TABLE monitors ADD COLUMN consecutive_changes INTEGER NOT NULL DEFAULT 0;
