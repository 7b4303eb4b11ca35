-- +goose Up
-- PostgreSQL's analyses.body became text (00004 there); SQLite's already is.
SELECT 1;
