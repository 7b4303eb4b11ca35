-- +goose Up
-- The analysed text lives beside the body, so pages of analyses do not read
-- whole documents back; only a single analysis loads it. Bytes, because a
-- text column refuses the NUL a submitted text may hold.
ALTER TABLE analyses ADD COLUMN text bytea NOT NULL DEFAULT ''::bytea;
