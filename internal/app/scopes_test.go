package app_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/app/apptest"
)

// Every scoped operation, the scope interface.md 5.3 gives it, and a call
// that reaches its scope check. Inputs are refused before any fetch or
// charge, so nothing leaves the machine.
var scopedCalls = []struct {
	op    app.Operation
	scope string
	call  func(*app.Service, context.Context) error
}{
	{app.OpExtract, "extract", func(s *app.Service, ctx context.Context) error {
		_, err := s.Extract(ctx, app.ExtractInput{URL: "http://127.0.0.1:1/terms"})
		return err
	}},
	{app.OpAnalyze, "analyze", func(s *app.Service, ctx context.Context) error {
		_, err := s.Analyze(ctx, app.AnalyzeInput{URL: "http://127.0.0.1:1/terms"})
		return err
	}},
	{app.OpAnalyzeBatch, "analyze", func(s *app.Service, ctx context.Context) error {
		_, err := s.AnalyzeBatch(ctx, app.BatchInput{})
		return err
	}},
	{app.OpAnalyses, "analyze", func(s *app.Service, ctx context.Context) error {
		_, err := s.FindAnalyses(ctx, app.AnalysisFilter{})
		return err
	}},
	{app.OpAnalyses, "analyze", func(s *app.Service, ctx context.Context) error {
		_, err := s.FindAnalysis(ctx, "nope", app.AllParts)
		return err
	}},
	{app.OpMonitor, "monitor", func(s *app.Service, ctx context.Context) error {
		_, err := s.CreateMonitor(ctx, app.MonitorCreate{URL: "http://127.0.0.1:1/terms"})
		return err
	}},
	{app.OpMonitor, "monitor", func(s *app.Service, ctx context.Context) error { _, err := s.FindMonitors(ctx); return err }},
	{app.OpMonitor, "monitor", func(s *app.Service, ctx context.Context) error { _, err := s.FindMonitor(ctx, "nope"); return err }},
	{app.OpMonitor, "monitor", func(s *app.Service, ctx context.Context) error { _, err := s.CheckMonitor(ctx, "nope"); return err }},
	{app.OpMonitor, "monitor", func(s *app.Service, ctx context.Context) error { return s.DeleteMonitor(ctx, "nope") }},
	{app.OpMonitor, "monitor", func(s *app.Service, ctx context.Context) error {
		_, err := s.FindMonitorVersions(ctx, "nope", nil, "")
		return err
	}},
	{app.OpMonitor, "monitor", func(s *app.Service, ctx context.Context) error {
		_, err := s.FindAlerts(ctx, app.AlertFilter{})
		return err
	}},
	{app.OpMonitor, "monitor", func(s *app.Service, ctx context.Context) error {
		_, err := s.UpdateAlerts(ctx, app.AlertUpdate{})
		return err
	}},
}

// Operations any credential of the account may use.
var accountCalls = map[string]func(*app.Service, context.Context) error{
	"viewer":    func(s *app.Service, ctx context.Context) error { _, err := s.Viewer(ctx); return err },
	"keys":      func(s *app.Service, ctx context.Context) error { _, err := s.FindKeys(ctx, true); return err },
	"usage":     func(s *app.Service, ctx context.Context) error { _, err := s.Usage(ctx, nil); return err },
	"keyLimits": func(s *app.Service, ctx context.Context) error { _, err := s.KeyLimits(ctx); return err },
	"revoke":    func(s *app.Service, ctx context.Context) error { _, err := s.RevokeKey(ctx, "nope"); return err },
}

// Each operation against each scope set: a key lacking the operation's scope
// gets the contract's forbidden error, with requiredScope; a key holding it
// and an account session pass the check.
func TestScopes(t *testing.T) {
	scopeSets := [][]string{{"extract"}, {"analyze"}, {"monitor"}, {"extract", "analyze"}, {"extract", "monitor"}, {"analyze", "monitor"}, {"extract", "analyze", "monitor"}}
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e := apptest.New(t, dbtest.Open(t, d))
		tok, acct := e.MustAccount("")
		e.SetTier(acct.ID, app.TierAdvanced) // a key for each set: more than free's 3
		keys := make([]string, len(scopeSets))
		for i, set := range scopeSets {
			keys[i] = e.MustKey(tok, set...).RawKey
		}
		for _, c := range scopedCalls {
			op, scope, call := c.op, c.scope, c.call
			if got := app.ScopeOf(op); got != scope {
				t.Errorf("the table gives %s scope %q, the contract %q", op, got, scope)
			}
			for i, set := range scopeSets {
				err := call(e.Svc, e.Ctx(keys[i]))
				name := string(op) + " with " + strings.Join(set, "+")
				if !slices.Contains(set, scope) {
					wantCode(t, name, err, app.CodeForbidden)
					if e := app.AsError(err); e.Message != "API key missing required scope: "+scope {
						t.Errorf("%s: message %q", name, e.Message)
					}
					wantData(t, name, err, map[string]any{"requiredScope": scope})
				} else if c := codeOf(err); c == app.CodeForbidden || c == app.CodeInternal {
					t.Errorf("%s: %v, want the scope to admit it", name, err)
				}
			}
			if c := codeOf(call(e.Svc, e.Ctx(tok))); c == app.CodeForbidden || c == app.CodeInternal {
				t.Errorf("%s with a session: %s, want no scope limit", op, c)
			}
			wantCode(t, string(op)+" without a caller", call(e.Svc, context.Background()), app.CodeUnauthenticated)
		}
		for name, call := range accountCalls {
			for i, set := range scopeSets {
				if c := codeOf(call(e.Svc, e.Ctx(keys[i]))); c == app.CodeForbidden || c == app.CodeInternal {
					t.Errorf("%s with %v: %s, want any key of the account admitted", name, set, c)
				}
			}
			wantCode(t, name+" without a caller", call(e.Svc, context.Background()), app.CodeUnauthenticated)
		}
	})
}
