//go:build !linux

package extract

import "time"

// residentMemory cannot read another process's memory here: the PDF
// engine's sandbox (pdfMemoryPages) is the bound.
func residentMemory(pid int) (int64, bool) { return 0, false }

// cpuTime cannot read another process's CPU time here: the wall-clock
// deadline is the bound.
func cpuTime(pid int) (time.Duration, bool) { return 0, false }
