package app

// Scopes is a key's scope list, in the contract's order.
type Scopes []string

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
