package sched

import (
	"time"
	"unsafe"

	"interleave.dev/rt/internal/event"
)

// Virtual time. The clock starts at zero in every iteration, advances by
// stepQuantum at every scheduling point (code takes time to run: a
// deadline checked after a sleep of exactly its length has passed), and
// jumps when a timer fires. A timer fires when its time has come, when
// nothing else can run, or when the goroutines that can run have only
// polled for long (progress.go); before that, firing the earliest timer
// is an option at thread choice points (the option with goroutine 0), so
// timeouts race with work under the strategy's control. A time.Sleep
// never waits for the wall clock.

// stepQuantum is the virtual time one scheduling point takes: about what
// a synchronization operation or shared access and the code around it
// cost on real hardware. It sets how fast virtual time passes in code that
// never blocks: much more would make cheap loops look slow (a thousand
// calls of an unlimited rate limiter asserted to take under a
// millisecond), much less would make a loop that runs until a timer
// fires (a one-second stress test) take millions of points. Any positive
// amount makes a deadline checked right after a sleep of its length
// expire.
const stepQuantum = int64(500 * time.Nanosecond)

// leakGrace is how much virtual time may pass after the test function
// returns while the remaining goroutines finish, before those still
// blocked are reported as leaked (drainLimit: a sleep begun within it
// gets as long).
const leakGrace = int64(time.Second)

// Timer is a pending timer: a sleeping goroutine, a timer or ticker
// channel, an AfterFunc, or a context deadline.
type Timer struct {
	when    int64
	seq     int64
	active  bool
	obj     int32
	g       *G      // a sleeping goroutine
	ch      *object // a timer channel (fires only when a value can be delivered)
	period  int64   // ticker period
	fire    func(it *Iteration, now int64)
	creator int32
	site    uint32  // where it was started
	dur     int64   // how long after its start it fires
	wakes   *object // the channel its firing closes (a context's Done)
	hidx    int     // its index in its heap of the timerSet
}

// Wakes records that firing t closes channel o, a context's Done channel
// (for the timer policy: a select waiting on o may be woken early).
func (t *Timer) Wakes(o *ChanObj) { t.wakes = o }

// timerSlack is how late, in virtual time, a timer that fires because
// its time has come wakes what it wakes: Linux's default timer slack of a
// thread, the least latency a sleeping goroutine's wakeup has natively.
// Two timers due within it of each other fire in either order.
const timerSlack = 50_000

// TimerPolicy says when a timer may fire before its time, while
// goroutines could still run (the stall of those goroutines that the
// schedule assumes).
type TimerPolicy uint8

// The timer policies.
const (
	// TimersStall lets a timer fire early only to wake a select that
	// also waits on other channels (a timeout racing with work), or to run
	// an AfterFunc callback, and only within Config.Stall of its time;
	// never into a poll, never for a sleep or a lone wait on the timer.
	TimersStall TimerPolicy = iota
	// TimersEager lets the earliest timer fire at any choice point.
	TimersEager
	// TimersIdle never fires a timer early: only when its time has come,
	// or when nothing else can run (testing/synctest's fake clock).
	TimersIdle
	// TimersStallAll lets any timer due within Config.Stall fire early,
	// for a sleep and a lone wait too: the policy of the search for data
	// races that need a goroutine stalled (Config.RacesOnly). A stall
	// orders nothing, so a race such a schedule shows is one Go's race
	// detector reports when the machine stalls that goroutine; what
	// else it shows may rest on the stall, which TimersStall never
	// assumes there (a sleep says "let the others run").
	TimersStallAll
)

// mayFireEarly reports whether firing t now, while goroutines could still
// run, is an option.
func (it *Iteration) mayFireEarly(t *timer) bool {
	if it.bubble > 0 {
		return false
	}
	switch it.x.cfg.Timers {
	case TimersEager:
		return true
	case TimersIdle:
		return false
	}
	if t.when-it.clock > int64(it.x.cfg.Stall) {
		return false
	}
	if it.x.cfg.Timers == TimersStallAll {
		return true
	}
	ok := true // an AfterFunc callback races with the code
	switch {
	case t.g != nil:
		ok = false // a sleep says: let the others run
	case t.ch != nil:
		ok = selectWaits(t.ch)
	case t.wakes != nil:
		ok = selectWaits(t.wakes)
	}
	if !ok {
		it.x.held = true
	}
	return ok
}

// selectWaits reports whether a select blocked on channel o together with
// other channels.
func selectWaits(o *object) bool {
	for _, s := range o.ch.recvq.q {
		if s.sel && s.live() && s.cases > 1 {
			return true
		}
	}
	return false
}

// EarlyTimer records a timer that fired while goroutines could still run:
// a schedule that needs those goroutines to be delayed that long.
type EarlyTimer struct {
	Site     uint32
	Duration time.Duration // the timer's duration
	Stall    time.Duration // how long before its time it fired
	Runnable []int32
}

// earlyLimit bounds the early timers an iteration keeps for its report.
const earlyLimit = 64

// noteEarlyTimer records that the earliest timer is about to fire although
// the goroutines in it.opts could run.
func (it *Iteration) noteEarlyTimer() {
	t := it.nextTimer()
	e := EarlyTimer{Site: t.site, Duration: time.Duration(t.dur), Stall: time.Duration(t.when - it.clock)}
	it.earlyMax = max(it.earlyMax, e.Stall)
	if len(it.early) == earlyLimit {
		it.earlyDropped++
		return
	}
	for i, n := 0, it.pt.Len(); i < n; i++ {
		if o := it.optionAt(i); o.G != 0 {
			e.Runnable = append(e.Runnable, o.G)
		}
	}
	it.early = append(it.early, e)
}

type timer = Timer

// timerSet holds the pending timers in two min-heaps by (when, seq):
// those without a channel, whose firing always has an effect, and those
// of timer and ticker channels, which have none while their channel is
// full. The earliest effective timer is the top of the first heap or the
// top of the second if effective, and only when the second's top is a
// full channel's are the channel timers scanned; so finding it costs
// O(1) however many goroutines sleep, and an operation on a timer
// O(log n).
type timerSet struct {
	plain, chans timerHeap
}

// timerHeap is a min-heap of timers by (when, seq).
type timerHeap []*timer

func timerLess(a, b *timer) bool {
	return a.when < b.when || (a.when == b.when && a.seq < b.seq)
}

func (h *timerHeap) push(t *timer) {
	t.hidx = len(*h)
	*h = append(*h, t)
	h.fix(t.hidx)
}

func (h *timerHeap) remove(t *timer) {
	s := *h
	i, last := t.hidx, len(s)-1
	if i != last {
		s[i], s[last] = s[last], s[i]
		s[i].hidx = i
	}
	s[last] = nil
	*h = s[:last]
	if i != last {
		h.fix(i)
	}
}

func (h timerHeap) fix(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !timerLess(h[i], h[p]) {
			break
		}
		h.swap(i, p)
		i = p
	}
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && timerLess(h[r], h[l]) {
			m = r
		}
		if !timerLess(h[m], h[i]) {
			return
		}
		h.swap(i, m)
		i = m
	}
}

func (h timerHeap) swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].hidx, h[j].hidx = i, j
}

func (s *timerSet) heap(t *timer) *timerHeap {
	if t.ch != nil {
		return &s.chans
	}
	return &s.plain
}

func (it *Iteration) addTimer(t *timer, when int64) {
	t.when = when
	t.dur = when - it.clock
	it.timerSeq++
	t.seq = it.timerSeq
	h := it.timers.heap(t)
	if !t.active {
		t.active = true
		h.push(t)
		return
	}
	h.fix(t.hidx)
}

func (it *Iteration) removeTimer(t *timer) bool {
	if !t.active {
		return false
	}
	t.active = false
	it.timers.heap(t).remove(t)
	return true
}

// effective reports whether firing t would do something: a ticker or
// timer whose channel still holds an unreceived value drops the tick.
func (t *timer) effective() bool {
	if t.ch == nil {
		return true
	}
	c := t.ch.ch
	return c.buf.len() < c.cap || c.recvq.hasWaiter()
}

// nextTimer returns the earliest timer whose firing has an effect, or nil.
func (it *Iteration) nextTimer() *timer {
	var best *timer
	if len(it.timers.plain) > 0 {
		best = it.timers.plain[0]
	}
	if cs := it.timers.chans; len(cs) > 0 {
		if cs[0].effective() {
			if best == nil || timerLess(cs[0], best) {
				best = cs[0]
			}
		} else {
			for _, t := range cs[1:] {
				if t.effective() && (best == nil || timerLess(t, best)) {
					best = t
				}
			}
		}
	}
	if verifyRunq {
		it.checkNextTimer(best)
	}
	if best != nil && it.mainDone && best.when > it.drainLimit(best) {
		return nil
	}
	return best
}

// drainLimit is the latest virtual time timer t may fire at once the test
// function has returned: leakGrace after the return, or, for a timer set
// within that grace (a goroutine that went to sleep after the test
// returned), leakGrace after it was set. Whether a goroutine's one sleep
// began just before the test returned or just after is the interleaving
// of two goroutines that both go on; it must not decide whether the
// goroutine is left behind. A goroutine that sleeps again and again (a
// worker's loop) is still stopped: no timer set more than leakGrace after
// the return fires, so the drain ends within twice the grace. The drain
// stops at the first timer past its limit (nextTimer): a later one does
// not fire before it, as time does not pass it by.
func (it *Iteration) drainLimit(t *timer) int64 {
	limit := it.mainDoneAt + leakGrace
	if set := t.when - t.dur; set > it.mainDoneAt && set <= limit {
		return set + leakGrace
	}
	return limit
}

// checkNextTimer panics if best is not the earliest effective timer a
// scan of every timer finds.
func (it *Iteration) checkNextTimer(best *timer) {
	var scan *timer
	for _, h := range []timerHeap{it.timers.plain, it.timers.chans} {
		for i, t := range h {
			if t.hidx != i || !t.active {
				panic("sched: timer heap index broken")
			}
			if t.effective() && (scan == nil || timerLess(t, scan)) {
				scan = t
			}
		}
	}
	if scan != best {
		panic("sched: the timer heaps miss the earliest timer")
	}
}

// fireTimer fires the earliest effective timer, advancing the clock.
func (it *Iteration) fireTimer() {
	t := it.nextTimer()
	due := t.when
	if t.when > it.clock {
		it.clock = t.when
		if it.x.cfg.Timers != TimersIdle && it.bubble == 0 {
			// The wakeup comes a little late, as natively: timers due
			// within the slack of this one are due too, and may fire
			// while the goroutine it wakes runs (testing/synctest's
			// exact clock, TimersIdle, has none).
			it.clock += timerSlack
		}
	}
	it.removeTimer(t)
	it.record(event.Event{Op: event.OpTimerFire, Obj: t.obj})
	it.progressed()
	if t.period > 0 {
		next := t.when + t.period
		for next <= it.clock {
			next += t.period
		}
		it.addTimer(t, next)
	}
	switch {
	case t.g != nil:
		it.wakeUp(t.g)
	case t.fire != nil:
		t.fire(it, due)
	}
}

// Now returns the virtual time, in nanoseconds since the iteration began.
func (g *G) Now(site uint32) int64 {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	g.it.step(g, event.OpNow, nil, site)
	return g.it.clock
}

// Sleep blocks g for d of virtual time.
func (g *G) Sleep(d int64, site uint32) {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	it := g.it
	it.step(g, event.OpSleep, nil, site)
	if d <= 0 {
		return
	}
	t := &g.sleep
	*t = timer{g: g, obj: it.timerID(), site: site}
	it.addTimer(t, it.clock+d)
	it.block(g, event.OpSleep, nil, site)
}

// NewTimer starts a timer that fires after d (and then every period, if
// period > 0). key identifies it for TimerStop and TimerReset (the
// *time.Timer or *time.Ticker, or nil). ch is the timer's channel, or nil;
// fire runs when it fires, inside the scheduler, with the virtual time it
// was due (what Go sends on a timer's channel, however late it fired),
// and must not reach a scheduling point.
func (g *G) NewTimer(key unsafe.Pointer, d, period int64, ch *ChanObj, fire func(it *Iteration, now int64), site uint32) *Timer {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	it := g.it
	t := &timer{ch: ch, period: period, fire: fire, creator: g.ID, site: site}
	if key != nil {
		o := it.object(key, kindTimer)
		o.timer = t
		t.obj = it.eventID(o)
	} else {
		t.obj = it.timerID()
	}
	it.step(g, event.OpTimerNew, nil, site)
	it.addTimer(t, it.clock+d)
	return t
}

// StartTimer starts a ticker (period > 0) or timer on channel ch without a
// scheduling point: a ticker made outside the exploration, adopted on its
// channel's first use.
func (g *G) StartTimer(d, period int64, ch *ChanObj, fire func(it *Iteration, now int64)) *Timer {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	it := g.it
	t := &timer{ch: ch, period: period, fire: fire, creator: g.ID, obj: it.timerID()}
	it.addTimer(t, it.clock+d)
	return t
}

// timerID numbers a timer that is no object of its own (a sleep, an
// AfterFunc, a ticker adopted from outside the exploration) as events
// number objects: in order of first use by an event (eventID). Its firing
// is an event, so the number is hashed; the count of objects created
// (newID) depends on how many words earlier accesses spanned, which
// depends on the allocator and differs between processes.
func (it *Iteration) timerID() int32 {
	it.nextEvObj++
	return it.nextEvObj
}

// TimerOf returns the timer registered under key by NewTimer, or nil.
func (g *G) TimerOf(key unsafe.Pointer) *Timer {
	if o, ok := g.it.objs[uintptr(key)]; ok && o.syncState != nil {
		return o.timer
	}
	return nil
}

// StopTimer stops t. It reports whether t was pending (for a channel
// timer, also when its value was not yet received, which it discards: Go
// 1.23 timer semantics).
func (g *G) StopTimer(t *Timer, site uint32) bool {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	it := g.it
	it.step(g, event.OpTimerStop, nil, site)
	was := it.removeTimer(t)
	if t.ch != nil && t.ch.ch.buf.len() > 0 {
		t.ch.ch.pop()
		was = true
	}
	return was
}

// ResetTimer makes t fire after d (period for a ticker: t's period
// becomes d). It reports what StopTimer would have.
func (g *G) ResetTimer(t *Timer, d int64, ticker bool, site uint32) bool {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	it := g.it
	it.step(g, event.OpTimerReset, nil, site)
	was := it.removeTimer(t)
	if t.ch != nil && t.ch.ch.buf.len() > 0 {
		t.ch.ch.pop()
		was = true
	}
	if ticker {
		t.period = d
	}
	it.addTimer(t, it.clock+d)
	return was
}

// TimerSend delivers slot on a timer's channel without blocking; it
// reports whether the value was taken.
func (it *Iteration) TimerSend(o *ChanObj, slot int32) bool {
	c := o.ch
	c.timed = true
	if r := c.recvq.dequeue(); r != nil {
		it.deliver(r, slot, true)
		return true
	}
	if c.buf.len() < c.cap {
		c.buf.push(slot)
		it.bufSend(nil, c)
		return true
	}
	return false
}

// CloseChan closes channel o, if still open, without a scheduling point:
// a context canceled with its parent (on behalf of g) or by its deadline
// (g == nil).
func (it *Iteration) CloseChan(g *G, o *ChanObj) {
	if g == nil {
		o.ch.timed = true // closed by a deadline
	}
	if !o.ch.closed {
		it.closeChan(g, o)
	}
}

// SpawnFromTimer starts f in a new goroutine on behalf of the creator of
// t (time.AfterFunc, context.AfterFunc).
func (it *Iteration) SpawnFromTimer(t *Timer, f func()) {
	it.spawn(nil, t.creator, f, 0)
}

// Clock returns the virtual time of the iteration.
func (it *Iteration) Clock() int64 { return it.clock }
