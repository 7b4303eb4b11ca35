//go:build proof

// Package proof drives real `clausewatch serve` processes on loopback, three
// replicas on one PostgreSQL behind a round-robin client, through what a
// deployment meets: concurrency on one budget, duplicate webhooks,
// revocation, a replica killed mid-load and PostgreSQL restarted mid-load.
// Each test is bounded in requests and time. Run by make proof (build tag
// proof), never by plain go test.
package proof

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v76/webhook"

	"github.com/clausewatch/clausewatch/db"
	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/replica"
)

const webhookSecret = "whsec_proof_secret"

var bin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "proof")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin, err = replica.Build(context.Background(), "../..", dir)
	if err != nil {
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
	store *db.Store
	procs []*replica.Process
	next  atomic.Int64
}

func newCluster(t *testing.T, dbURL string, n int) *cluster {
	t.Helper()
	store, err := db.Open(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	if err := store.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	c := &cluster{t: t, dbURL: dbURL, store: store}
	for range n {
		c.start("")
	}
	return c
}

// start runs one more replica (on addr, when given) and returns its index.
func (c *cluster) start(addr string) int {
	c.t.Helper()
	env := []string{
		"DATABASE_URL=" + c.dbURL,
		"CLAUSEWATCH_AUTH_HS256_SECRET=proof-session-secret-0123456789abcdef",
		"CLAUSEWATCH_WEBHOOK_SECRET=" + webhookSecret,
		"CLAUSEWATCH_MONITOR_WORKERS=0",
		"CLAUSEWATCH_LOG_LEVEL=warn",
	}
	var p *replica.Process
	var err error
	if addr == "" {
		p, err = replica.Start(bin, c.t.TempDir(), env...)
	} else {
		p, err = replica.StartOn(bin, c.t.TempDir(), addr, env...)
	}
	if err != nil {
		c.t.Fatal(err)
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
	body    []byte
	err     error
}

// do sends one request to replica i (-1: the next in turn).
func (c *cluster) do(i int, method, path, key string, body []byte, header ...string) result {
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
	client := &http.Client{Timeout: 30 * time.Second}
	res, err := client.Do(req)
	if err != nil {
		return result{replica: i, err: err}
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return result{replica: i, status: res.StatusCode, body: b, err: err}
}

func (c *cluster) keys(email string, tier app.Tier, n int) ([]string, *app.Account) {
	c.t.Helper()
	keys, acct, err := replica.Keys(context.Background(), c.store, email, tier, n)
	if err != nil {
		c.t.Fatal(err)
	}
	return keys, acct
}

var analyzeBody = []byte(`{"text":"We may terminate your account at any time. Any dispute shall be resolved by binding arbitration."}`)

// Twelve concurrent scans on a free key (5 a day), spread over three
// replicas: exactly five are admitted, in each of five trials.
func TestExactBudgetsAcrossReplicas(t *testing.T) {
	c := newCluster(t, dbtest.PostgresURL(t), 3)
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

func creditsEvent(id, accountID string, credits int) []byte {
	b, _ := json.Marshal(map[string]any{
		"id": id, "object": "event", "type": "checkout.session.completed", "created": time.Now().Unix(), "api_version": "2020-08-27",
		"data": map[string]any{"object": map[string]any{
			"object": "checkout.session", "mode": "payment", "client_reference_id": accountID,
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

// One event delivered four times at once, to three replicas, is applied once.
func TestWebhookOnceAcrossReplicas(t *testing.T) {
	c := newCluster(t, dbtest.PostgresURL(t), 3)
	for trial := range 3 {
		_, acct := c.keys(fmt.Sprintf("webhook-%d@proof.example", trial), app.TierFree, 0)
		payload := creditsEvent(fmt.Sprintf("evt_proof_%d_%d", trial, time.Now().UnixNano()), acct.ID, 10)
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				if r := c.do(-1, "POST", "/api/webhooks/payment", "", payload, "payment-signature", signed(payload, time.Now())); r.err != nil || r.status != 200 {
					t.Errorf("delivery to replica %d: %d %s %v", r.replica, r.status, r.body, r.err)
				}
			})
		}
		wg.Wait()
		if got := c.credits(acct.ID); got != 10 {
			t.Errorf("trial %d: credits %d after 4 concurrent deliveries, want 10", trial, got)
		}
	}
}

// A key revoked on one replica is refused by every replica on the very
// next request.
func TestRevocationOnEveryReplica(t *testing.T) {
	c := newCluster(t, dbtest.PostgresURL(t), 3)
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
