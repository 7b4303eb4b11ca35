package app_test

import (
	"os/exec"
	"strings"
	"testing"
)

// The import rule of README's "Structure": the service layer knows no
// transport or SQL, the transports never import the store or each other, and
// the engines never import the service.
func TestImportRule(t *testing.T) {
	const mod = "github.com/clausewatch/clausewatch/"
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, mod+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	forbidden := map[string][]string{
		"internal/app":        {mod + "db", mod + "rest", mod + "graph", mod + "internal/middleware", "net/http", "github.com/jmoiron/sqlx", "github.com/99designs/gqlgen"},
		"rest":                {mod + "db", mod + "graph"},
		"graph":               {mod + "db", mod + "rest"},
		"internal/extract":    {mod + "internal/app"},
		"internal/fetch":      {mod + "internal/app"},
		"internal/analyze":    {mod + "internal/app"},
		"internal/llm":        {mod + "internal/app"},
		"internal/change":     {mod + "internal/app"},
		"internal/session":    {mod + "db", mod + "rest", mod + "graph"},
		"internal/middleware": {mod + "db", mod + "rest", mod + "graph"},
	}
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], mod)
		bad, ok := forbidden[pkg]
		if !ok {
			continue
		}
		seen++
		for _, imp := range fields[1:] {
			for _, b := range bad {
				if imp == b {
					t.Errorf("%s imports %s", pkg, imp)
				}
			}
		}
	}
	if seen != len(forbidden) {
		t.Errorf("checked %d of %d packages: has one moved?", seen, len(forbidden))
	}
}
