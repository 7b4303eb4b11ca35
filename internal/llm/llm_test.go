package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clausewatch/clausewatch/internal/analyze"
)

const doc = "Terms\n\nWe may terminate your account at any time.\nAll disputes go to binding arbitration. 🙂 Ünïcode stays."

func input() Input {
	return Input{
		Title: "Acme Terms", DocumentType: "terms", Text: doc,
		Findings: []analyze.Finding{{Category: "unilateral_termination", Severity: "bad", Title: "Termination", Quote: "We may terminate your account at any time.", Start: 7, End: 49, Confidence: 0.9}},
	}
}

// newServer starts an OpenAI-compatible server on 127.0.0.1 (httptest's
// default) that answers with the given message content.
func newServer(t *testing.T, handle func(w http.ResponseWriter, r *http.Request, body map[string]any)) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		b, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(b, &body)
		handle(w, r, body)
	}))
	t.Cleanup(srv.Close)
	if !strings.HasPrefix(srv.URL, "http://127.0.0.1:") {
		t.Fatalf("test server not on loopback: %s", srv.URL)
	}
	return srv
}

func reply(w http.ResponseWriter, model, content string) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": model,
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": content}}},
	})
}

func TestSummarizeRequestShapeAndQuotes(t *testing.T) {
	var got map[string]any
	var path, auth string
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request, body map[string]any) {
		got, path, auth = body, r.URL.Path, r.Header.Get("Authorization")
		ans, _ := json.Marshal(map[string]any{
			"summary": "You can lose your account at any time, and disputes go to arbitration.",
			"quotes": []string{
				"We may terminate your account at any time.",
				"All disputes go to   binding\narbitration.", // whitespace differs: mapped to the text's wording
				"We will sell your data to anyone.",          // fabricated: dropped
				"We may terminate your account at any time.", // duplicate: dropped
			},
		})
		reply(w, "test-model-2026", "```json\n"+string(ans)+"\n```")
	})
	c := New(Config{BaseURL: srv.URL + "/v1", APIKey: "sk-test", Model: "test-model", Timeout: 5 * time.Second})
	s, err := c.Summarize(context.Background(), input())
	if err != nil {
		t.Fatal(err)
	}
	if path != "/v1/chat/completions" {
		t.Errorf("path = %q", path)
	}
	if auth != "Bearer sk-test" {
		t.Errorf("Authorization = %q", auth)
	}
	if got["model"] != "test-model" {
		t.Errorf("model = %v", got["model"])
	}
	if st, ok := got["stream"]; ok && st != false {
		t.Errorf("stream = %v, want off", st)
	}
	msgs, _ := got["messages"].([]any)
	if len(msgs) != 2 {
		t.Fatalf("messages = %v", got["messages"])
	}
	user, _ := msgs[1].(map[string]any)
	if c, _ := user["content"].(string); user["role"] != "user" || !strings.Contains(c, "We may terminate your account at any time.") || !strings.Contains(c, "Acme Terms") {
		t.Errorf("user message lacks the findings: %v", user)
	}
	if s.Model != "test-model-2026" || !strings.Contains(s.Summary, "arbitration") {
		t.Errorf("summary = %+v", s)
	}
	want := []string{"We may terminate your account at any time.", "All disputes go to binding arbitration."}
	if !slices.Equal(s.Quotes, want) {
		t.Errorf("quotes = %q, want %q", s.Quotes, want)
	}
	for _, q := range s.Quotes {
		if !strings.Contains(doc, q) {
			t.Errorf("quote %q not in text", q)
		}
	}
}

func TestSummarizeTimeout(t *testing.T) {
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request, _ map[string]any) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	})
	c := New(Config{BaseURL: srv.URL, Model: "m", Timeout: 150 * time.Millisecond})
	start := time.Now()
	_, err := c.Summarize(context.Background(), input())
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("timeout took %s", d)
	}
}

func TestSummarizeGarbage(t *testing.T) {
	cases := map[string]func(w http.ResponseWriter){
		"prose":         func(w http.ResponseWriter) { reply(w, "m", "Sure! Here is a summary: it is fine.") },
		"bad json":      func(w http.ResponseWriter) { reply(w, "m", `{"summary": "unterminated`) },
		"empty summary": func(w http.ResponseWriter) { reply(w, "m", `{"summary": "", "quotes": []}`) },
		"no choices": func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"id":"x","object":"chat.completion","model":"m","choices":[]}`)
		},
		"html body": func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `<html>oops</html>`)
		},
	}
	for name, h := range cases {
		t.Run(name, func(t *testing.T) {
			srv := newServer(t, func(w http.ResponseWriter, _ *http.Request, _ map[string]any) { h(w) })
			_, err := New(Config{BaseURL: srv.URL, Model: "m", Timeout: 2 * time.Second}).Summarize(context.Background(), input())
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("err = %v, want ErrMalformed", err)
			}
		})
	}
}

func TestSummarizeUpstreamError(t *testing.T) {
	calls := 0
	srv := newServer(t, func(w http.ResponseWriter, _ *http.Request, _ map[string]any) {
		calls++
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprint(w, `{"error":{"message":"boom","type":"server_error"}}`)
	})
	_, err := New(Config{BaseURL: srv.URL, Model: "m", Timeout: 2 * time.Second}).Summarize(context.Background(), input())
	if !errors.Is(err, ErrUpstream) {
		t.Fatalf("err = %v, want ErrUpstream", err)
	}
	if calls != 1 {
		t.Errorf("%d calls, want 1 (no retries)", calls)
	}
}

func TestNotConfigured(t *testing.T) {
	_, err := New(Config{}).Summarize(context.Background(), input())
	if !errors.Is(err, ErrNotConfigured) {
		t.Fatalf("err = %v", err)
	}
}

func TestVerifyQuotes(t *testing.T) {
	got := verifyQuotes(doc, []string{"", "  ", "🙂 Ünïcode stays.", "Ünïcode (stays", "We may\nterminate"})
	want := []string{"🙂 Ünïcode stays.", "We may terminate"}
	if !slices.Equal(got, want) {
		t.Errorf("verifyQuotes = %q, want %q", got, want)
	}
}
