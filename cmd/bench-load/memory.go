package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/clausewatch/clausewatch/db"
	"github.com/clausewatch/clausewatch/internal/analyze/corpus"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/replica"
)

// memoryAnalyses is how many 1.5-million-character analyses the memory
// scenario sends at once, and memoryRounds how often (each round on a
// fresh server, so each peak is its own).
const (
	memoryAnalyses = 8
	memoryRounds   = 3
	memoryChars    = 1_500_000 // app.MaxTextChars, the longest text accepted
)

// memoryRow is one round of the memory scenario.
type memoryRow struct {
	peakRSS       int64 // VmHWM of the server, bytes
	ok, refused   int
	others        []string // statuses other than 200 and 503
	wall, slowest time.Duration
	queueWait     float64 // seconds the analyses queued for the text budget, from /metrics
}

// runMemory is the memory scenario (-memory): each round starts a fresh
// `clausewatch serve` on default settings (a fresh PostgreSQL database,
// the default analysis concurrency), sends eight concurrent POST
// /api/analyze of 1.5 million characters of the corpus, and reports the
// server's peak resident memory (VmHWM) and how many it refused (503).
func runMemory(ctx context.Context, o options, bin, tmp string) error {
	docs, err := corpus.Read(o.corpus)
	if err != nil {
		return fmt.Errorf("the memory scenario analyzes the corpus: %w", err)
	}
	body, err := json.Marshal(app.AnalyzeInput{Text: corpus.Text(docs, memoryChars), DocumentType: "terms"})
	if err != nil {
		return err
	}
	var rows []memoryRow
	for round := range memoryRounds {
		r, err := memoryRound(ctx, o, bin, tmp, round, string(body))
		if err != nil {
			return err
		}
		rows = append(rows, r)
	}
	fmt.Printf("\n%d concurrent POST /api/analyze of %d characters (%d-byte body), a fresh `clausewatch serve` on default settings and %s each round; %d cores, load %s%s\n\n",
		memoryAnalyses, memoryChars, len(body), o.store, runtime.NumCPU(), loadAvg(), loadNote(o))
	fmt.Println("| round | peak RSS (VmHWM) | answered 200 | refused 503 | other | slowest | wall | queued (all, s) |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	for i, r := range rows {
		fmt.Printf("| %d | %d MB | %d | %d | %v | %.1f s | %.1f s | %.1f |\n", i+1, r.peakRSS>>20, r.ok, r.refused, r.others, r.slowest.Seconds(), r.wall.Seconds(), r.queueWait)
	}
	return nil
}

func memoryRound(ctx context.Context, o options, bin, tmp string, round int, body string) (memoryRow, error) {
	dbURL, drop, err := memoryDatabase(ctx, o, tmp, round)
	if err != nil {
		return memoryRow{}, err
	}
	defer drop()
	keys, err := memoryKeys(ctx, dbURL, round)
	if err != nil {
		return memoryRow{}, err
	}
	srv, err := replica.Start(bin, tmp,
		"DATABASE_URL="+dbURL,
		"CLAUSEWATCH_AUTH_HS256_SECRET=bench-load-secret-0123456789abcdef",
		"CLAUSEWATCH_MONITOR_WORKERS=0",
		"CLAUSEWATCH_LOG_LEVEL=warn")
	if err != nil {
		return memoryRow{}, err
	}
	defer srv.Stop()

	var (
		r  memoryRow
		mu sync.Mutex
		wg sync.WaitGroup
	)
	client := &http.Client{Timeout: 5 * time.Minute}
	start := time.Now()
	for range memoryAnalyses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := time.Now()
			status, err := post(client, srv.URL+"/api/analyze", body, keys[0])
			mu.Lock()
			defer mu.Unlock()
			r.slowest = max(r.slowest, time.Since(t))
			switch {
			case err != nil:
				r.others = append(r.others, err.Error())
			case status == http.StatusOK:
				r.ok++
			case status == http.StatusServiceUnavailable:
				r.refused++
			default:
				r.others = append(r.others, strconv.Itoa(status))
			}
		}()
	}
	wg.Wait()
	r.wall = time.Since(start)
	if r.queueWait, err = metric(client, srv.URL+"/metrics", "clausewatch_analysis_queue_wait_seconds_total"); err != nil {
		return memoryRow{}, err
	}
	if r.peakRSS, err = srv.PeakRSS(); err != nil {
		return memoryRow{}, err
	}
	return r, nil
}

// memoryDatabase is a fresh database for one round: a SQLite file, as
// `make run` serves by default (the analyses' texts are then written inside
// the server's own process), or a PostgreSQL database (-store postgres).
func memoryDatabase(ctx context.Context, o options, tmp string, round int) (string, func(), error) {
	if o.store == "postgres" {
		return freshDatabase(ctx, o.admin, fmt.Sprintf("cw_mem%d", round))
	}
	dir := filepath.Join(tmp, fmt.Sprintf("memory-%d", round))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", nil, err
	}
	return "sqlite:" + filepath.Join(dir, "clausewatch.db"), func() { _ = os.RemoveAll(dir) }, nil
}

// memoryKeys migrates the round's database and makes its key, closing the
// store before the server opens the same database.
func memoryKeys(ctx context.Context, dbURL string, round int) ([]string, error) {
	store, err := db.Open(ctx, dbURL)
	if err != nil {
		return nil, err
	}
	defer store.Close()
	if err := store.Migrate(ctx); err != nil {
		return nil, err
	}
	keys, _, err := replica.Keys(ctx, store, fmt.Sprintf("memory-%d@bench.example", round), app.TierAdvanced, 1)
	return keys, err
}

// metric reads one unlabelled sample from a Prometheus text page, NaN
// where the page has none.
func metric(client *http.Client, url, name string) (float64, error) {
	res, err := client.Get(url)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, name+" "); ok {
			return strconv.ParseFloat(strings.TrimSpace(v), 64)
		}
	}
	return math.NaN(), nil // a server from before the metric (a baseline tree)
}

// post sends one analysis and reads the whole answer, as a client would.
func post(client *http.Client, url, body, key string) (int, error) {
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+key)
	res, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	_, err = io.Copy(io.Discard, res.Body)
	return res.StatusCode, err
}
