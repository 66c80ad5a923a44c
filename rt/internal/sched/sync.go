package sched

import (
	"sync"
	"unsafe"

	"interleave.dev/rt/internal/event"
)

// Mutexes are modeled by enabledness: a Lock is enabled only while the
// mutex is free, and any enabled waiter may win it, which covers every
// order the real (unfair, then starvation-mode) sync.Mutex can produce.

// Lock locks the sync.Mutex at addr.
func (g *G) Lock(addr unsafe.Pointer, site uint32) {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	it := g.it
	o := it.object(addr, kindMutex)
	it.step(g, event.OpLock, o, site)
	o.locked, o.owner = true, g.ID
	it.gateChanged(g, o)
	it.acquire(g, o)
}

// TryLock tries to lock the sync.Mutex at addr.
func (g *G) TryLock(addr unsafe.Pointer, site uint32) bool {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	it := g.it
	o := it.object(addr, kindMutex)
	it.step(g, event.OpTryLock, o, site)
	if o.locked {
		it.pollFailed(g, site)
		return false
	}
	o.locked, o.owner = true, g.ID
	it.gateChanged(g, o)
	it.acquiredBy(g, o)
	it.acquire(g, o)
	return true
}

// Unlock unlocks the sync.Mutex at addr. Unlocking an unlocked mutex is the
// fatal error it is in Go: the iteration ends with that finding.
func (g *G) Unlock(addr unsafe.Pointer, site uint32) {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	it := g.it
	o := it.object(addr, kindMutex)
	it.step(g, event.OpUnlock, o, site)
	if !o.locked {
		it.fail(g, it.fatal(g, "sync: unlock of unlocked mutex"))
	}
	o.locked, o.owner = false, 0
	it.gateChanged(g, o)
	it.release(g, o)
}

// The RWMutex model follows the real implementation step by step: a
// writer first takes the writer lock and announces itself, which blocks
// every new reader (writer preference), then waits for the active readers
// to leave; readers that blocked behind a writer are granted the read lock
// together when it unlocks, before any next writer.

// RWLock write-locks the sync.RWMutex at addr.
func (g *G) RWLock(addr unsafe.Pointer, site uint32) {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	it := g.it
	o := it.object(addr, kindRWMutex)
	it.step(g, event.OpWLock, o, site)
	o.wHeld = true
	it.gateChanged(g, o)
	if o.readers > 0 {
		o.writer = g
		it.block(g, event.OpWLock, o, site)
	}
	o.wActive, o.owner = true, g.ID
	it.acquireRW(g, o)
}

func (it *Iteration) acquireRW(g *G, o *object) {
	if it.race != nil {
		it.race.Acquire(g.ID, o.id)
		it.race.Acquire(g.ID, o.id2)
	}
}

// RWTryLock tries to write-lock the sync.RWMutex at addr.
func (g *G) RWTryLock(addr unsafe.Pointer, site uint32) bool {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	it := g.it
	o := it.object(addr, kindRWMutex)
	it.step(g, event.OpTryWLock, o, site)
	if o.wHeld || o.readers > 0 {
		return false
	}
	o.wHeld, o.wActive, o.owner = true, true, g.ID
	it.gateChanged(g, o)
	it.acquiredBy(g, o)
	it.acquireRW(g, o)
	return true
}

// RWUnlock write-unlocks the sync.RWMutex at addr.
func (g *G) RWUnlock(addr unsafe.Pointer, site uint32) {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	it := g.it
	o := it.object(addr, kindRWMutex)
	it.step(g, event.OpWUnlock, o, site)
	if !o.wActive {
		it.fail(g, it.fatal(g, "sync: Unlock of unlocked RWMutex"))
	}
	o.wActive, o.owner = false, 0
	it.release(g, o)
	for _, r := range o.rblocked {
		o.readers++
		it.wakeUp(r)
	}
	clear(o.rblocked)
	o.rblocked = o.rblocked[:0]
	o.wHeld = false
	it.gateChanged(g, o)
}

// RLock read-locks the sync.RWMutex at addr.
func (g *G) RLock(addr unsafe.Pointer, site uint32) {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	it := g.it
	o := it.object(addr, kindRWMutex)
	it.step(g, event.OpRLock, o, site)
	if o.wHeld {
		o.rblocked = append(o.rblocked, g)
		it.block(g, event.OpRLock, o, site) // granted by RWUnlock
	} else {
		o.readers++
	}
	it.acquire(g, o)
}

// TryRLock tries to read-lock the sync.RWMutex at addr.
func (g *G) TryRLock(addr unsafe.Pointer, site uint32) bool {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	it := g.it
	o := it.object(addr, kindRWMutex)
	it.step(g, event.OpTryRLock, o, site)
	if o.wHeld {
		return false
	}
	o.readers++
	it.acquiredBy(g, o)
	it.acquire(g, o)
	return true
}

// RUnlock read-unlocks the sync.RWMutex at addr.
func (g *G) RUnlock(addr unsafe.Pointer, site uint32) {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	it := g.it
	o := it.object(addr, kindRWMutex)
	it.step(g, event.OpRUnlock, o, site)
	if o.readers == 0 {
		it.fail(g, it.fatal(g, "sync: RUnlock of unlocked RWMutex"))
	}
	o.readers--
	if it.race != nil {
		it.race.Release(g.ID, o.id2)
	}
	if o.readers == 0 && o.writer != nil {
		w := o.writer
		o.writer = nil
		it.wakeUp(w)
	}
}

// WGAdd adds delta to the sync.WaitGroup at addr. As in Go's race build
// of sync.WaitGroup, a negative delta releases, and an Add from zero reads
// the WaitGroup's semaphore, which the first Wait to block writes: an Add
// from zero that nothing orders with a concurrent Wait is a data race.
//
// An Add that takes the counter to zero while goroutines wait is two
// steps, as in sync: its atomic add, then the reset of the state that
// wakes the waiters. An Add from zero in between panics, and so does the
// first Add when it finds the state changed: "Add called concurrently
// with Wait".
func (g *G) WGAdd(addr unsafe.Pointer, delta int, site uint32) {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	it := g.it
	o := it.object(addr, kindWaitGroup)
	it.step(g, event.OpWGAdd, o, site)
	if delta < 0 {
		it.release(g, o)
	}
	o.counter += int64(delta)
	if delta > 0 && o.counter == int64(delta) && it.race != nil {
		if r := it.race.Read(g.ID, o.id2, site); r != nil {
			it.fail(g, it.raceFinding(r))
		}
	}
	if o.counter < 0 {
		panic("sync: negative WaitGroup counter")
	}
	if delta > 0 && o.counter == int64(delta) && o.waking {
		panic(wgMisuse)
	}
	if o.counter == 0 && len(o.waiters) > 0 && !o.waking {
		o.waking = true
		it.step(g, event.OpWGAdd, o, site)
		o.waking = false
		if o.counter != 0 {
			panic(wgMisuse)
		}
		for _, w := range o.waiters {
			it.wakeUp(w)
		}
		clear(o.waiters)
		o.waiters = o.waiters[:0]
	}
}

const wgMisuse = "sync: WaitGroup misuse: Add called concurrently with Wait"

// WGWait waits until the counter of the sync.WaitGroup at addr is zero. A
// waiter released by the counter reaching zero that finds it nonzero again
// when it resumes panics, as in Go: the WaitGroup was reused before Wait
// returned.
func (g *G) WGWait(addr unsafe.Pointer, site uint32) {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	it := g.it
	o := it.object(addr, kindWaitGroup)
	it.step(g, event.OpWGWait, o, site)
	if o.counter != 0 {
		if len(o.waiters) == 0 && it.race != nil {
			if r := it.race.Write(g.ID, o.id2, site); r != nil {
				it.fail(g, it.raceFinding(r))
			}
		}
		o.waiters = append(o.waiters, g)
		it.block(g, event.OpWGWait, o, site)
		it.acquire(g, o)
		if o.counter != 0 {
			panic("sync: WaitGroup is reused before previous Wait has returned")
		}
		return
	}
	it.acquire(g, o)
}

// OnceBegin starts (*sync.Once).Do on o. It returns true if the caller
// must run the function and then call OnceEnd; a caller that arrives while
// another runs the function waits for it. A Once persists across
// iterations as it does across the tests of a real test binary: the first
// time an iteration touches o, a Once already done natively (by an earlier
// iteration or before the exploration) stays done.
func (g *G) OnceBegin(o *sync.Once, site uint32) bool {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	it := g.it
	p := unsafe.Pointer(o)
	m, known := it.objs[uintptr(p)]
	if !known || m.kind != kindOnce {
		// First use as a Once (the word may be known from a plain access
		// of a struct that starts with the Once).
		m = it.object(p, kindOnce)
		m.kind = kindOnce
		fresh := false
		o.Do(func() { fresh = true })
		if !fresh {
			m.once = onceDone
		}
	}
	it.step(g, event.OpOnce, m, site)
	if m.once == onceDone {
		it.acquire(g, m)
		return false
	}
	m.once = onceRunning
	it.gateChanged(g, m)
	return true
}

// OnceEnd marks the function of o returned (or panicked).
// It is not a scheduling point, so it is safe in a deferred call.
func (g *G) OnceEnd(o *sync.Once) {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	it := g.it
	if it.ended {
		return
	}
	m := it.object(unsafe.Pointer(o), kindOnce)
	m.once = onceDone
	it.gateChanged(g, m)
	it.release(g, m)
}

// CondEnqueue is the first half of (*sync.Cond).Wait: the goroutine takes
// its place in the wait list while still holding the lock. The caller then
// unlocks c.L and calls CondPark.
func (g *G) CondEnqueue(addr unsafe.Pointer, site uint32) {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	it := g.it
	o := it.object(addr, kindCond)
	it.step(g, event.OpCondWait, o, site)
	g.condWoken = false
	o.waiters = append(o.waiters, g)
}

// CondPark blocks until a Signal or Broadcast that came after CondEnqueue
// (it may already have come). It is not a scheduling point of its own.
func (g *G) CondPark(addr unsafe.Pointer, site uint32) {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	it := g.it
	o := it.object(addr, kindCond)
	if !g.condWoken {
		it.block(g, event.OpCondWait, o, site)
	}
	it.acquire(g, o)
}

// CondSignal wakes the longest waiting goroutine of the Cond at addr.
func (g *G) CondSignal(addr unsafe.Pointer, site uint32) {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	it := g.it
	o := it.object(addr, kindCond)
	it.step(g, event.OpCondSignal, o, site)
	it.release(g, o)
	if len(o.waiters) > 0 {
		w := o.waiters[0]
		copy(o.waiters, o.waiters[1:])
		o.waiters[len(o.waiters)-1] = nil
		o.waiters = o.waiters[:len(o.waiters)-1]
		it.condWake(w, o)
	}
}

// CondBroadcast wakes every goroutine waiting on the Cond at addr.
func (g *G) CondBroadcast(addr unsafe.Pointer, site uint32) {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	it := g.it
	o := it.object(addr, kindCond)
	it.step(g, event.OpCondBroadcast, o, site)
	it.release(g, o)
	for _, w := range o.waiters {
		it.condWake(w, o)
	}
	clear(o.waiters)
	o.waiters = o.waiters[:0]
}

// condWake wakes w, a waiter of Cond o. A waiter still on its way to
// CondPark is only marked: it may be blocked elsewhere meanwhile (the
// Unlock of a Cond's L that is not a mutex, a channel operation inside
// it), and that operation must not return as if it had completed.
func (it *Iteration) condWake(w *G, o *object) {
	w.condWoken = true
	if w.state == gBlocked && w.blockOp == event.OpCondWait && w.blockObj == o {
		it.wakeUp(w)
	}
}
