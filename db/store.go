// Package db implements app.Store with sqlx, for PostgreSQL (lib/pq) and
// SQLite (modernc.org/sqlite). One implementation serves both: SQL is written
// with ? placeholders and rebound per dialect, and uses what both dialects
// share (ON CONFLICT ... DO UPDATE, RETURNING); the one exception is the
// claim of due monitors, which locks with FOR UPDATE SKIP LOCKED on PostgreSQL.
package db

import (
	"bytes"
	"compress/gzip"
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	neturl "net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/clausewatch/clausewatch/internal/app"
)

//go:embed migrations
var migrations embed.FS

// Store is the sqlx-backed app.Store. A Store made by InTx runs every
// method inside that transaction.
type Store struct {
	stmts    *sync.Map // query -> *sqlx.Stmt, shared by every Store of one pool
	db       *sqlx.DB
	q        sqlx.ExtContext // db, or the transaction
	postgres bool
}

var _ app.Store = (*Store)(nil)

// Open connects to DATABASE_URL: postgres://... or sqlite:PATH.
func Open(ctx context.Context, url string) (*Store, error) {
	var (
		x   *sqlx.DB
		err error
	)
	if path, ok := strings.CutPrefix(url, "sqlite:"); ok {
		if dir := filepath.Dir(path); dir != "." {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return nil, fmt.Errorf("create database directory: %w", err)
			}
		}
		// Immediate transactions take the write lock up front, so concurrent
		// writers queue on busy_timeout instead of failing on upgrade.
		dsn := "file:" + path + "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)&_txlock=immediate"
		x, err = sqlx.Open("sqlite", dsn)
		if err == nil {
			// One connection: SQLite has one writer anyway, and this keeps
			// in-process callers from ever seeing SQLITE_BUSY.
			x.SetMaxOpenConns(1)
		}
	} else {
		x, err = sqlx.Open("postgres", withBinaryParameters(url))
		if err == nil {
			x.SetMaxOpenConns(32)
			x.SetMaxIdleConns(32)
			x.SetConnMaxIdleTime(5 * time.Minute)
		}
	}
	if err != nil {
		return nil, err
	}
	if err := x.PingContext(ctx); err != nil {
		x.Close()
		return nil, fmt.Errorf("connect to database: %w", err)
	}
	return &Store{stmts: &sync.Map{}, db: x, q: x, postgres: x.DriverName() == "postgres"}, nil
}

// withBinaryParameters turns on lib/pq's binary_parameters: a query with
// arguments then costs one round trip instead of two (no separate prepare).
func withBinaryParameters(dsn string) string {
	u, err := neturl.Parse(dsn)
	if err != nil {
		return dsn // Open reports the bad URL
	}
	q := u.Query()
	if q.Get("binary_parameters") == "" {
		q.Set("binary_parameters", "yes")
		u.RawQuery = q.Encode()
	}
	return u.String()
}

// Close closes the connection pool.
func (s *Store) Close() error { return s.db.Close() }

// Ping checks that the database answers (readiness).
func (s *Store) Ping(ctx context.Context) error { return s.db.PingContext(ctx) }

// Migrate applies the embedded migrations of the store's dialect. On
// PostgreSQL an advisory lock lets several replicas start at once.
func (s *Store) Migrate(ctx context.Context) error {
	dir, dialect := "migrations/sqlite", goose.DialectSQLite3
	var opts []goose.ProviderOption
	if s.postgres {
		dir, dialect = "migrations/postgres", goose.DialectPostgres
		locker, err := lock.NewPostgresSessionLocker()
		if err != nil {
			return err
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	sub, err := fs.Sub(migrations, dir)
	if err != nil {
		return err
	}
	p, err := goose.NewProvider(dialect, s.db.DB, sub, opts...)
	if err != nil {
		return err
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}

// InTx implements app.Store.
func (s *Store) InTx(ctx context.Context, fn func(app.Store) error) error {
	return s.inTx(ctx, func(tx *Store) error { return fn(tx) })
}

// inTx runs fn with a Store bound to one transaction (the current one when
// s is already in a transaction), so db's own multi-statement methods need
// no type assertion.
func (s *Store) inTx(ctx context.Context, fn func(*Store) error) error {
	if _, nested := s.q.(*sqlx.Tx); nested {
		return fn(s)
	}
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return translate(err)
	}
	if err := fn(&Store{stmts: s.stmts, db: s.db, q: tx, postgres: s.postgres}); err != nil {
		_ = tx.Rollback()
		return err
	}
	return translate(tx.Commit())
}

func (s *Store) get(ctx context.Context, dest any, query string, args ...any) error {
	q, text, err := s.queryer(ctx, query)
	if err != nil {
		return translate(err)
	}
	return translate(sqlx.GetContext(ctx, q, dest, text, args...))
}

func (s *Store) selectAll(ctx context.Context, dest any, query string, args ...any) error {
	q, text, err := s.queryer(ctx, query)
	if err != nil {
		return translate(err)
	}
	return translate(sqlx.SelectContext(ctx, q, dest, text, args...))
}

func (s *Store) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	q, text, err := s.queryer(ctx, query)
	if err != nil {
		return nil, translate(err)
	}
	r, err := q.ExecContext(ctx, text, args...)
	return r, translate(err)
}

// affected is how many rows a statement (exec's result) changed.
func affected(r sql.Result, err error) (int64, error) {
	if err != nil {
		return 0, err
	}
	n, err := r.RowsAffected()
	return n, translate(err)
}

// oneRow says whether a statement (exec's result) changed exactly one row.
func oneRow(r sql.Result, err error) (bool, error) {
	n, err := affected(r, err)
	return n == 1, err
}

// queryer runs query as a prepared statement outside transactions: the
// server parses and plans each statement once per connection, and every
// later execution is one round trip (Bind/Execute). All SQL run through it is
// constant, so the cache holds one statement per query in this package. It
// returns the text to pass along: rebound for this dialect inside a
// transaction, ignored by a prepared statement (rebound once, when prepared).
func (s *Store) queryer(ctx context.Context, query string) (queryer, string, error) {
	if _, inTx := s.q.(*sqlx.Tx); inTx {
		return s.q, s.q.Rebind(query), nil
	}
	if st, ok := s.stmts.Load(query); ok {
		return stmtQueryer{st.(*sqlx.Stmt)}, query, nil
	}
	st, err := s.db.PreparexContext(ctx, s.db.Rebind(query))
	if err != nil {
		return nil, "", err
	}
	if prev, loaded := s.stmts.LoadOrStore(query, st); loaded {
		st.Close()
		st = prev.(*sqlx.Stmt)
	}
	return stmtQueryer{st}, query, nil
}

type queryer interface {
	sqlx.QueryerContext
	sqlx.ExecerContext
}

// stmtQueryer lets sqlx's helpers run a prepared statement; the query text
// they pass is the statement's own and is ignored.
type stmtQueryer struct{ st *sqlx.Stmt }

func (q stmtQueryer) QueryContext(ctx context.Context, _ string, args ...any) (*sql.Rows, error) {
	return q.st.QueryContext(ctx, args...)
}

func (q stmtQueryer) QueryxContext(ctx context.Context, _ string, args ...any) (*sqlx.Rows, error) {
	return q.st.QueryxContext(ctx, args...)
}

func (q stmtQueryer) QueryRowxContext(ctx context.Context, _ string, args ...any) *sqlx.Row {
	return q.st.QueryRowxContext(ctx, args...)
}

func (q stmtQueryer) ExecContext(ctx context.Context, _ string, args ...any) (sql.Result, error) {
	return q.st.ExecContext(ctx, args...)
}

// translate turns driver errors into app errors at the boundary: no rows is
// not_found, a unique violation conflict, the rest internal.
func translate(err error) error {
	if err == nil {
		return nil
	}
	var ae *app.Error
	if errors.As(err, &ae) {
		return err
	}
	if errors.Is(err, sql.ErrNoRows) {
		return &app.Error{Code: app.CodeNotFound, Message: "not found", Err: err}
	}
	var pe *pq.Error
	if errors.As(err, &pe) && pe.Code == "23505" {
		return &app.Error{Code: app.CodeConflict, Message: "already exists", Err: err}
	}
	var se *sqlite.Error
	if errors.As(err, &se) && (se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE || se.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY) {
		return &app.Error{Code: app.CodeConflict, Message: "already exists", Err: err}
	}
	return app.Internal(err)
}

// utcPtr is t in UTC: every time the database gives back reads as UTC
// through the row converters.
func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// compress gzips what the database keeps of pages and texts: legal text
// shrinks about fivefold.
func compress(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(b); err != nil {
		return nil, app.Internal(err)
	}
	if err := zw.Close(); err != nil {
		return nil, app.Internal(err)
	}
	return buf.Bytes(), nil
}

func decompress(b []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, app.Internal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		return nil, app.Internal(err)
	}
	return out, nil
}
