package sched

import (
	"bytes"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// The handoff: how the goroutine holding the schedule gives it to the one
// the strategy chose.
//
// A controlled goroutine is made as a coroutine (Go's runtime coroutines,
// iter.Pull; coro_go123.go) where it can be. A coroutine object of the
// runtime is a slot where exactly one goroutine is parked: calling its
// next function or its yield function (alternately: iter.Pull checks the
// order) parks the caller in it and resumes the goroutine that was parked
// there, whoever made the call that parked it. Any goroutine may make
// that call, not only the coroutine's own. So a controlled goroutine hands
// the schedule to another by entering the slot where that one is parked,
// and stays parked there until someone enters it again: one coroutine
// switch per handoff, with no run queue, no thread and no third goroutine
// involved. Each goroutine that can park in a slot (a runner) remembers
// where it is parked, and each slot who is parked in it. Who is parked in
// whose slot rotates: after a few handoffs a goroutine's own coroutine
// object may hold any other.
//
// The catch is the end of a coroutine's goroutine: the runtime then
// resumes whoever is parked in that goroutine's own slot (its home), and
// if it ended through runtime.Goexit and that one had entered the slot
// through next, iter.Pull makes it exit too. With the slots rotating,
// that could be any goroutine of the program. So a worker (the goroutine
// of a coroutine, running one controlled goroutine after another) ends
// only once a stand-in, a goroutine of the scheduler's own that does
// nothing else, is parked in its home (standIn): whoever was parked
// there is moved first. A worker whose goroutine returns goes back to the
// pool instead of ending; one whose goroutine ends through runtime.Goexit
// (t.FailNow in a goroutine, the unwinding at an iteration's end) ends,
// its stand-in in place.
//
// The channel handoff stays where a coroutine cannot be used:
//
//   - goroutines adopted from uncontrolled code (adopt.go) were not made
//     by the scheduler;
//   - a goroutine spawned while its parent's thread is locked (a cgo
//     callback, runtime.LockOSThread): the runtime requires a coroutine to
//     switch on the thread and lock state of its creation;
//   - a coroutine whose thread is locked when it parks: it waits on its
//     channel instead (onChan);
//   - every goroutine, when the program calls runtime.LockOSThread
//     anywhere in instrumented code (DisableCoroutines: a coroutine must
//     not end with its thread locked), when the environment sets
//     INTERLEAVE_HANDOFF=channel, and before Go 1.23.
//
// Those park on their channel, g.wake. What only a goroutine outside the
// coroutines can do is a hub's: a goroutine of the explorer's that enters
// a slot for a goroutine that does not run in one (a channel goroutine, or
// the explorer, handing the schedule to a coroutine: activate) and stays
// parked there, and that a coroutine resumes to wake a goroutine on its
// channel, to end the iteration or to give the schedule up (hubAct). While
// a coroutine runs, a hub is always parked in some slot: every slot holds
// one goroutine, and every worker but the running one is parked or away
// in uncontrolled code, so the goroutines in slots that are not workers
// (hubs and stand-ins, one stand-in per worker that may end) outnumber
// the workers away by one.

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
// see (HiddenGoroutines): hubs, stand-ins, and workers waiting in a pool.
var hidden atomic.Int32

// HiddenGoroutines returns how many goroutines of the process are the
// scheduler's own machinery rather than the program's: hubs, stand-ins
// and idle workers (handoff.go). runtime.NumGoroutine in instrumented
// code subtracts them, so that a goroutine's end lowers the count as it
// does natively, though its worker lives on.
func HiddenGoroutines() int { return int(hidden.Load()) }

// HiddenStack reports whether an entry of a stack dump of every
// goroutine (runtime.Stack(buf, true)) is a goroutine HiddenGoroutines
// counts.
func HiddenStack(entry []byte) bool {
	switch {
	case bytes.Contains(entry, []byte("interleave.dev/rt/internal/sched.(*Explorer).hub(")),
		bytes.Contains(entry, []byte("interleave.dev/rt/internal/sched.(*Explorer).stand(")):
		return true
	case bytes.Contains(entry, []byte("interleave.dev/rt/internal/sched.(*worker).loop(")):
		return !bytes.Contains(entry, []byte("interleave.dev/rt/internal/sched.(*Iteration).run("))
	}
	return false
}

// A slot is a coroutine object of the runtime, as a place where one
// goroutine is parked.
type slot struct {
	resume func() (struct{}, bool) // iter.Pull's next
	yield  func(struct{}) bool     // the yield its function was given
	odd    bool                    // next was called last: the next entry calls yield
	in     *runner                 // the goroutine parked in it
}

// A runner is a goroutine that parks in slots: a worker, a hub or a
// stand-in.
type runner struct {
	at *slot // the slot it is parked in; nil while it runs
	// An order from the goroutine that resumed it, other than to run
	// (standIn): close signal, then park again in move (nil: run).
	signal chan struct{}
	move   *slot
	hub    *hub // the hub it is, if it is one
}

// enter parks r, running, in s and resumes the goroutine parked there. It
// returns when a goroutine enters the slot r is parked in (s, unless r
// was moved meanwhile) to resume r, or when the goroutine whose home s is
// ends.
func (r *runner) enter(s *slot) {
	for {
		s.in.at = nil
		s.in, r.at = r, s
		if s.odd {
			s.odd = false
			s.yield(struct{}{})
		} else {
			s.odd = true
			s.resume()
		}
		if s = r.obey(); s == nil {
			return
		}
	}
}

// obey carries out the order r was resumed with, if any, and returns the
// slot to park in again, or nil to run.
func (r *runner) obey() *slot {
	if r.signal == nil {
		return nil
	}
	close(r.signal)
	s := r.move
	r.signal, r.move = nil, nil
	return s
}

// hubs is an explorer's pool of hubs, and of workers.
type hubs struct {
	work   chan hubWork // an idle hub takes the schedule it receives
	idle   atomic.Int32 // hubs waiting on work, less those claimed
	parked []*hub       // hubs parked in slots; touched by the schedule's holder

	mu     sync.Mutex
	free   []*worker // workers waiting for a goroutine to run
	closed bool      // the exploration ended
}

// hubWork is what an idle hub is given: the goroutine, parked in a slot,
// that the schedule goes to.
type hubWork struct{ next *G }

// A hub is a goroutine of the explorer's that enters slots for goroutines
// that do not run in one, and does for coroutines what they cannot
// (hubAct).
type hub struct {
	runner
	act hubAct
}

// hubAct is what a coroutine resumes a hub for.
type hubAct struct {
	kind  uint8
	it    *Iteration
	g     *G            // the goroutine to wake on its channel (actWake)
	moved chan struct{} // closed once the hub is resumed (actMoved)
}

// The kinds of hubAct.
const (
	actNone    = iota // nothing: the hub goes idle
	actWake           // wake g on its channel: the schedule is its
	actRelease        // nobody holds the schedule now (idle)
	actEnd            // the iteration ended: the explorer may unwind it
	actMoved          // a goroutine moved out of a home is parked: say so (settle)
)

// do carries out a: the coroutine that asked for it is parked now.
func (a hubAct) do() {
	switch a.kind {
	case actWake:
		a.g.wake <- struct{}{}
	case actRelease:
		a.it.held.Store(nil)
	case actEnd:
		a.it.closeDone()
	case actMoved:
		close(a.moved)
	}
}

// A worker is a coroutine that runs controlled goroutines, one after the
// other: when the function of one returns, the worker waits in its
// explorer's pool for the next one (making a coroutine costs several
// allocations and a goroutine). It ends, once a stand-in is in its home
// (standIn), when its goroutine ends through runtime.Goexit, when that
// goroutine is unwound, and when the exploration ends.
type worker struct {
	runner
	home *slot // its own coroutine object
	g    *G
	f    func()
	goid int64 // the runtime's id of its goroutine
	// next is whom its goroutine handed the schedule to (nil: nobody
	// holds it, or the iteration ended): the goroutine to resume when it
	// parks (pass).
	next *G
	// standing: a stand-in was sent to its home; stood is closed once it
	// is parked there, and the worker may end.
	standing bool
	stood    chan struct{}
}

// newCoroutineHook, when set (by tests), is called for every worker made.
var newCoroutineHook func(*worker)

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
		w = &worker{home: &slot{}, stood: make(chan struct{})}
		if newCoroutineHook != nil {
			newCoroutineHook(w)
		}
		w.home.resume = newCoroutine(func(yield func(struct{}) bool) {
			w.home.yield = yield
			w.loop(x)
		})
		// The first resume of a coroutine allocates (its yield
		// function): done here, it belongs to the spawn (alloc.go).
		w.home.resume()
	}
	w.g, w.f = g, f
	g.co = w
}

// loop is the body of a worker's coroutine.
func (w *worker) loop(x *Explorer) {
	// Park at home until the first goroutine runs (spawnCoroutine's
	// resume and this yield leave the slot's order as it was).
	w.home.in, w.at = &w.runner, w.home
	w.home.yield(struct{}{})
	if w.obey() != nil {
		panic("sched: a worker that never ran moved out of its home")
	}
	w.goid = ownGoid()
	returned := false
	defer func() {
		if !returned {
			w.goexit(x)
		}
	}()
	for {
		g, f := w.g, w.f
		w.f = nil
		it := g.it
		it.run(g, f)
		if w.standing || g.abort {
			// Unwound, or ended after its iteration did: a stand-in
			// is in its home, or on its way (unwind).
			break
		}
		w.g = nil
		it.toolPause() // the end of g's exit (alloc.go)
		it.toolBegin() // the pool may grow
		h := &x.hubs
		h.mu.Lock()
		h.free = append(h.free, w)
		hidden.Add(1)
		h.mu.Unlock()
		it.toolEnd()
		w.pass(it) // until the next goroutine runs
		if w.g == nil {
			break // the exploration ended (stopWorkers)
		}
	}
	returned = true
	<-w.stood
}

// goexit ends w, whose goroutine ended through runtime.Goexit, once a
// stand-in is in its home: at once if its goroutine held the schedule
// and handed it on (the stand-in's arrival passes it), else once the
// explorer has sent one (unwind).
func (w *worker) goexit(x *Explorer) {
	if g := w.g; !w.standing && !g.abort && g.state == gDone {
		to, act := w.target(g.it)
		x.standIn(w, to, act)
	}
	<-w.stood
}

// pass parks w, whose goroutine handed the schedule to w.next, in the
// slot of the goroutine to resume, or in a hub's for what a goroutine
// outside the coroutines must do.
func (w *worker) pass(it *Iteration) {
	if next := w.next; next != nil && !it.ended && next.co != nil && !next.onChan {
		w.next = nil
		w.enter(next.co.at) // the common case of target
		return
	}
	to, act := w.target(it)
	if to == nil {
		to = it.x.hubFor(act)
	}
	w.enter(to)
}

// target returns the slot of the goroutine to resume once w parks, or
// nil and what a hub must do instead.
func (w *worker) target(it *Iteration) (*slot, hubAct) {
	next := w.next
	w.next = nil
	switch {
	case it.ended:
		return nil, hubAct{kind: actEnd, it: it}
	case next == nil:
		return nil, hubAct{kind: actRelease, it: it}
	case next.co == nil || next.onChan:
		return nil, hubAct{kind: actWake, g: next}
	}
	return next.co.at, hubAct{}
}

// hubFor returns the slot of a hub parked in one, told to do a.
func (x *Explorer) hubFor(a hubAct) *slot {
	p := x.hubs.parked
	if len(p) == 0 {
		panic("sched: no hub is parked while a coroutine runs")
	}
	h := p[len(p)-1]
	p[len(p)-1] = nil
	x.hubs.parked = p[:len(p)-1]
	h.act = a
	return h.at
}

// unpark takes h out of the hubs parked in slots.
func (x *Explorer) unpark(h *hub) {
	p := x.hubs.parked
	for i, o := range p {
		if o == h {
			copy(p[i:], p[i+1:])
			p[len(p)-1] = nil
			x.hubs.parked = p[:len(p)-1]
			return
		}
	}
}

// standIn sends a stand-in to w's home, so that w may end, and returns a
// channel closed once w has ended (and the stand-in with it). Whoever
// is parked in w's home is resumed first and moved: to the slot to, to
// resume the goroutine there, or, with to nil, to a hub's slot, which
// does act (a hub parked in w's home does act itself). w itself, parked
// elsewhere (to is its slot) or away, resumes or goes on, and ends once
// it sees w.stood closed.
//
// Only the goroutine holding the schedule, or the explorer while nobody
// does, calls it.
func (x *Explorer) standIn(w *worker, to *slot, act hubAct) <-chan struct{} {
	w.standing = true
	o := w.home.in
	switch {
	case to == w.home: // o is the one to resume: it runs
	case to != nil:
		o.move = to
	case o.hub != nil:
		x.unpark(o.hub)
		o.hub.act = act
	default:
		o.move = x.hubFor(act)
	}
	o.signal = w.stood
	done := make(chan struct{})
	hidden.Add(1)
	go x.stand(w.home, done)
	return done
}

// stand is the body of a stand-in: it parks in slot s, the home of a
// worker about to end, and ends when the worker's end resumes it
// (through runtime.Goexit, when the worker ended through it).
func (x *Explorer) stand(s *slot, done chan struct{}) {
	defer func() {
		hidden.Add(-1)
		close(done)
	}()
	var r runner
	r.enter(s)
}

// settle sends a stand-in to the home of w, a worker parked in no slot
// (away in uncontrolled code, or waiting on its channel), and waits until
// whoever was parked there is parked again elsewhere: the next iteration
// may resume it, and must find it where it believes it is. The stand-in
// is a goroutine of its own that enters the home when it runs: without
// the wait, a hub sent to resume the goroutine parked there could enter
// the home before it, and resume the goroutine only to see it move away,
// leaving the goroutine it was to run never started.
func (x *Explorer) settle(w *worker) {
	moved := make(chan struct{})
	x.standIn(w, nil, hubAct{kind: actMoved, moved: moved})
	select {
	case <-moved:
	case <-time.After(10 * time.Second):
		// Not run for 10s: the process is starved. Go on; if the move
		// never ends, the watchdog reports the next schedule as stuck.
	}
}

// stopWorkers ends the workers of the pool when the exploration ends.
func (x *Explorer) stopWorkers() {
	h := &x.hubs
	h.mu.Lock()
	free := h.free
	h.free, h.closed = nil, true
	h.mu.Unlock()
	for _, w := range free {
		<-x.standIn(w, w.at, hubAct{})
		hidden.Add(-1)
	}
}

// activate makes a hub enter the slot of next, a coroutine the holder
// chose: the schedule is the hub's until next runs.
func (x *Explorer) activate(next *G) {
	if x.hubs.idle.Add(-1) >= 0 {
		x.hubs.work <- hubWork{next}
		return
	}
	x.hubs.idle.Add(1)
	hidden.Add(1)
	go x.hub(next)
}

// hub enters the slot of next, does what it is resumed for, and waits
// for the next work until the explorer ends.
func (x *Explorer) hub(next *G) {
	defer hidden.Add(-1)
	h := &hub{}
	h.hub = h
	for {
		if it := next.it; it.growing(len(x.hubs.parked), cap(x.hubs.parked)) {
			it.toolBegin()
			x.hubs.parked = append(x.hubs.parked, h)
			it.toolEnd()
		} else {
			x.hubs.parked = append(x.hubs.parked, h)
		}
		h.enter(next.co.at)
		a := h.act
		h.act = hubAct{}
		a.do()
		x.hubs.idle.Add(1)
		w, ok := <-x.hubs.work
		if !ok {
			return
		}
		next = w.next
	}
}

// stopHubs ends the idle hubs and the workers when the exploration ends.
func (x *Explorer) stopHubs() {
	close(x.hubs.work)
	x.stopWorkers()
}

// handoff gives the schedule to it.cur, which its holder g (nil for the
// explorer) chose, and returns when g is chosen again; at once when g is
// nil or has exited.
func (it *Iteration) handoff(g *G) {
	if g != nil && g.yields() {
		w := g.co
		w.next = it.cur
		if g.state == gDone {
			return // its worker parks once g's frames are gone (loop)
		}
		d := it.toolPause() // the next goroutine runs the program's code
		w.pass(it)
		g.unwindIfAborted()
		it.toolResume(d)
		return
	}
	g.handTo(nil)
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
// that does not run in a slot.
func (it *Iteration) wake(next *G) {
	if next.co == nil || next.onChan {
		next.wake <- struct{}{}
		return
	}
	it.x.activate(next)
}

// handTo tells g's worker whom to resume when g parks or ends: the
// goroutine g handed the schedule to (nil when g gave it away otherwise,
// or to nobody).
func (g *G) handTo(next *G) {
	if g != nil && g.co != nil {
		g.co.next = next
	}
}

// yields reports whether g, running, gives the schedule away by
// entering a slot: a coroutine whose thread is not locked.
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
		g.co.pass(g.it)
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
		g.exitAborted()
	}
}

// exitAborted ends g through runtime.Goexit, its iteration having ended.
func (g *G) exitAborted() {
	if g.it.wantStacks {
		g.stack = stackOf()
	}
	runtime.Goexit()
}

// unwindG makes g, a goroutine of an iteration that has ended, unwind. A
// parked goroutine is resumed with its abort set; the channel returned is
// closed when it has ended (nil: g is away in uncontrolled code, and
// unwinds when it comes back, or runs on natively if it was adopted). A
// coroutine's worker ends with it: a stand-in is sent to its home first.
func (it *Iteration) unwindG(g *G) <-chan struct{} {
	w := g.co
	if w != nil && (w.g != g || w.standing) {
		return nil // ended, its worker gone on or ending
	}
	if g.state == gDone || g.state == gOut {
		if w != nil && w.at == nil && !g.onChan {
			// Away in uncontrolled code (out, or stuck there): it ends
			// when it comes back, its stand-in in place.
			it.x.settle(w)
		}
		return nil
	}
	g.abort = true
	if w != nil && !g.onChan {
		return it.x.standIn(w, w.at, hubAct{})
	}
	if w != nil {
		it.x.settle(w)
	}
	select {
	case g.wake <- struct{}{}:
	default:
	}
	return g.exited
}
