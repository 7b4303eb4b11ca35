package app

import (
	"database/sql/driver"
	"fmt"
	"strings"
)

// Scopes is a key's scope list; stored as one comma-separated column so the
// same SQL serves PostgreSQL and SQLite.
type Scopes []string

// Value implements driver.Valuer.
func (s Scopes) Value() (driver.Value, error) { return strings.Join(s, ","), nil }

// Scan implements sql.Scanner.
func (s *Scopes) Scan(src any) error {
	var v string
	switch t := src.(type) {
	case string:
		v = t
	case []byte:
		v = string(t)
	case nil:
	default:
		return fmt.Errorf("scopes: cannot scan %T", src)
	}
	*s = Scopes{}
	if v != "" {
		*s = strings.Split(v, ",")
	}
	return nil
}
