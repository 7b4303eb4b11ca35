package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clausewatch/clausewatch/internal/config"
)

// stdinTrap fails the test if a command reads standard input.
type stdinTrap struct{ t *testing.T }

func (s stdinTrap) Read([]byte) (int, error) {
	s.t.Error("a --help read standard input")
	return 0, errors.New("read")
}

// Every command's --help (and -h, and help COMMAND) prints its flags and
// environment variables, reads no input, touches no database and runs nothing.
func TestHelpRunsNothing(t *testing.T) {
	for _, c := range commands {
		variants := [][]string{{c.name, "--help"}, {c.name, "-h"}, {"help", c.name}}
		if c.name == "key" {
			variants = append(variants, []string{"key", "create", "--name", "x", "--help"})
		}
		for _, args := range variants {
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				dir := t.TempDir()
				env := map[string]string{"DATABASE_URL": "sqlite:" + filepath.Join(dir, "cw.db"), "CLAUSEWATCH_ADDR": "256.0.0.1:1"}
				var out, errb bytes.Buffer
				err := run(context.Background(), args, func(k string) string { return env[k] }, stdinTrap{t}, &out, &errb)
				if err != nil {
					t.Fatalf("%v; stderr %s", err, errb.String())
				}
				if entries, _ := os.ReadDir(dir); len(entries) != 0 {
					t.Errorf("--help made %v: it ran the command", entries)
				}
				help := out.String()
				if !strings.Contains(help, "usage: clausewatch "+c.name) || !strings.Contains(help, "exit codes:") {
					t.Errorf("help lacks its usage line or exit codes:\n%s", help)
				}
				if c.flags != nil {
					fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
					c.flags(fs)
					fs.VisitAll(func(f *flag.Flag) {
						if !strings.Contains(help, "-"+f.Name) {
							t.Errorf("help lacks the flag -%s:\n%s", f.Name, help)
						}
					})
				}
				for _, v := range c.env {
					if !strings.Contains(help, v) {
						t.Errorf("help lacks %s", v)
					}
				}
			})
		}
	}
}

// The environment variables the helps name are the ones the configuration
// reads, each described; serve names all of them.
func TestHelpNamesTheEnvironmentRead(t *testing.T) {
	read := map[string]bool{}
	config.Load(func(k string) string { read[k] = true; return "" })
	for k := range read {
		if envHelp[k] == "" {
			t.Errorf("config reads %s, which no help describes", k)
		}
		if !strings.Contains(strings.Join(allEnv, " "), k) {
			t.Errorf("serve's help omits %s", k)
		}
	}
	for _, c := range commands {
		for _, v := range c.env {
			if !read[v] {
				t.Errorf("%s's help names %s, which the configuration never reads", c.name, v)
			}
		}
	}
}

func TestExitCodes(t *testing.T) {
	var errb bytes.Buffer
	for _, tc := range []struct {
		args []string
		want int
	}{
		{[]string{"version"}, exitOK},
		{[]string{"help"}, exitOK},
		{[]string{}, exitUsage},
		{[]string{"nope"}, exitUsage},
		{[]string{"analyze", "--bogus", "x"}, exitUsage},
		{[]string{"analyze"}, exitUsage},
		{[]string{"key", "create"}, exitUsage},
		{[]string{"account", "plan", "--email", "a@b.c", "gold"}, exitUsage},
		{[]string{"account", "plan", "--email", "@", "base"}, exitUsage},
		{[]string{"account", "plan", "--email", "Ops <ops@example.com>", "base"}, exitUsage},
		{[]string{"key", "create", "--email", "a@", "--name", "k"}, exitUsage},
		{[]string{"migrate", "extra"}, exitUsage},
		{[]string{"analyze", filepath.Join(t.TempDir(), "missing.html")}, exitError},
	} {
		err := run(context.Background(), tc.args, func(string) string { return "" }, strings.NewReader(""), &bytes.Buffer{}, &errb)
		if got := exitCode(err, &errb); got != tc.want {
			t.Errorf("%q: exit %d, want %d (%v)", tc.args, got, tc.want, err)
		}
	}
}

func TestVersionNamesExtractorAndModels(t *testing.T) {
	out, err := runCLI(t, nil, "", "version")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"clausewatch ", "commit ", "extractor  20", "models     clauses-"} {
		if !strings.Contains(out, want) {
			t.Errorf("version lacks %q:\n%s", want, out)
		}
	}
}

// account plan sets the plan before the first key (the account is made) and
// lifts the free cap of 3 keys.
func TestAccountPlan(t *testing.T) {
	env := map[string]string{"DATABASE_URL": "sqlite:" + filepath.Join(t.TempDir(), "cw.db")}
	out, err := runCLI(t, env, "", "account", "plan", "--email", "Ops@Example.com", "base")
	if err != nil || !strings.Contains(out, `"plan":"base"`) {
		t.Fatalf("%s %v", out, err)
	}
	for i := range 4 {
		if _, err := runCLI(t, env, "", "key", "create", "--email", "ops@example.com", "--name", "k"); err != nil {
			t.Fatalf("key %d on base: %v", i+1, err)
		}
	}
	if _, err := runCLI(t, env, "", "account", "plan", "--email", "ops@example.com", "free"); err != nil {
		t.Fatal(err)
	}
	_, err = runCLI(t, env, "", "key", "create", "--email", "ops@example.com", "--name", "k")
	if err == nil || !strings.Contains(err.Error(), "API key limit reached") {
		t.Errorf("a fifth key back on free: %v", err)
	}
}
