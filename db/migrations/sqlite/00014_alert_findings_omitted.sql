-- +goose Up
-- An alert keeps at most 100 findings in each list (monitor.MaxAlertFindings),
-- most severe first; these count the ones left out. Alerts written before
-- kept every finding and left none out.
ALTER TABLE alerts ADD COLUMN findings_added_omitted INTEGER NOT NULL DEFAULT 0;
ALTER TABLE alerts ADD COLUMN findings_removed_omitted INTEGER NOT NULL DEFAULT 0;
