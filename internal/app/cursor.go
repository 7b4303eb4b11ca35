package app

import (
	"encoding/base64"
	"strings"
	"time"
)

// PageCursor is where a keyset page ends: the last row's time and id. On the
// wire it is base64url("<RFC 3339 time>|<id>"), the same for analyses,
// alerts and monitor versions, so any cursor ever returned keeps working.
type PageCursor struct {
	At time.Time
	ID string
}

// DefaultPageLimit is a page's size when the caller names none.
const DefaultPageLimit = 20

// pageArgs checks a page's limit (1 to 100, default DefaultPageLimit) and
// cursor; idOK says whether the cursor's id is one the listed rows can have.
func pageArgs(limit *int, cursor string, idOK func(string) bool) (int, *PageCursor, error) {
	n := DefaultPageLimit
	if limit != nil {
		n = *limit
	}
	if n < 1 || n > 100 {
		return 0, nil, InvalidLimit()
	}
	if cursor == "" {
		return n, nil, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(cursor)
	ts, id, ok := strings.Cut(string(b), "|")
	at, terr := time.Parse(time.RFC3339Nano, ts)
	if err != nil || !ok || terr != nil || !idOK(id) {
		return 0, nil, &Error{Code: CodeInvalid, Message: "invalid cursor", Fields: []FieldError{{Field: "cursor", Message: "is not a cursor this API returned"}}}
	}
	return n, &PageCursor{At: at, ID: id}, nil
}

// encodeCursor is the cursor of a page ending at the row (at, id).
func encodeCursor(at time.Time, id string) *string {
	c := base64.RawURLEncoding.EncodeToString([]byte(at.UTC().Format(time.RFC3339Nano) + "|" + id))
	return &c
}

// InvalidLimit is the error of a page limit outside 1 to 100 (or not a
// number, where a transport reads it from text).
func InvalidLimit() *Error {
	return &Error{Code: CodeInvalid, Message: "invalid limit", Fields: []FieldError{{Field: "limit", Message: "must be from 1 to 100"}}}
}

// trimPage cuts a list read with limit n+1 to n rows and returns the cursor
// of the next page (nil on the last), keyed by the last row's time and id.
func trimPage[T any](list []T, n int, key func(T) (time.Time, string)) ([]T, *string) {
	if len(list) <= n {
		return list, nil
	}
	at, id := key(list[n-1])
	return list[:n], encodeCursor(at, id)
}
