package db_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/clausewatch/clausewatch/db"
	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/monitor"
)

func mustMonitorAccount(t *testing.T, s *db.Store) *app.Account {
	t.Helper()
	now := time.Now().UTC()
	a := &app.Account{ID: uuid.NewString(), Subject: "mon|" + uuid.NewString(), Tier: app.TierFree, CreatedAt: now, UpdatedAt: now}
	if err := s.CreateAccount(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	return a
}

// newMonitor stores a monitor due at due, with a first version of text.
func mustMonitor(t *testing.T, s *db.Store, acct *app.Account, due time.Time, text string) *monitor.Monitor {
	t.Helper()
	now := time.Now().UTC()
	m := &monitor.Monitor{ID: uuid.NewString(), AccountID: acct.ID, URL: "https://example.com/terms", IntervalSeconds: 60,
		CreatedAt: now, NextCheckAt: due, LastCheckedAt: &now, ContentHash: "h-" + text}
	v := &monitor.MonitorVersion{MonitorID: m.ID, ContentHash: m.ContentHash, ExtractorVersion: "x1", Text: text, WordCount: 1, FirstSeenAt: now, LastSeenAt: now}
	ok, err := s.CreateMonitor(context.Background(), m, v, &monitor.RawPage{Body: []byte("<p>" + text), ContentType: "text/html", URL: m.URL}, 1000)
	if err != nil || !ok {
		t.Fatalf("create monitor: %v %v", ok, err)
	}
	return m
}

// claimAll claims due monitors one at a time until none is left.
func claimAll(t *testing.T, s *db.Store, now, until time.Time, owner string) ([]monitor.Monitor, error) {
	t.Helper()
	var out []monitor.Monitor
	for range 100_000 {
		m, err := s.ClaimDueMonitor(context.Background(), now, until, owner)
		if app.ErrorCode(err) == app.CodeNotFound {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, *m)
	}
	t.Fatal("claims never ran out")
	return nil, nil
}

// The claim leases each due monitor to one owner; a lease blocks a second
// claim until it ends; only the owner records the check; a deleted monitor
// is never claimed.
func TestMonitorClaimLease(t *testing.T) {
	for _, d := range dbtest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			s := dbtest.Open(t, d)
			ctx := context.Background()
			acct := mustMonitorAccount(t, s)
			// PostgreSQL's database is shared by the package: claim far in the
			// future relative to other tests' monitors, and filter to ours.
			base := time.Now().UTC().Add(1000 * time.Hour).Truncate(time.Millisecond)
			a := mustMonitor(t, s, acct, base.Add(-2*time.Second), "a")
			b := mustMonitor(t, s, acct, base.Add(-1*time.Second), "b")
			later := mustMonitor(t, s, acct, base.Add(time.Hour), "later")
			ours := func(ms []monitor.Monitor) []string {
				var ids []string
				for _, m := range ms {
					if m.AccountID == acct.ID {
						ids = append(ids, m.ID)
					}
				}
				return ids
			}
			got, err := claimAll(t, s, base, base.Add(time.Minute), "11111111-1111-4111-8111-111111111111")
			if ids := ours(got); err != nil || len(ids) != 2 || ids[0] != a.ID && ids[1] != a.ID {
				t.Fatalf("first claim: %v %v", ids, err)
			}
			if got, _ := claimAll(t, s, base, base.Add(time.Minute), "22222222-2222-4222-8222-222222222222"); len(ours(got)) != 0 {
				t.Errorf("leased monitors claimed again: %v", ours(got))
			}
			// The lease ends: a second owner takes b over; the first can no longer record it.
			got, _ = claimAll(t, s, base.Add(2*time.Minute), base.Add(3*time.Minute), "22222222-2222-4222-8222-222222222222")
			if len(ours(got)) != 2 {
				t.Errorf("expired leases not claimed again: %v", ours(got))
			}
			rec := &monitor.CheckRecord{MonitorID: b.ID, LeaseOwner: "11111111-1111-4111-8111-111111111111", CheckedAt: base, NextCheckAt: base.Add(time.Hour)}
			if ok, err := s.FinishCheck(ctx, rec); ok || err != nil {
				t.Errorf("check recorded by a lost lease: %v %v", ok, err)
			}
			rec.LeaseOwner = "22222222-2222-4222-8222-222222222222"
			rec.Version = &monitor.MonitorVersion{MonitorID: b.ID, ContentHash: "h-b2", ExtractorVersion: "x1", Text: "b2", WordCount: 1, FirstSeenAt: base, LastSeenAt: base}
			rec.Alert = &monitor.Alert{ID: uuid.NewString(), AccountID: acct.ID, MonitorID: b.ID, URL: b.URL, DetectedAt: base, Summary: "1 paragraph changed",
				Diff: "-b\n+b2\n", Added: 1, Removed: 1, FindingsAdded: []monitor.AlertFinding{{Category: "arbitration", Severity: "blocker", Title: "Arbitration", Quote: "binding arbitration"}}}
			if ok, err := s.FinishCheck(ctx, rec); !ok || err != nil {
				t.Fatalf("owner's check not recorded: %v %v", ok, err)
			}
			m, err := s.FindMonitor(ctx, acct.ID, b.ID)
			if err != nil || m.ContentHash != "h-b2" || m.LastChangedAt == nil || !m.NextCheckAt.Equal(base.Add(time.Hour)) {
				t.Errorf("after check: %+v %v", m, err)
			}
			v, err := s.FindVersion(ctx, b.ID, "h-b2")
			if err != nil || v.Text != "b2" {
				t.Errorf("version: %+v %v", v, err)
			}
			alerts, err := s.FindAlerts(ctx, monitor.AlertQuery{AccountID: acct.ID, UnreadOnly: true, Limit: 10})
			if err != nil || len(alerts) != 1 || alerts[0].FindingsAdded[0].Quote != "binding arbitration" {
				t.Errorf("alerts: %+v %v", alerts, err)
			}
			// Another account's ids change nothing.
			other := mustMonitorAccount(t, s)
			if n, err := s.UpdateAlerts(ctx, other.ID, []string{alerts[0].ID}, true); n != 0 || err != nil {
				t.Errorf("foreign update: %d %v", n, err)
			}
			if n, err := s.UpdateAlerts(ctx, acct.ID, []string{alerts[0].ID}, true); n != 1 || err != nil {
				t.Errorf("update: %d %v", n, err)
			}
			// Deleted: never claimed, listed or found; its alerts stay.
			if err := s.DeleteMonitor(ctx, acct.ID, later.ID, base); err != nil {
				t.Fatal(err)
			}
			if err := s.DeleteMonitor(ctx, acct.ID, later.ID, base); app.ErrorCode(err) != app.CodeNotFound {
				t.Errorf("second delete: %v", err)
			}
			got, _ = claimAll(t, s, base.Add(10*time.Hour), base.Add(11*time.Hour), "33333333-3333-4333-8333-333333333333")
			for _, id := range ours(got) {
				if id == later.ID {
					t.Error("deleted monitor claimed")
				}
			}
			if n, _ := s.CountMonitors(ctx, acct.ID); n != 2 {
				t.Errorf("count %d, want 2", n)
			}
		})
	}
}

// CreateMonitor refuses past the limit, even when creations race.
func TestCreateMonitorCap(t *testing.T) {
	for _, d := range dbtest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			s := dbtest.Open(t, d)
			acct := mustMonitorAccount(t, s)
			errs := make(chan error, 8)
			oks := make(chan bool, 8)
			for i := range 8 {
				go func() {
					now := time.Now().UTC()
					m := &monitor.Monitor{ID: uuid.NewString(), AccountID: acct.ID, URL: "https://example.com", IntervalSeconds: 60, CreatedAt: now, NextCheckAt: now, ContentHash: fmt.Sprint(i)}
					v := &monitor.MonitorVersion{MonitorID: m.ID, ContentHash: m.ContentHash, ExtractorVersion: "x", FirstSeenAt: now, LastSeenAt: now}
					ok, err := s.CreateMonitor(context.Background(), m, v, &monitor.RawPage{}, 3)
					errs <- err
					oks <- ok
				}()
			}
			n := 0
			for range 8 {
				if err := <-errs; err != nil {
					t.Error(err)
				}
				if <-oks {
					n++
				}
			}
			if c, _ := s.CountMonitors(context.Background(), acct.ID); n != 3 || c != 3 {
				t.Errorf("%d created, %d counted; want 3", n, c)
			}
		})
	}
}

// An alert's diff is stored gzip-compressed and read back as it was given;
// an alert stored before, its diff uncompressed, reads back the same.
func TestAlertDiffCompressed(t *testing.T) {
	for _, d := range dbtest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			s := dbtest.Open(t, d)
			ctx := context.Background()
			acct := mustMonitorAccount(t, s)
			base := time.Now().UTC().Add(2000 * time.Hour).Truncate(time.Millisecond)
			m := mustMonitor(t, s, acct, base, "a")
			owner := uuid.NewString()
			if got, err := s.ClaimMonitor(ctx, acct.ID, m.ID, base, base.Add(time.Minute), owner); err != nil || got.ID != m.ID {
				t.Fatalf("claim: %v", err)
			}
			diff := strings.Repeat(" We may change these terms at any time.\n", 2000) + "+Any dispute goes to binding arbitration.\n"
			a := &monitor.Alert{ID: uuid.NewString(), AccountID: acct.ID, MonitorID: m.ID, URL: m.URL, DetectedAt: base, Summary: "1 paragraph changed",
				Diff: diff, Added: 1}
			rec := &monitor.CheckRecord{MonitorID: m.ID, LeaseOwner: owner, CheckedAt: base, NextCheckAt: base.Add(time.Hour), Alert: a,
				Version: &monitor.MonitorVersion{MonitorID: m.ID, ContentHash: "h-a2", ExtractorVersion: "x1", Text: "a2", WordCount: 1, FirstSeenAt: base, LastSeenAt: base}}
			if ok, err := s.FinishCheck(ctx, rec); !ok || err != nil {
				t.Fatalf("finish: %v %v", ok, err)
			}
			stored, gz, err := s.AlertDiff(ctx, a.ID)
			if err != nil || stored != "" || len(gz) == 0 || len(gz) > len(diff)/10 {
				t.Errorf("stored diff %d bytes, compressed %d of %d (%v)", len(stored), len(gz), len(diff), err)
			}
			read := func() string {
				t.Helper()
				alerts, err := s.FindAlerts(ctx, monitor.AlertQuery{AccountID: acct.ID, Limit: 10})
				if err != nil || len(alerts) != 1 {
					t.Fatalf("alerts: %d %v", len(alerts), err)
				}
				return alerts[0].Diff
			}
			if got := read(); got != diff {
				t.Errorf("diff read back differs: %d bytes, want %d", len(got), len(diff))
			}
			if err := s.SetAlertDiff(ctx, a.ID, "-a\n+a2\n"); err != nil {
				t.Fatal(err)
			}
			if got := read(); got != "-a\n+a2\n" {
				t.Errorf("an older alert's diff reads %q", got)
			}
		})
	}
}

// Fairness: of the due monitors, a claim takes one of the account with the
// fewest checks in flight, the earliest due of those. One account with five
// monitors due first and another with one due last: the second account's is
// the second claimed, not the sixth; with none in flight the earliest due
// goes first.
func TestMonitorClaimPrefersIdleAccounts(t *testing.T) {
	for _, d := range dbtest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			s := dbtest.Open(t, d)
			base := time.Now().UTC().Add(2000 * time.Hour).Truncate(time.Millisecond)
			// PostgreSQL's database is shared by the package: lease out every
			// other test's due monitor first (for a minute of the test's clock).
			if _, err := claimAll(t, s, base, base.Add(time.Minute), "44444444-4444-4444-8444-444444444444"); err != nil {
				t.Fatal(err)
			}
			busy, idle := mustMonitorAccount(t, s), mustMonitorAccount(t, s)
			var many []*monitor.Monitor
			for i := range 5 {
				many = append(many, mustMonitor(t, s, busy, base.Add(-time.Duration(10-i)*time.Second), fmt.Sprint("m", i)))
			}
			one := mustMonitor(t, s, idle, base.Add(-time.Second), "one")
			var order []string
			for i := range 4 {
				m, err := s.ClaimDueMonitor(context.Background(), base, base.Add(time.Minute), uuid.NewString())
				if err != nil {
					t.Fatalf("claim %d: %v", i, err)
				}
				order = append(order, m.ID)
			}
			want := []string{many[0].ID, one.ID, many[1].ID, many[2].ID}
			if strings.Join(order, ",") != strings.Join(want, ",") {
				t.Errorf("claimed %v, want %v", order, want)
			}
		})
	}
}
