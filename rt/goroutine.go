package rt

import (
	"bytes"
	"runtime"

	"interleave.dev/rt/internal/sched"
)

// Go starts f in a new goroutine: it replaces the statement "go f(args)".
// The instrumenter evaluates the function value and its arguments before
// the call, as the go statement does, and passes a closure over them.
func Go(f func(), s Site) {
	if g := cur(); g != nil {
		g.Go(f, uint32(s))
		return
	}
	go f()
}

// Gosched replaces runtime.Gosched: a yield.
func Gosched(s Site) {
	if g := cur(); g != nil {
		g.Yield(uint32(s))
		return
	}
	runtime.Gosched()
}

// Goexit replaces runtime.Goexit.
func Goexit(s Site) {
	if g := cur(); g != nil {
		g.Yield(uint32(s))
	}
	runtime.Goexit()
}

// NumGoroutine replaces runtime.NumGoroutine: inside an exploration it
// leaves out the scheduler's own goroutines (the hubs that run
// controlled goroutines, and the workers whose goroutine ended and that
// wait for the next), so that a goroutine's end lowers the count as it
// does natively.
func NumGoroutine() int {
	n := runtime.NumGoroutine()
	if cur() != nil {
		n -= sched.HiddenGoroutines()
	}
	return n
}

// Stack replaces runtime.Stack: inside an exploration a dump of every
// goroutine leaves out the scheduler's own, as NumGoroutine does.
func Stack(buf []byte, all bool) int {
	if !all || cur() == nil {
		return runtime.Stack(buf, all)
	}
	// Dump every entry, those left out too, then copy what is kept into
	// buf as far as it goes.
	n := 0
	for _, e := range bytes.Split(sched.AllStacks(len(buf)+64<<10), []byte("\n\n")) {
		if sched.HiddenStack(e) {
			continue
		}
		if n > 0 {
			n += copy(buf[n:], "\n\n")
		}
		n += copy(buf[n:], e)
	}
	return n
}
