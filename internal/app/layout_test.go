package app_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// The import rule of README's "Structure": the service layer knows no
// transport or SQL, the transports never import the store or each other, and
// the engines never import the service. The portal (web) is a third face
// that sees only app.
func TestImportRule(t *testing.T) {
	const mod = "github.com/clausewatch/clausewatch/"
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, mod+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	forbidden := map[string][]string{
		"internal/app":     {mod + "db", mod + "rest", mod + "graph", mod + "internal/middleware", mod + "internal/monitor", "net/http", "database/sql", "database/sql/driver", "github.com/jmoiron/sqlx", "github.com/99designs/gqlgen"},
		"internal/monitor": {mod + "db", mod + "rest", mod + "graph", mod + "mcp", mod + "web", mod + "internal/middleware", "net/http", "database/sql", "database/sql/driver", "github.com/jmoiron/sqlx", "github.com/99designs/gqlgen"},
		"rest":             {mod + "db", mod + "graph", mod + "web", mod + "mcp"},
		"graph":            {mod + "db", mod + "rest", mod + "web", mod + "mcp"},
		"mcp":              {mod + "db", mod + "rest", mod + "graph", mod + "web"},
		// view: the response shapes REST and MCP share, so that mcp need not import rest.
		"internal/view":       {mod + "db", mod + "rest", mod + "graph", mod + "mcp", mod + "web", mod + "internal/middleware", "database/sql", "github.com/jmoiron/sqlx", "github.com/99designs/gqlgen"},
		"web":                 {mod + "db", mod + "rest", mod + "graph", mod + "internal/middleware", mod + "internal/session"},
		"internal/extract":    {mod + "internal/app"},
		"internal/fetch":      {mod + "internal/app"},
		"internal/analyze":    {mod + "internal/app", mod + "internal/analyze/train", mod + "internal/analyze/corpus", "os"},
		"internal/billing":    {mod + "db", mod + "rest", mod + "graph", mod + "mcp", mod + "web", mod + "internal/monitor", "net/http", "database/sql"},
		"internal/llm":        {mod + "internal/app"},
		"internal/excerpt":    {mod + "internal/app"},
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

// The server carries no training code and no reader of the data files:
// they serve only the tools that build and score the models.
func TestServerCarriesNoTraining(t *testing.T) {
	const mod = "github.com/clausewatch/clausewatch/"
	out, err := exec.Command("go", "list", "-deps", mod+"cmd/clausewatch").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if pkg == mod+"internal/analyze/train" || pkg == mod+"internal/analyze/corpus" {
			t.Errorf("cmd/clausewatch depends on %s", pkg)
		}
	}
}

// The import rule of app and of the rooms built on it (monitor, billing):
// the pure engines, the standard library and named libraries, and for those
// rooms app itself, nothing else.
func TestAppImportsWhatREADMESays(t *testing.T) {
	const mod = "github.com/clausewatch/clausewatch/"
	engines := []string{
		mod + "internal/extract", mod + "internal/fetch", mod + "internal/analyze", mod + "internal/change", mod + "internal/llm", mod + "internal/excerpt",
		"github.com/google/uuid",
	}
	allowed := map[string][]string{
		"internal/app":     append(slices.Clone(engines), "github.com/go-playground/validator/v10", "golang.org/x/sync/semaphore"),
		"internal/monitor": append(slices.Clone(engines), mod+"internal/app"),
		"internal/billing": {mod + "internal/app", "github.com/stripe/stripe-go/v76", "github.com/stripe/stripe-go/v76/webhook"},
	}
	for pkg, allowed := range allowed {
		out, err := exec.Command("go", "list", "-f", `{{join .Imports " "}}`, mod+pkg).Output()
		if err != nil {
			t.Fatalf("go list: %v", err)
		}
		for _, imp := range strings.Fields(string(out)) {
			first, _, _ := strings.Cut(imp, "/")
			if strings.Contains(first, ".") && !slices.Contains(allowed, imp) {
				t.Errorf("%s imports %s: keep it out, or name it in the import rule (docs/architecture.md) and here", pkg, imp)
			}
		}
	}
}

// Stored shapes belong to db: its row types carry the column names, so no
// type of the service layer or of monitoring (tests aside) has a db tag.
func TestAppTypesCarryNoStorageTags(t *testing.T) {
	app, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	monitor, err := filepath.Glob("../monitor/*.go")
	if err != nil {
		t.Fatal(err)
	}
	files := append(app, monitor...)
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			field, ok := n.(*ast.Field)
			if !ok || field.Tag == nil {
				return true
			}
			tag := reflect.StructTag(strings.Trim(field.Tag.Value, "`"))
			if _, ok := tag.Lookup("db"); ok {
				t.Errorf("%s: a db tag in the service layer; the row type in db owns the column", fset.Position(field.Pos()))
			}
			return true
		})
	}
}
