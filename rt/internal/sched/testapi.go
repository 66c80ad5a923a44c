package sched

import (
	"fmt"
	"runtime"

	"interleave.dev/rt/internal/event"
)

// The test API: failures, logs, skips and cleanups of the test being
// explored, kept per iteration so that only the failing schedule's logs
// are shown.

// Log records a log line of the test.
func (g *G) Log(msg string) { g.it.log(msg) }

// maxLogBytes bounds the log an iteration keeps: a test that fails an
// assertion in a loop of 100,000 runs would otherwise hold every
// message of every schedule.
const maxLogBytes = 1 << 20

// log records a log line of the iteration, within maxLogBytes; the lines
// past it are counted, and the last line kept says how many.
func (it *Iteration) log(msg string) {
	if it.logDropped > 0 || it.logBytes+len(msg) > maxLogBytes {
		it.logDropped++
		note := fmt.Sprintf("(and %d more log lines, past the %d bytes a schedule keeps)", it.logDropped, maxLogBytes)
		if it.logDropped == 1 {
			it.logs = append(it.logs, note)
		} else {
			it.logs[len(it.logs)-1] = note
		}
		return
	}
	it.logBytes += len(msg)
	it.logs = append(it.logs, msg)
}

// Fail marks the test failed, with an optional message.
func (g *G) Fail(msg string) {
	if msg != "" {
		g.it.log(msg)
		if g.it.failMsg == "" {
			g.it.failMsg = msg
		}
	}
	g.it.failed = true
}

// Failed reports whether the test has failed.
func (g *G) Failed() bool { return g.it.failed }

// FailNow marks the test failed and stops the calling goroutine.
func (g *G) FailNow(msg string) {
	g.Fail(msg)
	runtime.Goexit()
}

// SkipNow marks the test skipped and stops the calling goroutine.
func (g *G) SkipNow(msg string) {
	if msg != "" {
		g.it.log(msg)
	}
	g.it.skipped = true
	runtime.Goexit()
}

// TestReturned reports whether the test function has returned (its
// cleanups run before): the testing package panics when a goroutine logs
// or fails through t after that.
func (g *G) TestReturned() bool { return g.it.mainDone }

// Skipped reports whether the test was skipped.
func (g *G) Skipped() bool { return g.it.skipped }

// RT is per-goroutine scratch space for package rt.
func (g *G) RT() *any { return &g.rtScratch }

// IterationRT is scratch space for package rt that lives as long as g's
// iteration: every iteration starts with nil.
func (g *G) IterationRT() *any { return &g.it.rtScratch }

// Cancel is the cancellation of a context whose done channel is o: it
// closes o unless already closed, and reports whether it did.
func (g *G) Cancel(o *ChanObj, site uint32) bool {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	it := g.it
	it.step(g, event.OpCancel, o, site)
	if o.ch.closed {
		return false
	}
	it.closeChan(g, o)
	return true
}

// Spawn starts f in a new goroutine on behalf of goroutine creator, from
// inside the scheduler (context.AfterFunc).
func (it *Iteration) Spawn(creator int32, f func()) {
	it.spawn(nil, creator, f, 0)
}
