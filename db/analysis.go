package db

import (
	"context"
	"encoding/json"

	"github.com/clausewatch/clausewatch/internal/app"
)

const createAnalysisSQL = `INSERT INTO analyses (id, account_id, key_id, url, content_hash, grade, score, body, text, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

// CreateAnalysis implements app.Store. The analysis is kept as JSON, its
// text apart (lists leave it out); the columns beside them are what lists
// and monitors query.
func (s *Store) CreateAnalysis(ctx context.Context, accountID string, keyID *string, a *app.Analysis) error {
	withoutText := *a
	withoutText.Text = ""
	body, err := json.Marshal(&withoutText)
	if err != nil {
		return app.Internal(err)
	}
	_, err = s.exec(ctx, createAnalysisSQL, a.ID, accountID, keyID, a.Source.URL, a.Source.ContentHash, a.Grade, a.Score, string(body), []byte(a.Text), a.CreatedAt.UTC())
	return err
}

const findAnalysisSQL = `SELECT body, text FROM analyses WHERE id = ? AND account_id = ?`

// FindAnalysis implements app.Store.
func (s *Store) FindAnalysis(ctx context.Context, accountID, id string) (*app.Analysis, error) {
	var row analysisRow
	if err := s.get(ctx, &row, findAnalysisSQL, id, accountID); err != nil {
		if app.ErrorCode(err) == app.CodeNotFound {
			return nil, app.Errorf(app.CodeNotFound, "analysis not found")
		}
		return nil, err
	}
	var a app.Analysis
	if err := json.Unmarshal([]byte(row.Body), &a); err != nil {
		return nil, app.Internal(err)
	}
	a.Text = string(row.Text)
	return &a, nil
}

// A page of analyses, optionally with their texts, optionally after a
// keyset cursor: rows strictly after the cursor's (created_at, id).
var (
	findAnalysesSQL              = analysesPageSQL("NULL", "")
	findAnalysesWithTextSQL      = analysesPageSQL("text", "")
	findAnalysesAfterSQL         = analysesPageSQL("NULL", afterCursor)
	findAnalysesWithTextAfterSQL = analysesPageSQL("text", afterCursor)
)

const afterCursor = ` AND (created_at < ? OR (created_at = ? AND id < ?))`

func analysesPageSQL(text, after string) string {
	return `SELECT body, ` + text + ` AS text FROM analyses WHERE account_id = ?` + after + ` ORDER BY created_at DESC, id DESC LIMIT ?`
}

type analysisRow struct {
	Body string `db:"body"`
	Text []byte `db:"text"`
}

// FindAnalyses implements app.Store.
func (s *Store) FindAnalyses(ctx context.Context, accountID string, after *app.AnalysisCursor, limit int, withText bool) ([]app.Analysis, error) {
	var rows []analysisRow
	var err error
	if after == nil {
		q := findAnalysesSQL
		if withText {
			q = findAnalysesWithTextSQL
		}
		err = s.selectAll(ctx, &rows, q, accountID, limit)
	} else {
		q := findAnalysesAfterSQL
		if withText {
			q = findAnalysesWithTextAfterSQL
		}
		at := after.CreatedAt.UTC()
		err = s.selectAll(ctx, &rows, q, accountID, at, at, after.ID, limit)
	}
	if err != nil {
		return nil, err
	}
	out := make([]app.Analysis, len(rows))
	for i, r := range rows {
		if err := json.Unmarshal([]byte(r.Body), &out[i]); err != nil {
			return nil, app.Internal(err)
		}
		out[i].Text = string(r.Text)
	}
	return out, nil
}
