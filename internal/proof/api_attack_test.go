//go:build proof

package proof

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
	"github.com/clausewatch/clausewatch/internal/session"
)

// Issue 29's attacks on the API's amplifiers (version diffs, GraphQL's
// aliases and text budget, MCP's batches) and on sign-out. Each logs a
// "figures:" line (processor time of the replicas, their peak resident
// memory, the answer's status and size, scans drawn), the numbers
// docs/security.md compares before and after.

// largeVersionPath is a monitored page of about 1.2 million characters of
// terms (the trial's version diff of a 1.2M-character version with itself
// cost 20-23 s of CPU). It answers 304 to a conditional request, so the
// monitor's checks cost little: the version is stored once, at creation.
const largeVersionPath = "/large-version"

// growsPath is a monitored page that grows past the text limit after its
// first fetch.
const growsPath = "/grows"

// largeVersionPage is the HTML of largeVersionPath.
func largeVersionPage() []byte {
	return []byte("<html><head><title>Terms of Service</title></head><body><main><h1>Terms of Service</h1>\n" +
		largeTerms(1_200_000, "<p>", "</p>\n") + "</main></body></html>")
}

// largeTerms is about n bytes of numbered sections of terms, each of four
// clauses the analysis finds, between open and close.
func largeTerms(n int, open, close string) string {
	var b strings.Builder
	clauses := []string{
		"We may terminate your account at any time without notice.",
		"Any dispute shall be resolved by binding arbitration, and you waive any class action.",
		"We may share your personal data with our partners for advertising.",
		"We may change these terms at any time without telling you.",
	}
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "%sSection %d. %s%s", open, i, clauses[i%len(clauses)], close)
	}
	return b.String()
}

// serveAPIAttacks answers the paths of these attacks, and reports whether
// it did.
func serveAPIAttacks(w http.ResponseWriter, r *http.Request, large []byte) bool {
	if r.URL.Path != largeVersionPath {
		return false
	}
	w.Header().Set("ETag", `"large-v1"`)
	if r.Header.Get("If-None-Match") == `"large-v1"` {
		w.WriteHeader(http.StatusNotModified)
		return true
	}
	_, _ = w.Write(large)
	return true
}

// meter reads the replicas' processor time before an attack, to tell what
// it cost.
type meter struct {
	a   *attack
	cpu []time.Duration
}

func (a *attack) meter(t *testing.T) *meter {
	t.Helper()
	m := &meter{a: a}
	for _, p := range a.procs {
		d, err := p.CPUTime()
		if err != nil {
			t.Fatal(err)
		}
		m.cpu = append(m.cpu, d)
	}
	return m
}

// used is the processor time replica i (every replica, when i < 0) spent
// since the meter was made, counted a second after the call, so work that
// goes on after the answer counts too; a replica that exited counts what
// it had at the start.
func (m *meter) used(t *testing.T, i int) time.Duration {
	t.Helper()
	time.Sleep(time.Second)
	var sum time.Duration
	for j, p := range m.a.procs[:len(m.cpu)] {
		if p.Exited() || (i >= 0 && j != i) {
			continue
		}
		d, err := p.CPUTime()
		if err != nil {
			t.Error(err)
			continue
		}
		sum += d - m.cpu[j]
	}
	return sum
}

// peakRSS is the most resident memory any replica has held.
func (a *attack) peakRSS() int64 {
	var most int64
	for _, p := range a.procs {
		if n, err := p.PeakRSS(); err == nil {
			most = max(most, n)
		}
	}
	return most
}

// figures logs one attack's cost in the form docs/security.md quotes: the
// peak resident memory of the replica attacked, and the most of any.
func (a *attack) figures(t *testing.T, what string, cpu time.Duration, r result, scans int) {
	t.Helper()
	peak, _ := a.procs[r.replica].PeakRSS()
	t.Logf("figures: %s: CPU %.1f s, peak RSS %d MB (of any replica %d MB), status %d, response %d bytes, scans %d",
		what, cpu.Seconds(), peak>>20, a.peakRSS()>>20, r.status, len(r.body), scans)
}

// largeAnalysis analyzes about 1.4 million characters of terms with key
// (one scan) on the last replica, so that the memory of the analysis is
// not the attacked replica's (0), and returns the analysis id.
func (a *attack) largeAnalysis(t *testing.T, key string) string {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"text": largeTerms(1_400_000, "", "\n\n")})
	r := a.doWithin(2*time.Minute, len(a.procs)-1, "POST", "/api/analyze", key, body)
	var an struct{ ID string }
	if r.status != http.StatusOK || json.Unmarshal(r.body, &an) != nil || an.ID == "" {
		t.Fatalf("analyze %d bytes: %d %.300s %v", len(body), r.status, r.body, r.err)
	}
	return an.ID
}

// aliases is a query of n aliases of field, which may use $id.
func aliases(decl, field string, n int) string {
	var q strings.Builder
	fmt.Fprintf(&q, "query(%s) {", decl)
	for i := range n {
		fmt.Fprintf(&q, " a%d: %s", i, field)
	}
	q.WriteString(" }")
	return q.String()
}

// requestCPUBound is the processor time the replica attacked may spend on
// one refused or amplified request (issue 29: under 2 s a request),
// counted until a second after the answer.
const requestCPUBound = 2 * time.Second

// diffCPUBound is the processor time one version diff of a 1.2M-character
// version with itself may cost, all replicas together: one analysis of it
// (the trial's took 20-23 s, two analyses and nothing remembered), on a
// machine other work shares.
const diffCPUBound = 5 * time.Second

// A version diff ran two whole analyses on every call, drew no scan and
// remembered nothing: a diff of a 1.2M-character version with itself cost
// 20-23 s of CPU over REST, free, and 60 GraphQL aliases of one took 155 s
// of CPU and every analysis place, so other accounts' analyses got 503.
// Then each diff drew one scan, given back only when it fails, and a
// version compared with itself was analyzed once: the free key's five
// scans were five diffs in one request (9.1 s of CPU), the other aliases
// refused RATE_LIMITED. Now a request computes one diff
// (graph.MaxVersionDiffs): the first alias is answered, the 59 others are
// null with INVALID, computing nothing and drawing no scan, and another
// account's small analyses are answered meanwhile.
func versionDiffAttack(t *testing.T, a *attack) {
	keys, acct := a.freeKeys(t, "version-diff@proof.example", 3, "monitor")
	others, _ := a.freeKeys(t, "version-diff-other@proof.example", 1, "analyze")
	id := a.monitor(t, keys[0], a.site.URL+largeVersionPath)
	defer func() {
		if err := a.store.DeleteMonitor(t.Context(), acct.ID, id, time.Now()); err != nil {
			t.Error(err)
		}
	}()
	m, err := a.store.FindMonitor(t.Context(), acct.ID, id)
	if err != nil || m.ContentHash == "" {
		t.Fatalf("the monitor of the large page: %+v %v", m, err)
	}
	hash := m.ContentHash
	const i = 0 // one replica takes it all

	// Over REST, the version with itself.
	meter := a.meter(t)
	q := url.Values{"monitorId": {id}, "from": {hash}, "to": {hash}}
	r := a.doWithin(2*time.Minute, i, "GET", "/api/monitor/versions/diff?"+q.Encode(), keys[1], nil)
	cpu := meter.used(t, -1)
	scans := a.scansUsed(i, keys[1])[keys[1][:12]]
	a.figures(t, "REST diff of a 1.2M-character version with itself", cpu, r, scans)
	if r.status != http.StatusOK {
		t.Errorf("the diff over REST: %d %.300s %v", r.status, r.body, r.err)
	}
	if scans != 1 {
		t.Errorf("the diff over REST drew %d scans, want 1", scans)
	}
	if cpu > diffCPUBound {
		t.Errorf("the diff over REST cost %v of processor time, want at most %v", cpu, diffCPUBound)
	}

	// 60 aliases in one GraphQL request, while another account analyzes.
	const n = 60
	query := aliases("$m: ID!, $h: String!", "monitorVersionDiff(monitorId: $m, from: $h, to: $h) { gradeBefore gradeAfter }", n)
	meter = a.meter(t)
	done := make(chan struct{})
	var wg sync.WaitGroup
	var otherAnswered int
	var otherLongest time.Duration
	wg.Go(func() {
		// Another account's small analyses on the same replica, one after
		// another while the aliases run, each answered within a bound.
		const within = 30 * time.Second
		for {
			select {
			case <-done:
				return
			default:
			}
			start := time.Now()
			r := a.doWithin(within, i, "POST", "/api/analyze", others[0], analyzeBody)
			if r.status == http.StatusTooManyRequests {
				return // the other key's own five scans are spent
			}
			if r.status != http.StatusOK {
				t.Errorf("another account's small analysis during the aliases: %d %.300s %v (after %v)", r.status, r.body, r.err, time.Since(start).Round(time.Millisecond))
			} else {
				otherAnswered++
				otherLongest = max(otherLongest, time.Since(start))
			}
			time.Sleep(time.Second)
		}
	})
	r, g := a.graphql(i, keys[2], query, map[string]any{"m": id, "h": hash}, 3*time.Minute)
	close(done)
	wg.Wait()
	cpu = meter.used(t, -1)
	scans = a.scansUsed(i, keys[2])[keys[2][:12]]
	a.figures(t, fmt.Sprintf("%d GraphQL aliases of the diff", n), cpu, r, scans)
	if r.status != http.StatusOK || r.err != nil {
		t.Fatalf("%d aliases of the diff: %d %.300s %v", n, r.status, r.body, r.err)
	}
	refused := map[string]int{}
	for _, e := range g.Errors {
		refused[e.Extensions.Code]++
	}
	var data map[string]json.RawMessage
	_ = json.Unmarshal(g.Data, &data)
	ran := 0
	for _, v := range data {
		if string(v) != "null" {
			ran++
		}
	}
	answeredFirst := len(data["a0"]) > 0 && string(data["a0"]) != "null"
	t.Logf("%d aliases: %d diffs ran (the first: %v), refused %v; another account's small analyses meanwhile: %d answered, the longest in %v",
		n, ran, answeredFirst, refused, otherAnswered, otherLongest.Round(time.Millisecond))
	if ran != 1 || !answeredFirst || scans != 1 || refused["INVALID"] != n-1 || len(g.Errors) != n-1 {
		t.Errorf("%d aliases: %d diffs ran (a0 answered: %v), %d scans drawn, refused %v; want the first alone answered, one scan, the rest INVALID",
			n, ran, answeredFirst, scans, refused)
	}
	if cpu > diffCPUBound {
		t.Errorf("%d aliases cost %v of processor time, want at most one diff's %v", n, cpu, diffCPUBound)
	}
	a.survived(t)
}

// 40 aliases of a large analysis's findings' texts made a 186 MB response
// of 873,665 errors and a 2.1 GB peak: each string refused past the 16 MiB
// text budget added an error object the budget did not count. Now the
// operation ends at the budget with one RESPONSE_TOO_LARGE error.
func errorBudgetAttack(t *testing.T, a *attack) {
	keys, _ := a.freeKeys(t, "error-budget@proof.example", 1, "analyze")
	id := a.largeAnalysis(t, keys[0])
	const i = 0
	meter := a.meter(t)
	r, g := a.graphql(i, keys[0], aliases("$id: ID!", "analysis(id: $id) { findings { quote explanation guidance } }", 40),
		map[string]any{"id": id}, 2*time.Minute)
	cpu := meter.used(t, i)
	scans := a.scansUsed(i, keys[0])[keys[0][:12]]
	a.figures(t, "40 aliases of a large analysis's findings", cpu, r, scans)
	refusedClearly(t, "40 aliases of findings' texts", r, g)
	if len(g.Errors) != 1 || g.Errors[0].Extensions.Code != "RESPONSE_TOO_LARGE" {
		codes := map[string]int{}
		for _, e := range g.Errors {
			codes[e.Extensions.Code]++
		}
		t.Errorf("40 aliases of findings' texts: errors %v, want one RESPONSE_TOO_LARGE", codes)
	}
	if len(r.body) > 64<<10 {
		t.Errorf("40 aliases of findings' texts: a response of %d bytes, want at most 64 KiB (one error)", len(r.body))
	}
	if scans != 1 {
		t.Errorf("reading the analysis drew scans: %d used, want 1 (the analysis)", scans)
	}
	if cpu > requestCPUBound {
		t.Errorf("40 aliases of findings' texts cost %v of processor time, want at most %v", cpu, requestCPUBound)
	}
	a.survived(t)
}

// 100 aliases of analysis(id) { grade } each loaded the whole stored
// analysis (findings and text): a 2 KB answer and a 2.3 GB peak on
// PostgreSQL. Now the aliases of one id load it once, only the columns the
// selection needs.
func aliasLoadAttack(t *testing.T, a *attack) {
	keys, _ := a.freeKeys(t, "alias-load@proof.example", 1, "analyze")
	id := a.largeAnalysis(t, keys[0])
	const i = 0
	meter := a.meter(t)
	r, g := a.graphql(i, keys[0], aliases("$id: ID!", "analysis(id: $id) { grade }", 100), map[string]any{"id": id}, 2*time.Minute)
	cpu := meter.used(t, i)
	a.figures(t, "100 aliases of a large analysis's grade", cpu, r, a.scansUsed(i, keys[0])[keys[0][:12]])
	var data map[string]struct{ Grade string }
	if r.status != http.StatusOK || len(g.Errors) > 0 || json.Unmarshal(g.Data, &data) != nil || len(data) != 100 {
		t.Errorf("100 aliases of grade: %d %.300s %v", r.status, r.body, r.err)
	}
	if cpu > requestCPUBound {
		t.Errorf("100 aliases of grade cost %v of processor time, want at most %v", cpu, requestCPUBound)
	}
	a.survived(t)
}

// mcpBatchCalls is the trial's batch: 40,000 tools/list calls in one body
// (under /mcp's 4 MiB) answered 136 MB for 27 s of CPU and a 958 MB peak.
const mcpBatchCalls = 40_000

// A JSON-RPC batch of any length was answered call by call. Now a batch of
// more than 10 calls is one JSON-RPC error before any call runs, and one of
// 10 is answered.
func mcpBatchAttack(t *testing.T, a *attack) {
	keys, _ := a.freeKeys(t, "mcp-batch@proof.example", 1, "extract")
	batch := func(n int) []byte {
		var b bytes.Buffer
		b.WriteByte('[')
		for j := range n {
			if j > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`, j+1)
		}
		b.WriteByte(']')
		return b.Bytes()
	}
	const i = 0
	post := func(body []byte) result {
		return a.doWithin(2*time.Minute, i, "POST", "/mcp", keys[0], body, "Accept", "application/json, text/event-stream")
	}
	if r := post(batch(10)); r.status != http.StatusOK || bytes.Count(r.body, []byte(`"tools"`)) != 10 {
		t.Errorf("a batch of 10 tools/list: %d, %d bytes, %d answers %.300s", r.status, len(r.body), bytes.Count(r.body, []byte(`"tools"`)), r.body)
	}
	meter := a.meter(t)
	body := batch(mcpBatchCalls)
	r := post(body)
	cpu := meter.used(t, i)
	a.figures(t, fmt.Sprintf("MCP batch of %d tools/list (%d bytes)", mcpBatchCalls, len(body)), cpu, r, a.scansUsed(i, keys[0])[keys[0][:12]])
	var rpc struct {
		Error *struct {
			Code    int
			Message string
		}
	}
	if r.err != nil || json.Unmarshal(r.body, &rpc) != nil || rpc.Error == nil {
		t.Errorf("a batch of %d tools/list: %d, %d bytes %.300s %v, want one JSON-RPC error", mcpBatchCalls, r.status, len(r.body), r.body, r.err)
	}
	if len(r.body) > 4<<10 {
		t.Errorf("a batch of %d tools/list answered %d bytes, want at most 4 KiB", mcpBatchCalls, len(r.body))
	}
	if cpu > requestCPUBound {
		t.Errorf("a batch of %d tools/list cost %v of processor time, want at most %v", mcpBatchCalls, cpu, requestCPUBound)
	}
	a.survived(t)
}

// Revocation was keyed on the hash of the token as written, and the JWT
// parser read other spellings of the same signature: after sign-out, the
// token with its last character changed worked again, as bearer, cookie and
// sign-in. Now, on every replica, the signed-out token is refused in every
// spelling each way, while another session of the account goes on.
func respellingAttack(t *testing.T, a *attack) {
	email := "respelled@proof.example"
	_, _ = a.freeKeys(t, email, 0)
	mint := func(ttl time.Duration) string {
		tok, err := session.MintHS256([]byte(sessionSecret), app.LocalSubject(email), email, "", "", ttl)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	token, other := mint(time.Hour), mint(2*time.Hour)
	viewer := []byte(`{"query":"{ viewer { email } }"}`)
	signedIn := func(r result) bool {
		var g struct {
			Data struct{ Viewer *struct{ Email string } }
		}
		return r.status == http.StatusOK && json.Unmarshal(r.body, &g) == nil && g.Data.Viewer != nil && g.Data.Viewer.Email == email
	}
	signIn := func(i int, tok string) result {
		body, _ := json.Marshal(map[string]string{"token": tok})
		return a.do(i, "POST", "/session", "", body)
	}
	if r := a.do(0, "POST", "/graphql", token, viewer); !signedIn(r) {
		t.Fatalf("the session before sign-out: %d %.300s %v", r.status, r.body, r.err)
	}
	if r := signIn(0, token); r.status != http.StatusOK {
		t.Fatalf("sign in: %d %.300s %v", r.status, r.body, r.err)
	}
	if r := a.do(1, "DELETE", "/session", "", nil, "Cookie", "clausewatch_session="+token); r.status != http.StatusNoContent {
		t.Fatalf("sign out: %d %.300s %v", r.status, r.body, r.err)
	}
	tried, accepted := 0, 0
	for i := range a.procs {
		for _, tok := range append([]string{token}, apptest.Respellings(t, token)...) {
			spelled := "as written"
			if tok != token {
				spelled = "respelled ..." + tok[len(tok)-4:]
			}
			ways := map[string]result{
				"as bearer":  a.do(i, "POST", "/graphql", tok, viewer),
				"as cookie":  a.do(i, "POST", "/graphql", "", viewer, "Cookie", "clausewatch_session="+tok),
				"to sign in": signIn(i, tok),
			}
			for way, r := range ways {
				tried++
				ok := signedIn(r)
				if way == "to sign in" {
					ok = r.status != http.StatusUnauthorized || strings.Contains(strings.Join(r.hdr.Values("Set-Cookie"), ";"), "clausewatch_session=ey")
				}
				if ok || r.err != nil {
					accepted++
					t.Errorf("replica %d: the signed-out token %s %s: %d %.200s %v, want 401", i, spelled, way, r.status, r.body, r.err)
				}
			}
		}
		if r := a.do(i, "POST", "/graphql", other, viewer); !signedIn(r) {
			t.Errorf("replica %d: the account's other session: %d %.300s %v, want it signed in", i, r.status, r.body, r.err)
		}
	}
	t.Logf("figures: signed-out token respelled: %d of %d tries accepted (%d replicas, 6 spellings, 3 ways)", accepted, tried, len(a.procs))
	a.survived(t)
}

// The low items of issue 29, as a client meets them on a replica: /docs
// loaded its logo from another host and sent no Content-Security-Policy
// (defect 11: now a policy that allows no other host); a refused MCP call was logged as a success, so usage's
// errors never showed it (defect 12); a monitored page past the text
// limit failed as not_a_document where the docs say too_large (defect 13).
func lowItemsAttack(t *testing.T, a *attack) {
	const i = 0
	r := a.do(i, "GET", "/docs", "", nil)
	csp := r.hdr.Get("Content-Security-Policy")
	t.Logf("figures: /docs: status %d, %d bytes, Content-Security-Policy %q", r.status, len(r.body), csp)
	// The policy is what keeps the page's script from loading anything from
	// another host (its default-src, img-src and font-src name none).
	if r.status != http.StatusOK || !strings.Contains(csp, "default-src 'none'") || strings.Contains(csp, "http") {
		t.Errorf("/docs: %d, Content-Security-Policy %q; want default-src 'none' and no other host", r.status, csp)
	}

	keys, _ := a.freeKeys(t, "mcp-refused@proof.example", 1, "extract")
	call := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"analyze","arguments":{"text":"We may terminate your account at any time."}}}`)
	r = a.do(i, "POST", "/mcp", keys[0], call, "Accept", "application/json, text/event-stream")
	if !strings.Contains(string(r.body), "scope") {
		t.Errorf("an MCP analyze on an extract-only key: %d %.300s %v, want refused for its scope", r.status, r.body, r.err)
	}
	var usage struct {
		Stats struct {
			ErrorCount   int
			RecentErrors []struct{ Path string }
		}
	}
	logged := a.waitFor(10*time.Second, func() bool {
		u := a.do(i, "GET", "/api/developer/usage", keys[0], nil)
		return json.Unmarshal(u.body, &usage) == nil && usage.Stats.ErrorCount > 0
	})
	t.Logf("figures: a refused MCP call: status %d, %d bytes; usage: %d errors, recent %+v", r.status, len(r.body), usage.Stats.ErrorCount, usage.Stats.RecentErrors)
	if !logged || len(usage.Stats.RecentErrors) == 0 || usage.Stats.RecentErrors[0].Path != "/mcp" {
		t.Errorf("a refused MCP call: usage counts %d errors, recent %+v; want it among the errors", usage.Stats.ErrorCount, usage.Stats.RecentErrors)
	}

	keys, acct := a.freeKeys(t, "too-large@proof.example", 1, "monitor")
	id := a.monitor(t, keys[0], a.site.URL+growsPath)
	code := ""
	a.waitFor(20*time.Second, func() bool {
		m, err := a.store.FindMonitor(t.Context(), acct.ID, id)
		if err == nil {
			code = m.LastErrorCode
		}
		return code != ""
	})
	if err := a.store.DeleteMonitor(t.Context(), acct.ID, id, time.Now()); err != nil {
		t.Error(err)
	}
	t.Logf("figures: a monitored page grown past the text limit: lastErrorCode %q after %d fetches", code, a.site.count(growsPath))
	if code != "too_large" {
		t.Errorf("a monitored page grown past the text limit: lastErrorCode %q, want too_large", code)
	}
	a.survived(t)
}
