package extract

import (
	"bufio"
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"time"
)

// A service reads PDFs in worker processes: the same program started with
// a command that calls ServePDF. PDFium runs there without wazero's
// termination checks (a quarter of its time), and the parent holds the
// watchdog a loop inside PDFium cannot escape: a CPU and a wall-clock
// deadline per document and a limit on the worker's resident memory, the
// worker killed on a breach and another started in its place. Workers stay warm
// between documents, so the WebAssembly compile is paid once per worker.
//
// The protocol is gob on the worker's standard input and output: the
// worker first answers once when its PDF engine is ready (or says why it
// is not), then one answer per request, in order.

// pdfRequest is one PDF sent to a worker.
type pdfRequest struct {
	Raw []byte
}

// pdfAnswer is a worker's answer: the document's text, or the kind of
// error and its message.
type pdfAnswer struct {
	Title, Text, Markdown string
	Kind                  answerKind
	Message               string
}

type answerKind uint8

const (
	answerOK answerKind = iota
	answerNoText
	answerUnsupported
	answerTooComplex
	answerFailed // the engine itself failed: not the document's fault
)

// ServePDF makes this process a PDF worker: it answers that its engine is
// ready, then reads each request from r and answers on w, until r ends.
// The Extractor must read PDFs itself (no Workers in its Options).
func (x *Extractor) ServePDF(r io.Reader, w io.Writer) error {
	_, err := x.pdfRuntime()
	return servePDF(r, w, err, x.answerPDF)
}

// servePDF answers ready (or that the engine failed to start, and ends),
// then each request with answer.
func servePDF(r io.Reader, w io.Writer, engine error, answer func(raw []byte) pdfAnswer) error {
	out := bufio.NewWriter(w)
	enc, dec := gob.NewEncoder(out), gob.NewDecoder(bufio.NewReader(r))
	send := func(a pdfAnswer) error {
		if err := enc.Encode(a); err != nil {
			return err
		}
		return out.Flush()
	}
	if engine != nil {
		_ = send(pdfAnswer{Kind: answerFailed, Message: engine.Error()})
		return engine
	}
	if err := send(pdfAnswer{}); err != nil {
		return err
	}
	for {
		var req pdfRequest
		if err := dec.Decode(&req); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("PDF worker: %w", err)
		}
		if err := send(answer(req.Raw)); err != nil {
			return err
		}
	}
}

// answerPDF reads one PDF in this process.
func (x *Extractor) answerPDF(raw []byte) (a pdfAnswer) {
	defer func() {
		if p := recover(); p != nil { // a malformed PDF can upset the parser
			a = pdfAnswer{Kind: answerUnsupported, Message: ErrUnsupported.Error() + ": the document could not be parsed"}
		}
	}()
	text, md, title, err := x.extractPDF(raw)
	switch {
	case err == nil:
		return pdfAnswer{Title: title, Text: text, Markdown: md}
	case errors.Is(err, ErrNoText):
		return pdfAnswer{Kind: answerNoText, Message: err.Error()}
	case errors.Is(err, ErrUnsupported):
		return pdfAnswer{Kind: answerUnsupported, Message: err.Error()}
	case errors.Is(err, ErrTooComplex):
		return pdfAnswer{Kind: answerTooComplex, Message: err.Error()}
	}
	return pdfAnswer{Kind: answerFailed, Message: err.Error()}
}

// err is the answer's error, nil for a text; the document's errors keep
// their sentinel (errors.Is) and the worker's words.
func (a pdfAnswer) err() error {
	sentinel := map[answerKind]error{answerNoText: ErrNoText, answerUnsupported: ErrUnsupported, answerTooComplex: ErrTooComplex}
	switch {
	case a.Kind == answerOK:
		return nil
	case sentinel[a.Kind] != nil:
		return &workerError{sentinel[a.Kind], a.Message}
	}
	return fmt.Errorf("PDF worker: %s", a.Message)
}

type workerError struct {
	sentinel error
	msg      string
}

func (e *workerError) Error() string { return e.msg }
func (e *workerError) Unwrap() error { return e.sentinel }

// WorkerOptions configure the worker processes.
type WorkerOptions struct {
	// Command and Args start one worker: a program that calls ServePDF on
	// its standard input and output. Env is its environment (nil: this
	// process's).
	Command string
	Args    []string
	Env     []string
	// Size is how many PDFs are read at once, each by its own worker;
	// more wait their turn.
	Size int
	// CPU and Wall bound one document: the worker's CPU time (where the
	// system tells it: Linux) and the time it takes.
	CPU, Wall time.Duration
	// Memory bounds each worker's resident memory, in bytes, watched
	// while it reads (Linux); 0: the PDF engine's own sandbox (512 MiB) is
	// the only bound. Resident, not address space (RLIMIT_AS): a worker's
	// Go runtime and wazero reserve 1.7 GB they never touch, and a worker
	// built with the race detector reserves terabytes.
	Memory int64
	// Preparing, when set, is called as the first worker starts (seconds
	// on a cold compile cache), and the function it returns once it is
	// ready, so a command line can say what it waits for.
	Preparing func() (done func())
}

// workerStart bounds how long a worker may take to make its PDF engine
// ready: compiling PDFium without a cache takes seconds, under load tens.
const workerStart = 2 * time.Minute

// Workers is a pool of PDF worker processes, given to New in Options and
// closed by its owner after the Extractor's last PDF.
type Workers struct {
	o        WorkerOptions
	places   chan struct{} // one per PDF being read
	prepared sync.Once

	mu       sync.Mutex
	idle     []*worker
	closed   bool
	starting sync.WaitGroup // replacements being started
}

// NewWorkers makes the pool; the first PDF starts its first worker.
func NewWorkers(o WorkerOptions) *Workers {
	o.Size = max(o.Size, 1)
	return &Workers{o: o, places: make(chan struct{}, o.Size)}
}

// Close stops the idle workers and those being started; no worker starts
// after it.
func (p *Workers) Close() error {
	p.mu.Lock()
	p.closed = true
	idle := p.idle
	p.idle = nil
	p.mu.Unlock()
	for _, w := range idle {
		w.stop()
	}
	p.starting.Wait()
	return nil
}

// read reads one PDF in a worker, waiting for a place.
func (p *Workers) read(raw []byte) (text, md, title string, err error) {
	p.places <- struct{}{}
	defer func() { <-p.places }()
	w, err := p.get()
	if err != nil {
		return "", "", "", err
	}
	a, err := w.read(raw, p.o.CPU, p.o.Wall, p.o.Memory)
	if err != nil { // the worker is gone: the next PDF finds another ready
		p.replace()
		return "", "", "", err
	}
	p.put(w)
	return a.Text, a.Markdown, a.Title, a.err()
}

// get takes an idle worker or starts one.
func (p *Workers) get() (*worker, error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, errClosed
	}
	if n := len(p.idle); n > 0 {
		w := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return w, nil
	}
	p.mu.Unlock()
	var w *worker
	var err error
	p.prepared.Do(func() {
		if p.o.Preparing != nil {
			defer p.o.Preparing()()
		}
		w, err = p.start()
	})
	if w == nil && err == nil {
		w, err = p.start()
	}
	return w, err
}

// put returns a worker to the idle ones, or stops it once the pool is
// closed or full (a replacement raced a start).
func (p *Workers) put(w *worker) {
	p.mu.Lock()
	if p.closed || len(p.idle) >= p.o.Size {
		p.mu.Unlock()
		w.stop()
		return
	}
	p.idle = append(p.idle, w)
	p.mu.Unlock()
}

// replace starts a worker in the background for one that was killed.
func (p *Workers) replace() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	p.starting.Add(1)
	go func() {
		defer p.starting.Done()
		if w, err := p.start(); err == nil { // else the next PDF starts one and says why
			p.put(w)
		}
	}()
}

// worker is one running worker process.
type worker struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	enc    *gob.Encoder
	dec    *gob.Decoder
	stderr *headWriter
}

// start starts a worker and waits for its engine to be ready.
func (p *Workers) start() (*worker, error) {
	cmd := exec.Command(p.o.Command, p.o.Args...)
	cmd.Env = p.o.Env
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("PDF worker: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("PDF worker: %w", err)
	}
	w := &worker{cmd: cmd, stdin: stdin, enc: gob.NewEncoder(stdin), dec: gob.NewDecoder(bufio.NewReader(stdout)), stderr: &headWriter{}}
	cmd.Stderr = w.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("PDF worker: %w", err)
	}
	var ready pdfAnswer
	done := make(chan error, 1)
	go func() { done <- w.dec.Decode(&ready) }()
	timer := time.NewTimer(workerStart)
	defer timer.Stop()
	select {
	case err = <-done:
	case <-timer.C:
		w.kill()
		<-done
		return nil, fmt.Errorf("PDF worker: not ready after %v", workerStart)
	}
	if err != nil {
		w.kill()
		return nil, fmt.Errorf("PDF worker: %w (%s)", err, w.stderr.String())
	}
	if ready.Kind != answerOK {
		w.stop()
		return nil, fmt.Errorf("PDF worker: %s", ready.Message)
	}
	return w, nil
}

// poll is how often the worker's CPU time and memory are read while it
// reads a PDF. Between two reads it can grow by little more than PDFium's
// sandbox allows.
const poll = 20 * time.Millisecond

// read sends raw to the worker and waits for its answer within the
// deadlines. An error means the worker is gone (killed on a breach, or
// dead): it is the document's error the caller answers with.
func (w *worker) read(raw []byte, cpu, wall time.Duration, memory int64) (pdfAnswer, error) {
	var a pdfAnswer
	done := make(chan error, 1)
	go func() {
		if err := w.enc.Encode(pdfRequest{Raw: raw}); err != nil {
			done <- err
			return
		}
		done <- w.dec.Decode(&a)
	}()
	started, _ := cpuTime(w.cmd.Process.Pid)
	deadline := time.NewTimer(wall)
	defer deadline.Stop()
	ticker := time.NewTicker(poll)
	defer ticker.Stop()
	for {
		select {
		case err := <-done:
			if err != nil {
				return pdfAnswer{}, w.died()
			}
			return a, nil
		case <-deadline.C:
			w.kill()
			<-done
			return pdfAnswer{}, fmt.Errorf("%w: the PDF takes more than %v to read", ErrTooComplex, wall)
		case <-ticker.C:
			if used, ok := cpuTime(w.cmd.Process.Pid); ok && used-started > cpu {
				w.kill()
				<-done
				return pdfAnswer{}, fmt.Errorf("%w: the PDF takes more than %v of CPU to read", ErrTooComplex, cpu)
			}
			if rss, ok := residentMemory(w.cmd.Process.Pid); ok && memory > 0 && rss > memory {
				w.kill()
				<-done
				return pdfAnswer{}, fmt.Errorf("%w: the PDF needs more than %d MB of memory to read", ErrTooComplex, memory>>20)
			}
		}
	}
}

// died is the error of a worker that stopped answering: it crashed on the
// document.
func (w *worker) died() error {
	w.kill()
	return fmt.Errorf("%w: the PDF reader stopped on the PDF", ErrUnsupported)
}

// kill ends the worker at once and waits for it.
func (w *worker) kill() {
	_ = w.cmd.Process.Kill()
	_ = w.cmd.Wait()
}

// stop asks an idle worker to end (its input closes) and waits for it.
func (w *worker) stop() {
	_ = w.stdin.Close()
	exited := make(chan struct{})
	go func() {
		_ = w.cmd.Wait()
		close(exited)
	}()
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		_ = w.cmd.Process.Kill()
		<-exited
	}
}

// headWriter keeps the first KiB of a worker's standard error: a worker
// writes there only as it fails, and its first lines say why (the start
// error reports them).
type headWriter struct {
	mu  sync.Mutex
	buf []byte
}

const headSize = 1 << 10

func (h *headWriter) Write(b []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.buf = append(h.buf, b[:min(len(b), headSize-len(h.buf))]...)
	return len(b), nil
}

func (h *headWriter) String() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return string(bytes.TrimSpace(h.buf))
}
