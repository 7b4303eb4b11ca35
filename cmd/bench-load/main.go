// Command bench-load measures a real `clausewatch serve` on loopback and
// PostgreSQL beside its baselines, measured in the same run, and prints one
// Markdown table (req/s, p50, p99, peak RSS):
//
//   - GET /api/developer/keys with a key, beside its floor (a): a plain
//     net/http handler (its own process, the same client) doing no more than
//     the request must, one prepared SELECT by the key's indexed hash on the
//     same database with database/sql and lib/pq, and writing the JSON list;
//   - POST /api/analyze refused (429), beside its floor (b): the same plain
//     handler doing the one conditional UPDATE the refusal must do at least
//     (the key found by its hash and the charge refused in one statement) and
//     answering 429 with RateLimit headers;
//   - POST /api/analyze admitted, POST /api/extract of a loopback page and
//     POST /api/analyze/batch of 5, beside pgbench's rate for the single-row
//     conditional UPDATE a budget needs, with as many clients as the driver
//     has connections.
//
// The earlier baselines stay in the table: the plain handler writing a JSON
// list with no database at all, and pgbench.
//
// Every run is bounded: each scenario lasts -duration, and the budgeted ones
// stop earlier once their keys' budgets are spent. make bench runs it.
//
// With -memory it measures instead the memory of long analyses
// (memory.go): eight concurrent 1.5-million-character analyses on a fresh
// default server, three rounds, peak RSS and refusals
// (make bench BENCHFLAGS=-memory).
//
// With -load, either runs while a CPU burner (this binary, -burn) keeps one
// core busy, as a service meets other work on its machine
// (make bench BENCHFLAGS=-load).
package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jmoiron/sqlx"
	_ "github.com/lib/pq"

	"github.com/clausewatch/clausewatch/db"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/replica"
)

func main() {
	if len(os.Args) == 2 && os.Args[1] == "-burn" {
		burn()
	}
	if len(os.Args) == 4 && os.Args[1] == "-plain" {
		servePlain(os.Args[2], os.Args[3])
		return
	}
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench-load:", err)
		os.Exit(1)
	}
}

type options struct {
	admin    string
	conns    int
	duration time.Duration
	keys     int
	root     string
	memory   bool   // run the memory scenario (memory.go) instead of the table
	corpus   string // shared/data/corpus's documents, for the memory scenario
	store    string // the memory scenario's database: sqlite (as make run serves) or postgres
	load     bool   // keep one core busy with a CPU burner while measuring
}

func run() error {
	var o options
	flag.StringVar(&o.admin, "db", envOr("TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"), "PostgreSQL server (a fresh database is made and dropped)")
	flag.IntVar(&o.conns, "c", 64, "concurrent connections (and pgbench clients)")
	flag.DurationVar(&o.duration, "duration", 10*time.Second, "length of each scenario")
	flag.IntVar(&o.keys, "keys", 100, "advanced-plan keys (100 scans a day each) per budgeted scenario")
	flag.StringVar(&o.root, "root", ".", "the module's root, where ./cmd/clausewatch is built from")
	flag.BoolVar(&o.memory, "memory", false, "instead of the table: eight concurrent 1.5M-character analyses, three rounds, peak RSS and refusals")
	flag.StringVar(&o.store, "store", "sqlite", "the memory scenario's database: sqlite (the default `make run` serves) or postgres")
	flag.StringVar(&o.corpus, "corpus", "../shared/data/corpus/documents.jsonl.gz", "the corpus the memory scenario's text is taken from")
	flag.BoolVar(&o.load, "load", false, "measure while a CPU burner keeps one core busy (the same scenarios, loaded)")
	flag.Parse()
	ctx := context.Background()

	tmp, err := os.MkdirTemp("", "bench-load")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bin, err := replica.Build(ctx, o.root, tmp)
	if err != nil {
		return err
	}
	if o.load {
		stop, err := startBurner()
		if err != nil {
			return err
		}
		defer stop()
	}
	if o.memory {
		return runMemory(ctx, o, bin, tmp)
	}
	dbURL, drop, err := freshDatabase(ctx, o.admin, "cw_bench")
	if err != nil {
		return err
	}
	defer drop()
	store, err := db.Open(ctx, dbURL)
	if err != nil {
		return err
	}
	defer store.Close()
	if err := store.Migrate(ctx); err != nil {
		return err
	}

	page := pageServer()
	defer page.Close()
	srv, err := replica.Start(bin, tmp,
		"DATABASE_URL="+dbURL,
		"CLAUSEWATCH_AUTH_HS256_SECRET=bench-load-secret-0123456789abcdef",
		"CLAUSEWATCH_FETCH_ALLOW_HOSTS="+page.Listener.Addr().String(),
		"CLAUSEWATCH_MONITOR_WORKERS=0",
		"CLAUSEWATCH_LOG_LEVEL=warn")
	if err != nil {
		return err
	}
	defer srv.Stop()
	self, err := os.Executable()
	if err != nil {
		return err
	}
	plain, err := startPlain(self, dbURL)
	if err != nil {
		return err
	}
	defer func() { _ = plain.Process.Kill(); _ = plain.Wait() }()

	// Accounts of at most 50 keys, the most the advanced plan holds.
	seed := func(name string, tier app.Tier, n int) ([]string, error) {
		var all []string
		for i := 0; len(all) < n; i++ {
			keys, _, err := replica.Keys(ctx, store, fmt.Sprintf("%s-%d@bench.example", name, i), tier, min(50, n-len(all)))
			if err != nil {
				return nil, err
			}
			all = append(all, keys...)
		}
		return all, nil
	}
	listKey, err := seed("list", app.TierFree, 1)
	if err != nil {
		return err
	}
	refusedKey, err := seed("refused", app.TierFree, 1)
	if err != nil {
		return err
	}
	const text = `{"text":"We may change these terms at any time without notice. Any dispute shall be resolved by binding arbitration."}`
	item := `{"text":"We may change these terms at any time without notice."}`
	batch := `{"items":[` + item + "," + item + "," + item + "," + item + "," + item + `]}`
	extract := `{"url":"http://` + page.Listener.Addr().String() + `/terms"}`
	for range 5 { // spend the free key's 5 scans: every request after is refused
		if _, err := do(http.DefaultClient, request{"POST", srv.URL + "/api/analyze", text, refusedKey}, http.StatusOK); err != nil {
			return err
		}
	}

	pgbench, err := pgbenchRate(ctx, o)
	if err != nil {
		return err
	}
	plainRow := o.measure(nil, "plain net/http JSON handler, no database", func(int64) request { return request{"GET", "http://" + plainAddr + "/json", "", nil} }, http.StatusOK, 0)
	plainRow.short = "plain handler"
	floorA := o.measure(nil, "floor (a): plain handler, one prepared SELECT by key hash", func(int64) request {
		return request{"GET", "http://" + plainAddr + "/keys", "", listKey}
	}, http.StatusOK, 0)
	floorA.short = "floor (a)"
	floorB := o.measure(nil, "floor (b): plain handler, one conditional UPDATE refusing, 429", func(int64) request {
		return request{"POST", "http://" + plainAddr + "/refused", text, refusedKey}
	}, http.StatusTooManyRequests, 0)
	floorB.short = "floor (b)"
	rows := []row{plainRow, pgbench, floorA, floorB}
	rows = append(rows, o.measure(srv, "GET /api/developer/keys (key)", func(int64) request {
		return request{"GET", srv.URL + "/api/developer/keys", "", listKey}
	}, http.StatusOK, 0).against(floorA).also(plainRow).goal(">= 0.70, p99 < 10 ms"))
	budgeted := []struct {
		name, path, body string
		scans            int
	}{
		{"POST /api/analyze, admitted", "/api/analyze", text, 1},
		{"POST /api/extract, loopback page", "/api/extract", extract, 1},
		{"POST /api/analyze/batch of 5", "/api/analyze/batch", batch, 5},
	}
	for _, b := range budgeted {
		keys, err := seed(fmt.Sprintf("k%d", len(rows)), app.TierAdvanced, o.keys)
		if err != nil {
			return err
		}
		// Request i uses key i mod n, so no key is asked for more than its
		// 100 scans before the scenario's cap.
		limit := int64(o.keys * 100 / b.scans)
		rows = append(rows, o.measure(srv, b.name, func(i int64) request {
			return request{"POST", srv.URL + b.path, b.body, keys[i%int64(len(keys)) : i%int64(len(keys))+1]}
		}, http.StatusOK, limit).against(pgbench))
	}
	rows = append(rows, o.measure(srv, "POST /api/analyze, refused (429)", func(int64) request {
		return request{"POST", srv.URL + "/api/analyze", text, refusedKey}
	}, http.StatusTooManyRequests, 0).against(floorB).also(pgbench).goal(">= 0.60"))

	fmt.Printf("\n%d connections, %s a scenario, PostgreSQL, one `clausewatch serve` on loopback; %d cores, load %s%s\n\n", o.conns, o.duration, runtime.NumCPU(), loadAvg(), loadNote(o))
	fmt.Println("| scenario | requests | req/s | p50 | p99 | peak RSS | baseline | ratio | goal | earlier baseline: ratio |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|")
	for _, r := range rows {
		fmt.Println(r)
	}
	for _, r := range rows {
		if r.errors > 0 {
			return fmt.Errorf("%s: %d requests answered otherwise than expected (first: %s)", r.name, r.errors, r.firstError)
		}
	}
	return nil
}

type request struct {
	method, url, body string
	key               []string // one key, or none
}

// row is one line of the table.
type row struct {
	name           string
	short          string // as a baseline
	n              int64
	rate           float64
	p50, p99       time.Duration
	rss            int64
	base           *row
	earlier        *row // today's baseline before the floors, kept for comparison
	goalText       string
	errors         int64
	firstError     string
	latencyUnknown bool
}

func (r row) against(b row) row { r.base = &b; return r }

func (r row) also(b row) row { r.earlier = &b; return r }

func (r row) goal(g string) row { r.goalText = g; return r }

func (r row) String() string {
	lat := func(d time.Duration) string {
		if r.latencyUnknown {
			return "–"
		}
		return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000)
	}
	rss := "–"
	if r.rss > 0 {
		rss = fmt.Sprintf("%d MB", r.rss>>20)
	}
	base, ratio := "", ""
	if r.base != nil {
		base = r.base.short
		ratio = fmt.Sprintf("%.2f", r.rate/r.base.rate)
	}
	earlier := ""
	if r.earlier != nil {
		earlier = fmt.Sprintf("%s: %.2f", r.earlier.short, r.rate/r.earlier.rate)
	}
	return fmt.Sprintf("| %s | %d | %.0f | %s | %s | %s | %s | %s | %s | %s |", r.name, r.n, r.rate, lat(r.p50), lat(r.p99), rss, base, ratio, r.goalText, earlier)
}

// measure runs o.conns clients for o.duration (or until limit requests,
// when limit > 0), each request expecting status, and samples the server's
// resident memory every 100 ms.
func (o options) measure(p *replica.Process, name string, next func(i int64) request, status int, limit int64) row {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: o.conns, MaxConnsPerHost: o.conns}}
	var (
		seq, errs atomic.Int64
		firstErr  atomic.Value
		mu        sync.Mutex
		all       []time.Duration
		wg        sync.WaitGroup
	)
	stop := time.Now().Add(o.duration)
	start := time.Now()
	var peak atomic.Int64
	sampling := make(chan struct{})
	go func() {
		for {
			if p != nil {
				if rss, err := p.RSS(); err == nil && rss > peak.Load() {
					peak.Store(rss)
				}
			} else if rss, err := plainRSS(); err == nil && rss > peak.Load() {
				peak.Store(rss)
			}
			select {
			case <-sampling:
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	}()
	for range o.conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			for time.Now().Before(stop) {
				i := seq.Add(1) - 1
				if limit > 0 && i >= limit {
					break
				}
				t := time.Now()
				if _, err := do(client, next(i), status); err != nil {
					errs.Add(1)
					firstErr.CompareAndSwap(nil, err.Error())
				}
				mine = append(mine, time.Since(t))
			}
			mu.Lock()
			all = append(all, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	close(sampling)
	slices.Sort(all)
	r := row{name: name, n: int64(len(all)), rate: float64(len(all)) / elapsed.Seconds(), rss: peak.Load(), errors: errs.Load()}
	if len(all) > 0 {
		r.p50, r.p99 = all[len(all)/2], all[len(all)*99/100]
	}
	if s, ok := firstErr.Load().(string); ok {
		r.firstError = s
	}
	client.CloseIdleConnections()
	return r
}

func do(client *http.Client, r request, status int) ([]byte, error) {
	var body io.Reader
	if r.body != "" {
		body = bytes.NewReader([]byte(r.body))
	}
	req, err := http.NewRequest(r.method, r.url, body)
	if err != nil {
		return nil, err
	}
	if r.body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if len(r.key) == 1 {
		req.Header.Set("Authorization", "Bearer "+r.key[0])
	}
	res, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	if res.StatusCode != status {
		return b, fmt.Errorf("%s %s: %d, want %d: %.200s", r.method, r.url, res.StatusCode, status, b)
	}
	return b, nil
}

// plainAddr is where the baseline handler listens; plainPID its process.
var (
	plainAddr string
	plainPID  int
)

// startPlain runs this binary as the baseline server, in its own process
// as clausewatch runs in its own.
func startPlain(self, dbURL string) (*exec.Cmd, error) {
	addr, err := replica.FreeAddr()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self, "-plain", addr, dbURL)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	for range 100 {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			plainAddr, plainPID = addr, cmd.Process.Pid
			return cmd, nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	_ = cmd.Process.Kill()
	return nil, errors.New("the plain handler did not start")
}

func plainRSS() (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/statm", plainPID))
	if err != nil {
		return 0, err
	}
	var size, res int64
	if _, err := fmt.Sscan(string(b), &size, &res); err != nil {
		return 0, err
	}
	return res * int64(os.Getpagesize()), nil
}

// servePlain is the baselines' server, on its own connection pool to the
// service's database (database/sql and lib/pq, as many connections as the
// service has, binary parameters as the service sets them):
//
//   - /json writes a JSON list like the key list's, with no database;
//   - /keys is floor (a): one prepared SELECT of the caller's account's
//     active keys by the bearer key's indexed hash, written as the list;
//   - /refused is floor (b): one prepared conditional UPDATE finding the key
//     by its hash and charging a scan within the free plan's 5 (it refuses,
//     the key's scans being spent), answered 429 with RateLimit headers.
func servePlain(addr, dbURL string) {
	type key struct {
		ID        string    `json:"id"`
		Name      string    `json:"name"`
		KeyPrefix string    `json:"keyPrefix"`
		Scopes    []string  `json:"scopes"`
		CreatedAt time.Time `json:"createdAt"`
	}
	keys := []key{{"6f1c1f8e-0000-4000-8000-000000000000", "key 0", "cwsk_abcdefg", []string{"extract", "analyze"}, time.Now()}}
	u, err := url.Parse(dbURL)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	q := u.Query()
	q.Set("binary_parameters", "yes")
	u.RawQuery = q.Encode()
	pool, err := sql.Open("postgres", u.String())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	pool.SetMaxOpenConns(32)
	pool.SetMaxIdleConns(32)
	list, err := pool.Prepare(`SELECT k.id, k.name, k.key_prefix, k.scopes, k.created_at FROM api_keys c JOIN api_keys k ON k.account_id = c.account_id AND k.revoked_at IS NULL
WHERE c.key_hash = $1 AND c.revoked_at IS NULL ORDER BY k.created_at DESC, k.id`)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	charge, err := pool.Prepare(`UPDATE budget_usage SET used = used + 1
WHERE owner_id = (SELECT CAST(id AS text) FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL) AND kind = 'scan' AND period = $2 AND used + 1 <= 5
RETURNING used`)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	hashOf := func(r *http.Request) []byte {
		_, raw, _ := strings.Cut(r.Header.Get("Authorization"), " ")
		h := sha256.Sum256([]byte(raw))
		return h[:]
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"keys": keys})
	})
	mux.HandleFunc("/keys", func(w http.ResponseWriter, r *http.Request) {
		rows, err := list.QueryContext(r.Context(), hashOf(r))
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		defer rows.Close()
		var out []key
		for rows.Next() {
			var k key
			var scopes string
			if err := rows.Scan(&k.ID, &k.Name, &k.KeyPrefix, &scopes, &k.CreatedAt); err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			k.Scopes = strings.Split(scopes, ",")
			out = append(out, k)
		}
		if rows.Err() != nil || len(out) == 0 {
			http.Error(w, "unauthenticated", http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"keys": out})
	})
	mux.HandleFunc("/refused", func(w http.ResponseWriter, r *http.Request) {
		now := time.Now().UTC()
		var used int
		err := charge.QueryRowContext(r.Context(), hashOf(r), now.Format(time.DateOnly)).Scan(&used)
		if err == nil {
			w.WriteHeader(http.StatusOK)
			return
		}
		if !errors.Is(err, sql.ErrNoRows) {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		end := time.Date(now.Year(), now.Month(), now.Day()+1, 0, 0, 0, 0, time.UTC)
		reset := strconv.FormatInt(int64(end.Sub(now).Seconds())+1, 10)
		h := w.Header()
		h.Set("RateLimit-Limit", "5")
		h.Set("RateLimit-Remaining", "0")
		h.Set("RateLimit-Reset", reset)
		h.Set("Retry-After", reset)
		h.Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		_ = json.NewEncoder(w).Encode(map[string]any{"error": "Daily scan limit reached for this API key",
			"scansRemaining": 0, "scansLimit": 5, "scansResetsAt": end.UnixMilli()})
	})
	err = http.ListenAndServe(addr, mux)
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}

// pageServer serves a made-up terms page for the extract scenario.
func pageServer() *httptest.Server {
	page, err := os.ReadFile(filepath.Join("examples", "page.html"))
	if err != nil {
		page = []byte("<html><body><h1>Terms</h1><p>We may terminate your account at any time.</p></body></html>")
	}
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(page)
	}))
}

// pgbenchRate is pgbench's rate for a budget's conditional single-row
// UPDATE with o.conns clients, on a database of its own.
func pgbenchRate(ctx context.Context, o options) (row, error) {
	u, drop, err := freshDatabase(ctx, o.admin, "cw_pgbench")
	if err != nil {
		return row{}, err
	}
	defer drop()
	conn, err := sqlx.Open("postgres", u)
	if err != nil {
		return row{}, err
	}
	_, err = conn.Exec(`CREATE TABLE budget (id int PRIMARY KEY, used int NOT NULL); INSERT INTO budget VALUES (1, 0)`)
	conn.Close()
	if err != nil {
		return row{}, err
	}
	script := filepath.Join(os.TempDir(), fmt.Sprintf("cw-pgbench-%d.sql", os.Getpid()))
	if err := os.WriteFile(script, []byte("UPDATE budget SET used = used + 1 WHERE id = 1 AND used < 2000000000;\n"), 0o600); err != nil {
		return row{}, err
	}
	defer os.Remove(script)
	out, err := exec.CommandContext(ctx, "pgbench", "-n", "-c", strconv.Itoa(o.conns), "-j", "2",
		"-T", strconv.Itoa(int(o.duration.Seconds())), "-f", script, u).CombinedOutput()
	if err != nil {
		return row{}, fmt.Errorf("pgbench (apt-get install postgresql-client): %v\n%s", err, out)
	}
	m := regexp.MustCompile(`(?m)^number of transactions actually processed: (\d+)`).FindSubmatch(out)
	tps := regexp.MustCompile(`(?m)^tps = ([0-9.]+)`).FindSubmatch(out)
	if m == nil || tps == nil {
		return row{}, fmt.Errorf("pgbench printed no rate:\n%s", out)
	}
	n, _ := strconv.ParseInt(string(m[1]), 10, 64)
	rate, _ := strconv.ParseFloat(string(tps[1]), 64)
	return row{name: "pgbench: conditional single-row UPDATE", short: "pgbench", n: n, rate: rate, latencyUnknown: true}, nil
}

// freshDatabase creates a database named prefix_PID on the server at admin
// and returns its URL and how to drop it.
func freshDatabase(ctx context.Context, admin, prefix string) (string, func(), error) {
	name := fmt.Sprintf("%s_%d", prefix, os.Getpid())
	conn, err := sqlx.Open("postgres", admin)
	if err != nil {
		return "", nil, err
	}
	if _, err := conn.ExecContext(ctx, `DROP DATABASE IF EXISTS `+name+` WITH (FORCE)`); err != nil {
		conn.Close()
		return "", nil, err
	}
	if _, err := conn.ExecContext(ctx, `CREATE DATABASE `+name); err != nil {
		conn.Close()
		return "", nil, err
	}
	u, err := url.Parse(admin)
	if err != nil {
		conn.Close()
		return "", nil, err
	}
	u.Path = "/" + name
	return u.String(), func() {
		_, _ = conn.Exec(`DROP DATABASE IF EXISTS ` + name + ` WITH (FORCE)`)
		conn.Close()
	}, nil
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil || len(bytes.Fields(b)) == 0 {
		return "?"
	}
	return string(bytes.Fields(b)[0])
}
