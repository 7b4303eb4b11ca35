package db

import "context"

// AnalysisBody is an analysis row's stored body, as its bytes.
func (s *Store) AnalysisBody(ctx context.Context, id string) ([]byte, error) {
	var body string
	err := s.get(ctx, &body, `SELECT body FROM analyses WHERE id = ?`, id)
	return []byte(body), err
}

// SetAnalysisBody overwrites an analysis row's stored body, as an older
// version of the code may have written it.
func (s *Store) SetAnalysisBody(ctx context.Context, id string, body []byte) error {
	_, err := s.exec(ctx, `UPDATE analyses SET body = ? WHERE id = ?`, string(body), id)
	return err
}

// AlertDiff returns an alert row's stored diff columns as they are.
func (s *Store) AlertDiff(ctx context.Context, id string) (diff string, gz []byte, err error) {
	var row struct {
		Diff string `db:"diff"`
		Gz   []byte `db:"diff_gz"`
	}
	err = s.get(ctx, &row, `SELECT diff, diff_gz FROM alerts WHERE id = ?`, id)
	return row.Diff, row.Gz, err
}

// SetAlertDiff stores an alert's diff as rows written before diff_gz were:
// uncompressed, diff_gz NULL.
func (s *Store) SetAlertDiff(ctx context.Context, id, diff string) error {
	_, err := s.exec(ctx, `UPDATE alerts SET diff = ?, diff_gz = NULL WHERE id = ?`, diff, id)
	return err
}
