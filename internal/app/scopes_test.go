package app_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
	"github.com/clausewatch/clausewatch/internal/monitor"
)

// Every scoped operation, the scope interface.md 5.3 gives it, and a call
// that reaches its scope check. Inputs are refused before any fetch or
// charge, so nothing leaves the machine.
var scopedCalls = []struct {
	op    app.Operation
	scope string
	call  func(*apptest.Env, context.Context) error
}{
	{app.OpExtract, "extract", func(e *apptest.Env, ctx context.Context) error {
		_, err := e.Svc.Extract(ctx, app.ExtractInput{URL: "http://127.0.0.1:1/terms"})
		return err
	}},
	{app.OpAnalyze, "analyze", func(e *apptest.Env, ctx context.Context) error {
		_, err := e.Svc.Analyze(ctx, app.AnalyzeInput{URL: "http://127.0.0.1:1/terms"})
		return err
	}},
	{app.OpAnalyzeBatch, "analyze", func(e *apptest.Env, ctx context.Context) error {
		_, err := e.Svc.AnalyzeBatch(ctx, app.BatchInput{})
		return err
	}},
	{app.OpAnalyses, "analyze", func(e *apptest.Env, ctx context.Context) error {
		_, err := e.Svc.FindAnalyses(ctx, app.AnalysisFilter{})
		return err
	}},
	{app.OpAnalyses, "analyze", func(e *apptest.Env, ctx context.Context) error {
		_, err := e.Svc.FindAnalysis(ctx, "nope", app.AllParts)
		return err
	}},
	{app.OpMonitor, "monitor", func(e *apptest.Env, ctx context.Context) error {
		_, err := e.Mon.CreateMonitor(ctx, monitor.MonitorCreate{URL: "http://127.0.0.1:1/terms"})
		return err
	}},
	{app.OpMonitor, "monitor", func(e *apptest.Env, ctx context.Context) error { _, err := e.Mon.FindMonitors(ctx); return err }},
	{app.OpMonitor, "monitor", func(e *apptest.Env, ctx context.Context) error { _, err := e.Mon.FindMonitor(ctx, "nope"); return err }},
	{app.OpMonitor, "monitor", func(e *apptest.Env, ctx context.Context) error { _, err := e.Mon.CheckMonitor(ctx, "nope"); return err }},
	{app.OpMonitor, "monitor", func(e *apptest.Env, ctx context.Context) error { return e.Mon.DeleteMonitor(ctx, "nope") }},
	{app.OpMonitor, "monitor", func(e *apptest.Env, ctx context.Context) error {
		_, err := e.Mon.FindMonitorVersions(ctx, monitor.VersionFilter{MonitorID: "nope"})
		return err
	}},
	{app.OpMonitor, "monitor", func(e *apptest.Env, ctx context.Context) error {
		_, err := e.Mon.FindAlerts(ctx, monitor.AlertFilter{})
		return err
	}},
	{app.OpMonitor, "monitor", func(e *apptest.Env, ctx context.Context) error {
		_, err := e.Mon.UpdateAlerts(ctx, monitor.AlertUpdate{})
		return err
	}},
}

// Operations any credential of the account may use.
var accountCalls = map[string]func(*apptest.Env, context.Context) error{
	"viewer":    func(e *apptest.Env, ctx context.Context) error { _, err := e.Svc.Viewer(ctx); return err },
	"keys":      func(e *apptest.Env, ctx context.Context) error { _, err := e.Svc.FindKeys(ctx, true); return err },
	"usage":     func(e *apptest.Env, ctx context.Context) error { _, err := e.Svc.Usage(ctx, nil); return err },
	"keyLimits": func(e *apptest.Env, ctx context.Context) error { _, err := e.Svc.KeyLimits(ctx); return err },
	"revoke":    func(e *apptest.Env, ctx context.Context) error { _, err := e.Svc.RevokeKey(ctx, "nope"); return err },
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
				err := call(e, e.Ctx(keys[i]))
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
			if c := codeOf(call(e, e.Ctx(tok))); c == app.CodeForbidden || c == app.CodeInternal {
				t.Errorf("%s with a session: %s, want no scope limit", op, c)
			}
			wantCode(t, string(op)+" without a caller", call(e, context.Background()), app.CodeUnauthenticated)
		}
		for name, call := range accountCalls {
			for i, set := range scopeSets {
				if c := codeOf(call(e, e.Ctx(keys[i]))); c == app.CodeForbidden || c == app.CodeInternal {
					t.Errorf("%s with %v: %s, want any key of the account admitted", name, set, c)
				}
			}
			wantCode(t, name+" without a caller", call(e, context.Background()), app.CodeUnauthenticated)
		}
	})
}
