// Package app is clausewatch's service layer: accounts, sessions, keys,
// budgets, usage, billing state, extraction and analysis as operations the
// transports and the portal call. It knows nothing of HTTP, GraphQL or SQL,
// and nothing of monitoring (internal/monitor builds on it).
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/go-playground/validator/v10"
	"github.com/google/uuid"

	"github.com/clausewatch/clausewatch/internal/analyze"
	"github.com/clausewatch/clausewatch/internal/fetch"
	"github.com/clausewatch/clausewatch/internal/llm"
)

// Options configures a Service.
type Options struct {
	Store    Store
	Sessions SessionVerifier // nil: account sessions are refused
	Logger   *slog.Logger
	Now      func() time.Time // nil: time.Now; tests inject a clock
	// Fetcher reaches public documents (SSRF-guarded); nil uses defaults.
	Fetcher *fetch.Client
	// LLM writes optional AI summaries; nil: "ai": true answers 503.
	LLM *llm.Client
	// Analyzer (analyze.Load) and Extractor (extract.New) are the engines
	// every analysis and every document read go through; a service that
	// reads or analyzes no document (key create) may leave them nil.
	Analyzer  *analyze.Engine
	Extractor Extractor
	// UsageRetention is how long Run keeps raw usage-log rows; 0: 90 days.
	UsageRetention time.Duration
	// AnalysisConcurrency bounds the analyses running at once; 0: 2 ×
	// GOMAXPROCS. AnalysisWait is how long one more waits for a place
	// before it is refused as busy; 0: 2s.
	AnalysisConcurrency int
	AnalysisWait        time.Duration
	// AnalysisTextBytes bounds the bytes of text in analysis at once, and
	// with it their memory; 0: DefaultAnalysisTextBytes. AnalysisQueueWait
	// is how long an analysis queues for them before it is refused as busy;
	// 0: 4 minutes, inside the server's 5-minute write timeout.
	AnalysisTextBytes int
	AnalysisQueueWait time.Duration
}

// DefaultAnalysisTextBytes is the text in analysis at once by default: four
// of the longest texts accepted (MaxTextChars), with room for multi-byte
// characters; shorter texts share it. Eight of the longest sent at once on
// a loaded machine peaked at 160-163 MB with two running and 173-185 MB
// with four, where two refused some after minutes in the queue
// (docs/benchmarks.md): four keep the queue short and well under 300 MB.
const DefaultAnalysisTextBytes = 6 << 20

// Service is the application. Its methods read the caller from ctx
// (WithPrincipal) and return *Error values.
type Service struct {
	store    Store
	sessions SessionVerifier
	log      *slog.Logger
	clock    func() time.Time
	valid    *validator.Validate
	usage    *recorder
	// retention is how long raw usage-log rows are kept.
	retention time.Duration

	fetcher   *fetch.Client
	llm       *llm.Client
	analyzer  *analyze.Engine
	extractor Extractor

	places *places // admits analyses by count and text size
}

// New builds a Service. It starts nothing: a server calls Run for the
// background work, a command-line tool needs none.
func New(o Options) *Service {
	s := &Service{store: o.Store, sessions: o.Sessions, log: o.Logger, clock: o.Now,
		fetcher: o.Fetcher, llm: o.LLM,
		analyzer: o.Analyzer, extractor: o.Extractor,
		retention: o.UsageRetention, usage: &recorder{store: o.Store}}
	s.places = newPlaces(positiveOr(o.AnalysisConcurrency, 2*runtime.GOMAXPROCS(0)),
		positiveOr(o.AnalysisTextBytes, DefaultAnalysisTextBytes),
		positiveOr(o.AnalysisWait, 2*time.Second), positiveOr(o.AnalysisQueueWait, 4*time.Minute))
	if s.retention <= 0 {
		s.retention = 90 * 24 * time.Hour
	}
	if s.fetcher == nil {
		s.fetcher = fetch.New(fetch.Options{})
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.clock == nil {
		s.clock = time.Now
	}
	s.valid = validator.New(validator.WithRequiredStructEnabled())
	// Field errors name the JSON field the caller sent, not the Go field.
	s.valid.RegisterTagNameFunc(func(f reflect.StructField) string {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			return f.Name
		}
		return name
	})
	return s
}

// Run does the service's background work until ctx ends: its own loops
// and more (a server passes the monitor scheduler's), each restarted after
// a panic. When they have stopped it writes the usage still pending, so a
// server cancels ctx only after its last request is done and loses nothing.
func (s *Service) Run(ctx context.Context, more ...func(context.Context) error) error {
	// Every background loop is started here, and only here.
	loops := append([]func(context.Context) error{s.flushLoop, s.pruneLoop}, more...)
	errs := make([]error, len(loops)+1)
	var wg sync.WaitGroup
	for i, loop := range loops {
		wg.Go(func() { errs[i] = s.keepRunning(ctx, loop) })
	}
	wg.Wait()
	// ctx has ended; the last flush gets a deadline of its own.
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), finalFlushTimeout)
	defer cancel()
	if err := s.usage.flush(fctx); err != nil {
		errs[len(loops)] = fmt.Errorf("flush usage: %w", err)
	}
	return errors.Join(errs...)
}

// finalFlushTimeout bounds the flush at the end of Run.
const finalFlushTimeout = 30 * time.Second

// keepRunning runs loop until ctx ends. A panic in it is logged and the
// loop started again after restartPause: a bug in one background loop must
// neither end the process nor stop that work for good.
func (s *Service) keepRunning(ctx context.Context, loop func(context.Context) error) error {
	for {
		var done error
		err := catch(func() error { done = loop(ctx); return nil })
		if err == nil {
			return done
		}
		s.log.Error("background loop panicked; restarting it", "err", err)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(restartPause):
		}
	}
}

// restartPause keeps a loop that panics at once from spinning.
const restartPause = time.Second

// catch runs f and returns its error, or an internal error carrying the
// panic and its stack when f panics, for the caller to log once.
func catch(f func() error) (err error) {
	defer recoverInto(&err)
	return f()
}

// recoverInto, deferred, turns a panic into *err: an internal error
// carrying the panic and its stack.
func recoverInto(err *error) {
	if r := recover(); r != nil {
		*err = Internal(fmt.Errorf("panic: %v\n%s", r, debug.Stack()))
	}
}

func (s *Service) now() time.Time { return s.clock().UTC() }

func newID() string { return uuid.NewString() }

func validID(id string) bool {
	_, err := uuid.Parse(id)
	return err == nil && len(id) == 36
}

// validate checks v's struct tags and returns an invalid error with one
// detail per bad field.
func (s *Service) validate(v any) error {
	err := s.valid.Struct(v)
	if err == nil {
		return nil
	}
	var ve validator.ValidationErrors
	if !errors.As(err, &ve) {
		return Internal(err)
	}
	e := &Error{Code: CodeInvalid, Message: "invalid request"}
	for _, fe := range ve {
		e.Fields = append(e.Fields, FieldError{Field: jsonPath(fe.Namespace()), Message: fieldMessage(fe)})
	}
	return e
}

// jsonPath drops the struct name from a validator namespace ("KeyCreate.scopes[0]" -> "scopes[0]").
func jsonPath(ns string) string {
	if _, rest, ok := strings.Cut(ns, "."); ok {
		return rest
	}
	return ns
}

func fieldMessage(fe validator.FieldError) string {
	switch fe.Tag() {
	case "required":
		return "is required"
	case "max":
		if fe.Kind() == reflect.Slice {
			return "must have at most " + fe.Param() + " items"
		}
		return "must be at most " + fe.Param() + " characters"
	case "min":
		if fe.Kind() == reflect.Slice {
			return "must have at least " + fe.Param() + " items"
		}
		return "must be at least " + fe.Param()
	case "oneof":
		return "must be one of: " + strings.ReplaceAll(fe.Param(), " ", ", ")
	case "unique":
		return "must not repeat values"
	case "url", "http_url":
		return "must be an http(s) URL"
	default:
		return "is invalid (" + fe.Tag() + ")"
	}
}

// positiveOr is v, or def where v is not set.
func positiveOr[T int | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}
