package db

import (
	"context"
	"encoding/json"

	"github.com/clausewatch/clausewatch/internal/app"
)

const createAnalysisSQL = `INSERT INTO analyses (id, account_id, key_id, url, content_hash, grade, score, body, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`

// CreateAnalysis implements app.Store. The whole analysis is kept as JSON;
// the columns beside it are what lists and monitors query.
func (s *Store) CreateAnalysis(ctx context.Context, accountID string, keyID *string, a *app.Analysis) error {
	body, err := json.Marshal(a)
	if err != nil {
		return app.Internal(err)
	}
	_, err = s.exec(ctx, createAnalysisSQL, a.ID, accountID, keyID, a.Source.URL, a.Source.ContentHash, a.Grade, a.Score, string(body), a.CreatedAt.UTC())
	return err
}

const findAnalysisSQL = `SELECT body FROM analyses WHERE id = ? AND account_id = ?`

// FindAnalysis implements app.Store.
func (s *Store) FindAnalysis(ctx context.Context, accountID, id string) (*app.Analysis, error) {
	var body string
	if err := s.get(ctx, &body, findAnalysisSQL, id, accountID); err != nil {
		if app.ErrorCode(err) == app.CodeNotFound {
			return nil, app.Errorf(app.CodeNotFound, "analysis not found")
		}
		return nil, err
	}
	var a app.Analysis
	if err := json.Unmarshal([]byte(body), &a); err != nil {
		return nil, app.Internal(err)
	}
	return &a, nil
}

const findAnalysesSQL = `SELECT body FROM analyses WHERE account_id = ? ORDER BY created_at DESC, id DESC LIMIT ?`

// Keyset paging: rows strictly after the cursor's (created_at, id).
const findAnalysesAfterSQL = `SELECT body FROM analyses WHERE account_id = ?
  AND (created_at < ? OR (created_at = ? AND id < ?))
ORDER BY created_at DESC, id DESC LIMIT ?`

// FindAnalyses implements app.Store.
func (s *Store) FindAnalyses(ctx context.Context, accountID string, after *app.AnalysisCursor, limit int) ([]app.Analysis, error) {
	var bodies []string
	var err error
	if after == nil {
		err = s.selectAll(ctx, &bodies, findAnalysesSQL, accountID, limit)
	} else {
		at := after.CreatedAt.UTC()
		err = s.selectAll(ctx, &bodies, findAnalysesAfterSQL, accountID, at, at, after.ID, limit)
	}
	if err != nil {
		return nil, err
	}
	out := make([]app.Analysis, len(bodies))
	for i, b := range bodies {
		if err := json.Unmarshal([]byte(b), &out[i]); err != nil {
			return nil, app.Internal(err)
		}
	}
	return out, nil
}
