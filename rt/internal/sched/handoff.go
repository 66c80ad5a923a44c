package sched

import (
	"bytes"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
)

// The handoff: how the goroutine holding the schedule gives it to the one
// the strategy chose.
//
// A controlled goroutine is made as a coroutine (Go's runtime coroutines,
// iter.Pull; coro_go123.go) where it can be: it runs only inside the
// resume call of a hub, a goroutine of the explorer's that does nothing
// else. To give the schedule away, a coroutine sets it.cur and yields:
// the switch lands in its hub, which resumes it.cur. A goroutine whose
// function ends does not yield: the end of its coroutine lands in the hub
// the same way. A handoff is then two coroutine switches, with no run
// queue and no other thread involved, where a channel handoff (a send
// that makes the other goroutine runnable, a receive that parks) goes
// through the Go scheduler (BenchmarkRawHubHandoff against
// BenchmarkRawHandoff). A coroutine switches only with the goroutine that
// resumed it, hence the hub: the goroutines hand the schedule to one
// another, in any order, through it.
//
// The channel handoff stays where a coroutine cannot be used:
//
//   - goroutines adopted from uncontrolled code (adopt.go) were not made
//     by the scheduler;
//   - a goroutine spawned while its parent's thread is locked (a cgo
//     callback, runtime.LockOSThread): the runtime requires a coroutine to
//     switch on the thread and lock state of its creation;
//   - a coroutine whose thread is locked when it parks: it waits on its
//     channel instead of yielding (onChan), and its hub stays in resume
//     until it yields or ends unlocked;
//   - every goroutine, when the program calls runtime.LockOSThread
//     anywhere in instrumented code (DisableCoroutines: a coroutine must
//     not end with its thread locked), when the environment sets
//     INTERLEAVE_HANDOFF=channel, and before Go 1.23.
//
// Those park on their channel, g.wake. A goroutine that does not yield to
// a hub (one of those, or the explorer) hands the schedule to a coroutine
// by activating a hub: an idle one of the explorer's, or a new one.
//
// Hubs are interchangeable, and several can exist: one is in the resume
// of every coroutine that runs or is away in uncontrolled code, and the
// others wait for work. Only the goroutine holding the schedule yields or
// activates, so exactly one hub dispatches at a time. A goroutine that
// ends through runtime.Goexit propagates it to its hub (iter.Pull's
// rule); that hub is replaced by a new one while the iteration goes on.
// The explorer unwinds a parked coroutine by resuming it from a goroutine
// of its own, which the goroutine's end ends too.

// coroutinesOff is set when controlled goroutines must not be made as
// coroutines (DisableCoroutines, INTERLEAVE_HANDOFF=channel).
var coroutinesOff atomic.Bool

func init() {
	if os.Getenv("INTERLEAVE_HANDOFF") == "channel" {
		coroutinesOff.Store(true)
	}
}

// DisableCoroutines makes every controlled goroutine spawned from now on
// hand off through its channel, as one whose thread may be locked when it
// ends must: a coroutine cannot end on a locked thread. Instrumented code
// that calls runtime.LockOSThread calls it as the program starts.
func DisableCoroutines() { coroutinesOff.Store(true) }

// hidden counts the goroutines of the handoff that the program must not
// see (HiddenGoroutines): hubs, and workers waiting in a pool.
var hidden atomic.Int32

// HiddenGoroutines returns how many goroutines of the process are the
// scheduler's own machinery rather than the program's: hubs and idle
// workers (handoff.go). runtime.NumGoroutine in instrumented code
// subtracts them, so that a goroutine's end lowers the count as it does
// natively, though its worker lives on.
func HiddenGoroutines() int { return int(hidden.Load()) }

// HiddenStack reports whether an entry of a stack dump of every
// goroutine (runtime.Stack(buf, true)) is a goroutine HiddenGoroutines
// counts, or one unwinding a parked goroutine.
func HiddenStack(entry []byte) bool {
	switch {
	case bytes.Contains(entry, []byte("interleave.dev/rt/internal/sched.(*Explorer).hub(")),
		bytes.Contains(entry, []byte("interleave.dev/rt/internal/sched.(*G).unwindParked.")):
		return true
	case bytes.Contains(entry, []byte("interleave.dev/rt/internal/sched.(*worker).loop(")):
		return !bytes.Contains(entry, []byte("interleave.dev/rt/internal/sched.(*Iteration).run("))
	}
	return false
}

// hubs is an explorer's pool of hubs, and of workers.
type hubs struct {
	work chan hubWork // an idle hub takes the schedule it receives
	idle atomic.Int32 // hubs waiting on work, less those claimed

	mu     sync.Mutex
	free   []*worker // workers waiting for a goroutine to run
	closed bool      // the exploration ended: workers end with their goroutine
}

// hubWork is what an idle hub is given: an iteration and the goroutine
// its schedule goes to.
type hubWork struct {
	it   *Iteration
	next *G
}

// A worker is a coroutine that runs controlled goroutines, one after the
// other: when the function of one returns, the worker waits in its
// explorer's pool for the next one (making a coroutine costs several
// allocations and a goroutine). A goroutine that ends through
// runtime.Goexit ends its worker.
type worker struct {
	resume func() (struct{}, bool)
	yield  func(struct{}) bool
	g      *G
	f      func()
	quit   bool  // set while it waits in the pool: end instead
	goid   int64 // the runtime's id of its goroutine
	// Set by its goroutine before it yields or ends, read by the hub that
	// resumed it once it has: the goroutine the hub is to resume next
	// (nil: none, the schedule went elsewhere or nobody holds it), and
	// whether its goroutine ended, so that the hub puts it in the pool.
	// Not it.held: once nobody holds the schedule, a goroutine back from
	// uncontrolled code may take it over and hand it on before this hub
	// looks, and two hubs would resume one coroutine.
	next     *G
	finished bool
}

// newCoroutineHook, when set (by tests), is called for every worker made.
var newCoroutineHook func()

// spawnCoroutine makes g, which is to run f, a coroutine: a worker of the
// pool, or a new one.
func (x *Explorer) spawnCoroutine(g *G, f func()) {
	h := &x.hubs
	h.mu.Lock()
	var w *worker
	if n := len(h.free); n > 0 {
		w = h.free[n-1]
		h.free[n-1] = nil
		h.free = h.free[:n-1]
		hidden.Add(-1)
	}
	h.mu.Unlock()
	if w == nil {
		if newCoroutineHook != nil {
			newCoroutineHook()
		}
		w = &worker{}
		w.resume = newCoroutine(func(yield func(struct{}) bool) { w.loop(x, yield) })
		// The first resume of a coroutine allocates (its yield
		// function): done here, it belongs to the spawn (alloc.go).
		w.resume()
	}
	w.g, w.f = g, f
	g.co = w
}

// loop is the body of a worker's coroutine.
func (w *worker) loop(x *Explorer, yield func(struct{}) bool) {
	w.yield = yield
	yield(struct{}{}) // primed by spawnCoroutine
	if w.quit {
		return
	}
	w.goid = ownGoid()
	for {
		g, f := w.g, w.f
		w.f = nil
		it := g.it
		g.it.run(g, f)
		w.g = nil
		h := &x.hubs
		h.mu.Lock()
		closed := h.closed
		h.mu.Unlock()
		it.toolPause() // the end of g's exit (alloc.go)
		if closed {
			return
		}
		// Until the next goroutine: the switch lands in the hub that
		// resumed g, as g's end, and the hub puts the worker in the pool
		// (release): not before, or a goroutine spawned meanwhile could
		// be given the worker and resumed by another hub while this one
		// still runs.
		w.finished = true
		yield(struct{}{})
		if w.quit {
			return
		}
	}
}

// release puts w, whose goroutine has ended and which has yielded, in the
// pool, or ends it if the exploration is over.
func (x *Explorer) release(w *worker) {
	h := &x.hubs
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		w.quit = true
		w.resume()
		return
	}
	h.free = append(h.free, w)
	hidden.Add(1)
	h.mu.Unlock()
}

// stopWorkers ends the workers of the pool when the exploration ends.
func (x *Explorer) stopWorkers() {
	h := &x.hubs
	h.mu.Lock()
	free := h.free
	h.free, h.closed = nil, true
	h.mu.Unlock()
	for _, w := range free {
		w.quit = true
		w.resume()
		hidden.Add(-1)
	}
}

// activate makes a hub run next, a coroutine the holder chose: the
// schedule is the hub's until it resumes it.
func (x *Explorer) activate(it *Iteration, next *G) {
	if x.hubs.idle.Add(-1) >= 0 {
		x.hubs.work <- hubWork{it, next}
		return
	}
	x.hubs.idle.Add(1)
	hidden.Add(1)
	go x.hub(it, next)
}

// hub dispatches the schedule of it, then of every iteration it is given
// while idle, until the explorer ends.
func (x *Explorer) hub(it *Iteration, next *G) {
	done := false
	var resuming *worker
	defer func() {
		if !done {
			// A goroutine that held the schedule ended through
			// runtime.Goexit, which its coroutine handed on to this
			// hub: another takes over, or the iteration it ended is
			// over.
			if it.ended {
				it.closeDone()
			} else {
				var next *G
				if resuming != nil {
					next = resuming.next
				}
				hidden.Add(1)
				go x.hub(it, next)
			}
		}
		hidden.Add(-1)
	}()
	for {
		it.dispatch(next, &resuming)
		x.hubs.idle.Add(1)
		w, ok := <-x.hubs.work
		if !ok {
			break
		}
		it, next = w.it, w.next
	}
	done = true
}

// stopHubs ends the idle hubs and the workers when the exploration ends.
func (x *Explorer) stopHubs() {
	close(x.hubs.work)
	x.stopWorkers()
}

// dispatch runs the goroutines the schedule goes to as long as they are
// coroutines that yield back, and returns when the schedule goes to a
// goroutine on its channel, nobody holds it, or the iteration ended.
//
// next is the goroutine the holder chose; after each resume, the
// goroutine resumed says whom to resume next (worker.next). resuming is
// the worker being resumed, for the hub's replacement when its goroutine
// ends through runtime.Goexit.
func (it *Iteration) dispatch(next *G, resuming **worker) {
	for {
		if it.ended {
			// The goroutine that ended it has yielded: the explorer may
			// unwind it now.
			it.closeDone()
			return
		}
		if next == nil {
			return // idle: the first goroutine back from uncontrolled code takes it
		}
		if next.co == nil || next.onChan {
			next.wake <- struct{}{}
			return
		}
		w := next.co
		w.next = nil
		*resuming = w
		w.resume()
		*resuming = nil
		next = w.next
		if w.finished {
			w.finished = false
			it.toolBegin() // the pool may grow (alloc.go)
			it.x.release(w)
			it.toolEnd()
		}
	}
}

// handoff gives the schedule to it.cur, which its holder g (nil for the
// explorer) chose, and returns when g is chosen again; at once when g is
// nil or has exited.
func (it *Iteration) handoff(g *G) {
	g.handTo(nil)
	if g != nil && g.yields() {
		g.handTo(it.cur)
		if g.state == gDone {
			return // the end of its coroutine lands in its hub (loop)
		}
		d := it.toolPause() // the next goroutine runs the program's code
		g.park()
		it.toolResume(d)
		return
	}
	done := g == nil || g.state == gDone // read before next runs: it may wake g
	if !done {
		g.toChan()
	}
	d := it.toolPause()
	it.wake(it.cur)
	if done {
		return
	}
	g.parkChan()
	it.toolResume(d)
}

// wake makes next, which holds the schedule now, run: from a goroutine
// that does not yield to a hub.
func (it *Iteration) wake(next *G) {
	if next.co == nil || next.onChan {
		next.wake <- struct{}{}
		return
	}
	it.x.activate(it, next)
}

// handTo tells the hub that resumed g, a coroutine, whom to resume when g
// yields or ends: the goroutine g handed the schedule to (nil when g gave
// it away otherwise, or to nobody).
func (g *G) handTo(next *G) {
	if g != nil && g.co != nil {
		g.co.next = next
	}
}

// yields reports whether g, running, gives the schedule away by yielding
// to its hub: a coroutine whose thread is not locked.
func (g *G) yields() bool { return g.co != nil && !lockedOSThread() }

// toChan makes a coroutine about to wait on its channel wakeable there.
func (g *G) toChan() {
	if g.co == nil {
		return
	}
	if g.wake == nil {
		g.wake = make(chan struct{}, 1)
	}
	g.onChan = true
}

// park waits until g is chosen again, and unwinds g if its iteration
// ended meanwhile. The iteration's state is not g's to touch: whoever
// chose g set it.
func (g *G) park() {
	if g.yields() {
		g.co.yield(struct{}{})
		g.unwindIfAborted()
		return
	}
	g.toChan()
	g.parkChan()
}

// parkStart waits on g's channel until g is chosen for the first time.
//
// Every wait of a controlled goroutine for the schedule is in a method
// whose name begins with park: a stack dump tells a parked goroutine from
// one blocked in uncontrolled code by that frame (holderAway, stuck).
func (g *G) parkStart() { <-g.wake }

// parkChan waits on g's channel until g is chosen again.
func (g *G) parkChan() {
	<-g.wake
	g.onChan = false
	g.unwindIfAborted()
}

// unwindIfAborted unwinds g, just resumed, if its iteration ended.
func (g *G) unwindIfAborted() {
	if g.abort {
		if g.it.wantStacks {
			g.stack = stackOf()
		}
		runtime.Goexit()
	}
}

// unwindParked makes parked goroutine g, whose abort is set, unwind. The
// channel returned is closed when g has ended and, for a coroutine, its
// worker has gone back to the pool or ended.
func (g *G) unwindParked() <-chan struct{} {
	if g.co != nil && !g.onChan {
		// Resumed from a goroutine of its own: g's end, through
		// runtime.Goexit, ends that goroutine too.
		done := make(chan struct{})
		go func() {
			defer close(done)
			g.co.resume()
		}()
		return done
	}
	select {
	case g.wake <- struct{}{}:
	default:
	}
	return g.exited
}
