package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/apptest"
	"github.com/clausewatch/clausewatch/internal/monitor"
)

func TestMain(m *testing.M) {
	// The commands start their PDF workers from os.Executable(): in tests,
	// this binary, which then is clausewatch's worker, not the tests.
	if len(os.Args) > 1 && os.Args[1] == pdfWorkerCommand {
		os.Exit(exitCode(run(context.Background(), os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr), os.Stderr))
	}
	os.Exit(dbtest.Main(m))
}

// site is a fixture served on the harness's document server that records
// when each path was fetched. The path /hang answers its first request and
// holds every later one open until the client goes away, signalling hung.
type site struct {
	*apptest.Docs
	mu   sync.Mutex
	hits map[string][]time.Time
	hung chan struct{}
}

func (s *site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.hits[r.URL.Path] = append(s.hits[r.URL.Path], time.Now())
	n := len(s.hits[r.URL.Path])
	s.mu.Unlock()
	if r.URL.Path == "/hang" && n == 2 {
		s.hung <- struct{}{}
		apptest.Stall(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html")
	fmt.Fprintf(w, "<html><body><main><h1>Terms of Service</h1><p>These are the terms of %s.</p><p>We may terminate your account at any time.</p></main></body></html>", r.URL.Path)
}

// serve adds path to the site.
func (s *site) serve(path string) string {
	s.Handle(path, s)
	return s.URL(path)
}

func (s *site) times(path string) []time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Time(nil), s.hits[path]...)
}

// serveProcess starts `clausewatch serve` on dbURL with a scheduler; it is
// killed at the test's end if still running.
func serveProcess(t *testing.T, bin, dbURL string, s *site) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(bin, "serve")
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(),
		"DATABASE_URL="+dbURL,
		"CLAUSEWATCH_ADDR=127.0.0.1:0",
		"CLAUSEWATCH_AUTH_HS256_SECRET=multi-process-test-secret-0123456789",
		"CLAUSEWATCH_FETCH_ALLOW_HOSTS="+s.Addr(),
		"CLAUSEWATCH_FETCH_TIMEOUT=1s", // the lease is 2×1s+5s = 7s
		"CLAUSEWATCH_MONITOR_MIN_INTERVAL=1s",
		"CLAUSEWATCH_MONITOR_HOST_INTERVAL=0",
		"CLAUSEWATCH_MONITOR_WORKERS=8",
		"CLAUSEWATCH_LOG_LEVEL=warn",
	)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	return cmd, &out
}

// Two server processes on one PostgreSQL database share 50 monitors at a 1s
// interval: over more than ten intervals no monitor is fetched twice within
// one interval and none waits more than two. Both stop cleanly on SIGTERM.
// Then a process killed in the middle of a check loses its lease, and
// another process checks that monitor once the lease has run out.
func TestMonitorsAcrossProcesses(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "clausewatch")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	dbURL := dbtest.PostgresURL(t)
	// This process only creates the monitors: its service runs no scheduler.
	e := apptest.New(t, dbtest.Open(t, dbtest.Postgres), apptest.Monitoring(func(o *monitor.Options) { o.MinInterval = time.Second }))
	s := &site{Docs: e.Docs, hits: map[string][]time.Time{}, hung: make(chan struct{}, 8)}
	tok, acct := e.MustAccount("multi@example.com")
	e.SetTier(acct.ID, app.TierAdvanced)
	caller := e.Ctx(tok)
	one := 1
	for i := range 50 {
		if _, err := e.Mon.CreateMonitor(caller, monitor.MonitorCreate{URL: s.serve(fmt.Sprintf("/m/%d", i)), IntervalSeconds: &one}); err != nil {
			t.Fatal(err)
		}
	}

	launch := time.Now()
	a, outA := serveProcess(t, bin, dbURL, s)
	b, outB := serveProcess(t, bin, dbURL, s)
	// The window opens once both processes are up and every monitor has
	// been checked by them, so start-up time is not counted as a wait.
	for started := 0; started < 50; time.Sleep(50 * time.Millisecond) {
		if time.Since(launch) > 15*time.Second {
			t.Fatalf("%d of 50 monitors checked within 15s of start\n%s\n%s", started, outA, outB)
		}
		started = 0
		for i := range 50 {
			if h := s.times(fmt.Sprintf("/m/%d", i)); len(h) > 0 && h[len(h)-1].After(launch) {
				started++
			}
		}
	}
	// The window is the schedule's own clock: it closes once every monitor
	// has been checked ten times in it (ten intervals), not after a guessed
	// sleep. The processes run on wall time, so no test clock reaches them.
	start := time.Now()
	for !checkedSince(s, 50, start, 10) {
		if time.Since(start) > 20*time.Second {
			t.Fatalf("50 monitors not checked ten times each within 20s\n%s\n%s", outA, outB)
		}
		time.Sleep(100 * time.Millisecond)
	}
	end := time.Now()
	for _, p := range []*exec.Cmd{a, b} {
		_ = p.Process.Signal(syscall.SIGTERM)
	}
	for i, p := range []*exec.Cmd{a, b} {
		if err := p.Wait(); err != nil {
			t.Errorf("process %d did not stop cleanly on SIGTERM: %v\n%s", i, err, []*bytes.Buffer{outA, outB}[i])
		}
	}
	from := start
	checks := 0
	for i := range 50 {
		path := fmt.Sprintf("/m/%d", i)
		var in []time.Time
		for _, h := range s.times(path) {
			if h.After(from) && h.Before(end) {
				in = append(in, h)
			}
		}
		checks += len(in)
		prev := from
		for _, h := range append(in, end) {
			if gap := h.Sub(prev); gap > 2*time.Second+300*time.Millisecond {
				t.Errorf("%s unchecked for %v", path, gap.Round(time.Millisecond))
			}
			prev = h
		}
		for j := 1; j < len(in); j++ {
			// The scheduler spaces claims a whole interval apart; the page
			// sees each fetch after a claim-to-request delay that varies by
			// tens of milliseconds under -race on a loaded machine. Two
			// processes checking one monitor in one interval would show as
			// two hits milliseconds apart, far inside this slack.
			if gap := in[j].Sub(in[j-1]); gap < time.Second-100*time.Millisecond {
				t.Errorf("%s fetched twice within one interval (%v apart)", path, gap.Round(time.Millisecond))
			}
		}
	}
	t.Logf("%d checks of 50 monitors in %v", checks, end.Sub(from).Round(time.Millisecond))

	// The kill: a lone process hangs on /hang's second fetch and is killed.
	if _, err := e.Mon.CreateMonitor(caller, monitor.MonitorCreate{URL: s.serve("/hang"), IntervalSeconds: &one}); err != nil {
		t.Fatal(err)
	}
	c, _ := serveProcess(t, bin, dbURL, s)
	select {
	case <-s.hung:
	case <-time.After(10 * time.Second):
		t.Fatal("the monitor on /hang was not checked")
	}
	_ = c.Process.Kill()
	_ = c.Wait()
	killedAt := time.Now()
	serveProcess(t, bin, dbURL, s)
	deadline := time.Now().Add(15 * time.Second)
	for len(s.times("/hang")) < 3 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	hits := s.times("/hang")
	if len(hits) < 3 {
		t.Fatalf("the killed check was never taken over (%d fetches)", len(hits))
	}
	if wait := hits[2].Sub(hits[1]); wait < 6*time.Second || wait > 10*time.Second {
		t.Errorf("taken over %v after the killed check began; the lease is 7s", wait.Round(time.Millisecond))
	}
	t.Logf("killed at +%v, taken over %v after the check began", killedAt.Sub(hits[1]).Round(time.Millisecond), hits[2].Sub(hits[1]).Round(time.Millisecond))
}

// checkedSince says whether each of the n monitors of s (/m/0 ...) was
// fetched at least times times after from.
func checkedSince(s *site, n int, from time.Time, times int) bool {
	for i := range n {
		c := 0
		for _, h := range s.times(fmt.Sprintf("/m/%d", i)) {
			if h.After(from) {
				c++
			}
		}
		if c < times {
			return false
		}
	}
	return true
}
