package sched

import "interleave.dev/rt/internal/event"

// Progress. A run that is merely long is not a livelock, and a goroutine
// that polls is not work that keeps time from passing. Both rest on one
// notion: the iteration makes progress when something happens that can
// change what a polling goroutine sees. A channel operation, a lock
// handoff (a lock taken by another goroutine than the one that took it
// last), a write, a goroutine started or exited, a timer fired: all are
// progress. A read, an atomic load, a select that took its default, a
// failed TryLock, runtime.Gosched or a clock read is a poll; it counts as
// progress only the first time since the last progress that it touches
// its object (a loop that reads a large structure makes progress; one
// that rereads the same flag does not).
//
// quietAt is the step of the last progress. When the goroutines that can
// run have only polled for quietFire scheduling points, the state they
// cycle through no longer changes, so spinning longer changes nothing but
// the clock: the earliest timer fires (as real time passes while a
// goroutine spins). When they have only polled for Config.MaxSteps points
// and no timer is pending, the iteration is a livelock, provided that
// they polled few locations (spinFootprint) since the last progress: a
// spin loop rereads a flag or a few fields, while a loop that reads a
// data structure over and over without writing (xsync's parallel loader
// loads 100 keys ten million times) makes progress in its own local
// variables, which the tool does not see, and ends. Such a run is long,
// not a livelock; the budget bounds it.
//
// A goroutine that polls alone (no other goroutine ran for loneWindow
// points) gets loneSpin times the bound: nothing but its own local state
// can end its loop, which the tool does not see, and a test's loop of a
// million cache reads under a lock is as quiet as a spin on a flag
// nobody will set. A longer bound lets such loops end, and still reports
// the spin, a few seconds later.

type progressClass uint8

const (
	pProgress progressClass = iota // always progress
	pPoll                          // progress only on an object new to the quiet spell
	pAcquire                       // progress when the lock changes hands
	pOutcome                       // decided by the operation's outcome (select, TryLock)
)

var opClass = [256]progressClass{
	event.OpResume:     pOutcome, // the wake-up was the progress
	event.OpRead:       pPoll,
	event.OpAtomicLoad: pPoll,
	event.OpChanLen:    pPoll,
	event.OpMapRead:    pPoll,
	event.OpNow:        pPoll,
	event.OpYield:      pPoll,
	event.OpLock:       pAcquire,
	event.OpRLock:      pAcquire,
	event.OpWLock:      pAcquire,
	event.OpUnlock:     pOutcome,
	event.OpRUnlock:    pOutcome,
	event.OpWUnlock:    pOutcome,
	event.OpTryLock:    pOutcome,
	event.OpTryRLock:   pOutcome,
	event.OpTryWLock:   pOutcome,
	event.OpSelect:     pOutcome,
}

// quietFire is how many scheduling points the runnable goroutines may
// only poll before the earliest pending timer fires. It is larger than
// the fairness bound many times over, so that every runnable goroutine had
// its turns to make progress first.
const quietFire = 20 * fairBound

// spinFootprint is the most objects the goroutines may have polled since
// the last progress for a run without progress to be a livelock.
const spinFootprint = 64

// loneSpin is how many times Config.MaxSteps a goroutine that polls alone
// may do so before its spin is a livelock; loneWindow is how many recent
// points show it alone (more than the fairness bound: any other goroutine
// that could run would have run in them).
const (
	loneSpin   = 8
	loneWindow = 4 * fairBound
)

// livelocked reports whether the quiet spell, already longer than
// Config.MaxSteps, is a livelock: few locations polled, no timer pending,
// longer still when many goroutines share it (quietBound), and, for a
// goroutine polling alone, loneSpin times the bound. Whether it is alone
// is checked again every loneWindow points.
func (it *Iteration) livelocked() bool {
	if it.quietObjs > spinFootprint || it.nextTimer() != nil || it.quiet() <= it.quietBound() {
		return false
	}
	if it.quiet() > loneSpin*it.x.cfg.MaxSteps {
		return true
	}
	if it.loneEpoch == it.epoch && it.steps < it.loneCheck {
		return false // shown alone in this spell less than loneWindow points ago
	}
	if !it.alone() {
		return true
	}
	it.loneEpoch, it.loneCheck = it.epoch, it.steps+loneWindow
	return false
}

// quietBound is the length of a quiet spell shared by the goroutines that
// ran in it past which it may be a livelock: Config.MaxSteps, times half
// their number when there are more than three. Each goroutine's share of
// the points is what tells a spin from a loop that ends by its own count,
// which the tool does not see: two hundred goroutines each making a
// thousand reads of a full buffer take millions of points in all
// (otter's TestStriped_Add), where two that spin for ever take the bound.
func (it *Iteration) quietBound() int {
	return max(1, it.quietGs/2) * it.x.cfg.MaxSteps
}

// alone reports whether the last loneWindow events of the trace (all of
// them, if it holds fewer) are one goroutine's.
func (it *Iteration) alone() bool {
	tr := it.trace
	if len(tr) > loneWindow {
		tr = tr[len(tr)-loneWindow:]
	}
	for _, ev := range tr {
		if ev.G != tr[len(tr)-1].G {
			return false
		}
	}
	return true
}

// executed classifies g's operation op on o, which has just been chosen to
// run.
func (it *Iteration) executed(g *G, op event.Op, o *object) {
	if g.quietEpoch != it.epoch+1 {
		g.quietEpoch = it.epoch + 1
		it.quietGs++
	}
	switch opClass[op] {
	case pProgress:
		it.progressed()
	case pPoll:
		it.polled(o)
	case pAcquire:
		it.acquiredBy(g, o)
	}
}

// progressed notes progress: every poll from now on is new again.
func (it *Iteration) progressed() {
	it.quietAt = it.steps
	it.quietObjs, it.quietGs = 0, 0
	it.epoch++
}

// acquiredBy notes that g takes lock o: progress if it changes hands.
func (it *Iteration) acquiredBy(g *G, o *object) {
	if o.holder != g.ID {
		o.holder = g.ID
		it.progressed()
		return
	}
	it.polled(o)
}

// polled notes a poll of o: progress the first time since the last
// progress.
func (it *Iteration) polled(o *object) {
	if o != nil && o.seen != it.epoch {
		o.seen = it.epoch
		it.quietAt = it.steps
		it.quietObjs++
	}
}

// quiet reports how many scheduling points passed since the last
// progress.
func (it *Iteration) quiet() int { return it.steps - it.quietAt }
