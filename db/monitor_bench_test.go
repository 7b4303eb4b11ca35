package db_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"

	"github.com/clausewatch/clausewatch/db"
	"github.com/clausewatch/clausewatch/db/dbtest"
)

// BenchmarkClaimExplain fills PostgreSQL with 100,000 monitors (1% due),
// prints EXPLAIN ANALYZE of the scheduler's claim of one monitor and fails
// unless the plan walks the due-time index; it then times the claim itself.
// Each claim runs in a rolled-back transaction, so every one sees the same
// table.
func BenchmarkClaimExplain(b *testing.B) {
	ctx := context.Background()
	url := dbtest.PostgresURL(b)
	s, err := db.Open(ctx, url)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	x, err := sqlx.Open("postgres", url)
	if err != nil {
		b.Fatal(err)
	}
	defer x.Close()
	acct := uuid.NewString()
	now := time.Now().UTC()
	if _, err := x.ExecContext(ctx, `INSERT INTO accounts (id, subject, created_at, updated_at) VALUES ($1, $2, $3, $3)`, acct, "explain|"+acct, now); err != nil {
		b.Fatal(err)
	}
	// next_check_at spread over a day, 1,000 of them already due.
	if _, err := x.ExecContext(ctx, `INSERT INTO monitors (id, account_id, url, interval_seconds, created_at, next_check_at, content_hash, content_seen_at, raw_gz)
SELECT gen_random_uuid(), $1, 'https://example.com/' || i, 86400, $2::timestamptz, $2::timestamptz + (i - 1000) * interval '864 milliseconds', 'h', $2::timestamptz, ''::bytea
FROM generate_series(1, 100000) i`, acct, now); err != nil {
		b.Fatal(err)
	}
	defer x.ExecContext(ctx, `DELETE FROM monitors WHERE account_id = $1`, acct)
	if _, err := x.ExecContext(ctx, `ANALYZE monitors`); err != nil {
		b.Fatal(err)
	}
	q, args := s.ClaimSQL(now, now.Add(time.Minute), uuid.NewString())
	// claim runs the claim (under EXPLAIN when given) in a transaction
	// rolled back, and returns the rows' first column.
	claim := func(explain string) []string {
		tx, err := x.BeginTxx(ctx, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer tx.Rollback()
		rows, err := tx.QueryContext(ctx, explain+q, args...)
		if err != nil {
			b.Fatal(err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			cols, _ := rows.Columns()
			vals := make([]any, len(cols))
			var first string
			vals[0] = &first
			for i := 1; i < len(vals); i++ {
				vals[i] = new(any)
			}
			if err := rows.Scan(vals...); err != nil {
				b.Fatal(err)
			}
			out = append(out, first)
		}
		return out
	}
	plan := claim("EXPLAIN (ANALYZE, COSTS OFF) ")
	fmt.Printf("EXPLAIN ANALYZE, claim of one among 100,000 monitors:\n%s\n", strings.Join(plan, "\n"))
	if !strings.Contains(strings.Join(plan, "\n"), "monitors_due") {
		b.Fatal("the claim does not use the monitors_due index")
	}
	b.ResetTimer()
	for range b.N {
		if got := claim(""); len(got) != 1 {
			b.Fatalf("claimed %d, want 1", len(got))
		}
	}
	b.StopTimer() // the deferred clean-up is not the claim's
}
