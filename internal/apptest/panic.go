package apptest

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/extract"
)

// Logs is a logger's output, safe for the service's goroutines.
type Logs struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *Logs) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// Panics counts the log records that carry a panic's stack.
func (b *Logs) Panics() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Count(b.buf.String(), "panic: ")
}

// String is everything logged so far.
func (b *Logs) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// LogTo makes the service log to b, as JSON.
func LogTo(b *Logs) Option {
	return Configure(func(o *app.Options) { o.Logger = slog.New(slog.NewJSONHandler(b, nil)) })
}

// hookedRules is the service's extractor with hook called first on every
// page it reads.
type hookedRules struct {
	*extract.Extractor
	hook func(raw []byte)
}

func (x hookedRules) Extract(raw []byte, ct, u string) (*extract.Document, error) {
	x.hook(raw)
	return x.Extractor.Extract(raw, ct, u)
}

// ExtractHook calls hook with every page the service's extractor reads,
// before it reads it.
func ExtractHook(t testing.TB, hook func(raw []byte)) Option {
	return Configure(func(o *app.Options) {
		_, current := Engines(t)
		o.Extractor = hookedRules{current, hook}
	})
}

// PanicOn makes the service's extractor panic on a page holding word, as a
// bug in it would.
func PanicOn(t testing.TB, word string) Option {
	return ExtractHook(t, func(raw []byte) {
		if bytes.Contains(raw, []byte(word)) {
			panic("extractor bug on " + word)
		}
	})
}
