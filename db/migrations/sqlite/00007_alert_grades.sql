-- +goose Up
-- How an alert's change moved the grade: the grades of the old and the new
-- text, and the ToS;DR cases that appeared or went away (JSON lists). Alerts
-- written before have empty grades and no cases.
ALTER TABLE alerts ADD COLUMN grade_before TEXT NOT NULL DEFAULT '';
ALTER TABLE alerts ADD COLUMN grade_after TEXT NOT NULL DEFAULT '';
ALTER TABLE alerts ADD COLUMN cases_added TEXT NOT NULL DEFAULT '[]';
ALTER TABLE alerts ADD COLUMN cases_removed TEXT NOT NULL DEFAULT '[]';
