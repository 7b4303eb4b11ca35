package rest_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
)

// latencies collects per-request durations to report p99 beside the rate.
type latencies struct {
	mu sync.Mutex
	d  []time.Duration
}

func (l *latencies) add(d time.Duration) {
	l.mu.Lock()
	l.d = append(l.d, d)
	l.mu.Unlock()
}

func (l *latencies) report(b *testing.B) {
	slices.Sort(l.d)
	if len(l.d) > 0 {
		b.ReportMetric(float64(l.d[len(l.d)*99/100].Microseconds()), "p99-µs")
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
}

// hammer sends b.N requests from parallel clients (8 per core), each
// expected to answer want.
func hammer(b *testing.B, client *http.Client, want int, newReq func() *http.Request) {
	var lat latencies
	b.SetParallelism(8)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			start := time.Now()
			res, err := client.Do(newReq())
			if err != nil {
				b.Error(err)
				return
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode != want {
				b.Errorf("status %d", res.StatusCode)
				return
			}
			lat.add(time.Since(start))
		}
	})
	b.StopTimer()
	lat.report(b)
}

func benchClient() *http.Client {
	return &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
}

// BenchmarkPlainJSON is the baseline: a bare net/http handler writing a
// similar JSON list, through the same client and loopback.
func BenchmarkPlainJSON(b *testing.B) {
	keys := []app.Key{{ID: "6f1c1f8e-0000-4000-8000-000000000000", Name: "bench", Prefix: "cwsk_abcdefg", Scopes: app.Scopes{"extract", "analyze"}, CreatedAt: time.Now()}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"keys": keys})
	}))
	defer srv.Close()
	hammer(b, benchClient(), http.StatusOK, func() *http.Request {
		req, _ := http.NewRequest("GET", srv.URL+"/api/developer/keys", nil)
		return req
	})
}

// BenchmarkKeyList is authenticated GET /api/developer/keys on PostgreSQL:
// checksum, hash lookup with the account, the list query, usage recording.
func BenchmarkKeyList(b *testing.B) {
	e := newEnvOn(b, dbtest.Open(b, dbtest.Postgres))
	tok, _ := e.MustAccount("bench@example.com")
	k := e.MustKey(tok)
	client := benchClient()
	hammer(b, client, http.StatusOK, func() *http.Request {
		req, _ := http.NewRequest("GET", e.srv.URL+"/api/developer/keys", nil)
		req.Header.Set("Authorization", "Bearer "+k.RawKey)
		return req
	})
}

// BenchmarkAnalyzeBudgeted is POST /api/analyze with a short text on
// PostgreSQL: authentication, one conditional budget update, the analysis
// and its insert. On the advanced plan (100 scans a day) the clock moves a
// day every 60 requests, so the budget is exercised but never runs out.
func BenchmarkAnalyzeBudgeted(b *testing.B) {
	var n atomic.Int64
	base := time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC)
	e := newEnvOn(b, dbtest.Open(b, dbtest.Postgres), apptest.Configure(func(o *app.Options) {
		o.Now = func() time.Time { return base.AddDate(0, 0, int(n.Load()/60)) }
	}))
	tok, acct := e.MustAccount("bench-analyze@example.com")
	e.SetTier(acct.ID, app.TierAdvanced)
	k := e.MustKey(tok)
	body, _ := json.Marshal(map[string]string{"text": "We may change these terms at any time without notice."})
	hammer(b, benchClient(), http.StatusOK, func() *http.Request {
		n.Add(1)
		req, _ := http.NewRequest("POST", e.srv.URL+"/api/analyze", bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+k.RawKey)
		req.Header.Set("Content-Type", "application/json")
		return req
	})
}

// BenchmarkAnalyzeRefused is POST /api/analyze past the free plan's daily
// scans on PostgreSQL: the key found and the charge refused in one
// statement, then the 429 with its RateLimit headers.
func BenchmarkAnalyzeRefused(b *testing.B) {
	e := newEnvOn(b, dbtest.Open(b, dbtest.Postgres))
	tok, _ := e.MustAccount("bench-refused@example.com")
	k := e.MustKey(tok)
	body, _ := json.Marshal(map[string]string{"text": "We may change these terms at any time without notice."})
	newReq := func() *http.Request {
		req, _ := http.NewRequest("POST", e.srv.URL+"/api/analyze", bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+k.RawKey)
		req.Header.Set("Content-Type", "application/json")
		return req
	}
	for range 5 { // the free plan's daily scans
		res, err := http.DefaultClient.Do(newReq())
		if err != nil {
			b.Fatal(err)
		}
		res.Body.Close()
	}
	hammer(b, benchClient(), http.StatusTooManyRequests, newReq)
}
