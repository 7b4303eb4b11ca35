package db

import (
	"context"

	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/monitor"
)

// The per-host schedule (monitor.HostTurn). Taking a turn is one conditional
// UPDATE: it moves the host's next turn forward only WHERE that turn has
// come, so of any number of processes asking at once exactly one is
// answered with a row; the row lock (PostgreSQL) or the single writer
// (SQLite) makes the check and the move one step. Times are Unix
// milliseconds, so the arithmetic is the same in both dialects.
const (
	takeHostTurnSQL = `UPDATE host_schedule SET next_ms = ? + CASE WHEN delay_ms > ? THEN delay_ms ELSE ? END
WHERE host = ? AND next_ms <= ? RETURNING errors`
	hostNextSQL   = `SELECT next_ms FROM host_schedule WHERE host = ?`
	insertHostSQL = `INSERT INTO host_schedule (host, next_ms) VALUES (?, 0) ON CONFLICT (host) DO NOTHING`
	// The next turn only ever moves later: a Retry-After or a slow answer
	// pushes it, and a quick answer never brings forward a turn another
	// process has already set.
	recordHostSQL = `UPDATE host_schedule SET delay_ms = ?, errors = ?,
  next_ms = CASE WHEN next_ms > ? THEN next_ms ELSE ? END WHERE host = ?`
	pruneHostsSQL = `DELETE FROM host_schedule WHERE next_ms < ?`
)

// TakeHostTurn implements app.Store.
func (s *Store) TakeHostTurn(ctx context.Context, host string, nowMs, floorMs int64) (monitor.HostTurn, bool, error) {
	for range 2 {
		var errs int
		err := s.get(ctx, &errs, takeHostTurnSQL, nowMs, floorMs, floorMs, host, nowMs)
		if err == nil {
			return monitor.HostTurn{Errors: errs}, true, nil
		}
		if app.ErrorCode(err) != app.CodeNotFound {
			return monitor.HostTurn{}, false, err
		}
		var next int64
		err = s.get(ctx, &next, hostNextSQL, host)
		if err == nil {
			if next > nowMs {
				return monitor.HostTurn{NextMs: next}, false, nil
			}
			continue // its turn came in between: take it
		}
		if app.ErrorCode(err) != app.CodeNotFound {
			return monitor.HostTurn{}, false, err
		}
		if _, err := s.exec(ctx, insertHostSQL, host); err != nil {
			return monitor.HostTurn{}, false, err
		}
	}
	// Taken by another process twice in a row: it is the next one's turn.
	var next int64
	if err := s.get(ctx, &next, hostNextSQL, host); err != nil {
		return monitor.HostTurn{}, false, err
	}
	return monitor.HostTurn{NextMs: max(next, nowMs+1)}, false, nil
}

// RecordHostFetch implements app.Store.
func (s *Store) RecordHostFetch(ctx context.Context, host string, delayMs int64, errors int, notBeforeMs int64) error {
	_, err := s.exec(ctx, recordHostSQL, delayMs, errors, notBeforeMs, notBeforeMs, host)
	return err
}

// PruneHosts implements app.Store.
func (s *Store) PruneHosts(ctx context.Context, beforeMs int64) (int64, error) {
	return affected(s.exec(ctx, pruneHostsSQL, beforeMs))
}
