package extract

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"time"
)

// residentMemory is the resident memory of process pid, in bytes
// (/proc/pid/statm's second field, in pages).
func residentMemory(pid int) (int64, bool) {
	statm, err := os.ReadFile(fmt.Sprintf("/proc/%d/statm", pid))
	if err != nil {
		return 0, false
	}
	f := bytes.Fields(statm)
	if len(f) < 2 {
		return 0, false
	}
	pages, err := strconv.ParseInt(string(f[1]), 10, 64)
	if err != nil {
		return 0, false
	}
	return pages * int64(os.Getpagesize()), true
}

// clockTick is the unit of /proc's CPU times (USER_HZ, fixed at 100 in
// the kernel's interface to user space).
const clockTick = 10 * time.Millisecond

// cpuTime is the CPU time process pid has used so far, user and system
// (/proc/pid/stat's utime and stime).
func cpuTime(pid int) (time.Duration, bool) {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, false
	}
	// The command name, in parentheses, may hold spaces: fields are
	// counted after its closing one, from the state (field 3).
	end := bytes.LastIndexByte(stat, ')')
	if end < 0 {
		return 0, false
	}
	f := bytes.Fields(stat[end+1:])
	if len(f) < 13 {
		return 0, false
	}
	utime, err1 := strconv.ParseInt(string(f[11]), 10, 64)
	stime, err2 := strconv.ParseInt(string(f[12]), 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return time.Duration(utime+stime) * clockTick, true
}
