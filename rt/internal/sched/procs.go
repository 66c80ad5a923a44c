package sched

import (
	"runtime"
	"sync/atomic"
)

// An exploring test runs on one processor. The controlled goroutines run
// one at a time anyway, and handing off between them on one processor
// does not wake another thread: measured on rt's TestHelperBusy (2000
// schedules), one process took 2.9 s of wall and CPU time at GOMAXPROCS=1
// against 3.5-4.4 s of wall and 4.6-5.0 s of CPU at 2, and -workers 2
// then uses a core per process (1.55 s). The program still sees the
// GOMAXPROCS it would have natively: instrumented code calls GOMAXPROCS
// below instead of runtime.GOMAXPROCS.
var procs struct {
	seen    int          // the GOMAXPROCS the test sees
	virtual atomic.Int32 // what runtime.GOMAXPROCS(0) returns to it now
	lowered atomic.Bool  // the process runs at 1 because of LowerProcs
}

// LowerProcs runs the process on one processor for the exploration of a
// test, and returns the function that restores what it was. A value set
// in between (go test -cpu sets it before each run of the tests) is the
// one the next test sees.
func LowerProcs() (restore func()) {
	if p := runtime.GOMAXPROCS(0); !(procs.lowered.Load() && p == 1) {
		procs.seen = p
	}
	procs.virtual.Store(int32(procs.seen))
	runtime.GOMAXPROCS(1)
	procs.lowered.Store(true)
	return func() {
		runtime.GOMAXPROCS(procs.seen)
		procs.lowered.Store(false)
	}
}

// resetProcs gives an iteration the GOMAXPROCS the test started with, so
// that a schedule does not depend on what an earlier one set.
func resetProcs() {
	if procs.lowered.Load() {
		procs.virtual.Store(int32(procs.seen))
	}
}

// GOMAXPROCS is runtime.GOMAXPROCS for the program: inside an exploration
// it reads and sets the value the program sees (the process keeps running
// on one processor); elsewhere it is runtime.GOMAXPROCS.
func GOMAXPROCS(n int) int {
	if !procs.lowered.Load() {
		return runtime.GOMAXPROCS(n)
	}
	prev := int(procs.virtual.Load())
	if n > 0 {
		procs.virtual.Store(int32(n))
	}
	return prev
}
