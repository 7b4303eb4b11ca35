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
