package sched

import (
	"unsafe"

	"interleave.dev/rt/internal/event"
	"interleave.dev/rt/internal/strategy"
)

// The sync.Pool model. The real pool's per-P caches, the objects its race
// build drops at random on Put and the ones the garbage collector clears
// make Get return any pooled object or none; the model makes that a choice
// of the schedule. As in Go's race build, a Put happens before the Get
// that returns the same object, and nothing else is ordered.

// PoolPut puts x, which is not nil, into the sync.Pool at addr.
func (g *G) PoolPut(addr unsafe.Pointer, x any, site uint32) {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	it := g.it
	o := it.object(addr, kindPool)
	it.step(g, event.OpPoolPut, o, site)
	id := it.newID()
	if it.race != nil {
		it.race.Release(g.ID, id)
	}
	o.pool = append(o.pool, poolItem{v: x, clock: id})
}

// PoolGet takes an object from the sync.Pool at addr: the schedule chooses
// one of the pooled objects, or none (ok false), in which case the caller
// makes a fresh one with the pool's New.
func (g *G) PoolGet(addr unsafe.Pointer, site uint32) (x any, ok bool) {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	it := g.it
	o := it.object(addr, kindPool)
	it.step(g, event.OpPoolGet, o, site)
	if len(o.pool) == 0 {
		return nil, false
	}
	ev := event.Event{G: g.ID, Op: event.OpPoolGet, Obj: it.eventID(o), Site: site}
	it.opts = reserve(it, it.opts[:0], len(o.pool)+1)
	for i := 0; i <= len(o.pool); i++ {
		it.opts = append(it.opts, strategy.Option{G: g.ID, Case: int32(i), Ev: ev})
	}
	k := int(it.opts[it.choose(strategy.Select, g)].Case)
	if k == 0 {
		return nil, false
	}
	item := o.pool[k-1]
	n := len(o.pool) - 1
	copy(o.pool[k-1:], o.pool[k:])
	o.pool[n] = poolItem{}
	o.pool = o.pool[:n]
	if it.race != nil {
		it.race.Acquire(g.ID, item.clock)
	}
	return item.v, true
}
