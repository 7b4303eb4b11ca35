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

func runKey(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "create" {
		fmt.Fprintln(stderr, "usage: clausewatch key create --name N [--email E] [--scopes extract,analyze]")
		return errUsage
	}
	fs := flag.NewFlagSet("key create", flag.ContinueOnError)
	fs.SetOutput(stderr)
	email := fs.String("email", "", "account email (the account is created if new); default the local owner "+ownerEmail+", whom the sign-in `serve` prints opens")
	name := fs.String("name", "", "key name")
	scopes := fs.String("scopes", "", "comma-separated scopes: extract, analyze, monitor (default extract,analyze)")
	if err := fs.Parse(args[1:]); err != nil {
		return errUsage
	}
	if *name == "" {
		fmt.Fprintln(stderr, "key create needs --name")
		return errUsage
	}
	cfg, store, err := openConfigured(ctx, getenv)
	if err != nil {
		return err
	}
	defer store.Close()
	svc := app.New(app.Options{Store: store, Logger: newLogger(cfg, stderr)})

	id := ownerIdentity()
	if e := strings.TrimSpace(*email); e != "" {
		id = app.Identity{Subject: app.LocalSubject(e), Email: e}
	}
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
		msg += fmt.Sprintf("\n  %s: %s", f.Field, f.Message)
	}
	return fmt.Errorf("%s", msg)
}
