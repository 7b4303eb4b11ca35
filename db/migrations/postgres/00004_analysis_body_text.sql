-- +goose Up
-- jsonb refuses the \u0000 escape that JSON allows in any string, so an
-- analysis of text holding a NUL could not be stored. The body is only ever
-- read back whole, so plain text serves.
ALTER TABLE analyses ALTER COLUMN body TYPE text USING body::text;
