// Package dbtest gives tests real databases: a fresh migrated SQLite file
// per test, and one fresh migrated PostgreSQL database per test package.
//
// PostgreSQL is found at TEST_DATABASE_URL, else at 127.0.0.1:5432 (user
// postgres). Without one, PostgreSQL tests fail: they never skip silently.
package dbtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/jmoiron/sqlx"
	_ "github.com/lib/pq"

	"github.com/clausewatch/clausewatch/db"
)

// Dialect names one of the two databases under test.
type Dialect string

const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
)

// Dialects are both databases, for table tests that must pass on each.
var Dialects = []Dialect{SQLite, Postgres}

var pg struct {
	once  sync.Once
	admin string // URL of the server's maintenance database
	name  string // this package's database
	url   string
	err   error
}

// AdminURL is where the PostgreSQL server for tests is.
func AdminURL() string {
	if u := os.Getenv("TEST_DATABASE_URL"); u != "" {
		return u
	}
	return "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
}

// PostgresURL returns the URL of this package's fresh, migrated PostgreSQL
// database, creating it on first use. Call Main from TestMain to drop it.
func PostgresURL(t testing.TB) string {
	t.Helper()
	pg.once.Do(func() {
		pg.admin = AdminURL()
		var b [6]byte
		_, _ = rand.Read(b[:])
		pg.name = "cw_test_" + hex.EncodeToString(b[:])
		admin, err := sqlx.Open("postgres", pg.admin)
		if err != nil {
			pg.err = err
			return
		}
		defer admin.Close()
		if _, err := admin.Exec(`CREATE DATABASE ` + pg.name); err != nil {
			pg.err = err
			return
		}
		u, err := url.Parse(pg.admin)
		if err != nil {
			pg.err = err
			return
		}
		u.Path = "/" + pg.name
		pg.url = u.String()
		s, err := db.Open(context.Background(), pg.url)
		if err != nil {
			pg.err = err
			return
		}
		defer s.Close()
		pg.err = s.Migrate(context.Background())
	})
	if pg.err != nil {
		t.Fatalf("PostgreSQL tests need a server (TEST_DATABASE_URL or 127.0.0.1:5432; `make test` finds or starts one): %v", pg.err)
	}
	return pg.url
}

// Open returns a migrated store of the dialect, closed at the test's end.
// SQLite stores are fresh per call; PostgreSQL stores share the package's
// database, so tests make their own accounts and never assume an empty table.
func Open(t testing.TB, d Dialect) *db.Store {
	t.Helper()
	ctx := context.Background()
	var u string
	switch d {
	case SQLite:
		u = "sqlite:" + filepath.Join(t.TempDir(), "test.db")
	case Postgres:
		u = PostgresURL(t)
	default:
		t.Fatalf("unknown dialect %q", d)
	}
	s, err := db.Open(ctx, u)
	if err != nil {
		t.Fatalf("open %s: %v", d, err)
	}
	t.Cleanup(func() { s.Close() })
	if d == SQLite {
		if err := s.Migrate(ctx); err != nil {
			t.Fatalf("migrate sqlite: %v", err)
		}
	}
	return s
}

// Main runs the package's tests and drops its PostgreSQL database after.
func Main(m *testing.M) int {
	code := m.Run()
	if pg.name != "" {
		if admin, err := sqlx.Open("postgres", pg.admin); err == nil {
			if _, err := admin.Exec(`DROP DATABASE IF EXISTS ` + pg.name + ` WITH (FORCE)`); err != nil {
				fmt.Fprintln(os.Stderr, "dbtest: drop database:", err)
			}
			admin.Close()
		}
	}
	return code
}
