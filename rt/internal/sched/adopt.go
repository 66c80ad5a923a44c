package sched

import (
	"bytes"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"interleave.dev/rt/internal/event"
)

// Goroutines of code the tool does not control.
//
// A goroutine started by uninstrumented code inside an exploration (an
// httptest server's connection goroutine, started by net/http while the
// test goroutine was in httptest.NewServer) inherits its creator's label.
// When it first reaches the runtime it is adopted: it waits until the
// goroutine holding the schedule is blocked natively in code the tool does
// not control (typically the test goroutine, waiting in http.Get for the
// response), or until nothing controlled can run while goroutines are
// away, then takes the schedule over and becomes a controlled goroutine
// with the next id. The goroutine that lost the schedule is "out": it is
// neither runnable nor blocked for the model, and when it comes back to the
// runtime it takes the schedule over the same way. Adoption and return
// happen where the controlled goroutines cannot go on without them, which
// the schedule determines, so the ids and events stay those of the
// schedule (a goroutine that is slow rather than blocked in uncontrolled
// code can make a replay diverge, and replay says so).
//
// Happens-before: a goroutine entering from uncontrolled code is ordered
// after the goroutine it takes the schedule from and after every goroutine
// that is out. What brought it in (a request written by the client, a
// response written by the handler) was done by one of them in code the
// tool cannot see; the edge may hide a race but never invents one.
//
// Taking over is safe because the holder enters the runtime through
// current, which adds to it.gate: an arrival sets the gate's bitTake with
// a compare-and-swap from a value it read before seeing the holder blocked
// outside the runtime, so either the holder has not entered since (and
// its next entry sees the bit or its out flag) or the swap fails. An
// arrival that finds the holder running sets bitYield: the holder's next
// entry then makes way, at the start of an operation, and waits to come
// back like a goroutine that was out. Where that happens depends on
// timing, as the arrival itself does; where the holder is blocked, as the
// client of an in-process request is, it does not.

// pollInterval is how often an arrival looks whether it may take over.
const pollInterval = 200 * time.Microsecond

// The gate: the holder adds gateStep at each entry into the runtime; bit
// bitTake is set while an arrival takes the schedule over, bit bitYield
// while one asks the holder to make way. Only arrivals set the bits (one at
// a time, under it.amu); the holder clears bitYield when it makes way.
const (
	gateStep = 4
	bitTake  = 1
	bitYield = 2
)

// adopt makes the calling goroutine, started by uncontrolled code and
// carrying a label of it, a controlled goroutine. It returns nil (the
// caller runs natively) if the iteration ended.
func (it *Iteration) adopt(gp uintptr) *G {
	g := &G{
		it:      it,
		wake:    make(chan struct{}, 1),
		exited:  make(chan struct{}),
		gp:      gp,
		adopted: true,
	}
	g.goid = ownGoid()
	g.lab = label{magic: labelMagic, g: g}
	if !it.takeOver(g) {
		setLabel(nil) // the iteration is over: run natively from now on
		return nil
	}
	return g
}

// comeBack gives the schedule back to g, which lost it while in
// uncontrolled code (or enters the runtime while an arrival takes it
// over). A goroutine of an iteration that has ended meanwhile is unwound,
// or runs on natively if it was adopted.
func (it *Iteration) comeBack(g *G) *G {
	for {
		v := it.gate.Load()
		if v&bitTake != 0 || g.out {
			break // (g.out is stable while no takeover is under way)
		}
		if v&bitYield == 0 {
			return g // g holds the schedule
		}
		if it.gate.CompareAndSwap(v, v&^bitYield) {
			// Make way: g leaves the schedule at the entry of an
			// operation, and comes back like any goroutine that was out.
			g.out, g.state = true, gOut
			it.place(g)
			it.held.Store(nil)
			break
		}
	}
	if it.takeOver(g) {
		return g
	}
	if g.adopted {
		setLabel(nil)
		return nil
	}
	g.abort = true
	runtime.Goexit()
	return nil
}

// reenter takes the schedule back after code the tool does not control
// that g ran without passing through current (its function returning to
// run).
func (g *G) reenter() {
	if g.it.gate.Add(gateStep)&(bitTake|bitYield) != 0 || g.out {
		g.it.comeBack(g)
	}
}

// Reenter is called by the runtime after running user code from inside an
// operation (the function of Once.Do), before touching the scheduler
// state again: that code may have lost the schedule in uncontrolled code.
func (g *G) Reenter() { g.reenter() }

// setCur makes g the goroutine holding the schedule.
func (it *Iteration) setCur(g *G) {
	it.cur = g
	it.held.Store(g)
}

// takeOver waits until g may take the schedule and takes it: g (new or
// out) becomes the running goroutine. It returns false if the iteration
// ended first.
func (it *Iteration) takeOver(g *G) bool {
	it.arriving.Add(1)
	defer it.arriving.Add(-1)
	it.amu.Lock()
	defer it.amu.Unlock()
	asked := false
	var low int64
	for {
		select {
		case <-it.done:
			return false
		default:
		}
		v := it.gate.Load()
		// g may hold the schedule already: it came back while another
		// took it over, which went no further (the explorer's reap, whose
		// turn ended with g chosen again).
		if v&bitTake == 0 && (it.held.Load() == g || it.holderAway(v, false)) && it.gate.CompareAndSwap(v, v|bitTake) {
			low = v&bitYield | bitTake
			break
		}
		if !asked {
			// Ask the holder to make way at its next operation: a test
			// polling, in virtual time, for what this goroutine does
			// would otherwise never let it in.
			for v := it.gate.Load(); v&bitYield == 0 && !it.gate.CompareAndSwap(v, v|bitYield); v = it.gate.Load() {
			}
			asked = true
		}
		time.Sleep(pollInterval)
	}
	// The schedule is g's until the gate is released.
	defer it.gate.Add(-low)
	it.timerHeld.Store(false)
	if it.ended {
		return false
	}
	prev := it.cur
	if away := it.held.Load(); away != nil && away != g {
		it.leave(away)
	}
	if g.adopted && g.ID == 0 {
		g.ID = int32(len(it.gs) + 1)
		it.addLive(g)
		setLabel(&g.lab)
	}
	g.out = false
	g.state = gReady
	g.lastRun = it.steps
	g.pending = event.Event{G: g.ID, Op: event.OpEnter}
	g.pendObj = nil
	if g.set != nil {
		it.leaveSet(g) // its lastRun changed: enter afresh
	}
	it.place(g)
	if it.race != nil {
		if prev != nil && prev != g {
			it.race.Spawn(prev.ID, g.ID)
		}
		for _, o := range it.live {
			if o.state == gOut && o != prev {
				it.race.Spawn(o.ID, g.ID)
			}
		}
	}
	it.record(g.pending)
	it.setCur(g)
	it.adoptions.Add(1)
	return true
}

// leave marks h, which held the schedule and is away, out; or done if it
// is an adopted goroutine that has exited.
func (it *Iteration) leave(h *G) {
	if h.state != gReady {
		return
	}
	if it.holderGone {
		h.state = gDone
		it.place(h)
		it.removeLive(h)
		return
	}
	h.out, h.state = true, gOut
	it.place(h)
}

// reapAfter is how long the goroutine holding the schedule may stay away
// in uncontrolled code, blocked natively or in a system call, before the
// explorer schedules the goroutines it left parked: the peer it waits for
// (an in-process server behind a socket, the other end of a TLS
// connection, a goroutine that must drain an OS pipe) may be one of them.
const reapAfter = 20 * time.Millisecond

// reapTicks is how many of the explorer's watchdog ticks, one every
// reapAfter/reapTicks, must find the holder stalled before it is reaped
// (wait).
const reapTicks = 4

// reap runs on the explorer's goroutine. When the goroutine holding the
// schedule is blocked natively, in a system call, or gone (an adopted
// goroutine returned to the code that started it) and no goroutine is
// arriving to take over, it takes the schedule and hands it to the next
// goroutine the strategy chooses, or ends the iteration if nothing will
// run again. The goroutine it took the schedule from is out, and takes
// it back when it returns to the runtime (comeBack).
func (it *Iteration) reap() {
	if !it.amu.TryLock() {
		return // an arrival is taking over
	}
	defer it.amu.Unlock()
	v := it.gate.Load()
	if v&bitTake != 0 || it.held.Load() == nil || !it.holderAway(v, true) || !it.gate.CompareAndSwap(v, v|bitTake) {
		return
	}
	defer it.gate.Add(-(v&bitYield | bitTake))
	if it.ended {
		return
	}
	it.leave(it.held.Load())
	it.held.Store(nil)
	it.reschedule(nil)
}

// timerGrace is how long a timer that is the only thing left to happen
// waits for goroutines in uncontrolled code to come back before it fires
// (heldTimer).
const timerGrace = 50 * time.Millisecond

// heldTimer reports whether the only option of a thread point, the next
// timer, whose time has not come, should wait for goroutines in
// uncontrolled code: nothing controlled can run, and goroutines away (a
// server's loop reading a socket, the other end of a TLS connection) may
// come back with what the controlled goroutines wait for, as in a real
// run the peer answers long before a timeout. A timeout that fires
// meanwhile would be a failure the program never sees natively. The
// explorer fires the timer when none has come back for timerGrace.
func (it *Iteration) heldTimer() bool {
	if it.fireHeld {
		it.fireHeld = false // the explorer fires it now
		return false
	}
	if it.optionAt(0).G != 0 {
		return false
	}
	if t := it.nextTimer(); t == nil || t.when <= it.clock {
		return false
	}
	return it.enabledCount() == 0 && it.awaitingOut()
}

// fireHeldTimer runs on the explorer's goroutine when nobody has held the
// schedule for timerGrace while a timer waited for goroutines away
// (heldTimer): it takes the schedule and fires the timer.
func (it *Iteration) fireHeldTimer() {
	if !it.amu.TryLock() {
		return // an arrival is taking over
	}
	defer it.amu.Unlock()
	v := it.gate.Load()
	if v&bitTake != 0 || it.held.Load() != nil || !it.timerHeld.Load() || !it.gate.CompareAndSwap(v, v|bitTake) {
		return
	}
	defer it.gate.Add(-(v&bitYield | bitTake))
	it.timerHeld.Store(false)
	if it.ended {
		return
	}
	it.fireHeld = true
	it.reschedule(nil)
}

// strandAfter is how long, after the test returned, goroutines may stay
// blocked natively in code the tool does not control, with nothing
// controlled left to run, before they count as left behind (stranded):
// a server's goroutine in Accept on a listener the test never closes
// waits for good, one reading a connection whose peer closed comes back
// at once.
const strandAfter = 100 * time.Millisecond

// stranded runs on the explorer's goroutine when nobody has held the
// schedule for strandAfter. If the test has returned, no goroutine is
// runnable, and every goroutine away in uncontrolled code is blocked
// there natively (real I/O, a channel or lock of uncontrolled code), the
// iteration ends as quiescent would with those goroutines among the
// blocked ones: they are left behind, a leak (a note when every schedule
// leaves them: explorer), not a goroutine stuck in uncontrolled code. It
// reports whether it ended the iteration.
func (it *Iteration) stranded() bool {
	if !it.amu.TryLock() {
		return false // an arrival is taking over
	}
	defer it.amu.Unlock()
	v := it.gate.Load()
	if v&bitTake != 0 || it.held.Load() != nil || !it.gate.CompareAndSwap(v, v|bitTake) {
		return false
	}
	defer it.gate.Add(-(v&bitYield | bitTake))
	if it.ended || !it.mainDone || it.enabledCount() > 0 {
		return false
	}
	away := map[int64]*G{}
	var left []*G
	for _, g := range it.live {
		switch {
		case g.state == gOut:
			if g.adopted || g.goid == 0 {
				continue // not waited for after the test (awaitingOut)
			}
			away[g.goid] = g
			left = append(left, g)
		case g.state != gDone && !g.watcher:
			left = append(left, g)
		}
	}
	if len(away) == 0 {
		return false
	}
	stacks := map[*G]string{}
	for _, e := range strings.Split(string(AllStacks(64<<10)), "\n\n") {
		id, status := parseHeader([]byte(e))
		g := away[id]
		if g == nil {
			continue
		}
		if !nativelyBlocked(status) || inRuntime([]byte(e)) {
			return false // it may still come back
		}
		stacks[g] = e
	}
	if len(stacks) != len(away) || !it.reporting.CompareAndSwap(false, true) {
		return false
	}
	if it.x.cfg.Leaks {
		f := it.leak(left)
		for i, g := range left {
			if g.state == gOut {
				gi := &f.Goroutines[i]
				gi.Status = "blocked in code the tool does not control"
				if w := stuckWhere(stacks[g]); w != "" {
					gi.Status += " (" + w + ")"
				}
				gi.Stack = stacks[g]
			}
		}
		f.Trace, f.TraceDropped, f.Preempts = it.trace, it.traceDropped, it.preempts
		f.Objects = it.objectNames()
		it.finding = f
		it.wantStacks = true
	}
	it.ended = true
	it.over.Store(true)
	it.closeDone() // arrivals from uncontrolled code stop waiting
	return true
}

// awaitingOut reports whether goroutines in uncontrolled code may still
// come back and let the iteration go on: at a point where nothing
// controlled can run, the iteration waits for them rather than ending.
// Adopted goroutines away after the test returned belong to the code that
// started them (net/http's connections), and are not waited for.
func (it *Iteration) awaitingOut() bool {
	if !it.mainDone && it.arriving.Load() > 0 {
		return true // a goroutine waits to enter
	}
	for _, g := range it.live {
		if g.state == gOut && !(g.adopted && it.mainDone) {
			return true
		}
	}
	return false
}

// idle gives the schedule up while nothing controlled can run and
// goroutines are in uncontrolled code: the first of them to come back
// takes it over. g parks until it is chosen again (it returns at once if
// g has exited).
func (it *Iteration) idle(g *G) {
	g.handTo(nil) // its worker must then resume nobody
	if g == nil || !g.yields() {
		it.held.Store(nil)
	} // else the hub its worker parks in gives the schedule up, once it is parked (pass)
	if g == nil || g.state == gDone {
		return
	}
	g.park()
}

// holderAway reports whether the goroutine holding the schedule is away
// from the runtime, blocked natively in code the tool does not control (or
// gone, or nobody holds the schedule), as seen while the gate stayed at
// v. With inSyscall, a holder in a system call counts as away too (the
// explorer's reap, after the holder stayed there for reapAfter). The
// caller's own stack comes first in the dump. It sets it.holderGone when
// the holder is an adopted goroutine that has exited.
func (it *Iteration) holderAway(v int64, inSyscall bool) bool {
	it.holderGone = false
	h := it.held.Load()
	if h == nil {
		return true
	}
	if h.goid == 0 {
		return false // not started yet: about to enter the runtime
	}
	buf := AllStacks(64 << 10)
	if it.gate.Load() != v || it.held.Load() != h {
		return false
	}
	entries := bytes.Split(buf, []byte("\n\n"))
	found := false
	for _, e := range entries[1:] {
		id, status := parseHeader(e)
		if id != h.goid {
			continue
		}
		found = true
		if !(nativelyBlocked(status) || inSyscall && status == "syscall") || inRuntime(e) {
			return false
		}
	}
	if !found && h.adopted {
		it.holderGone = true // it returned to the code that started it, which ended it
		return true
	}
	return found
}

// AllStacks returns the stacks of every goroutine, as runtime.Stack(buf,
// true) writes them, whole: into a buffer of size bytes at first, or a
// quarter larger than the last dump if that is more, twice as large until
// they fit.
// Each try stops the world, for long when goroutines are many.
func AllStacks(size int) []byte {
	size = max(size, int(stacksSize.Load()))
	buf := make([]byte, size)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			stacksSize.Store(int64(n + n/4))
			return buf[:n]
		}
		buf = make([]byte, 2*len(buf))
	}
}

// stacksSize is the buffer size the next AllStacks starts with.
var stacksSize atomic.Int64

// parseHeader reads "goroutine 7 [IO wait, 2 minutes]:" at the start of a
// stack entry.
func parseHeader(e []byte) (id int64, status string) {
	e = bytes.TrimLeft(e, "\n")
	if !bytes.HasPrefix(e, []byte("goroutine ")) {
		return 0, ""
	}
	e = e[len("goroutine "):]
	i := bytes.IndexByte(e, ' ')
	if i < 0 {
		return 0, ""
	}
	id, _ = strconv.ParseInt(string(e[:i]), 10, 64)
	a, b := bytes.IndexByte(e, '['), bytes.IndexByte(e, ']')
	if a < 0 || b < a {
		return id, ""
	}
	status = string(e[a+1 : b])
	if c := bytes.IndexByte([]byte(status), ','); c >= 0 {
		status = status[:c]
	}
	return id, status
}

// nativelyBlocked reports whether a goroutine with this traceback status
// waits (on the network, a channel, a lock, a timer). A running or
// runnable goroutine, or one in a system call, may enter the runtime at
// any moment; a coroutine switched out is the scheduler's.
func nativelyBlocked(status string) bool {
	switch status {
	case "", "running", "runnable", "syscall":
		return false
	case "coroutine":
		// Switched out by a coroutine switch: parked by the scheduler, or
		// chosen and about to be resumed. Never away.
		return false
	}
	return true
}

// inRuntime reports whether the innermost frame of a stack entry outside
// package runtime (and the coroutine machinery of package iter, and a
// native time.Sleep: runtime.GC's wait for the finalizers the runtime
// hands over) belongs to interleave's runtime: the goroutine is
// blocked inside an operation (a transient wait of the Go runtime), not in
// uncontrolled code.
func inRuntime(e []byte) bool {
	if bytes.Contains(e, []byte("sched.(*Iteration).takeOver(")) {
		return true // waiting for the schedule, in time.Sleep
	}
	lines := bytes.Split(e, []byte("\n"))
	for _, l := range lines[1:] {
		if len(l) == 0 || l[0] == '\t' || bytes.HasPrefix(l, []byte("runtime.")) || bytes.HasPrefix(l, []byte("iter.Pull")) || bytes.HasPrefix(l, []byte("time.Sleep(")) {
			continue
		}
		return bytes.HasPrefix(l, []byte("interleave.dev/rt.")) || bytes.HasPrefix(l, []byte("interleave.dev/rt/"))
	}
	return false
}
