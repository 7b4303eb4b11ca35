// Command clausewatch is the service and its command-line tools. main only
// wires: every behaviour lives in internal/ packages.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

const usage = `usage: clausewatch <command> [flags]

commands:
  serve                              run the service
  migrate                            apply database migrations
  key create --email E --name N [--scopes extract,analyze]
                                     create an API key (and the account if new)
  extract [--json|--markdown] --file FILE [--url URL] | extract [--json|--markdown] URL
                                     print the readable text of a document
  analyze [--json] [--url URL] FILE|URL|-
                                     print the analysis of a document
  classify                           JSONL {"text"} in, JSONL {"labels"} out
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, errUsage) {
			fmt.Fprintln(os.Stderr, "clausewatch:", err)
		}
		os.Exit(1)
	}
}

var errUsage = errors.New("usage")

func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errUsage
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "serve":
		return runServe(ctx, rest, getenv, stdout, stderr)
	case "migrate":
		return runMigrate(ctx, getenv, stdout)
	case "key":
		return runKey(ctx, rest, getenv, stdout, stderr)
	case "extract":
		return runExtract(ctx, rest, getenv, stdin, stdout, stderr)
	case "analyze":
		return runAnalyze(ctx, rest, getenv, stdin, stdout, stderr)
	case "classify":
		return runClassify(stdin, stdout)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	default:
		fmt.Fprintf(stderr, "unknown command %q\n\n%s", cmd, usage)
		return errUsage
	}
}
