// Command clausewatch is the service and its command-line tools. main only
// wires: every behaviour lives in internal/ packages.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
)

// Exit codes, documented in README ("Command line") and in every help.
const (
	exitOK    = 0 // done (and for --help)
	exitError = 1 // the command ran and failed: configuration, database, document, refusal
	exitUsage = 2 // the command line itself is wrong: unknown command or flag, missing argument
)

// command is one subcommand: how it is called, what it reads, and its run.
// flags declares the command's flags on fs (nil: it has none); help prints
// them, so a help lists exactly the flags the command parses.
type command struct {
	name    string
	summary string
	usage   string   // after "clausewatch "
	env     []string // environment variables read, described in envHelp
	flags   func(fs *flag.FlagSet)
	notes   string
}

var commands = []command{
	{name: "serve", summary: "run the service (REST, GraphQL, MCP, portal)", usage: "serve [--addr ADDR]",
		env: allEnv, flags: serveFlags,
		notes: "On embedded SQLite with no identity provider (the zero-setup mode) it prints the portal's sign-in link and a token for the local owner."},
	{name: "migrate", summary: "apply the database migrations and exit", usage: "migrate",
		env: []string{"DATABASE_URL"}},
	{name: "key", summary: "create an API key (and the account if new)", usage: "key create --name N [--email E] [--scopes extract,analyze]",
		env: []string{"DATABASE_URL"}, flags: keyFlags,
		notes: "Prints one JSON object: accountId, id, keyPrefix, scopes, rawKey (shown once). Each plan caps active keys (free 3): see `account plan`."},
	{name: "account", summary: "operator commands on accounts (self-hosted)", usage: "account plan --email E free|base|advanced",
		env: []string{"DATABASE_URL"}, flags: accountFlags,
		notes: "Sets the plan of every account of the address E (the local account of E is created when there is none, so a plan can be set before the first key). In production the payment webhook changes plans; a later subscription event overrides what this set."},
	{name: "extract", summary: "print the readable text of a document", usage: "extract [--json|--markdown] --file FILE [--url URL] | extract [--json|--markdown] URL",
		env: documentEnv, flags: extractFlags},
	{name: "analyze", summary: "print the analysis of a document", usage: "analyze [--json] [--url URL] FILE|URL|-",
		env: documentEnv, flags: analyzeFlags,
		notes: "FILE is HTML, PDF or text (sniffed); URL is fetched as the server fetches it; - reads standard input."},
	{name: "classify", summary: "JSONL {\"text\"} on standard input, JSONL {\"labels\"} out", usage: "classify < in.jsonl",
		notes: "Reads standard input to its end: with nothing piped in it waits for input."},
	{name: "version", summary: "print the version, commit, extractor and model versions", usage: "version [--json]",
		flags: versionFlags},
	{name: "help", summary: "print this help, or a command's", usage: "help [COMMAND]"},
}

// documentEnv are what extract and analyze read: no database.
var documentEnv = []string{"CLAUSEWATCH_FETCH_ALLOW_HOSTS", "CLAUSEWATCH_FETCH_TIMEOUT", "CLAUSEWATCH_PDF_CACHE_DIR", "CLAUSEWATCH_PDF_WORKERS", "CLAUSEWATCH_PDF_CPU_BUDGET"}

func findCommand(name string) *command {
	for i := range commands {
		if commands[i].name == name {
			return &commands[i]
		}
	}
	return nil
}

func usageText() string {
	var b strings.Builder
	b.WriteString("usage: clausewatch <command> [flags]\n\ncommands:\n")
	for _, c := range commands {
		fmt.Fprintf(&b, "  %-9s %s\n", c.name, c.summary)
	}
	b.WriteString("\n'clausewatch help COMMAND' or 'clausewatch COMMAND --help' shows a command's flags and the\nenvironment variables it reads; --help never runs the command.\n")
	b.WriteString(exitCodesText)
	return b.String()
}

const exitCodesText = `
exit codes: 0 done (and --help), 1 the command failed (configuration, database,
document, refusal), 2 the command line is wrong (unknown command or flag,
missing argument).
`

// printHelp writes a command's help: usage, flags, environment variables.
func printHelp(w io.Writer, c *command) {
	fmt.Fprintf(w, "usage: clausewatch %s\n\n%s.\n", c.usage, strings.ToUpper(c.summary[:1])+c.summary[1:])
	if c.notes != "" {
		fmt.Fprintf(w, "\n%s\n", c.notes)
	}
	fmt.Fprint(w, "\nflags:\n")
	if c.flags == nil {
		fmt.Fprint(w, "  none\n")
	} else {
		fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
		c.flags(fs)
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
	fmt.Fprint(w, "  -h, --help\n    \tprint this help and exit; nothing is run\n")
	fmt.Fprint(w, "\nenvironment:\n")
	if len(c.env) == 0 {
		fmt.Fprint(w, "  none\n")
	}
	for _, v := range c.env {
		fmt.Fprintf(w, "  %s\n    \t%s\n", v, envHelp[v])
	}
	fmt.Fprint(w, exitCodesText)
}

func wantsHelp(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "-h" || a == "-help" || a == "--help" {
			return true
		}
	}
	return false
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(exitCode(err, os.Stderr))
}

// exitCode prints err (a usage error has printed itself) and maps it.
func exitCode(err error, stderr io.Writer) int {
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errUsage):
		return exitUsage
	}
	fmt.Fprintln(stderr, "clausewatch:", err)
	return exitError
}

var errUsage = errors.New("usage")

func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usageText())
		return errUsage
	}
	name, rest := args[0], args[1:]
	// Progress lines come from more than one goroutine at once (a document
	// being read while the PDF engine is prepared), so one at a time.
	stderr = &lockedWriter{w: stderr}
	if name == pdfWorkerCommand { // hidden: started by this program itself
		return runPDFWorker(getenv, stdin, stdout)
	}
	if name == "-h" || name == "-help" || name == "--help" {
		name = "help"
	}
	c := findCommand(name)
	if c == nil {
		fmt.Fprintf(stderr, "unknown command %q\n\n%s", name, usageText())
		return errUsage
	}
	if name == "help" {
		if wantsHelp(rest) {
			printHelp(stdout, c)
			return nil
		}
		if len(rest) == 0 {
			fmt.Fprint(stdout, usageText())
			return nil
		}
		if hc := findCommand(rest[0]); hc != nil {
			printHelp(stdout, hc)
			return nil
		}
		fmt.Fprintf(stderr, "unknown command %q\n\n%s", rest[0], usageText())
		return errUsage
	}
	if wantsHelp(rest) {
		printHelp(stdout, c)
		return nil
	}
	switch name {
	case "serve":
		return runServe(ctx, rest, getenv, stdout, stderr)
	case "migrate":
		if len(rest) > 0 {
			fmt.Fprintf(stderr, "migrate takes no arguments, got %q\n", rest)
			return errUsage
		}
		return runMigrate(ctx, getenv, stdout)
	case "key":
		return runKey(ctx, rest, getenv, stdout, stderr)
	case "account":
		return runAccount(ctx, rest, getenv, stdout, stderr)
	case "extract":
		return runExtract(ctx, rest, getenv, stdin, stdout, stderr)
	case "analyze":
		return runAnalyze(ctx, rest, getenv, stdin, stdout, stderr)
	case "classify":
		if len(rest) > 0 {
			fmt.Fprintf(stderr, "classify takes no arguments (it reads standard input), got %q\n", rest)
			return errUsage
		}
		return runClassify(stdin, stdout)
	case "version":
		return runVersion(rest, stdout, stderr)
	}
	return fmt.Errorf("command %q has no runner", name)
}

// parseFlags parses args with a command's flags, saying what is wrong on a
// bad flag (exit 2).
func parseFlags(c string, args []string, stderr io.Writer) (*flag.FlagSet, error) {
	cmd := findCommand(c)
	fs := flag.NewFlagSet(c, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if cmd.flags != nil {
		cmd.flags(fs)
	}
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(stderr, "%v\nusage: clausewatch %s ('clausewatch %s --help' for more)\n", err, cmd.usage, c)
		return nil, errUsage
	}
	return fs, nil
}

func usageError(stderr io.Writer, c, msg string) error {
	fmt.Fprintf(stderr, "%s\nusage: clausewatch %s ('clausewatch %s --help' for more)\n", msg, findCommand(c).usage, c)
	return errUsage
}

// flagString and flagBool read a parsed flag's value by name.
func flagString(fs *flag.FlagSet, name string) string { return fs.Lookup(name).Value.String() }
func flagBool(fs *flag.FlagSet, name string) bool {
	return fs.Lookup(name).Value.String() == "true"
}

// lockedWriter serialises writes to w.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
