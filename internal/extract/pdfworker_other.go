//go:build !linux

package extract

import "time"

// limitMemory has no portable way to bound another process's memory here:
// the PDF engine's sandbox (pdfMemoryPages) is the bound.
func limitMemory(pid int, limit int64) error { return nil }

// cpuTime cannot read another process's CPU time here: the wall-clock
// deadline is the bound.
func cpuTime(pid int) (time.Duration, bool) { return 0, false }
