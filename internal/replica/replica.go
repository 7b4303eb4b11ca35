// Package replica runs `clausewatch serve` processes on loopback, for the
// load driver (cmd/bench-load) and the proof tests (internal/proof): build
// the binary once, start any number of processes on one database, stop them
// with SIGTERM or kill -9, and read their resident memory and processor time.
package replica

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Build compiles ./cmd/clausewatch of the module at root into dir.
func Build(ctx context.Context, root, dir string) (string, error) {
	bin := filepath.Join(dir, "clausewatch")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/clausewatch")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
}

// Process is one running `clausewatch serve`.
type Process struct {
	URL  string // http://127.0.0.1:PORT
	Addr string
	cmd  *exec.Cmd
	log  string // the file its output goes to
	done chan struct{}
	err  error
}

// Start runs bin serve on a free loopback port with env added to the
// environment (DATABASE_URL at least), in dir, and waits until it answers
// /healthz (at most a minute: replicas migrate under an advisory lock).
func Start(bin, dir string, env ...string) (*Process, error) {
	addr, err := FreeAddr()
	if err != nil {
		return nil, err
	}
	return StartOn(bin, dir, addr, env...)
}

// StartOn is Start on a given address, e.g. to restart a replica where its
// clients expect it.
func StartOn(bin, dir, addr string, env ...string) (*Process, error) {
	p := &Process{URL: "http://" + addr, Addr: addr, done: make(chan struct{})}
	p.log = filepath.Join(dir, "serve-"+strings.ReplaceAll(addr, ":", "-")+".log")
	out, err := os.OpenFile(p.log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	defer out.Close() // the child holds its own copy
	p.cmd = exec.Command(bin, "serve", "-addr", addr)
	p.cmd.Dir = dir
	p.cmd.Env = append(os.Environ(), env...)
	p.cmd.Stdout, p.cmd.Stderr = out, out
	if err := p.cmd.Start(); err != nil {
		return nil, err
	}
	go func() { p.err = p.cmd.Wait(); close(p.done) }()
	deadline := time.Now().Add(time.Minute)
	for {
		res, err := http.Get(p.URL + "/healthz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return p, nil
			}
		}
		select {
		case <-p.done:
			return nil, fmt.Errorf("clausewatch serve on %s stopped: %v\n%s", addr, p.err, p.Log())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			p.Kill()
			return nil, fmt.Errorf("clausewatch serve on %s not healthy within a minute:\n%s", addr, p.Log())
		}
	}
}

// FreeAddr is a loopback address no one listened on a moment ago.
func FreeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// PID is the process id.
func (p *Process) PID() int { return p.cmd.Process.Pid }

// Log is what the process wrote so far.
func (p *Process) Log() string {
	b, _ := os.ReadFile(p.log)
	return string(b)
}

// Stop sends SIGTERM and waits for a clean exit (at most a minute).
func (p *Process) Stop() error {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
		return p.err
	case <-time.After(time.Minute):
		p.Kill()
		return errors.New("no exit within a minute of SIGTERM")
	}
}

// Kill is kill -9: no drain, no final flush.
func (p *Process) Kill() {
	_ = p.cmd.Process.Kill()
	<-p.done
}

// Exited reports whether the process has stopped.
func (p *Process) Exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// RSS is the process's resident memory in bytes, from /proc (Linux).
func (p *Process) RSS() (int64, error) { return p.statusKB("VmRSS:") }

// PeakRSS is the most resident memory the process has held since it
// started (VmHWM), in bytes: a spike between two samples still counts.
func (p *Process) PeakRSS() (int64, error) { return p.statusKB("VmHWM:") }

func (p *Process) statusKB(field string) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.PID()))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no %s in /proc status", field)
}

// CPUTime is the processor time the process has used so far, user and
// system, from /proc (Linux; /proc counts in USER_HZ, 100 a second).
func (p *Process) CPUTime() (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.PID()))
	if err != nil {
		return 0, err
	}
	// The command name in parentheses may hold spaces: count fields after it.
	_, rest, ok := strings.Cut(string(b), ") ")
	f := strings.Fields(rest)
	if !ok || len(f) < 13 {
		return 0, errors.New("unexpected /proc stat")
	}
	var ticks int64
	for _, v := range f[11:13] { // utime, stime: fields 14 and 15 of stat
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return 0, err
		}
		ticks += n
	}
	return time.Duration(ticks) * time.Second / 100, nil
}
