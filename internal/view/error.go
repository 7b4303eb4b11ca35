package view

import (
	"net/http"

	"github.com/clausewatch/clausewatch/internal/app"
)

// Status is the one table from error code to HTTP status, for REST's
// answers and MCP's; codes added to app later answer 500 until it names
// them.
func Status(c app.Code) int {
	switch c {
	case app.CodeInvalid:
		return http.StatusBadRequest
	case app.CodeUnauthenticated:
		return http.StatusUnauthorized
	case app.CodeForbidden:
		return http.StatusForbidden
	case app.CodeNotFound:
		return http.StatusNotFound
	case app.CodeConflict:
		return http.StatusConflict
	case app.CodeTooLarge:
		return http.StatusRequestEntityTooLarge
	case app.CodeUnsupportedType:
		return http.StatusUnsupportedMediaType
	case app.CodeUnreadable, app.CodeNotLegal:
		return http.StatusUnprocessableEntity
	case app.CodeRateLimited:
		return http.StatusTooManyRequests
	case app.CodeUpstream:
		return http.StatusBadGateway
	case app.CodeUnavailable, app.CodeBusy:
		return http.StatusServiceUnavailable
	case app.CodeTimeout:
		return http.StatusGatewayTimeout
	}
	// app.CodeInternal; app.CodeRetryLater, the contract's webhook failure,
	// which the provider retries; and any code not named above.
	return http.StatusInternalServerError
}

// ErrorBody is an error's body, as REST answers it and as MCP's failed
// tool call carries it (with its code): {"error": message, "details"?:
// [...], ...the contract's fixed members}. Internal causes are never in it.
func ErrorBody(e *app.Error) map[string]any {
	body := map[string]any{}
	for k, v := range e.Data {
		body[k] = v
	}
	body["error"] = e.Message
	if len(e.Fields) > 0 {
		body["details"] = e.Fields
	}
	return body
}
