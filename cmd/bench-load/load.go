package main

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
)

// burn occupies one core until it is killed: the fixed load of -load, in
// a process of its own so that neither the server nor the client measured
// shares its scheduler or its collector.
func burn() {
	runtime.GOMAXPROCS(1)
	x := uint64(1)
	for {
		x = x*6364136223846793005 + 1442695040888963407
		if x == 0 {
			fmt.Println(x) // never: keeps the loop from being optimised away
		}
	}
}

// startBurner starts the burner (this binary with -burn) for -load, and
// returns what stops it.
func startBurner() (stop func(), err error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self, "-burn")
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start the CPU burner: %w", err)
	}
	return func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }, nil
}

// loadNote says in a table's heading whether the burner ran.
func loadNote(o options) string {
	if o.load {
		return ", one core kept busy by a CPU burner (-load)"
	}
	return ""
}
