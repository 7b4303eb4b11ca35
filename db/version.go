package db

import (
	"context"
	"time"

	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/monitor"
)

const upsertVersionSQL = `INSERT INTO monitor_versions (monitor_id, content_hash, extractor_version, text_gz, word_count, first_seen_at, last_seen_at)
VALUES (?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (monitor_id, content_hash) DO UPDATE SET last_seen_at = excluded.last_seen_at,
  extractor_version = excluded.extractor_version, text_gz = excluded.text_gz, word_count = excluded.word_count`

// The current version's last sighting is on the monitor (content_seen_at).
const findVersionSQL = `SELECT v.monitor_id, v.content_hash, v.extractor_version, v.word_count, v.first_seen_at, v.last_seen_at, v.text_gz,
  m.content_hash AS current_hash, m.content_seen_at
FROM monitor_versions v JOIN monitors m ON m.id = v.monitor_id WHERE v.monitor_id = ? AND v.content_hash = ?`

// versionRow is a monitor version as stored, without its text.
type versionRow struct {
	MonitorID        string    `db:"monitor_id"`
	ContentHash      string    `db:"content_hash"`
	ExtractorVersion string    `db:"extractor_version"`
	WordCount        int       `db:"word_count"`
	FirstSeenAt      time.Time `db:"first_seen_at"`
	LastSeenAt       time.Time `db:"last_seen_at"`
}

func versionFromApp(v *monitor.MonitorVersion) versionRow {
	return versionRow{MonitorID: v.MonitorID, ContentHash: v.ContentHash, ExtractorVersion: v.ExtractorVersion, WordCount: v.WordCount,
		FirstSeenAt: v.FirstSeenAt.UTC(), LastSeenAt: v.LastSeenAt.UTC()}
}

func (r *versionRow) toApp(text string) monitor.MonitorVersion {
	return monitor.MonitorVersion{MonitorID: r.MonitorID, ContentHash: r.ContentHash, ExtractorVersion: r.ExtractorVersion, WordCount: r.WordCount,
		FirstSeenAt: r.FirstSeenAt.UTC(), LastSeenAt: r.LastSeenAt.UTC(), Text: text}
}

// FindVersion implements app.Store.
func (s *Store) FindVersion(ctx context.Context, monitorID, contentHash string) (*monitor.MonitorVersion, error) {
	var row struct {
		versionRow
		TextGz      []byte    `db:"text_gz"`
		CurrentHash string    `db:"current_hash"`
		SeenAt      time.Time `db:"content_seen_at"`
	}
	if err := s.get(ctx, &row, findVersionSQL, monitorID, contentHash); err != nil {
		return nil, err
	}
	if row.ContentHash == row.CurrentHash {
		row.LastSeenAt = row.SeenAt
	}
	text, err := decompress(row.TextGz)
	if err != nil {
		return nil, err
	}
	out := row.toApp(string(text))
	return &out, nil
}

// upsertVersion records a version whose text is textGz, compressed.
func (s *Store) upsertVersion(ctx context.Context, v *monitor.MonitorVersion, textGz []byte) error {
	r := versionFromApp(v)
	_, err := s.exec(ctx, upsertVersionSQL, r.MonitorID, r.ContentHash, r.ExtractorVersion, textGz, r.WordCount, r.FirstSeenAt, r.LastSeenAt)
	return err
}

// The current version's last sighting is on the monitor (content_seen_at).
const findVersionsSQL = `SELECT v.monitor_id, v.content_hash, v.extractor_version, v.word_count, v.first_seen_at, v.last_seen_at,
  m.content_hash AS current_hash, m.content_seen_at
FROM monitor_versions v JOIN monitors m ON m.id = v.monitor_id WHERE v.monitor_id = ?`

// FindVersions implements app.Store.
func (s *Store) FindVersions(ctx context.Context, monitorID string, after *app.PageCursor, limit int) ([]monitor.MonitorVersion, error) {
	q, args := findVersionsSQL, []any{monitorID}
	if after != nil {
		at := after.At.UTC()
		q += ` AND (v.first_seen_at < ? OR (v.first_seen_at = ? AND v.content_hash < ?))`
		args = append(args, at, at, after.ID)
	}
	var rows []struct {
		versionRow
		CurrentHash string    `db:"current_hash"`
		SeenAt      time.Time `db:"content_seen_at"`
	}
	if err := s.selectAll(ctx, &rows, q+` ORDER BY v.first_seen_at DESC, v.content_hash DESC LIMIT ?`, append(args, limit)...); err != nil {
		return nil, err
	}
	out := make([]monitor.MonitorVersion, len(rows))
	for i, r := range rows {
		if r.ContentHash == r.CurrentHash {
			r.LastSeenAt = r.SeenAt
		}
		out[i] = r.toApp("")
	}
	return out, nil
}
