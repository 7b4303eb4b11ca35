package rest

import (
	"encoding/json"
	"time"
)

// timeFormat is the contract's timestamp: ISO 8601, UTC, milliseconds.
const timeFormat = "2006-01-02T15:04:05.000Z"

// Time is a domain time.Time as the REST contract writes it; response
// structs use it for every timestamp, so the format lives here alone.
type Time time.Time

// MarshalJSON implements json.Marshaler.
func (t Time) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Time(t).UTC().Format(timeFormat))
}

// timePtr maps an optional domain time; nil stays null.
func timePtr(t *time.Time) *Time {
	if t == nil {
		return nil
	}
	v := Time(*t)
	return &v
}

// mapAll maps a list of domain values to their response structs; nil stays
// null, as the contract's bodies have always written it.
func mapAll[T, R any](in []T, f func(T) R) []R {
	if in == nil {
		return nil
	}
	out := make([]R, len(in))
	for i, v := range in {
		out[i] = f(v)
	}
	return out
}
