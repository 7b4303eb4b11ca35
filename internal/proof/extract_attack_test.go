//go:build proof

package proof

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// Pages of issue 29's extraction and robots.txt attacks, on the attack
// site beside the others.
const (
	// domBombPath is just under the fetcher's 10 MiB of "<b>xy</b>": 2.3
	// million nodes, 1.3 GB of resident memory when it was read whole.
	domBombPath = "/dom-bomb"
	// robotsBombDir holds the pages the robots.txt's star rule is matched
	// against; robotsBombPage is one, a 2,000-character path.
	robotsBombDir = "/robots-bomb/"
)

var robotsBombPage = robotsBombDir + strings.Repeat("a", 2000)

// robotsTxt disallows, for every crawler, the paths under robotsBombDir
// that end in "b", with 500 KiB of stars between: matched by tracking
// every place a star could end it cost 0.64 s a check.
func robotsTxt() []byte {
	head := "User-agent: *\nDisallow: " + robotsBombDir
	return []byte(head + strings.Repeat("*", 500<<10-len(head)-3) + "b\n")
}

// serveExtractAttacks answers the paths of these attacks, and reports
// whether it did.
func serveExtractAttacks(w http.ResponseWriter, r *http.Request, bomb []byte) bool {
	switch {
	case r.URL.Path == domBombPath:
		_, _ = w.Write(bomb)
	case r.URL.Path == "/robots.txt":
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write(robotsTxt())
	case strings.HasPrefix(r.URL.Path, robotsBombDir):
		_, _ = w.Write([]byte("<html><body><main><h1>Terms of Service</h1><p>We may terminate your account at any time without notice.</p></main></body></html>"))
	default:
		return false
	}
	return true
}

func domBomb() []byte {
	return bytes.Repeat([]byte("<b>xy</b>"), (10<<20-1024)/len("<b>xy</b>"))
}

// A batch of five DOM bombs and four single extractions of one, all on
// one replica at once, peaked past 2 GB and gave every scan back. Now each
// is refused while parsing (422 unreadable), at most a few at once, and
// each refusal keeps its scan: the sixth request of the key is 429.
func domBombAttack(t *testing.T, a *attack) {
	keys, _ := a.freeKeys(t, "dom-bomb@proof.example", 2, "extract", "analyze")
	url := a.site.URL + domBombPath
	item := fmt.Sprintf(`{"url":%q}`, url)
	const i = 0 // one replica takes it all
	meter := a.meter(t)
	var wg sync.WaitGroup
	var batch result
	singles := make([]result, 4)
	wg.Add(1 + len(singles))
	go func() {
		defer wg.Done()
		batch = a.do(i, "POST", "/api/analyze/batch", keys[0], []byte(`{"items":[`+strings.Repeat(item+",", 4)+item+`]}`))
	}()
	for j := range singles {
		go func() {
			defer wg.Done()
			singles[j] = a.do(i, "POST", "/api/extract", keys[1], []byte(item))
		}()
	}
	wg.Wait()

	var res struct {
		Results []struct {
			OK    bool
			Error struct{ Code string }
		}
	}
	if batch.status != http.StatusOK || json.Unmarshal(batch.body, &res) != nil || len(res.Results) != 5 {
		t.Errorf("batch of five DOM bombs: %d %.300s %v", batch.status, batch.body, batch.err)
	}
	for j, it := range res.Results {
		if it.OK || it.Error.Code != "unreadable" {
			t.Errorf("batch item %d: ok %v, code %q, want unreadable", j, it.OK, it.Error.Code)
		}
	}
	for j, r := range singles {
		if r.status != http.StatusUnprocessableEntity || !strings.Contains(string(r.body), "elements") {
			t.Errorf("extract %d of a DOM bomb: %d %.300s %v, want 422 naming the elements", j, r.status, r.body, r.err)
		}
	}
	used := a.scansUsed(i, keys[0])
	a.figures(t, "a batch of five DOM bombs and four extractions of one", meter.used(t, i), batch, used[keys[0][:12]]+used[keys[1][:12]])
	if got := used[keys[0][:12]]; got != 5 {
		t.Errorf("the batch's key used %d scans, want 5 (each refusal keeps its scan)", got)
	}
	if got := used[keys[1][:12]]; got != 4 {
		t.Errorf("the extracting key used %d scans, want 4", got)
	}
	if r := a.do(i, "POST", "/api/extract", keys[0], []byte(item)); r.status != http.StatusTooManyRequests {
		t.Errorf("a sixth DOM bomb on a free key: %d %.300s %v, want 429", r.status, r.body, r.err)
	}
	a.survived(t)
}

// A 500 KiB star rule against a 2,000-character path cost 0.64 s of
// processor a check; three monitors of such a page took most of two cores.
// Now a check spends a few milliseconds on it: over the checks of ten
// seconds, the replicas' processor time per check stays under
// robotsCPUPerCheck.
func robotsAttack(t *testing.T, a *attack) {
	const robotsCPUPerCheck = 200 * time.Millisecond
	keys, acct := a.freeKeys(t, "robots-bomb@proof.example", 1, "monitor")
	var ids []string
	for j := range 3 {
		ids = append(ids, a.monitor(t, keys[0], fmt.Sprintf("%s%s?m=%d", a.site.URL, robotsBombPage, j)))
	}
	cpu := func() time.Duration {
		var sum time.Duration
		for _, p := range a.procs {
			d, err := p.CPUTime()
			if err != nil {
				t.Fatal(err)
			}
			sum += d
		}
		return sum
	}
	a.waitFor(10*time.Second, func() bool { return a.site.count(robotsBombPage) >= 6 }) // every replica has its robots.txt
	before, fetched := cpu(), a.site.count(robotsBombPage)
	time.Sleep(10 * time.Second)
	used, checks := cpu()-before, a.site.count(robotsBombPage)-fetched
	t.Logf("%d checks in 10 s, %v of processor in all replicas", checks, used.Round(time.Millisecond))
	switch {
	case checks < 10:
		t.Errorf("%d checks of the monitored pages in 10 s, want at least 10", checks)
	case used/time.Duration(checks) > robotsCPUPerCheck:
		t.Errorf("%v of processor per check (%d checks, %v), want at most %v", used/time.Duration(checks), checks, used, robotsCPUPerCheck)
	}
	for _, id := range ids {
		if err := a.store.DeleteMonitor(t.Context(), acct.ID, id, time.Now()); err != nil {
			t.Error(err)
		}
	}
	a.survived(t)
}
