package view_test

import (
	"net/http"
	"testing"

	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/view"
)

// The one table from app's codes to HTTP statuses, which REST and MCP both
// answer by; a code it does not name is a 500.
func TestStatus(t *testing.T) {
	for code, want := range map[app.Code]int{
		app.CodeInvalid: 400, app.CodeUnauthenticated: 401, app.CodeForbidden: 403, app.CodeNotFound: 404,
		app.CodeConflict: 409, app.CodeTooLarge: 413, app.CodeUnsupportedType: 415, app.CodeUnreadable: 422,
		app.CodeNotLegal: 422, app.CodeRateLimited: 429, app.CodeInternal: 500, app.CodeRetryLater: 500,
		app.CodeUpstream: 502, app.CodeUnavailable: 503, app.CodeBusy: 503, app.CodeTimeout: 504,
		"added_later": http.StatusInternalServerError,
	} {
		if got := view.Status(code); got != want {
			t.Errorf("Status(%s) = %d, want %d", code, got, want)
		}
	}
}

// An error's body: its safe message, its fields as details, the contract's
// fixed members; never its cause.
func TestErrorBody(t *testing.T) {
	e := &app.Error{Code: app.CodeInvalid, Message: "invalid request", Fields: []app.FieldError{{Field: "url", Message: "is required"}},
		Data: map[string]any{"requiredScope": "analyze"}, Err: http.ErrHandlerTimeout}
	body := view.ErrorBody(e)
	if body["error"] != "invalid request" || body["requiredScope"] != "analyze" || len(body["details"].([]app.FieldError)) != 1 || len(body) != 3 {
		t.Errorf("body %v", body)
	}
	if _, ok := view.ErrorBody(&app.Error{Code: app.CodeNotFound, Message: "x"})["details"]; ok {
		t.Error("details without fields")
	}
}
