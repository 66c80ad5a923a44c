package sched

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"interleave.dev/rt/internal/event"
	"interleave.dev/rt/internal/race"
	"interleave.dev/rt/internal/strategy"
)

// Iteration is one run of the test body under one schedule.
type Iteration struct {
	x    *Explorer
	num  int  // the schedule's number in its exploration, from 1
	gs   []*G // every goroutine, by id-1
	live []*G // goroutines not yet exited, by id
	cur  *G
	main *G
	// held is cur for goroutines that do not hold the schedule (arrivals
	// from uncontrolled code); nil while every goroutine that can run is
	// in uncontrolled code.
	held atomic.Pointer[G]
	// gate counts the running goroutine's entries into the runtime; its
	// low bits are set by arrivals taking the schedule over (adopt.go).
	gate      atomic.Int64
	amu       sync.Mutex   // arrivals take the schedule over one at a time
	arriving  atomic.Int32 // goroutines waiting in takeOver
	adoptions atomic.Int32 // takeovers so far (adopt.go)
	// timerHeld: nobody holds the schedule because the next timer waits
	// for goroutines in uncontrolled code (heldTimer); fireHeld: the
	// explorer took the schedule to fire it after all.
	timerHeld atomic.Bool
	fireHeld  bool
	// holderGone: the last holderAway found the holder exited (set and
	// read under amu).
	holderGone bool
	// reporting is claimed by the first of fail and stuck to write
	// it.finding. While a goroutine builds its finding (fail: a report
	// over a million objects takes seconds) the watchdog neither reaps
	// nor ends the iteration as stuck.
	reporting atomic.Bool

	objs map[uintptr]*object // by address: only object.addr keeps the memory alive (gc.go)
	// recent holds objects of objs found lately, by address (object):
	// an operation finds its object without a map lookup when its
	// goroutine, or another, touched it shortly before.
	recent [recentSize]struct {
		addr uintptr
		o    *object
	}
	// words holds the objects of the further words of the last large
	// access, from its numbering to its race check (access); wordsGen
	// counts its uses.
	words    []*object
	wordsGen uint64
	nextObj  int32
	// nextEvObj numbers objects as events name them (eventID).
	nextEvObj int32
	// nextMemObj numbers memory words as events name them, downward
	// from -1 (eventID).
	nextMemObj int32

	clock    int64
	timers   timerSet
	timerSeq int64

	steps        int
	quietAt      int // step of the last progress (progress.go)
	epoch        int // progress epoch, advanced at every progress
	quietObjs    int // objects polled since the last progress (progress.go)
	quietGs      int // goroutines that ran since the last progress (progress.go)
	loneCheck    int // step of the next check that one goroutine polls alone (progress.go)
	loneEpoch    int // the epoch (progress) in which it was last shown alone
	points       int
	switches     int
	trace        []event.Event
	traceDropped int // events recorded before those in trace
	// preempts holds the indices (counting dropped events) of the events
	// that ran while the goroutine before them could have gone on: the
	// schedule's departures from the obvious order, for the report's page.
	preempts    []int
	preemptNext bool // the next recorded event is one
	// traceRoom is how long the trace may grow by record's plain append:
	// 0 while a strategy observes every event (recordSlow).
	traceRoom int
	// hash is the event hash (record) of the first hashed events,
	// counting dropped ones: the rest are folded in when it is read
	// (eventHash), which most iterations never do.
	hash   uint64
	hashed int

	choices []int
	opts    []strategy.Option
	pt      strategy.Point
	chosen  strategy.Option   // the option choose returned
	strat   strategy.Strategy // the explorer's
	goOn    strategy.GoerOn   // the strategy, when it has the fast path of a point that goes on
	// fairUntil is a step before which no goroutine of the run queue can
	// have been passed over for fairBound points (goesOn): the oldest
	// key found last plus fairBound, 0 since a goroutine joined.
	fairUntil  int
	race       *race.Detector
	obs        strategy.Observer // the strategy, when it observes every event
	vals       strategy.Valuer   // the strategy, when it needs the values of accesses
	overBudget atomic.Bool       // set by the explorer when the budget ran out
	wantStacks bool

	mainDone   bool
	mainDoneAt int64
	failed     bool
	failMsg    string // the first failure's message
	skipped    bool
	logs       []string
	logBytes   int // of logs (testapi.go)
	logDropped int

	mapSeed   uint64 // orders of map ranges (maporder.go)
	mapRanges uint64

	early        []EarlyTimer
	earlyDropped int           // early timers beyond earlyLimit
	earlyMax     time.Duration // the longest stall of the early timers
	finding      *Finding
	diverged     string
	ended        bool
	done         chan struct{}
	doneOnce     sync.Once

	rtScratch any // per-iteration state of package rt

	// The tool's own allocations, once the program reads the
	// allocator's counters (alloc.go). toolTrack: the program's
	// operations keep toolDepth.
	memWatch  bool
	toolTrack bool

	overLimit  bool // a goroutine or an object was added past its bound (checkLimits)
	toolDepth  int
	toolMark   allocCount
	toolAllocs allocCount
	over       atomic.Bool // ended, for other goroutines (Running)

	// bubble counts the testing/synctest bubbles the test is in: there the
	// clock stands still while code runs and no timer fires early, as
	// synctest promises.
	bubble int

	// The enabled set (runq.go); indexed says the strategy reads the
	// options of thread points from view instead of a list.
	runq     gset
	open     []*gset
	view     optionSet
	indexed  bool
	yielders []*G // goroutines that yielded since the last switch
	polledSw int  // switches+1 when a goroutine last polled once (pollFailed)
	yieldSw  int  // the switch count yielders belong to
	dead     int  // exited goroutines not yet compacted out of live
}

// Number is the number of the schedule the iteration runs, counting from
// 1 in its exploration (a replay's: the recorded one).
func (it *Iteration) Number() int { return it.num }

const fnvOffset, fnvPrime = 14695981039346656037, 1099511628211

// record records ev as executed: in the trace kept for a report, and in
// the event hash a replay must reproduce (FNV-1a over the events' fields,
// folded in from the trace when read: eventHash).
func (it *Iteration) record(ev event.Event) {
	if n := len(it.trace); n < it.traceRoom {
		if it.preemptNext {
			it.preemptNext = false
			it.preempts = push(it, it.preempts, it.traceDropped+n)
		}
		it.trace = it.trace[:n+1]
		it.trace[n] = ev
		return
	}
	it.recordSlow(ev)
}

// recordSlow is record where the trace grows or drops its older half, or
// a strategy observes the events.
func (it *Iteration) recordSlow(ev event.Event) {
	if len(it.trace) == traceLimit {
		// Keep the most recent events: drop the older half, once the
		// hash has them.
		it.eventHash()
		n := copy(it.trace, it.trace[traceLimit/2:])
		it.trace = it.trace[:n]
		it.traceDropped += traceLimit - n
		k := 0
		for k < len(it.preempts) && it.preempts[k] < it.traceDropped {
			k++
		}
		it.preempts = append(it.preempts[:0], it.preempts[k:]...)
	}
	if it.preemptNext {
		it.preemptNext = false
		it.preempts = push(it, it.preempts, it.traceDropped+len(it.trace))
	}
	it.trace = push(it, it.trace, ev)
	if it.obs != nil {
		it.toolBegin() // the strategy's work may allocate (alloc.go)
		it.obs.Executed(ev, it.traceDropped+len(it.trace)-1)
		it.toolEnd()
	} else {
		it.traceRoom = min(cap(it.trace), traceLimit)
	}
}

// eventHash returns the hash of the events executed so far.
func (it *Iteration) eventHash() uint64 {
	h := it.hash
	for _, ev := range it.trace[it.hashed-it.traceDropped:] {
		h = hashEvent(h, ev)
	}
	it.hash, it.hashed = h, it.traceDropped+len(it.trace)
	return h
}

// hashEvent adds ev to the event hash h (FNV-1a over its fields). A
// memory word's number is left out: it depends on the allocator
// (eventID).
func hashEvent(h uint64, ev event.Event) uint64 {
	obj := uint32(ev.Obj)
	if ev.Obj < 0 {
		obj = 0
	}
	for _, v := range [4]uint32{uint32(ev.G), uint32(ev.Op), obj, ev.Site} {
		h ^= uint64(v)
		h *= fnvPrime
	}
	return h
}

// traceLimit bounds the events kept for a report (the most recent ones).
const traceLimit = 1 << 16

// step is the scheduling point before operation op of g on o. It returns
// when g is chosen to run and op is enabled; op is then recorded as
// executed.
func (it *Iteration) step(g *G, op event.Op, o *object, site uint32) {
	var obj int32
	if o != nil {
		if obj = o.eid; obj == 0 {
			obj = it.eventID(o)
		}
	}
	if it.vals != nil {
		it.flushWrite(g)
	}
	g.pending = event.Event{G: g.ID, Op: op, Obj: obj, Site: site}
	g.pendObj = o
	if it.obs != nil {
		it.obs.Pending(g.pending)
	}
	if g.set != &it.runq || o != nil && gated(op) {
		it.place(g) // else g, ready, stays in the run queue
	}
	it.steps++
	if it.bubble == 0 {
		it.clock += stepQuantum
	}
	cfg := &it.x.cfg
	if it.quiet() > cfg.MaxSteps && it.livelocked() {
		it.fail(g, it.livelock())
	}
	if it.overLimit {
		it.checkLimits(g)
	}
	if it.overBudget.Load() {
		f := it.limit(fmt.Sprintf("the first schedule was still running when the budget of %v ran out, after %d scheduling points (-budget raises it)", it.x.cfg.Budget, it.steps))
		f.Unexplored = true
		it.fail(g, f)
	}
	if g.free {
		g.free = false
		if it.enabled(g) {
			it.record(g.pending)
			it.executed(g, op, o)
			return
		}
	}
	g.quietRun = 0
	it.reschedule(g)
	it.record(g.pending)
	it.executed(g, op, o)
}

// checkLimits fails the iteration that has more live goroutines or
// objects than their bounds (overLimit: one was added past its bound).
func (it *Iteration) checkLimits(g *G) {
	cfg := &it.x.cfg
	if live := len(it.live) - it.dead; live > cfg.MaxGoroutines {
		it.fail(g, it.bounded(fmt.Sprintf("the schedule has %d live goroutines, more than its bound (-goroutines raises it)", live)))
	}
	if len(it.objs) > cfg.MaxObjects {
		it.fail(g, it.bounded(fmt.Sprintf("the schedule tracks %d objects (memory words, channels, locks), more than its bound (-objects raises it)", len(it.objs))))
	}
	it.overLimit = false
}

// enabled reports whether g can perform its pending operation now.
func (it *Iteration) enabled(g *G) bool {
	if g.state != gReady {
		return false
	}
	o := g.pendObj
	switch g.pending.Op {
	case event.OpLock:
		return !o.locked
	case event.OpWLock:
		return !o.wHeld
	case event.OpOnce:
		return o.once != onceRunning
	}
	return true
}

// collect sets it.pt to the options at a thread choice point, a set for
// an indexed strategy (collectSet), else the list it.opts, and returns
// how many there are.
func (it *Iteration) collect() int {
	if it.indexed {
		it.collectSet()
		if verifyRunq {
			it.collectList()
			it.checkSet()
			it.pt.Options, it.pt.Set = nil, &it.view
		}
		return it.view.Len()
	}
	it.collectList()
	it.pt.Options, it.pt.Set = it.opts, nil
	return len(it.opts)
}

// optionAt returns option i of the point it.pt: of the set (an indexed
// strategy's thread point, it.view) or of the list.
func (it *Iteration) optionAt(i int) strategy.Option {
	if it.pt.Set != nil {
		return it.view.At(i)
	}
	return it.pt.Options[i]
}

// collectList fills it.opts with the options at a thread choice point, by
// a scan of every goroutine.
func (it *Iteration) collectList() {
	it.opts = reserve(it, it.opts[:0], len(it.live)+1)
	t := it.nextTimer()
	if t != nil && (t.when <= it.clock || it.quiet() > quietFire) {
		// Its time has come, or the goroutines that could run have only
		// polled for long: real time would pass, and the timer fire.
		it.opts = append(it.opts, strategy.Option{G: 0, Ev: event.Event{Op: event.OpTimerFire, Obj: t.obj}})
		return
	}
	for _, g := range it.live {
		if it.enabled(g) {
			it.opts = append(it.opts, strategy.Option{G: g.ID, Ev: g.pending})
		}
	}
	// Firing the timer early comes last, so that a systematic search
	// tries the schedules that need no stall first.
	if t != nil && (len(it.opts) == 0 || it.mayFireEarly(t)) {
		it.opts = append(it.opts, strategy.Option{G: 0, Ev: event.Event{Op: event.OpTimerFire, Obj: t.obj}})
	}
	if len(it.opts) > 1 {
		it.fair()
	}
}

// fairBound is how many scheduling points an enabled goroutine may be
// passed over before it is forced to run.
const fairBound = 1000

// fair restricts the options the way the Go scheduler is fair: preemption
// lets every runnable goroutine run eventually, and a goroutine that yields
// (runtime.Gosched, or a poll that repeats: pollFailed) lets the others run
// first. Without this, systematic and priority-based
// strategies would report livelocks in correct spin-wait loops. The rule
// depends only on the history of the iteration, so replay and DFS see the
// same options again.
func (it *Iteration) fair() {
	// One pass: the starved goroutine, and whether a goroutine yielded
	// since the last switch. A yielder defers to other goroutines, never
	// to a timer: yielding does not make time pass.
	var starved *G
	yields := it.yieldSw == it.switches // some goroutine yielded since the last switch
	keep, others := 0, 0
	for _, o := range it.opts {
		if o.G == 0 {
			keep++
			continue
		}
		g := it.gs[o.G-1]
		if it.steps-g.lastRun > fairBound && (starved == nil || g.lastRun < starved.lastRun) {
			starved = g
		}
		if !yields || g.yieldAt != it.switches+1 {
			keep++
			others++
		}
	}
	if starved != nil {
		it.opts = append(it.opts[:0], strategy.Option{G: starved.ID, Ev: starved.pending})
		return
	}
	if others == 0 || keep == len(it.opts) {
		it.pollerLast()
		return
	}
	n := 0
	for _, o := range it.opts {
		if o.G == 0 || it.gs[o.G-1].yieldAt != it.switches+1 {
			it.opts[n] = o
			n++
		}
	}
	it.opts = it.opts[:n]
	it.pollerLast()
}

// pollerLast moves a goroutine that polled once since the last switch
// after the other goroutines of a listed choice (before the timer): it may
// go on, as natively, but a systematic search tries the others first,
// where a check-then-act after a poll goes wrong.
func (it *Iteration) pollerLast() {
	if it.polledSw != it.switches+1 {
		return // nobody polled since the last switch
	}
	p := -1
	for i, o := range it.opts {
		if o.G != 0 && it.gs[o.G-1].polledAt == it.switches+1 {
			p = i
			break
		}
	}
	if p < 0 {
		return
	}
	end := len(it.opts)
	for end > 0 && it.opts[end-1].G == 0 {
		end--
	}
	if p >= end-1 {
		return
	}
	o := it.opts[p]
	copy(it.opts[p:end-1], it.opts[p+1:end])
	it.opts[end-1] = o
}

// yielded marks g as having yielded: it is passed over at the next choice
// point if another goroutine can run.
func (it *Iteration) yielded(g *G) {
	g.yieldAt = it.switches + 1
	if it.yieldSw != it.switches {
		clear(it.yielders)
		it.yielders, it.yieldSw = it.yielders[:0], it.switches
	}
	for _, y := range it.yielders {
		if y == g {
			return
		}
	}
	it.yielders = push(it, it.yielders, g)
}

// choose asks the strategy to pick among the options (at least two): of
// it.pt as collect set it at a thread point, it.opts at a select point.
// It returns the index of the option chosen, and sets it.chosen to it.
// When a replay diverges there, the iteration ends; for a g that has
// exited, or the explorer (g nil), choose then returns -1.
func (it *Iteration) choose(kind strategy.Kind, g *G) int {
	it.pt.Kind = kind
	it.pt.Index = it.points
	it.pt.Step = it.steps
	it.pt.Current = 0
	if g != nil && g.state == gReady {
		it.pt.Current = g.ID
	}
	if kind == strategy.Select {
		it.pt.Options, it.pt.Set = it.opts, nil
	}
	if len(it.choices) >= it.x.cfg.MaxChoices {
		it.fail(g, it.bounded(fmt.Sprintf("the schedule made %d choices without ending, more than its bound (a schedule this long is kept in memory to be written and replayed: -choices raises it)", len(it.choices))))
	}
	var i int
	if it.memWatch {
		it.toolBegin() // the strategy's work may allocate (alloc.go)
		i = it.strat.Choose(&it.pt)
		it.toolEnd()
	} else {
		i = it.strat.Choose(&it.pt)
	}
	n := len(it.pt.Options)
	if it.pt.Set != nil {
		n = it.view.Len()
	}
	if i < 0 || i >= n {
		it.diverge(g, "the program offered a choice the schedule does not have")
		// Only a g that has exited, or the explorer (g nil), gets here:
		// the iteration has ended.
		return -1
	}
	// The option's encoding in the schedule (strategy.Point.Encode).
	o := it.optionAt(i)
	code := int(o.G)
	if kind == strategy.Select {
		code = -1 - int(o.Case)
	}
	it.chosen = o
	it.choices = push(it, it.choices, code)
	it.points++
	return i
}

// reschedule picks who runs next and hands over to it. It returns when g
// runs again (g ready), or at once when g has exited.
func (it *Iteration) reschedule(g *G) {
	if (it.goOn != nil || len(it.runq.items) == 1) && it.goesOn(g) {
		return
	}
	for {
		n := it.collect()
		if n == 0 {
			it.quiescent(g)
			return // only an exited g gets here
		}
		if n == 1 && it.heldTimer() {
			// Real time passes while goroutines away answer: give them
			// the chance before the timer fires (the explorer fires it
			// if none comes back, fireHeldTimer).
			it.timerHeld.Store(true)
			it.idle(g)
			return
		}
		var o strategy.Option
		if n > 1 {
			if it.choose(strategy.Thread, g) < 0 {
				return // the replay diverged
			}
			o = it.chosen
		} else {
			o = it.optionAt(0)
		}
		if n > 1 && g != nil && o.G != g.ID && it.enabled(g) {
			it.preemptNext = true
		}
		if o.G == 0 {
			if n > 1 {
				it.noteEarlyTimer()
			}
			it.fireTimer()
			continue
		}
		next := it.gs[o.G-1]
		it.ran(next)
		if op := next.pending.Op; op == event.OpResume || op == event.OpStart {
			next.free = true
			it.record(next.pending)
		}
		if next == g {
			return
		}
		it.switches++
		it.setCur(next)
		it.handoff(g)
		return
	}
}

// goesOn is the fast path of a thread point where g, which reached it,
// goes on: what collect, choose and the rest of reschedule do when g is
// the only option, or when the strategy chooses g without being shown the
// options (strategy.GoerOn). It takes the path only at a plain point,
// whose options are the run queue, g among them, with no timer, no
// goroutine out of the schedule, no yield and no starved goroutine to
// change them; else, or when the strategy says switch, it reports false
// and the point goes the usual way.
func (it *Iteration) goesOn(g *G) bool {
	if g == nil || g.state != gReady || g.set != &it.runq ||
		g.pending.Op == event.OpResume || g.pending.Op == event.OpStart ||
		len(it.open)+len(it.timers.plain)+len(it.timers.chans) > 0 || it.fireHeld {
		return false
	}
	if len(it.runq.items) == 1 {
		if verifyRunq {
			it.verifyGoesOn(g)
		}
		it.ran(g)
		return true
	}
	if it.goOn == nil || it.yieldSw == it.switches || len(it.choices) >= it.x.cfg.MaxChoices {
		return false
	}
	if it.steps > it.fairUntil {
		// The keys only grow while nobody joins the run queue: the
		// oldest of them bounds every later check until then.
		old := it.runq.top().lastRun
		if it.steps-old > fairBound {
			return false
		}
		it.fairUntil = old + fairBound
	}
	if verifyRunq {
		it.verifyGoesOn(g)
	}
	if !it.goOn.GoOn(g.ID) {
		return false
	}
	it.choices = push(it, it.choices, int(g.ID))
	it.points++
	it.ran(g)
	return true
}

// verifyGoesOn checks that the options collect offers at g's point are
// the ones goesOn takes them to be: the run queue, g among them.
func (it *Iteration) verifyGoesOn(g *G) {
	n := it.collect()
	if !it.indexed {
		if n != 1 || it.opts[0].G != g.ID {
			panic(fmt.Sprintf("interleave: the fast path of a point takes goroutine %d for the only option, the scheduler offers %d options", g.ID, n))
		}
		return
	}
	v := &it.view
	if n != len(it.runq.items) || v.timer || (v.only != nil && n > 1) || v.nskip != 0 || v.IndexOf(g.ID) < 0 {
		panic(fmt.Sprintf("interleave: the fast path of a point takes options the scheduler does not offer: %d options of %d, timer %v, forced %v, %d passed over", n, len(it.runq.items), v.timer, v.only != nil, v.nskip))
	}
}

// block parks g on a primitive until another goroutine (or a timer) wakes
// it and the strategy chooses it.
func (it *Iteration) block(g *G, op event.Op, o *object, site uint32) {
	g.state = gBlocked
	g.blockOp, g.blockObj, g.blockSite = op, o, site
	it.place(g)
	it.reschedule(g)
}

// wakeUp makes a blocked goroutine runnable again.
func (it *Iteration) wakeUp(w *G) {
	w.state = gReady
	w.pending = event.Event{G: w.ID, Op: event.OpResume}
	w.pendObj = nil
	w.blockObj = nil
	it.place(w)
	if it.obs != nil {
		it.obs.Woke(w.ID)
	}
}

// quiescent handles a point where nothing can run: the end of the
// iteration, a deadlock, or leaked goroutines.
func (it *Iteration) quiescent(g *G) {
	if it.awaitingOut() {
		it.idle(g)
		return
	}
	if !it.mainDone {
		it.fail(g, it.deadlock())
		return
	}
	var leaked []*G
	for _, l := range it.live {
		if l.state != gDone && l.state != gOut && !l.watcher {
			leaked = append(leaked, l)
		}
	}
	if len(leaked) > 0 && it.x.cfg.Leaks {
		it.fail(g, it.leak(leaked))
		return
	}
	it.end(g)
}

// fail ends the iteration with finding f (the first finding wins). For a
// goroutine that has not exited, it does not return.
func (it *Iteration) fail(g *G, f *Finding) {
	if it.finding == nil && it.diverged == "" && it.reporting.CompareAndSwap(false, true) {
		f.Trace, f.TraceDropped, f.Preempts = it.trace, it.traceDropped, it.preempts
		f.Objects = it.objectNames()
		f.EarlyTimers, f.EarlyTimersDropped, f.MaxStall = it.early, it.earlyDropped, it.earlyMax
		f.Pending = it.pendingEvents()
		it.finding = f
		// Every parked goroutine captures its stack while unwinding;
		// not when there are too many to report.
		it.wantStacks = len(it.live)-it.dead <= 10000
	}
	it.end(g)
}

// diverge ends a replay whose program no longer follows the schedule.
func (it *Iteration) diverge(g *G, why string) {
	if it.diverged == "" && it.finding == nil {
		it.diverged = why
	}
	it.end(g)
}

// Running reports whether the iteration has yet to end; any goroutine may
// ask.
func (it *Iteration) Running() bool { return !it.over.Load() }

// end finishes the iteration and hands control back to the explorer.
func (it *Iteration) end(g *G) {
	if !it.ended {
		it.ended = true
		it.over.Store(true)
		if g == nil || !g.yields() {
			it.closeDone()
		} // else the hub its worker parks in closes it (pass)
	}
	g.handTo(nil)
	if g != nil && g.state != gDone {
		g.park() // woken only to unwind
		panic("unreachable: parked goroutine resumed after its iteration ended")
	}
}

// closeDone closes it.done once: the holder ending the iteration and the
// watchdog may both get there.
func (it *Iteration) closeDone() { it.doneOnce.Do(func() { close(it.done) }) }

// exit handles the end of g's function: normal return, panic or Goexit.
func (it *Iteration) exit(g *G, p any, abnormal bool) {
	defer close(g.exited)
	it.toolBegin() // ended when g hands over (handoff) or the iteration ends
	if it.vals != nil {
		it.flushWrite(g)
	}
	g.state = gDone
	it.place(g)
	it.removeLive(g)
	if it.ended {
		return
	}
	if abnormal && p != nil {
		it.fail(g, it.panicked(g, p))
		return
	}
	if g == it.main {
		it.mainDone = true
		it.mainDoneAt = it.clock
		if abnormal && !it.failed && !it.skipped {
			it.failed = true
			it.log("test executed panic(nil) or runtime.Goexit")
		}
		switch {
		case it.failed:
			it.fail(g, it.testFailure())
			return
		case it.skipped || !it.x.cfg.Leaks:
			it.end(g)
			return
		}
	}
	it.record(event.Event{G: g.ID, Op: event.OpExit})
	it.progressed()
	it.reschedule(g)
}

// removeLive notes that g, which exited, is no longer live. The exited
// are compacted out of it.live when they are half of it, so an exit
// costs O(1) amortized; until then readers of it.live skip them by state.
func (it *Iteration) removeLive(g *G) {
	it.dead++
	if 2*it.dead < len(it.live) {
		return
	}
	n := 0
	for _, l := range it.live {
		if l.state != gDone {
			it.live[n] = l
			n++
		}
	}
	clear(it.live[n:])
	it.live, it.dead = it.live[:n], 0
}
