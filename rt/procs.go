package rt

import "interleave.dev/rt/internal/sched"

// GOMAXPROCS replaces runtime.GOMAXPROCS in instrumented code: inside an
// exploration it reads and sets the value the program sees (the process
// keeps running on one processor); elsewhere it is runtime.GOMAXPROCS.
func GOMAXPROCS(n int) int { return sched.GOMAXPROCS(n) }

// LocksThreads is called, as the program starts, by instrumented code that
// refers to runtime.LockOSThread: controlled goroutines then hand the
// schedule over through channels rather than run on coroutines, which
// cannot end on a locked thread. It returns nothing of use.
func LocksThreads() struct{} {
	sched.DisableCoroutines()
	return struct{}{}
}
