package apptest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/clausewatch/clausewatch/internal/llm"
)

// LLMServer is an OpenAI-compatible provider on loopback that answers every
// request with handle, and a client for it with the given timeout. It counts
// the calls it gets.
func LLMServer(t testing.TB, timeout time.Duration, handle http.HandlerFunc) (*llm.Client, *atomic.Int32) {
	t.Helper()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		io.Copy(io.Discard, r.Body)
		handle(w, r)
	}))
	t.Cleanup(srv.Close)
	return llm.New(llm.Config{BaseURL: srv.URL, Model: "test-model", Timeout: timeout}), &calls
}

// FakeLLM is a provider whose every chat completion says content.
func FakeLLM(t testing.TB, content string) *llm.Client {
	c, _ := LLMServer(t, 2*time.Second, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"id": "c1", "object": "chat.completion", "created": time.Now().Unix(), "model": "test-model",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": content}}},
		})
	})
	return c
}
