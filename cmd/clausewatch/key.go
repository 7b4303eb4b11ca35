package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/clausewatch/clausewatch/internal/app"
)

func keyFlags(fs *flag.FlagSet) {
	fs.String("email", "", "account email (the account is created if new); default the local owner "+ownerEmail+", whom the sign-in serve prints opens")
	fs.String("name", "", "key name (required)")
	fs.String("scopes", "", "comma-separated scopes: extract, analyze, monitor (default extract,analyze)")
}

func ptr[T any](v T) *T { return &v }

func runKey(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "create" {
		return usageError(stderr, "key", "key needs the subcommand create")
	}
	fs, err := parseFlags("key", args[1:], stderr)
	if err != nil {
		return err
	}
	email, name, scopes := ptr(flagString(fs, "email")), ptr(flagString(fs, "name")), ptr(flagString(fs, "scopes"))
	if *name == "" || fs.NArg() > 0 {
		return usageError(stderr, "key", "key create needs --name and no other arguments")
	}
	id := ownerIdentity()
	if e := strings.TrimSpace(*email); e != "" {
		if !app.ValidEmail(e) {
			return usageError(stderr, "key", "--email must be an email address, like ops@example.com")
		}
		id = app.Identity{Subject: app.LocalSubject(e), Email: e}
	}
	cfg, store, err := openConfigured(ctx, getenv)
	if err != nil {
		return err
	}
	defer store.Close()
	svc := app.New(app.Options{Store: store, Logger: newLogger(cfg, stderr)})

	acct, err := svc.EnsureAccount(ctx, id)
	if err != nil {
		return err
	}
	in := app.KeyCreate{Name: *name}
	if *scopes != "" {
		in.Scopes = strings.Split(*scopes, ",")
	}
	k, err := svc.CreateKey(app.WithPrincipal(ctx, &app.Principal{Account: *acct}), in)
	if err != nil {
		return cliError(err)
	}
	return json.NewEncoder(stdout).Encode(map[string]any{
		"accountId": acct.ID, "id": k.Key.ID, "keyPrefix": k.Key.Prefix, "scopes": k.Key.Scopes, "rawKey": k.RawKey,
	})
}

// cliError renders an app error with its field details for a terminal.
func cliError(err error) error {
	e := app.AsError(err)
	if e.Code == app.CodeInternal {
		return err
	}
	msg := e.Message
	for _, f := range e.Fields {
		if f.Message == e.Message {
			continue // a refusal of one field is its message already
		}
		msg += fmt.Sprintf("\n  %s: %s", f.Field, f.Message)
	}
	return fmt.Errorf("%s", msg)
}
