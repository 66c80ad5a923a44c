package dpor

import (
	"interleave.dev/rt/internal/event"
	"interleave.dev/rt/internal/strategy"
)

// Traces wraps a strategy and counts the distinct Mazurkiewicz traces of
// the executions it runs: two executions are the same trace when they
// order every pair of conflicting events (event.Conflicts) alike, which a
// canonical hash of their happens-before order tells. Under DFS the count
// is the size of the space a perfect reduction explores: the yardstick of
// optimal DPOR (Abdulla et al. 2014); under a sound reduction (dpor) it is
// the same number, and the executions beyond it are the reduction's
// redundant ones. For measurements, not exploration.
type Traces struct {
	strategy.Strategy
	h    *hb
	seen map[uint64]bool
}

// CountTraces returns s counting its traces.
func CountTraces(s strategy.Strategy) *Traces {
	return &Traces{Strategy: s, h: newHB(false, dporLimit), seen: map[uint64]bool{}}
}

// Begin implements Strategy.
func (t *Traces) Begin() bool {
	t.h.reset()
	return t.Strategy.Begin()
}

// End implements Strategy.
func (t *Traces) End(o strategy.Outcome) {
	if !t.h.off {
		t.seen[t.h.traceHash()] = true
	}
	t.Strategy.End(o)
}

// Pending implements Observer, and forwards to the wrapped strategy when
// it observes too.
func (t *Traces) Pending(e event.Event) {
	t.h.pending(e)
	if o, ok := t.Strategy.(strategy.Observer); ok {
		o.Pending(e)
	}
}

// Executed implements Observer.
func (t *Traces) Executed(e event.Event, index int) {
	t.h.executed(e, -1)
	if o, ok := t.Strategy.(strategy.Observer); ok {
		o.Executed(e, index)
	}
}

// Yielded implements strategy.Yielder: the yield of a poll is an event
// of the trace (DPOR.Yielded).
func (t *Traces) Yielded(g int32, site uint32) {
	t.h.executed(event.Event{G: g, Op: event.OpYield, Site: site}, -1)
	if y, ok := t.Strategy.(strategy.Yielder); ok {
		y.Yielded(g, site)
	}
}

// Woke implements Observer.
func (t *Traces) Woke(g int32) {
	t.h.woke(g)
	if o, ok := t.Strategy.(strategy.Observer); ok {
		o.Woke(g)
	}
}

// Count returns the distinct traces seen.
func (t *Traces) Count() int { return len(t.seen) }

// Complete implements Exhaustive when the wrapped strategy does.
func (t *Traces) Complete() bool {
	e, ok := t.Strategy.(strategy.Exhaustive)
	return ok && e.Complete()
}
