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

// Operation names a service operation a key needs a scope for.
type Operation string

// The scoped operations (interface.md 5.3).
const (
	OpExtract      Operation = "extract"
	OpAnalyze      Operation = "analyze"
	OpAnalyzeBatch Operation = "analyzeBatch"
	OpAnalyses     Operation = "analyses" // reading stored analyses
	OpMonitor      Operation = "monitor"  // monitors and alerts
)

// operationScopes is the one table of the scope each operation needs. The
// service checks it in the operation; REST's routes check it before reading
// the body, so a key without the scope hears 403 whatever it sent.
var operationScopes = map[Operation]string{
	OpExtract:      ScopeExtract,
	OpAnalyze:      ScopeAnalyze,
	OpAnalyzeBatch: ScopeAnalyze,
	OpAnalyses:     ScopeAnalyze,
	OpMonitor:      ScopeMonitor,
}

// ScopeOf is the scope a key needs for op; "" when any credential of the
// account may use it.
func ScopeOf(op Operation) string { return operationScopes[op] }
