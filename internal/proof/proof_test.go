//go:build proof

// Package proof drives real `clausewatch serve` processes on loopback, five
// replicas on one PostgreSQL behind a round-robin client, through what a
// deployment meets: concurrency on one budget, duplicate webhooks,
// revocation, a replica killed mid-load, PostgreSQL restarted mid-load, and
// the attacks free accounts can make (attack_test.go). Each test is bounded
// in requests and time. Run by make proof (build tag proof), never by plain
// go test.
package proof

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/stripe/stripe-go/v76/webhook"

	"github.com/clausewatch/clausewatch/db"
	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/replica"
)

const webhookSecret = "whsec_proof_secret"

// sessionSecret signs the replicas' account-session tokens (HS256).
const sessionSecret = "proof-session-secret-0123456789abcdef"

// replicas is how many processes share the database in every test.
const replicas = 5

var bin string

// binEnv names a clausewatch binary the replicas run instead of one built
// from this tree: the same attacks against an older build (docs/security.md
// has the figures of bf5a7bb, the commit the adversarial trial attacked).
// The database is migrated by this tree's code either way.
const binEnv = "CLAUSEWATCH_PROOF_BIN"

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "proof")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if bin = os.Getenv(binEnv); bin != "" {
		fmt.Fprintf(os.Stderr, "proof: replicas run %s (%s)\n", bin, binEnv)
	} else if bin, err = replica.Build(context.Background(), "../..", dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := dbtest.Main(m)
	os.RemoveAll(dir)
	os.Exit(code)
}

// cluster is n replicas on one database and a client that sends each
// request to the next replica in turn.
type cluster struct {
	t     *testing.T
	dbURL string
	env   []string // added to every replica's environment
	store *db.Store
	procs []*replica.Process
	next  atomic.Int64
}

func newCluster(t *testing.T, dbURL string, n int, env ...string) *cluster {
	t.Helper()
	store, err := db.Open(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	if err := store.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	c := &cluster{t: t, dbURL: dbURL, store: store, env: env}
	for range n {
		c.start(t, "")
	}
	return c
}

// start runs one more replica (on addr, when given) and returns its index;
// t is the test (or subtest) it fails.
func (c *cluster) start(t testing.TB, addr string) int {
	t.Helper()
	env := []string{
		"DATABASE_URL=" + c.dbURL,
		"CLAUSEWATCH_AUTH_HS256_SECRET=" + sessionSecret,
		"CLAUSEWATCH_WEBHOOK_SECRET=" + webhookSecret,
		"CLAUSEWATCH_MONITOR_WORKERS=0",
		"CLAUSEWATCH_LOG_LEVEL=warn",
	}
	env = append(env, c.env...) // later values win
	var p *replica.Process
	var err error
	if addr == "" {
		p, err = replica.Start(bin, c.t.TempDir(), env...)
	} else {
		p, err = replica.StartOn(bin, c.t.TempDir(), addr, env...)
	}
	if err != nil {
		t.Fatal(err)
	}
	c.t.Cleanup(func() {
		if !p.Exited() {
			p.Kill()
		}
	})
	c.procs = append(c.procs, p)
	return len(c.procs) - 1
}

type result struct {
	replica int
	status  int
	hdr     http.Header
	body    []byte
	err     error
}

// do sends one request to replica i (-1: the next in turn).
func (c *cluster) do(i int, method, path, key string, body []byte, header ...string) result {
	return c.doWithin(30*time.Second, i, method, path, key, body, header...)
}

// doWithin is do, waiting at most within for the whole answer.
func (c *cluster) doWithin(within time.Duration, i int, method, path, key string, body []byte, header ...string) result {
	if i < 0 {
		i = int(c.next.Add(1)-1) % len(c.procs)
	}
	req, err := http.NewRequest(method, c.procs[i].URL+path, bytes.NewReader(body))
	if err != nil {
		return result{replica: i, err: err}
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	for j := 0; j+1 < len(header); j += 2 {
		req.Header.Set(header[j], header[j+1])
	}
	client := &http.Client{Timeout: within}
	res, err := client.Do(req)
	if err != nil {
		return result{replica: i, err: err}
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return result{replica: i, status: res.StatusCode, hdr: res.Header, body: b, err: err}
}

func (c *cluster) keys(email string, tier app.Tier, n int, scopes ...string) ([]string, *app.Account) {
	c.t.Helper()
	keys, acct, err := replica.Keys(context.Background(), c.store, email, tier, n, scopes...)
	if err != nil {
		c.t.Fatal(err)
	}
	return keys, acct
}

var analyzeBody = []byte(`{"text":"We may terminate your account at any time. Any dispute shall be resolved by binding arbitration."}`)

// Twelve concurrent scans on a free key (5 a day), spread over five
// replicas: exactly five are admitted, in each of five trials.
func TestExactBudgetsAcrossReplicas(t *testing.T) {
	c := newCluster(t, dbtest.PostgresURL(t), replicas)
	for trial := range 5 {
		keys, _ := c.keys(fmt.Sprintf("budget-%d@proof.example", trial), app.TierFree, 1)
		var wg sync.WaitGroup
		statuses := make([]int, 12)
		for i := range statuses {
			wg.Go(func() {
				r := c.do(-1, "POST", "/api/analyze", keys[0], analyzeBody)
				if r.err != nil {
					t.Error(r.err)
				}
				statuses[i] = r.status
			})
		}
		wg.Wait()
		count := map[int]int{}
		for _, s := range statuses {
			count[s]++
		}
		if count[200] != 5 || count[429] != 7 {
			t.Errorf("trial %d: %v, want 5×200 and 7×429", trial, count)
		}
	}
}

func signed(payload []byte, at time.Time) string {
	return webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: webhookSecret, Timestamp: at}).Header
}

// creditsEvent is a completed checkout for credits; its session id comes
// from the event id, so a retried delivery is the same checkout.
func creditsEvent(id, accountID string, credits int) []byte {
	b, _ := json.Marshal(map[string]any{
		"id": id, "object": "event", "type": "checkout.session.completed", "created": time.Now().Unix(), "api_version": "2020-08-27",
		"data": map[string]any{"object": map[string]any{
			"id": "cs_" + id, "object": "checkout.session", "mode": "payment", "client_reference_id": accountID,
			"metadata": map[string]any{"credits": fmt.Sprint(credits)},
		}},
	})
	return b
}

func (c *cluster) credits(accountID string) int {
	c.t.Helper()
	a, err := c.store.FindAccount(context.Background(), accountID)
	if err != nil {
		c.t.Fatal(err)
	}
	return a.Credits
}

// One event delivered to every replica at once, and once more, is applied once.
func TestWebhookOnceAcrossReplicas(t *testing.T) {
	c := newCluster(t, dbtest.PostgresURL(t), replicas)
	for trial := range 3 {
		_, acct := c.keys(fmt.Sprintf("webhook-%d@proof.example", trial), app.TierFree, 0)
		payload := creditsEvent(fmt.Sprintf("evt_proof_%d_%d", trial, time.Now().UnixNano()), acct.ID, 10)
		var wg sync.WaitGroup
		for range replicas + 1 {
			wg.Go(func() {
				if r := c.do(-1, "POST", "/api/webhooks/payment", "", payload, "payment-signature", signed(payload, time.Now())); r.err != nil || r.status != 200 {
					t.Errorf("delivery to replica %d: %d %s %v", r.replica, r.status, r.body, r.err)
				}
			})
		}
		wg.Wait()
		if got := c.credits(acct.ID); got != 10 {
			t.Errorf("trial %d: credits %d after %d concurrent deliveries, want 10", trial, got, replicas+1)
		}
	}
}

// A key revoked on one replica is refused by every replica on the very
// next request.
func TestRevocationOnEveryReplica(t *testing.T) {
	c := newCluster(t, dbtest.PostgresURL(t), replicas)
	for trial := range 3 {
		keys, acct := c.keys(fmt.Sprintf("revoke-%d@proof.example", trial), app.TierFree, 1)
		for i := range c.procs {
			if r := c.do(i, "GET", "/api/developer/keys", keys[0], nil); r.status != 200 {
				t.Fatalf("replica %d before revocation: %d %s", i, r.status, r.body)
			}
		}
		ks, err := c.store.FindKeys(context.Background(), app.KeyFilter{AccountID: acct.ID})
		if err != nil || len(ks) != 1 {
			t.Fatal(ks, err)
		}
		by := trial % len(c.procs)
		if r := c.do(by, "DELETE", "/api/developer/keys/"+ks[0].ID, keys[0], nil); r.status != 200 {
			t.Fatalf("revoke on replica %d: %d %s", by, r.status, r.body)
		}
		for i := range c.procs {
			if r := c.do(i, "GET", "/api/developer/keys", keys[0], nil); r.status != 401 {
				t.Errorf("replica %d right after revocation on %d: %d, want 401", i, by, r.status)
			}
		}
	}
}

// load runs workers against the cluster until stop, each request on the
// next replica and the next key, and records every outcome.
type outcome struct {
	result
	key           int
	start, finish time.Time
	id            string
}

func (c *cluster) load(keys []string, workers int, limit int64, stop <-chan struct{}) []outcome {
	var (
		mu   sync.Mutex
		out  []outcome
		seq  atomic.Int64
		wg   sync.WaitGroup
		done = func() bool {
			select {
			case <-stop:
				return true
			default:
				return false
			}
		}
	)
	for range workers {
		wg.Go(func() {
			for !done() {
				n := seq.Add(1) - 1
				if n >= limit {
					return
				}
				o := outcome{key: int(n) % len(keys), start: time.Now()}
				o.result = c.do(-1, "POST", "/api/analyze", keys[o.key], analyzeBody)
				o.finish = time.Now()
				if o.status == 200 {
					var a struct{ ID string }
					_ = json.Unmarshal(o.body, &a)
					o.id = a.ID
				}
				mu.Lock()
				out = append(out, o)
				mu.Unlock()
				if o.err != nil || o.status >= 500 {
					time.Sleep(50 * time.Millisecond) // as a client backs off
				}
			}
		})
	}
	wg.Wait()
	return out
}

// scansUsed reads each key's used scans through a replica, by key prefix.
func (c *cluster) scansUsed(i int, key string) map[string]int {
	c.t.Helper()
	r := c.do(i, "GET", "/api/developer/usage/per-key", key, nil)
	var body struct {
		Keys []struct {
			KeyPrefix string
			Status    struct {
				Scans struct{ Remaining, Limit int }
			}
		}
	}
	if r.status != 200 || json.Unmarshal(r.body, &body) != nil {
		c.t.Fatalf("per-key usage: %d %s %v", r.status, r.body, r.err)
	}
	used := map[string]int{}
	for _, k := range body.Keys {
		used[k.KeyPrefix] = k.Status.Scans.Limit - k.Status.Scans.Remaining
	}
	return used
}

// Under load on five replicas one is killed with SIGKILL. Every analysis
// answered 200 is stored. Each key's used scans are its answered analyses
// plus at most its requests in flight on the killed replica: those were
// admitted and never answered, and a dead process gives nothing back.
// requestCount, written every second, misses at most what the killed
// replica answered in its last flush interval.
func TestKillMidLoad(t *testing.T) {
	c := newCluster(t, dbtest.PostgresURL(t), replicas)
	keys, acct := c.keys("kill@proof.example", app.TierAdvanced, 40)
	stop := make(chan struct{})
	var killedAt time.Time
	go func() {
		time.Sleep(1500 * time.Millisecond)
		killedAt = time.Now()
		c.procs[1].Kill()
		time.Sleep(1500 * time.Millisecond)
		close(stop)
	}()
	outs := c.load(keys, 8, int64(len(keys)*100), stop)
	<-stop
	for i, p := range c.procs {
		if i == 1 {
			continue
		}
		if err := p.Stop(); err != nil {
			t.Errorf("replica %d on SIGTERM: %v", i, err)
		}
	}

	answered := map[int]int{}
	inFlight := map[int]int{}
	total, lastInterval, killed := 0, 0, 0
	ctx := context.Background()
	for _, o := range outs {
		switch {
		case o.status == 200:
			answered[o.key]++
			total++
			if _, err := c.store.FindAnalysis(ctx, acct.ID, o.id, app.AllParts); err != nil {
				t.Errorf("analysis %s answered by replica %d: %v", o.id, o.replica, err)
			}
			if o.replica == 1 && o.finish.After(killedAt.Add(-2*time.Second)) {
				lastInterval++
			}
		case o.replica == 1 && o.start.Before(killedAt):
			inFlight[o.key]++
			killed++
		case o.replica == 1:
			// refused at the door once the replica was gone: never admitted
		default:
			t.Errorf("replica %d answered %d %s %v", o.replica, o.status, o.body, o.err)
		}
	}
	if total < 100 {
		t.Fatalf("%d answered; the load was too light to prove anything", total)
	}

	ks, err := c.store.FindKeys(ctx, app.KeyFilter{AccountID: acct.ID})
	if err != nil {
		t.Fatal(err)
	}
	var counted int64
	for _, k := range ks {
		counted += k.RequestCount
	}
	if counted < int64(total-lastInterval) || counted > int64(len(outs)) {
		t.Errorf("requestCount %d; answered %d, %d of them by the killed replica in its last 2s; sent %d", counted, total, lastInterval, len(outs))
	}

	c.start(t, "")
	used := c.scansUsed(len(c.procs)-1, keys[0])
	for i, k := range keys {
		u := used[k[:12]]
		if u < answered[i] || u > answered[i]+inFlight[i] {
			t.Errorf("key %d: %d scans used, %d answered, %d in flight on the killed replica", i, u, answered[i], inFlight[i])
		}
	}
	t.Logf("%d requests: %d answered, %d in flight at the kill; requestCount %d", len(outs), total, killed, counted)
}

// pgServer is a throwaway PostgreSQL server of the test's own, on a free
// port in a temporary directory, so it can be stopped and started without
// touching the shared server other tests use.
type pgServer struct {
	t                *testing.T
	bindir, dir, url string
	port             string
	runas            []string
}

func newPGServer(t *testing.T) *pgServer {
	t.Helper()
	bindirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	p := &pgServer{t: t}
	for _, d := range bindirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			p.bindir = d
		}
	}
	if p.bindir == "" {
		if initdb, err := exec.LookPath("initdb"); err == nil {
			p.bindir = filepath.Dir(initdb)
		} else {
			t.Fatal("the PostgreSQL restart needs initdb and pg_ctl: apt-get install postgresql")
		}
	}
	dir, err := os.MkdirTemp("", "proof-pg")
	if err != nil {
		t.Fatal(err)
	}
	p.dir = dir
	addr, err := replica.FreeAddr()
	if err != nil {
		t.Fatal(err)
	}
	_, p.port, _ = strings.Cut(addr, ":")
	if os.Geteuid() == 0 {
		// initdb refuses to run as root.
		if exec.Command("id", "postgres").Run() != nil {
			p.run("useradd", "-r", "-M", "postgres")
		}
		p.run("chown", "-R", "postgres", dir)
		p.runas = []string{"runuser", "-u", "postgres", "--"}
	}
	t.Cleanup(func() {
		argv := p.cmd("pg_ctl", "-D", p.dir+"/data", "-m", "immediate", "stop")
		_ = exec.Command(argv[0], argv[1:]...).Run()
		os.RemoveAll(p.dir)
	})
	p.run(p.cmd("initdb", "-D", dir+"/data", "-U", "postgres", "-A", "trust")...)
	p.start()
	p.url = "postgres://postgres@127.0.0.1:" + p.port + "/postgres?sslmode=disable"
	return p
}

func (p *pgServer) cmd(tool string, args ...string) []string {
	return append(append(append([]string(nil), p.runas...), filepath.Join(p.bindir, tool)), args...)
}

func (p *pgServer) run(argv ...string) {
	p.t.Helper()
	if out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput(); err != nil {
		p.t.Fatalf("%v: %v\n%s", argv, err, out)
	}
}

func (p *pgServer) start() {
	p.t.Helper()
	p.run(p.cmd("pg_ctl", "-D", p.dir+"/data", "-o", "-p "+p.port+" -k "+p.dir+" -c listen_addresses=127.0.0.1", "-l", p.dir+"/log", "-w", "start")...)
}

func (p *pgServer) stop() {
	p.t.Helper()
	p.run(p.cmd("pg_ctl", "-D", p.dir+"/data", "-m", "fast", "-w", "stop")...)
}

// waitReady waits until every live replica's /readyz answers want.
func (c *cluster) waitReady(want int, within time.Duration) {
	c.t.Helper()
	deadline := time.Now().Add(within)
	for i, p := range c.procs {
		if p.Exited() {
			continue
		}
		for {
			r := c.do(i, "GET", "/readyz", "", nil)
			if r.status == want {
				break
			}
			if time.Now().After(deadline) {
				c.t.Fatalf("replica %d /readyz: %d %s, want %d within %s", i, r.status, r.body, want, within)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
}

// PostgreSQL stopped and started again under load: /readyz reports it on
// every replica and recovers by itself, requests during the outage fail
// with 5xx and are then served again, every analysis answered is stored,
// and a webhook delivered during the outage answers 500 and is applied once
// by the provider's retry.
func TestPostgresRestartMidLoad(t *testing.T) {
	pg := newPGServer(t)
	c := newCluster(t, pg.url, replicas)
	keys, acct := c.keys("restart@proof.example", app.TierAdvanced, 40)
	stop := make(chan struct{})
	loaded := make(chan []outcome)
	go func() { loaded <- c.load(keys, 4, int64(len(keys)*100), stop) }()

	time.Sleep(time.Second)
	pg.stop()
	down := time.Now()
	c.waitReady(http.StatusServiceUnavailable, 10*time.Second)
	payload := creditsEvent(fmt.Sprintf("evt_restart_%d", time.Now().UnixNano()), acct.ID, 7)
	if r := c.do(0, "POST", "/api/webhooks/payment", "", payload, "payment-signature", signed(payload, time.Now())); r.status != 500 {
		t.Errorf("webhook during the outage: %d %s, want 500 so the provider retries", r.status, r.body)
	}
	time.Sleep(500 * time.Millisecond)
	pg.start()
	up := time.Now()
	c.waitReady(http.StatusOK, 30*time.Second)
	time.Sleep(time.Second)
	close(stop)
	outs := <-loaded

	for range 2 { // the provider's retry, and one more
		if r := c.do(1, "POST", "/api/webhooks/payment", "", payload, "payment-signature", signed(payload, time.Now())); r.status != 200 {
			t.Errorf("webhook retried after recovery: %d %s", r.status, r.body)
		}
	}
	if got := c.credits(acct.ID); got != 7 {
		t.Errorf("credits %d after the retries, want 7", got)
	}

	var before, after, failed int
	for _, o := range outs {
		switch {
		case o.status == 200:
			if _, err := c.store.FindAnalysis(context.Background(), acct.ID, o.id, app.AllParts); err != nil {
				t.Errorf("analysis %s answered at %s: %v", o.id, o.finish.Format(time.StampMilli), err)
			}
			if o.finish.Before(down) {
				before++
			} else if o.start.After(up) {
				after++
			}
		case o.status >= 500:
			failed++
		default:
			t.Errorf("replica %d answered %d %s %v", o.replica, o.status, o.body, o.err)
		}
	}
	if before == 0 || after == 0 || failed == 0 {
		t.Errorf("answered %d before the outage, %d after it, %d failed: want some of each", before, after, failed)
	}
	t.Logf("%d requests: %d answered before the outage, %d after, %d failed during it", len(outs), before, after, failed)
}

// Thirty monitors at a 1s interval on five replicas, each running a
// scheduler: over eight seconds no monitor is fetched twice within one
// interval and none waits more than two.
func TestMonitorsOncePerInterval(t *testing.T) {
	var mu sync.Mutex
	hits := map[string][]time.Time{}
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits[r.URL.Path] = append(hits[r.URL.Path], time.Now())
		mu.Unlock()
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, "<html><body><h1>Terms</h1><p>We may change these terms at any time (%s).</p></body></html>", r.URL.Path)
	}))
	defer site.Close()
	c := newCluster(t, dbtest.PostgresURL(t), 3,
		"CLAUSEWATCH_MONITOR_WORKERS=4", "CLAUSEWATCH_MONITOR_MIN_INTERVAL=1s", "CLAUSEWATCH_MONITOR_HOST_INTERVAL=0",
		"CLAUSEWATCH_FETCH_ALLOW_HOSTS="+site.Listener.Addr().String(), "CLAUSEWATCH_FETCH_TIMEOUT=2s")
	keys, _ := c.keys("monitors@proof.example", app.TierAdvanced, 1, "monitor")
	const n = 30
	for i := range n {
		body := fmt.Sprintf(`{"url":"%s/m/%d","intervalSeconds":1}`, site.URL, i)
		if r := c.do(-1, "POST", "/api/monitor", keys[0], []byte(body)); r.status != 201 {
			t.Fatalf("create monitor %d: %d %s", i, r.status, r.body)
		}
	}
	time.Sleep(3 * time.Second) // every scheduler has started and caught up
	start := time.Now()
	time.Sleep(8 * time.Second)
	end := time.Now()
	for i, p := range c.procs {
		if err := p.Stop(); err != nil {
			t.Errorf("replica %d on SIGTERM: %v", i, err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	checks := 0
	for i := range n {
		path := fmt.Sprintf("/m/%d", i)
		var in []time.Time
		for _, h := range hits[path] {
			if h.After(start) && h.Before(end) {
				in = append(in, h)
			}
		}
		checks += len(in)
		prev := start
		for j, h := range append(in, end) {
			if gap := h.Sub(prev); gap > 2*time.Second+300*time.Millisecond {
				t.Errorf("%s unchecked for %v", path, gap.Round(time.Millisecond))
			}
			// 20ms of slack: the gap is measured at the page, after the
			// scheduler's own clock started the interval.
			if j > 0 && j < len(in) && h.Sub(prev) < time.Second-20*time.Millisecond {
				t.Errorf("%s fetched twice within one interval (%v apart)", path, h.Sub(prev).Round(time.Millisecond))
			}
			prev = h
		}
	}
	t.Logf("%d checks of %d monitors in %v", checks, n, end.Sub(start).Round(time.Millisecond))
}

// Politeness held by the database, not per process: three replicas, each
// with four scheduler workers, watch six pages at a 1s interval on one
// loopback host whose robots.txt disallows /private. The host's own log of
// requests (robots.txt included: it is asked on a turn of its own) must
// show all replicas together asking at most once per
// CLAUSEWATCH_MONITOR_HOST_INTERVAL (1s), less politeTolerance; without the
// shared schedule three replicas ask about three times a second. The
// disallowed page is never requested: its monitor is refused at creation
// (robots.txt is read before a monitor's first request, 422 robots).
func TestPolitenessAcrossReplicas(t *testing.T) {
	// politeTolerance is how much closer two requests may arrive than the
	// host's interval: the time between a process taking the host's turn
	// and its request reaching the site, which a loaded machine stretches
	// for one sender and not the next.
	const hostInterval, politeTolerance = time.Second, 150 * time.Millisecond
	var mu sync.Mutex
	var asked []time.Time // every request to the host, in arrival order
	private := 0          // requests for /private
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked = append(asked, time.Now())
		if strings.HasPrefix(r.URL.Path, "/private") {
			private++
		}
		mu.Unlock()
		if r.URL.Path == "/robots.txt" {
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, "User-agent: clausewatch\nDisallow: /private\n")
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, "<html><body><h1>Terms</h1><p>We may change these terms at any time (%s).</p></body></html>", r.URL.Path)
	}))
	defer site.Close()
	c := newCluster(t, dbtest.PostgresURL(t), 3,
		"CLAUSEWATCH_MONITOR_WORKERS=4", "CLAUSEWATCH_MONITOR_MIN_INTERVAL=1s", "CLAUSEWATCH_MONITOR_HOST_INTERVAL="+hostInterval.String(),
		"CLAUSEWATCH_FETCH_ALLOW_HOSTS="+site.Listener.Addr().String(), "CLAUSEWATCH_FETCH_TIMEOUT=2s")
	keys, _ := c.keys("polite@proof.example", app.TierAdvanced, 1, "monitor")
	// Creating a monitor reads its page once for the user who asked, like a
	// browser (README): those requests come before the measured window.
	paths := []string{"/p/0", "/p/1", "/p/2", "/p/3", "/p/4", "/p/5", "/private/terms"}
	for _, p := range paths {
		r := c.do(-1, "POST", "/api/monitor", keys[0], []byte(fmt.Sprintf(`{"url":"%s%s","intervalSeconds":1}`, site.URL, p)))
		var refusal struct{ ErrorCode string }
		switch {
		case strings.HasPrefix(p, "/private"):
			if r.status != http.StatusUnprocessableEntity || json.Unmarshal(r.body, &refusal) != nil || refusal.ErrorCode != "robots" {
				t.Errorf("create monitor %s: %d %s, want 422 robots", p, r.status, r.body)
			}
		case r.status != 201:
			t.Fatalf("create monitor %s: %d %s", p, r.status, r.body)
		}
	}
	mu.Lock()
	start := time.Now()
	asked = nil
	mu.Unlock()
	time.Sleep(15 * time.Second)
	for i, p := range c.procs {
		if err := p.Stop(); err != nil {
			t.Errorf("replica %d on SIGTERM: %v", i, err)
		}
	}
	end := time.Now() // the checks under way at SIGTERM finished: their requests count
	mu.Lock()
	defer mu.Unlock()
	closest := end.Sub(start)
	for i := 1; i < len(asked); i++ {
		gap := asked[i].Sub(asked[i-1])
		closest = min(closest, gap)
		if gap < hostInterval-politeTolerance {
			t.Errorf("requests %d and %d to one host %v apart, want at least %v less %v", i-1, i, gap.Round(time.Millisecond), hostInterval, politeTolerance)
		}
	}
	if most := int(end.Sub(start)/hostInterval) + 1; len(asked) > most || len(asked) < 5 {
		t.Errorf("%d requests to the host in %v, want 5 to %d", len(asked), end.Sub(start).Round(time.Millisecond), most)
	}
	if private != 0 {
		t.Errorf("the disallowed page was requested %d times", private)
	}
	t.Logf("%d requests to one host from 3 replicas in %v, closest %v apart (interval %v, tolerance %v)",
		len(asked), end.Sub(start).Round(time.Millisecond), closest.Round(time.Millisecond), hostInterval, politeTolerance)
}

// Scale: 100,000 monitors of 100 accounts on five replicas, each running
// eight scheduler workers, against one loopback site that answers 304 to a
// conditional GET (as most unchanged pages do). Their first checks fall due
// evenly over scaleSpread, their interval is longer than the test: each
// monitor must be fetched exactly once (never twice in an interval, never
// missed) and none later than scaleLate after it fell due.
func TestMonitorsAtScale(t *testing.T) {
	const (
		n           = 100_000
		accounts    = 100
		scaleSpread = 300 * time.Second
		scaleLate   = 10 * time.Second
	)
	var mu sync.Mutex
	hits := make(map[int][]time.Time, n)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		at := time.Now()
		var i int
		if _, err := fmt.Sscanf(r.URL.Path, "/s/%d", &i); err == nil {
			mu.Lock()
			hits[i] = append(hits[i], at)
			mu.Unlock()
		}
		w.Header().Set("ETag", `"v1"`)
		if r.Header.Get("If-None-Match") == `"v1"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, "<html><body><h1>Terms</h1><p>We may change these terms at any time (%s).</p></body></html>", r.URL.Path)
	}))
	defer site.Close()
	dbURL := dbtest.PostgresURL(t)
	x, err := sqlx.Open("postgres", dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	c := newCluster(t, dbURL, 0)
	ctx := context.Background()
	// Only this test's monitors: earlier tests' stay out of the way.
	if _, err := x.ExecContext(ctx, `UPDATE monitors SET deleted_at = now() WHERE deleted_at IS NULL`); err != nil {
		t.Fatal(err)
	}
	run := fmt.Sprint(time.Now().UnixNano())
	if _, err := x.ExecContext(ctx, `INSERT INTO accounts (id, subject, created_at, updated_at)
SELECT gen_random_uuid(), 'scale|' || $1 || '|' || i, now(), now() FROM generate_series(0, $2 - 1) i`, run, accounts); err != nil {
		t.Fatal(err)
	}
	// Due from start on, one every scaleSpread/n; validators set, so every
	// check is a conditional GET answered 304.
	start := time.Now().Add(20 * time.Second).Truncate(time.Millisecond) // the replicas' start-up
	if _, err := x.ExecContext(ctx, `INSERT INTO monitors (id, account_id, url, interval_seconds, created_at, next_check_at,
  content_hash, content_seen_at, etag, raw_gz, whole_fetch_at)
SELECT gen_random_uuid(), a.id, $2 || '/s/' || i, 3600, now(), $3::timestamptz + i * ($4::float8 / $5) * interval '1 millisecond',
  'h', now(), '"v1"', ''::bytea, now()
FROM generate_series(0, $5 - 1) i JOIN (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM accounts WHERE subject LIKE 'scale|' || $1 || '|%') a
  ON a.k = i % $6`, run, site.URL, start.UTC(), float64(scaleSpread/time.Millisecond), n, accounts); err != nil {
		t.Fatal(err)
	}
	if _, err := x.ExecContext(ctx, `ANALYZE monitors`); err != nil {
		t.Fatal(err)
	}
	c.env = append(c.env, "CLAUSEWATCH_MONITOR_WORKERS=8", "CLAUSEWATCH_MONITOR_MIN_INTERVAL=1s", "CLAUSEWATCH_MONITOR_HOST_INTERVAL=0",
		"CLAUSEWATCH_FETCH_ALLOW_HOSTS="+site.Listener.Addr().String(), "CLAUSEWATCH_FETCH_TIMEOUT=5s")
	for range replicas {
		c.start(t, "")
	}
	end := start.Add(scaleSpread + scaleLate + 2*time.Second)
	time.Sleep(time.Until(end))
	for i, p := range c.procs {
		if err := p.Stop(); err != nil {
			t.Errorf("replica %d on SIGTERM: %v", i, err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	step := scaleSpread / n
	var checks, twice, missed, late int
	var worst, total time.Duration
	for i := range n {
		due := start.Add(time.Duration(i) * step)
		hs := hits[i]
		checks += len(hs)
		switch {
		case len(hs) == 0:
			missed++
			continue
		case len(hs) > 1:
			twice++
		}
		l := max(hs[0].Sub(due), 0)
		total += l
		worst = max(worst, l)
		if l > scaleLate {
			late++
		}
	}
	if twice+missed+late > 0 {
		t.Errorf("%d monitors: %d checked twice within their interval, %d never checked, %d later than %v", n, twice, missed, late, scaleLate)
	}
	t.Logf("%d checks of %d monitors due over %v on %d replicas: %.0f checks/s, lateness mean %v, worst %v",
		checks, n, scaleSpread, replicas, float64(checks)/scaleSpread.Seconds(), (total / time.Duration(max(checks, 1))).Round(time.Millisecond), worst.Round(time.Millisecond))
}
