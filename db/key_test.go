package db_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
)

// seedKeys makes an account of tier with n keys (scopes as given) and
// returns the account and the keys' hashes, newest last.
func seedKeys(t *testing.T, s app.Store, d dbtest.Dialect, tier app.Tier, n int, scopes ...string) (*app.Account, []*app.Key) {
	t.Helper()
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Millisecond)
	id := newUUID(t)
	acct := &app.Account{ID: id, Subject: "s|" + id, Tier: tier, CreatedAt: now, UpdatedAt: now}
	if err := s.CreateAccount(ctx, acct); err != nil {
		t.Fatal(err)
	}
	var keys []*app.Key
	for i := range n {
		k := &app.Key{ID: newUUID(t), AccountID: acct.ID, Name: fmt.Sprintf("key %d", i), Prefix: fmt.Sprintf("cwsk_%07d", i),
			Hash: []byte(fmt.Sprintf("hash|%s|%d", id, i)), Scopes: scopes, CreatedAt: now.Add(time.Duration(i) * time.Second)}
		if ok, err := s.CreateKey(ctx, k, 50); err != nil || !ok {
			t.Fatalf("create key: %v %v", ok, err)
		}
		keys = append(keys, k)
	}
	return acct, keys
}

var uuidSeq struct {
	sync.Mutex
	n int
}

func newUUID(t *testing.T) string {
	uuidSeq.Lock()
	defer uuidSeq.Unlock()
	uuidSeq.n++
	return fmt.Sprintf("6f1c1f8e-%04x-4000-8000-%012x", uuidSeq.n&0xffff, time.Now().UnixNano()&0xffffffffffff)
}

// The key list's authentication reads the key, its account and the
// account's keys in one statement: the same as FindActiveKeyByHash and
// FindKeys one after the other, revoked keys listed only when asked, and a
// revoked key not found at all.
func TestFindActiveKeyWithKeys(t *testing.T) {
	for _, d := range dbtest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			s := dbtest.Open(t, d)
			ctx := context.Background()
			acct, keys := seedKeys(t, s, d, app.TierBase, 3, "analyze", "extract")
			if _, err := s.RevokeKey(ctx, acct.ID, keys[0].ID, time.Now()); err != nil {
				t.Fatal(err)
			}
			for _, rev := range []bool{false, true} {
				k, a, list, err := s.FindActiveKeyWithKeys(ctx, keys[1].Hash, rev)
				if err != nil {
					t.Fatal(err)
				}
				wantK, wantA, err := s.FindActiveKeyByHash(ctx, keys[1].Hash)
				if err != nil {
					t.Fatal(err)
				}
				wantList, err := s.FindKeys(ctx, app.KeyFilter{AccountID: acct.ID, IncludeRevoked: rev})
				if err != nil {
					t.Fatal(err)
				}
				if fmt.Sprint(*k) != fmt.Sprint(*wantK) || fmt.Sprint(*a) != fmt.Sprint(*wantA) || fmt.Sprint(list) != fmt.Sprint(wantList) {
					t.Errorf("includeRevoked=%v:\n got %v %v %v\nwant %v %v %v", rev, *k, *a, list, *wantK, *wantA, wantList)
				}
				if len(list) != 2+boolInt(rev) {
					t.Errorf("includeRevoked=%v: %d keys", rev, len(list))
				}
			}
			if _, _, _, err := s.FindActiveKeyWithKeys(ctx, keys[0].Hash, true); app.ErrorCode(err) != app.CodeNotFound {
				t.Errorf("revoked key: %v, want not_found", err)
			}
			if _, _, _, err := s.FindActiveKeyWithKeys(ctx, []byte("no such hash"), false); app.ErrorCode(err) != app.CodeNotFound {
				t.Errorf("unknown key: %v, want not_found", err)
			}
		})
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Authentication and a charge in one statement: the key found by its hash
// and its pool charged within its tier's limit, never past it under
// concurrency; a key without the scope is found and not charged; a revoked
// key is not found and charges nothing.
func TestFindActiveKeyAndCharge(t *testing.T) {
	for _, d := range dbtest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			s := dbtest.Open(t, d)
			ctx := context.Background()
			acct, keys := seedKeys(t, s, d, app.TierFree, 3, "analyze")
			period := "2026-11-25"
			charge := app.KeyCharge{Scope: "analyze", Kind: "scan", Period: period, N: 1,
				Limits: map[app.Tier]int{app.TierFree: 5, app.TierBase: 25, app.TierAdvanced: 100}}
			var (
				wg       sync.WaitGroup
				mu       sync.Mutex
				admitted []int
				refused  int
			)
			for range 12 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					k, a, out, err := s.FindActiveKeyAndCharge(ctx, keys[0].Hash, charge)
					if err != nil {
						t.Error(err)
						return
					}
					if k.ID != keys[0].ID || a.ID != acct.ID || a.Tier != app.TierFree || !out.Tried {
						t.Errorf("got %v %v %v", k, a, out)
					}
					mu.Lock()
					defer mu.Unlock()
					if out.OK {
						admitted = append(admitted, out.Used)
					} else {
						refused++
					}
				}()
			}
			wg.Wait()
			if len(admitted) != 5 || refused != 7 {
				t.Errorf("admitted %v, refused %d; want 5 and 7", admitted, refused)
			}
			used, err := s.BudgetUsed(ctx, []string{keys[0].ID}, "scan", period)
			if err != nil || used[keys[0].ID] != 5 {
				t.Errorf("used %v %v, want 5", used, err)
			}

			// Without the scope: found, not tried, nothing charged.
			other := charge
			other.Scope = "extract"
			k, _, out, err := s.FindActiveKeyAndCharge(ctx, keys[1].Hash, other)
			if err != nil || k.ID != keys[1].ID || out.Tried || out.OK {
				t.Errorf("no scope: %v %v %v", k, out, err)
			}
			// A scope name that is a part of another's is not the scope.
			other.Scope = "analyz"
			if _, _, out, err := s.FindActiveKeyAndCharge(ctx, keys[1].Hash, other); err != nil || out.Tried || out.OK {
				t.Errorf("partial scope: %v %v", out, err)
			}
			if used, _ := s.BudgetUsed(ctx, []string{keys[1].ID}, "scan", period); used[keys[1].ID] != 0 {
				t.Errorf("charged without the scope: %v", used)
			}
			// The tier's limit: after an upgrade the next charge uses the new one.
			adv := app.TierAdvanced
			if err := s.UpdateBilling(ctx, acct.ID, app.BillingUpdate{Tier: &adv}); err != nil {
				t.Fatal(err)
			}
			if _, a, out, err := s.FindActiveKeyAndCharge(ctx, keys[0].Hash, charge); err != nil || !out.OK || out.Used != 6 || a.Tier != app.TierAdvanced {
				t.Errorf("after the upgrade: %v %v %v", a, out, err)
			}
			// Revoked: not found, and nothing charged.
			if _, err := s.RevokeKey(ctx, acct.ID, keys[2].ID, time.Now()); err != nil {
				t.Fatal(err)
			}
			if _, _, _, err := s.FindActiveKeyAndCharge(ctx, keys[2].Hash, charge); app.ErrorCode(err) != app.CodeNotFound {
				t.Errorf("revoked: %v, want not_found", err)
			}
			if used, _ := s.BudgetUsed(ctx, []string{keys[2].ID}, "scan", period); used[keys[2].ID] != 0 {
				t.Errorf("a revoked key was charged: %v", used)
			}
		})
	}
}
