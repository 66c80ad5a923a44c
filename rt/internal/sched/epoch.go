package sched

import (
	"sync"
	"sync/atomic"
	"time"
)

// Inside an exploration time is virtual: every iteration starts at the
// exploration's epoch and the clock (Iteration.clock, nanoseconds since
// the epoch) moves only with scheduling points and when a timer fires.

// native holds the latest time the program read outside an exploration
// (time.Now in a package initializer, a "var start = time.Now()" a
// library measures durations from, TestMain) before the process's first
// exploration began. Reads after that are not kept: they come from
// goroutines running beside the explorations, at times that depend on how
// busy the machine is.
var native struct {
	mu     sync.Mutex
	frozen atomic.Bool // an exploration has begun
	last   time.Time   // zero when the program read none
}

// NativeNow is time.Now for the program outside an exploration.
func NativeNow() time.Time {
	t := time.Now()
	if !native.frozen.Load() {
		native.mu.Lock()
		if !native.frozen.Load() && t.After(native.last) {
			native.last = t
		}
		native.mu.Unlock()
	}
	return t
}

// epochFor returns the start of virtual time for an exploration that
// begins at now (the wall clock, with its monotonic reading).
//
// When the program read the time natively before, virtual time starts one
// millisecond after the latest of those reads, so that a duration measured
// from one of them is as short as in a real run, where the tests start
// right after initialization, and is the same in every process that runs
// the test: the exploring one, where earlier tests took as long as the
// machine's load made them, and the fresh ones that confirm or replay a
// finding. Starting from the wall clock instead, a breaker whose interval
// began at initialization found it over in a loaded process and not in an
// idle one.
//
// When it read none, virtual time starts on the next whole second: nothing
// can measure from the start, and code that counts whole seconds
// (t.Unix(), a cache's entry timestamps compared with its cleaner's tick)
// counts the same in every process.
func epochFor(now time.Time) time.Time {
	native.mu.Lock()
	defer native.mu.Unlock()
	native.frozen.Store(true)
	if !native.last.IsZero() {
		return native.last.Add(time.Millisecond)
	}
	return now.Add(time.Second - time.Duration(now.Nanosecond()))
}

// Wall returns the wall-clock time of the virtual instant clock
// (nanoseconds since the start of the iteration), with a monotonic
// reading.
func (it *Iteration) Wall(clock int64) time.Time {
	return it.x.epoch.Add(time.Duration(clock))
}

// Epoch returns the wall-clock time at which every iteration of the
// running exploration starts.
func (it *Iteration) Epoch() time.Time { return it.x.epoch }
