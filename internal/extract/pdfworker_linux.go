package extract

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"syscall"
	"time"
	"unsafe"
)

// limitMemory sets the address-space limit (RLIMIT_AS) of process pid: an
// allocation past it fails, and the Go runtime of a worker exits on it.
func limitMemory(pid int, limit int64) error {
	if limit <= 0 {
		return nil
	}
	lim := syscall.Rlimit{Cur: uint64(limit), Max: uint64(limit)}
	_, _, errno := syscall.RawSyscall6(syscall.SYS_PRLIMIT64, uintptr(pid), syscall.RLIMIT_AS, uintptr(unsafe.Pointer(&lim)), 0, 0, 0)
	if errno != 0 {
		return errno
	}
	return nil
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
