package app

import (
	"errors"
	"fmt"

	"github.com/clausewatch/clausewatch/internal/excerpt"
)

// Code classifies an error for the transports: each maps a Code to its own
// status (REST) or extensions.code (GraphQL) in one table.
type Code string

const (
	CodeInvalid         Code = "invalid"
	CodeUnauthenticated Code = "unauthenticated"
	CodeForbidden       Code = "forbidden"
	CodeNotFound        Code = "not_found"
	CodeConflict        Code = "conflict"
	CodeRateLimited     Code = "rate_limited"
	CodeUnreadable      Code = "unreadable" // a fetched or given document we cannot read
	CodeUpstream        Code = "upstream"   // the document's server failed or is unreachable
	CodeTimeout         Code = "timeout"    // the document's server did not answer in time
	CodeUnavailable     Code = "unavailable"
	CodeBusy            Code = "busy"                 // every place for the work is taken; retry in a moment
	CodeTooLarge        Code = "too_large"            // a request body over the limit
	CodeUnsupportedType Code = "unsupported_type"     // a request body that is not JSON
	CodeRetryLater      Code = "retry_later"          // expected now, applicable later (an event before the one it needs); the caller's retry will do
	CodeNotLegal        Code = "not_a_legal_document" // a text with no sentence read as a clause: no grade
	CodeInternal        Code = "internal"
)

// FieldError names one invalid input field.
type FieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// Error is the one error type the service returns. Message is safe to show
// to the caller; Err is the cause, for logs only. Data holds extra members of
// the error body the contract fixes (requiredScope, scansRemaining, ...).
type Error struct {
	Code    Code
	Message string
	Fields  []FieldError
	Data    map[string]any
	Err     error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf builds an Error with a formatted, caller-safe message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Internal wraps a cause that must not be shown to the caller.
func Internal(err error) *Error {
	return &Error{Code: CodeInternal, Message: "internal error", Err: err}
}

// ErrorCode returns the Code of err, CodeInternal for foreign errors.
func ErrorCode(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return CodeInternal
}

// AsError returns err as an *Error, wrapping foreign errors as internal.
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return Internal(err)
}

// Unauthenticated is the one answer for a missing, malformed, unknown or
// revoked credential: it never says which.
var errUnauthenticated = &Error{Code: CodeUnauthenticated, Message: "missing or invalid credentials"}

// ErrUnauthenticated returns the shared unauthenticated error.
func ErrUnauthenticated() *Error { return errUnauthenticated }

// MaxEchoed is the most of one name or value a caller sent (a field, a
// key, a quoted token) that an error message echoes, in characters: what a
// caller sends may be megabytes long.
const MaxEchoed = 64

// Echo is s as an error message quotes it: its first MaxEchoed characters.
func Echo(s string) string { return excerpt.Cut(s, MaxEchoed) }
