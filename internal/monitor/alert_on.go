package monitor

import (
	"slices"

	"github.com/clausewatch/clausewatch/internal/app"
)

// What a monitor alerts on (Monitor.AlertOn).
const (
	// AlertOnAny raises an alert on any change of the text (the default).
	AlertOnAny = "any"
	// AlertOnRisk raises one only when a bad or blocker finding is added
	// or removed, or the grade moves.
	AlertOnRisk = "risk"
)

// alertOn checks a requested alertOn: nil is the default, any.
func alertOn(v *string) (string, error) {
	if v == nil {
		return AlertOnAny, nil
	}
	if *v != AlertOnAny && *v != AlertOnRisk {
		return "", &app.Error{Code: app.CodeInvalid, Message: "invalid request", Fields: []app.FieldError{{Field: "alertOn", Message: "must be any or risk"}}}
	}
	return *v, nil
}

// Wants reports whether m raises the alert a describes. A change m does not
// want is still recorded as the current version, so the next alert
// compares with what the page says now.
func (m *Monitor) Wants(a *Alert) bool {
	if m.AlertOn != AlertOnRisk {
		return true
	}
	return a.GradeBefore != a.GradeAfter || risky(a.FindingsAdded) || risky(a.FindingsRemoved)
}

// risky reports whether fs holds a bad or blocker finding.
func risky(fs []AlertFinding) bool {
	return slices.ContainsFunc(fs, func(f AlertFinding) bool { return f.Severity == "bad" || f.Severity == "blocker" })
}
