// Package view holds the JSON shapes clausewatch answers with: one Go type
// per response body, written alike by REST (/api) and by MCP's tools, and
// the one table from app's error codes to HTTP statuses and error bodies.
// It maps app's and monitor's values and knows no transport.
package view

import (
	"encoding/json"
	"time"
)

// timeFormat is the contract's timestamp: ISO 8601, UTC, milliseconds.
const timeFormat = "2006-01-02T15:04:05.000Z"

// Time is a domain time.Time as the contract writes it; response structs
// use it for every timestamp, so the format lives here alone.
type Time time.Time

// MarshalJSON implements json.Marshaler.
func (t Time) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Time(t).UTC().Format(timeFormat))
}

// TimePtr maps an optional domain time; nil stays null.
func TimePtr(t *time.Time) *Time {
	if t == nil {
		return nil
	}
	v := Time(*t)
	return &v
}

// MapAll maps a list of domain values to their response structs; nil stays
// null, as the contract's bodies have always written it.
func MapAll[T, R any](in []T, f func(T) R) []R {
	if in == nil {
		return nil
	}
	out := make([]R, len(in))
	for i, v := range in {
		out[i] = f(v)
	}
	return out
}

// NonEmpty is s, or null for "".
func NonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
