package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/clausewatch/clausewatch/internal/analyze"
	"github.com/clausewatch/clausewatch/internal/app"
)

func runCLI(t *testing.T, env map[string]string, stdin string, args ...string) (string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), args, func(k string) string { return env[k] }, strings.NewReader(stdin), &out, &errb)
	return out.String(), err
}

func TestKeyCreatePrintsOneJSONObject(t *testing.T) {
	env := map[string]string{"DATABASE_URL": "sqlite:" + filepath.Join(t.TempDir(), "cw.db")}
	out, err := runCLI(t, env, "", "key", "create", "--email", "dev@example.com", "--name", "ci", "--scopes", "extract,monitor")
	if err != nil {
		t.Fatal(err)
	}
	var k map[string]any
	if err := json.Unmarshal([]byte(out), &k); err != nil {
		t.Fatalf("%q: %v", out, err)
	}
	raw, _ := k["rawKey"].(string)
	if len(raw) != 53 || k["keyPrefix"] != raw[:12] || k["accountId"] == "" || k["id"] == "" || len(k["scopes"].([]any)) != 2 {
		t.Errorf("key create printed %v", k)
	}
	// The same email is the same account.
	out2, err := runCLI(t, env, "", "key", "create", "--email", "dev@example.com", "--name", "second")
	if err != nil {
		t.Fatal(err)
	}
	var k2 map[string]any
	json.Unmarshal([]byte(out2), &k2)
	if k2["accountId"] != k["accountId"] {
		t.Errorf("second key on another account: %v vs %v", k2["accountId"], k["accountId"])
	}
	if _, err := runCLI(t, env, "", "key", "create", "--email", "x@example.com", "--name", "bad", "--scopes", "admin"); err == nil {
		t.Error("unknown scope accepted")
	}
}

// Without --email the key is the local owner's, the account the sign-in
// that serve prints opens, so it shows up in the owner's portal.
func TestKeyCreateWithoutEmailIsTheOwners(t *testing.T) {
	env := map[string]string{"DATABASE_URL": "sqlite:" + filepath.Join(t.TempDir(), "cw.db")}
	out, err := runCLI(t, env, "", "key", "create", "--name", "dev")
	if err != nil {
		t.Fatal(err)
	}
	var k struct{ AccountID, ID string }
	if err := json.Unmarshal([]byte(out), &k); err != nil {
		t.Fatalf("%q: %v", out, err)
	}
	ctx := context.Background()
	_, store, err := openConfigured(ctx, func(v string) string { return env[v] })
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	svc := app.New(app.Options{Store: store})
	owner, err := svc.EnsureAccount(ctx, ownerIdentity())
	if err != nil {
		t.Fatal(err)
	}
	if owner.ID != k.AccountID {
		t.Fatalf("key create without --email made account %s's key; the owner is %s", k.AccountID, owner.ID)
	}
	keys, err := svc.FindKeys(app.WithPrincipal(ctx, &app.Principal{Account: *owner}), false)
	if err != nil || len(keys) != 1 || keys[0].ID != k.ID {
		t.Errorf("the owner's keys: %v, %v; want the key just created", keys, err)
	}
}

func TestClassifyJSONL(t *testing.T) {
	in := `{"text": "We may terminate your account at any time without notice."}
{"text": "Hello, welcome to our website."}
`
	out, err := runCLI(t, nil, in, "classify")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "unilateral_termination") || lines[1] != `{"labels":[]}` {
		t.Errorf("classify printed %q", out)
	}
	if _, err := runCLI(t, nil, "not json\n", "classify"); err == nil {
		t.Error("malformed line accepted")
	}
}

func TestExtractAndAnalyzeFile(t *testing.T) {
	page := filepath.Join("..", "..", "..", "shared", "data", "extract", "010.html")
	out, err := runCLI(t, nil, "", "extract", "--file", page)
	if err != nil || len(strings.Fields(out)) < 100 {
		t.Fatalf("extract --file: %v, %d words", err, len(strings.Fields(out)))
	}
	md, err := runCLI(t, nil, "", "extract", "--markdown", "--file", page)
	if err != nil || !strings.Contains(md, "#") {
		t.Errorf("extract --markdown: %v", err)
	}
	text := "Terms of Service\n\nWe may terminate your account at any time. Any dispute shall be resolved by binding arbitration."
	if out, err := runCLI(t, nil, text, "extract", "-"); err != nil || !strings.Contains(out, "binding arbitration") {
		t.Errorf("extract - read %q, %v; want the text given on standard input", out, err)
	}
	human, err := runCLI(t, nil, text, "analyze", "-")
	if err != nil || !strings.Contains(human, "Grade ") || !strings.Contains(human, "balance ") ||
		!strings.Contains(human, "[BAD] The service can delete your account") || !strings.Contains(human, "What to check") {
		t.Errorf("analyze -: %v\n%s", err, human)
	}
	for _, l := range strings.Split(human, "\n") {
		if n := utf8.RuneCountInString(l); n > lineWidth {
			t.Errorf("line of %d code points in the terminal view: %q", n, l)
		}
	}
	// --json prints the API's analysis, with the text its offsets count into.
	js, err := runCLI(t, nil, text, "analyze", "--json", "-")
	var a app.Analysis
	if err != nil || json.Unmarshal([]byte(js), &a) != nil || a.Grade == "" || a.Disclaimer != app.Disclaimer || a.Source.WordCount == 0 {
		t.Fatalf("analyze --json: %v %s", err, js)
	}
	runes := []rune(a.Text)
	for _, f := range a.Findings {
		if f.End > len(runes) || string(runes[f.Start:f.End]) != f.Quote {
			t.Errorf("finding %s at %d..%d does not quote the printed text", f.Category, f.Start, f.End)
		}
	}
}

// A PDF is read by a worker process, this program's hidden pdf-worker
// command, which the usage does not list.
func TestExtractPDFInAWorker(t *testing.T) {
	pdf := filepath.Join(t.TempDir(), "terms.pdf")
	content := "BT /F1 12 Tf 72 720 Td (You must be 18 or older to use the service.) Tj ET"
	raw := fmt.Sprintf("%%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n"+
		"2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n"+
		"3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>\nendobj\n"+
		"4 0 obj\n<< /Length %d >>\nstream\n%s\nendstream\nendobj\n"+
		"5 0 obj\n<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>\nendobj\n"+
		"trailer\n<< /Root 1 0 R >>\n%%%%EOF\n", len(content), content)
	if err := os.WriteFile(pdf, []byte(raw), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := runCLI(t, nil, "", "extract", "--file", pdf)
	if err != nil || strings.TrimSpace(out) != "You must be 18 or older to use the service." {
		t.Errorf("extract --file terms.pdf: %q, %v", out, err)
	}
	if strings.Contains(usageText(), pdfWorkerCommand) {
		t.Errorf("the usage lists the hidden %s command", pdfWorkerCommand)
	}
}

// The README's commands name files shipped in examples/; every
// `go run ./cmd/clausewatch extract|analyze FILE` line of it runs as written.
func TestREADMEExamples(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, line := range strings.Split(string(readme), "\n") {
		args, ok := strings.CutPrefix(line, "go run ./cmd/clausewatch ")
		if !ok || !strings.Contains(args, "examples/") {
			continue
		}
		fields := strings.Fields(args)
		for i, f := range fields {
			if strings.HasPrefix(f, "examples/") {
				fields[i] = filepath.Join("..", "..", f)
			}
		}
		out, err := runCLI(t, nil, "", fields...)
		if err != nil || len(strings.Fields(out)) < 100 {
			t.Errorf("%s: %v, %d words", line, err, len(strings.Fields(out)))
		}
		ran++
	}
	if ran < 2 {
		t.Errorf("the README runs %d commands on examples/, want the extract and analyze ones", ran)
	}
}

// A URL goes through the fetcher the API uses: refused on loopback unless
// allowlisted, and reported with the URL it was finally read from.
func TestExtractAndAnalyzeURL(t *testing.T) {
	docs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/terms" {
			http.Redirect(w, r, "/legal/terms-2026", http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<html><head><title>Terms of Service</title></head><body><main><h1>Terms of Service</h1>
<p>We may terminate your account at any time. Any dispute shall be resolved by binding arbitration.</p>
<p>See the <a href="privacy">privacy policy</a>.</p></main></body></html>`)
	}))
	defer docs.Close()
	url := docs.URL + "/terms"
	env := map[string]string{"CLAUSEWATCH_FETCH_ALLOW_HOSTS": docs.Listener.Addr().String()}

	js, err := runCLI(t, env, "", "extract", "--json", url)
	var x app.Extraction
	if err != nil || json.Unmarshal([]byte(js), &x) != nil {
		t.Fatalf("extract --json URL: %v %s", err, js)
	}
	if x.URL != url || x.FinalURL != docs.URL+"/legal/terms-2026" || !strings.Contains(x.Text, "binding arbitration") || x.ContentHash == "" {
		t.Errorf("extract --json URL: %+v", x)
	}
	if md, err := runCLI(t, env, "", "extract", "--markdown", url); err != nil || !strings.Contains(md, docs.URL+"/legal/privacy") {
		t.Errorf("links resolve against the final URL: %v\n%s", err, md)
	}
	js, err = runCLI(t, env, "", "analyze", "--json", url)
	var a app.Analysis
	if err != nil || json.Unmarshal([]byte(js), &a) != nil || a.Source.URL != url || a.Source.ContentHash != x.ContentHash || len(a.Findings) == 0 {
		t.Errorf("analyze --json URL: %v %s", err, js)
	}
	if _, err := runCLI(t, nil, "", "extract", url); err == nil || !strings.Contains(err.Error(), "public") {
		t.Errorf("loopback without the allow list: %v, want refused as not public", err)
	}
}

// A URL the fetcher refuses for where it points (a port, an address that is
// not public) is refused once, in words that name the variable allowing it:
// the quick start's own local server is such a URL.
func TestFetchRefusalNamesTheAllowList(t *testing.T) {
	for _, url := range []string{"http://127.0.0.1:8000/page.html", "http://127.0.0.1/page.html"} {
		_, err := runCLI(t, nil, "", "extract", url)
		if err == nil {
			t.Fatalf("extract %s: fetched without the allow list", url)
		}
		msg := err.Error()
		if strings.Count(msg, "is not") != 1 || !strings.Contains(msg, "CLAUSEWATCH_FETCH_ALLOW_HOSTS=127.0.0.1:") {
			t.Errorf("extract %s: %q, want the refusal once and the allow list named", url, msg)
		}
	}
}

// Without the models every document would be graded with no unfair
// clause found: the server and the analyzing commands refuse to start.
func TestRefusesToStartWithoutTheModel(t *testing.T) {
	broken := errors.New("analyze: embedded clause model: unexpected EOF")
	defer func(orig func() (*analyze.Engine, error)) { loadAnalyzer = orig }(loadAnalyzer)
	loadAnalyzer = func() (*analyze.Engine, error) { return nil, broken }
	env := map[string]string{"DATABASE_URL": "sqlite:" + filepath.Join(t.TempDir(), "cw.db")}
	for _, args := range [][]string{{"serve", "--addr", "127.0.0.1:0"}, {"analyze", "-"}, {"classify"}} {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		var out, errb bytes.Buffer
		err := run(ctx, args, func(k string) string { return env[k] }, strings.NewReader("We may terminate your account."), &out, &errb)
		cancel()
		if !errors.Is(err, broken) || !strings.Contains(err.Error(), "models cannot be loaded") {
			t.Errorf("%s: %v, want the model's load error", args[0], err)
		}
	}
}

// A PDF cache directory that cannot be made stops the server and the
// document commands at start, naming the variable, not on the first PDF.
func TestRefusesToStartWithAnUnusablePDFCache(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"DATABASE_URL": "sqlite:" + filepath.Join(t.TempDir(), "cw.db"), "CLAUSEWATCH_PDF_CACHE_DIR": filepath.Join(file, "pdf")}
	for _, args := range [][]string{{"serve", "--addr", "127.0.0.1:0"}, {"analyze", "-"}, {"extract", "-"}} {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		var out, errb bytes.Buffer
		err := run(ctx, args, func(k string) string { return env[k] }, strings.NewReader("We may terminate your account."), &out, &errb)
		cancel()
		if err == nil || !strings.Contains(err.Error(), "CLAUSEWATCH_PDF_CACHE_DIR") {
			t.Errorf("%s: %v, want an error naming CLAUSEWATCH_PDF_CACHE_DIR", args[0], err)
		}
	}
}

func TestUsageAndBadConfig(t *testing.T) {
	if _, err := runCLI(t, nil, ""); err == nil {
		t.Error("no command accepted")
	}
	if _, err := runCLI(t, nil, "", "frobnicate"); err == nil {
		t.Error("unknown command accepted")
	}
	_, err := runCLI(t, map[string]string{"DATABASE_URL": "mysql://x"}, "", "migrate")
	if err == nil || !strings.Contains(err.Error(), "DATABASE_URL") {
		t.Errorf("bad config: %v", err)
	}
}
