package rest_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/mmcdole/gofeed"

	"github.com/clausewatch/clausewatch/db/dbtest"
	"github.com/clausewatch/clausewatch/internal/apptest"
)

// An account's feed and a monitor's, read by URL with the feed token: they
// parse in a real feed library (gofeed) as Atom with one entry per alert,
// linking to the alert in the portal; the ETag makes a repeated read a 304;
// a rotated token is refused at once.
func TestAlertFeed(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e, url := newMonitorEnv(t, d)
		tok, _ := e.MustAccount("feed@example.com")
		key := e.MustKey(tok, "monitor").RawKey
		id := e.do("POST", "/api/monitor", key, map[string]any{"url": url, "name": "Example terms"}).json(t)["id"].(string)
		changed := strings.Replace(apptest.TermsPage, "<p>Any dispute shall be resolved by binding arbitration and you waive any class action.</p>\n", "", 1)
		e.Docs.Set("/terms", apptest.Page{ContentType: "text/html; charset=utf-8", Body: changed})
		if res := e.do("POST", "/api/monitor/check?id="+id, key, nil); res.status != http.StatusOK {
			t.Fatalf("check: %d %s", res.status, res.body)
		}
		alert := e.do("GET", "/api/monitor/alerts", key, nil).json(t)["alerts"].([]any)[0].(map[string]any)

		first, err := e.Mon.RotateFeedToken(e.Ctx(tok))
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range []string{"/feeds/" + first.Token + "/alerts", "/feeds/" + first.Token + "/monitors/" + id} {
			res := e.do("GET", path, "", nil)
			if res.status != http.StatusOK || res.header.Get("Content-Type") != "application/atom+xml; charset=utf-8" || res.header.Get("ETag") == "" {
				t.Fatalf("%s: %d %v %s", path, res.status, res.header, res.body)
			}
			feed, err := gofeed.NewParser().Parse(bytes.NewReader(res.body))
			if err != nil {
				t.Fatalf("%s does not parse: %v\n%s", path, err, res.body)
			}
			if feed.FeedType != "atom" || feed.FeedVersion != "1.0" || len(feed.Items) != 1 || feed.UpdatedParsed == nil {
				t.Fatalf("%s: %s %s, %d items", path, feed.FeedType, feed.FeedVersion, len(feed.Items))
			}
			it := feed.Items[0]
			move := "Grade " + alert["gradeBefore"].(string) + " → " + alert["gradeAfter"].(string) + ". "
			if alert["gradeBefore"] == alert["gradeAfter"] {
				move = "Grade " + alert["gradeAfter"].(string) + " (unchanged). "
			}
			if it.GUID != "urn:uuid:"+alert["id"].(string) || !strings.HasSuffix(it.Link, "/#monitors/alert/"+alert["id"].(string)) ||
				it.Description != move+alert["summary"].(string) || !strings.HasPrefix(it.Title, "Example terms: "+move) ||
				!strings.Contains(it.Content, "Findings gone") || !strings.Contains(it.Content, "arbitration") || it.UpdatedParsed == nil {
				t.Errorf("%s: entry %+v", path, it)
			}
			again := e.do("GET", path, "", nil, "If-None-Match", res.header.Get("ETag"))
			if again.status != http.StatusNotModified || len(again.body) != 0 || again.header.Get("ETag") != res.header.Get("ETag") {
				t.Errorf("%s with If-None-Match: %d %q", path, again.status, again.body)
			}
			if other := e.do("GET", path, "", nil, "If-None-Match", `"stale"`); other.status != http.StatusOK {
				t.Errorf("%s with a stale ETag: %d", path, other.status)
			}
		}

		second, err := e.Mon.RotateFeedToken(e.Ctx(tok))
		if err != nil {
			t.Fatal(err)
		}
		for name, path := range map[string]string{
			"the rotated token": "/feeds/" + first.Token + "/alerts", "its monitor feed": "/feeds/" + first.Token + "/monitors/" + id,
			"an API key": "/feeds/" + key + "/alerts",
		} {
			if res := e.do("GET", path, "", nil); res.status != http.StatusUnauthorized {
				t.Errorf("%s: %d %s", name, res.status, res.body)
			}
		}
		if res := e.do("GET", "/feeds/"+second.Token+"/alerts", "", nil); res.status != http.StatusOK {
			t.Errorf("the new token: %d", res.status)
		}
		if res := e.do("GET", "/feeds/"+second.Token+"/monitors/00000000-0000-4000-8000-000000000000", "", nil); res.status != http.StatusNotFound {
			t.Errorf("an unknown monitor: %d", res.status)
		}
	})
}

// The history over REST: the versions with their grades, and the diff of
// the first and the last; a missing monitorId is a 400 with details.
func TestVersionHistoryREST(t *testing.T) {
	apptest.ForEachDialect(t, func(t *testing.T, d dbtest.Dialect) {
		e, url := newMonitorEnv(t, d)
		tok, _ := e.MustAccount("history@example.com")
		key := e.MustKey(tok, "monitor").RawKey
		id := e.do("POST", "/api/monitor", key, map[string]any{"url": url, "alertOn": "risk"}).json(t)["id"].(string)
		changed := strings.Replace(apptest.TermsPage, "<p>Any dispute shall be resolved by binding arbitration and you waive any class action.</p>\n", "", 1)
		e.Docs.Set("/terms", apptest.Page{ContentType: "text/html; charset=utf-8", Body: changed})
		e.do("POST", "/api/monitor/check?id="+id, key, nil)

		var page struct {
			Versions []struct {
				ContentHash, FirstSeenAt, LastSeenAt, Grade string
				WordCount                                   int
			}
			NextCursor *string
		}
		res := e.do("GET", "/api/monitor/versions?monitorId="+id, key, nil)
		res.decode(t, &page)
		if res.status != http.StatusOK || len(page.Versions) != 2 || page.NextCursor != nil || page.Versions[0].Grade == "" ||
			!stamp.MatchString(page.Versions[0].FirstSeenAt) || page.Versions[0].WordCount == 0 {
			t.Fatalf("versions: %d %s", res.status, res.body)
		}
		res = e.do("GET", "/api/monitor/versions/diff?monitorId="+id+"&from="+page.Versions[1].ContentHash+"&to="+page.Versions[0].ContentHash, key, nil)
		m := res.json(t)
		if res.status != http.StatusOK || m["removed"] != 1.0 || !strings.Contains(m["diff"].(string), "-Any dispute") ||
			m["gradeAfter"] != page.Versions[0].Grade || m["to"].(map[string]any)["contentHash"] != page.Versions[0].ContentHash ||
			len(m["findingsRemoved"].([]any)) == 0 {
			t.Errorf("diff: %d %s", res.status, res.body)
		}
		for _, path := range []string{"/api/monitor/versions", "/api/monitor/versions/diff?from=x&to=y"} {
			res := e.do("GET", path, key, nil)
			if res.status != http.StatusBadRequest || !strings.Contains(string(res.body), `"field":"monitorId"`) {
				t.Errorf("%s: %d %s", path, res.status, res.body)
			}
		}
	})
}
