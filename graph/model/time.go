package model

import (
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/99designs/gqlgen/graphql"
)

// TimeFormat is the contract's timestamp: ISO 8601, UTC, milliseconds.
const TimeFormat = "2006-01-02T15:04:05.000Z"

// MarshalTime writes the Time scalar; it is the one place GraphQL renders a
// domain time.Time (bound in gqlgen.yml).
func MarshalTime(t time.Time) graphql.Marshaler {
	return graphql.WriterFunc(func(w io.Writer) {
		_, _ = io.WriteString(w, strconv.Quote(t.UTC().Format(TimeFormat)))
	})
}

// UnmarshalTime reads a Time argument: any RFC 3339 timestamp.
func UnmarshalTime(v any) (time.Time, error) {
	s, ok := v.(string)
	if !ok {
		return time.Time{}, fmt.Errorf("a Time is an ISO 8601 string")
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("a Time is an ISO 8601 string: %w", err)
	}
	return t.UTC(), nil
}
