package db_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/monitor"
)

// Saving a feed token replaces the account's previous one in one
// statement: the old hash names no account from then on, in any process.
func TestFeedTokenReplaced(t *testing.T) {
	for _, d := range dbtest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			s := dbtest.Open(t, d)
			ctx := context.Background()
			acct := mustMonitorAccount(t, s)
			if _, err := s.FindFeedToken(ctx, acct.ID); app.ErrorCode(err) != app.CodeNotFound {
				t.Fatalf("before any: %v", err)
			}
			old := &monitor.FeedToken{AccountID: acct.ID, Hash: bytes.Repeat([]byte{1}, 32), Prefix: "cwfd_old", CreatedAt: time.Now().Truncate(time.Millisecond)}
			cur := &monitor.FeedToken{AccountID: acct.ID, Hash: bytes.Repeat([]byte{2}, 32), Prefix: "cwfd_new", CreatedAt: old.CreatedAt.Add(time.Second)}
			for _, tk := range []*monitor.FeedToken{old, cur} {
				if err := s.SaveFeedToken(ctx, tk); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := s.FindFeedTokenByHash(ctx, old.Hash); app.ErrorCode(err) != app.CodeNotFound {
				t.Errorf("the replaced token: %v", err)
			}
			got, err := s.FindFeedTokenByHash(ctx, cur.Hash)
			if err != nil || got.AccountID != acct.ID || got.Prefix != "cwfd_new" || !got.CreatedAt.Equal(cur.CreatedAt) {
				t.Errorf("the current token: %+v %v", got, err)
			}
			if got, err := s.FindFeedToken(ctx, acct.ID); err != nil || !bytes.Equal(got.Hash, cur.Hash) {
				t.Errorf("by account: %+v %v", got, err)
			}
		})
	}
}
