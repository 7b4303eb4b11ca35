package replica

import (
	"context"
	"fmt"

	"github.com/clausewatch/clausewatch/internal/app"
)

// Keys makes n keys with scopes on a fresh local account of the tier, on
// the store the processes share, and returns their raw values.
func Keys(ctx context.Context, store app.Store, email string, tier app.Tier, n int, scopes ...string) ([]string, *app.Account, error) {
	svc := app.New(app.Options{Store: store})
	acct, err := svc.EnsureAccount(ctx, app.Identity{Subject: app.LocalSubject(email), Email: email})
	if err != nil {
		return nil, nil, err
	}
	if err := store.UpdateBilling(ctx, acct.ID, app.BillingUpdate{Tier: &tier}); err != nil {
		return nil, nil, err
	}
	acct.Tier = tier
	pctx := app.WithPrincipal(ctx, &app.Principal{Account: *acct})
	raw := make([]string, n)
	for i := range raw {
		k, err := svc.CreateKey(pctx, app.KeyCreate{Name: fmt.Sprintf("key %d", i), Scopes: scopes})
		if err != nil {
			return nil, nil, err
		}
		raw[i] = k.RawKey
	}
	return raw, acct, nil
}
