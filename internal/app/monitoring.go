package app

import (
	"context"
	"log/slog"
	"time"

	"github.com/clausewatch/clausewatch/internal/analyze"
	"github.com/clausewatch/clausewatch/internal/fetch"
)

// What the service lends to the operations built on it (internal/monitor):
// the charge, the engines and their bounds, validation and the error and
// page conventions, so that monitoring restates none of them.

// ChargeScan takes one scan from the caller's pools as every operation
// does (the key's daily pool, or the account's then its credits); refund
// gives it back when the work it paid for was not done.
func (s *Service) ChargeScan(ctx context.Context) (refund func(context.Context), err error) {
	c, err := s.chargeScans(ctx, 1, 0)
	if err != nil {
		return nil, err
	}
	return c.refund, nil
}

// InAnalysisPlace runs f, analyses of n bytes of text, in the places
// analyses take, so that work of any origin shares one bound; busy when
// none frees up in time.
func (s *Service) InAnalysisPlace(ctx context.Context, n int, f func()) error {
	return s.inAnalysisPlace(ctx, n, f)
}

// Analyzer is the engine every analysis goes through.
func (s *Service) Analyzer() *analyze.Engine { return s.analyzer }

// ExtractorVersion names the extraction rules documents are read with.
func (s *Service) ExtractorVersion() string { return s.extractor.Version() }

// Fetcher is the SSRF-guarded client public documents are read with.
func (s *Service) Fetcher() *fetch.Client { return s.fetcher }

// Logger is where the service logs.
func (s *Service) Logger() *slog.Logger { return s.log }

// Validate checks v's struct tags: an invalid error naming each bad field
// by its JSON name.
func (s *Service) Validate(v any) error { return s.validate(v) }

// FetchError is the service's error for a failed fetch (its code, its
// message, the failure code it carries).
func FetchError(err error) error { return fetchError(err) }

// ValidID says whether id is an id the service makes (a UUID).
func ValidID(id string) bool { return validID(id) }

// PageArgs checks a page's limit (1 to 100, default DefaultPageLimit) and
// cursor; idOK says whether the cursor's id is one the listed rows can have.
func PageArgs(limit *int, cursor string, idOK func(string) bool) (int, *PageCursor, error) {
	return pageArgs(limit, cursor, idOK)
}

// TrimPage cuts a list read with limit n+1 to n rows and returns the cursor
// of the next page (nil on the last).
func TrimPage[T any](list []T, n int, key func(T) (time.Time, string)) ([]T, *string) {
	return trimPage(list, n, key)
}

// MonitorLimit is how many active monitors tier t may hold.
func MonitorLimit(t Tier) int { return limitsOf(t).monitors }

// MonitorLimitError is the refusal of one more monitor past tier t's limit.
func MonitorLimitError(t Tier, limit, used int) error { return monitorLimitError(t, limit, used) }

// CasesOf is how the service reports the engine's cases.
func CasesOf(in []analyze.Case) []Case { return casesOf(in) }

// Catch runs f and returns its error, or an internal error carrying the
// panic and its stack when f panics, for the caller to log once.
func Catch(f func() error) error { return catch(f) }
