package middleware

import (
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/clausewatch/clausewatch/internal/app"
)

func TestObserveCountsByRoutePattern(t *testing.T) {
	reg := prometheus.NewRegistry()
	mux := http.NewServeMux()
	mux.HandleFunc("DELETE /api/developer/keys/{id}", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNotFound) })
	mux.HandleFunc("GET /boom", func(http.ResponseWriter, *http.Request) { panic("boom") })
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	srv := httptest.NewServer(Observe(slog.New(slog.NewTextHandler(io.Discard, nil)), NewMetrics(reg), mux))
	defer srv.Close()

	for _, id := range []string{"a", "b", "c"} {
		req, _ := http.NewRequest("DELETE", srv.URL+"/api/developer/keys/"+id, nil)
		res, _ := http.DefaultClient.Do(req)
		res.Body.Close()
		if res.Header.Get("X-Request-Id") == "" {
			t.Error("no request id")
		}
	}
	res, _ := http.Get(srv.URL + "/boom")
	res.Body.Close()
	if res.StatusCode != http.StatusInternalServerError {
		t.Errorf("panic: %d, want 500", res.StatusCode)
	}
	res, _ = http.Get(srv.URL + "/metrics")
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	for _, want := range []string{
		`clausewatch_http_requests_total{method="DELETE",route="/api/developer/keys/{id}",status="404"} 3`,
		`clausewatch_http_requests_total{method="GET",route="/boom",status="500"} 1`,
		`clausewatch_http_request_duration_seconds_bucket{method="DELETE",route="/api/developer/keys/{id}"`,
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

func TestRequestIDKeepsSaneValues(t *testing.T) {
	if got := requestID("abc-123"); got != "abc-123" {
		t.Errorf("kept %q", got)
	}
	for _, bad := range []string{"", "a b", strings.Repeat("x", 65), "<script>"} {
		if got := requestID(bad); got == bad || len(got) != 16 {
			t.Errorf("%q -> %q", bad, got)
		}
	}
}

// CheckJSON's errors name the field by its path in the body, which is the
// body's own keys: a key of a megabyte is named by a short excerpt.
func TestCheckJSONNamesLongKeysShort(t *testing.T) {
	long := strings.Repeat("k", 1<<20)
	type body struct {
		Query string `json:"query"`
	}
	for name, data := range map[string]string{
		"a long key twice":         `{"` + long + `": 1, "` + long + `": 2}`,
		"a long key twice, nested": `{"a": [{"` + long + `": 1, "` + long + `": 2}]}`,
		"under a long key":         `{"` + long + `": {"a": 1, "a": 2}}`,
	} {
		err := CheckJSON([]byte(data), reflect.TypeFor[body]())
		var ae *app.Error
		if !errors.As(err, &ae) || ae.Code != app.CodeInvalid || len(ae.Fields) != 1 {
			t.Fatalf("%s: %v, want one invalid field", name, err)
		}
		if n := len([]rune(ae.Fields[0].Field)); n > app.MaxEchoed+1 {
			t.Errorf("%s: field named in %d characters", name, n)
		}
	}
}

// A refused value is named by the JSON it must be, as REST and GraphQL say it.
func TestJSONKindNamesTheJSONValue(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{"", "a string"},
		{true, "a boolean"},
		{[]string{}, "an array"},
		{[2]int{}, "an array"},
		{struct{}{}, "an object"},
		{map[string]any{}, "an object"},
		{0, "a number"},
		{uint8(0), "a number"},
		{0.5, "a number"},
	} {
		if got := JSONKind(reflect.TypeOf(c.v)); got != c.want {
			t.Errorf("JSONKind(%T) = %q, want %q", c.v, got, c.want)
		}
	}
}
