package app_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
)

// Run prunes the usage log past retention when it starts, returns when its
// context ends, and writes on the way out what was recorded meanwhile.
func TestRunPrunesAndFlushesWhenStopped(t *testing.T) {
	for _, d := range dbtest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			ctx := context.Background()
			store := dbtest.Open(t, d)
			svc := app.New(app.Options{Store: store, Logger: slog.New(slog.DiscardHandler), UsageRetention: 24 * time.Hour})
			email := "run-" + string(d) + "@example.com"
			acct, err := svc.EnsureAccount(ctx, app.Identity{Subject: app.LocalSubject(email) + time.Now().Format(time.RFC3339Nano), Email: email})
			if err != nil {
				t.Fatal(err)
			}
			failed := func(path string, at time.Time) app.RequestRecord {
				return app.RequestRecord{At: at, AccountID: acct.ID, KeyPrefix: "cwsk_test", Method: "GET", Path: path, Status: 500}
			}
			logged := func() []string {
				t.Helper()
				errs, err := store.FindRecentErrors(ctx, acct.ID, time.Time{}, 20)
				if err != nil {
					t.Fatal(err)
				}
				var paths []string
				for _, e := range errs {
					paths = append(paths, e.Path)
				}
				return paths
			}
			svc.RecordRequest(failed("/old", time.Now().Add(-48*time.Hour)))
			if err := svc.FlushUsage(ctx); err != nil {
				t.Fatal(err)
			}
			if got := logged(); len(got) != 1 {
				t.Fatalf("before Run: %v, want the old row", got)
			}

			runCtx, stop := context.WithCancel(ctx)
			ran := make(chan error, 1)
			go func() { ran <- svc.Run(runCtx) }()
			for deadline := time.Now().Add(10 * time.Second); len(logged()) != 0; time.Sleep(10 * time.Millisecond) {
				if time.Now().After(deadline) {
					stop()
					t.Fatalf("Run did not prune the row past retention: %v", logged())
				}
			}

			svc.RecordRequest(failed("/new", time.Now()))
			stop()
			select {
			case err := <-ran:
				if err != nil {
					t.Fatalf("Run: %v", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("Run did not return after its context ended")
			}
			if got := logged(); len(got) != 1 || got[0] != "/new" {
				t.Fatalf("after Run: %v, want the request recorded just before it stopped", got)
			}
		})
	}
}
