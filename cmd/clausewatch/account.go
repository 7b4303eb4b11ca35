package main

import (
	"context"
	"encoding/json"
	"flag"
	"io"
	"strings"

	"github.com/clausewatch/clausewatch/internal/app"
)

func accountFlags(fs *flag.FlagSet) {
	fs.String("email", "", "the account's email address (required)")
}

// runAccount is the operator's `account plan --email E PLAN`: it sets the
// plan of a self-hosted instance's account and prints each account changed.
func runAccount(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "plan" {
		return usageError(stderr, "account", "account needs the subcommand plan")
	}
	fs, err := parseFlags("account", args[1:], stderr)
	if err != nil {
		return err
	}
	email := flagString(fs, "email")
	if email == "" || fs.NArg() != 1 {
		return usageError(stderr, "account", "account plan needs --email and one plan: free, base or advanced")
	}
	if !app.ValidEmail(strings.TrimSpace(email)) {
		// Refused before the database is opened: nothing is made.
		return usageError(stderr, "account", "--email must be an email address, like ops@example.com")
	}
	if !app.Tier(fs.Arg(0)).Valid() {
		return usageError(stderr, "account", "unknown plan "+fs.Arg(0)+": free, base or advanced")
	}
	cfg, store, err := openConfigured(ctx, getenv)
	if err != nil {
		return err
	}
	defer store.Close()
	svc := app.New(app.Options{Store: store, Logger: newLogger(cfg, stderr)})
	accts, err := svc.SetPlan(ctx, email, app.Tier(fs.Arg(0)))
	if err != nil {
		return cliError(err)
	}
	enc := json.NewEncoder(stdout)
	for _, a := range accts {
		if err := enc.Encode(map[string]any{"accountId": a.ID, "email": a.Email, "plan": a.Tier}); err != nil {
			return err
		}
	}
	return nil
}
