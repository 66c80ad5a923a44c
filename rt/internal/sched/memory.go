package sched

import (
	"unsafe"

	"interleave.dev/rt/internal/event"
)

// Access reports a read (write == false) or write of the shared location
// addr and checks it for a data race.
func (g *G) Access(addr unsafe.Pointer, write bool, site uint32) {
	it := g.it
	o := it.object(addr, kindMemory)
	op := event.OpRead
	if write {
		op = event.OpWrite
	}
	it.step(g, op, o, site)
	if it.race == nil {
		return
	}
	if write {
		if r := it.race.Write(g.ID, o.id, site); r != nil {
			it.fail(g, it.raceFinding(r))
		}
	} else if r := it.race.Read(g.ID, o.id, site); r != nil {
		it.fail(g, it.raceFinding(r))
	}
}

// AtomicKind says what an atomic operation does to its location.
type AtomicKind uint8

// The kinds of atomic operations.
const (
	AtomicLoad AtomicKind = iota
	AtomicStore
	AtomicRMW
)

// Atomic reports an atomic operation on addr. Atomics are sequentially
// consistent: a load acquires, a store releases, a read-modify-write does
// both. The caller then performs the operation natively.
func (g *G) Atomic(addr unsafe.Pointer, k AtomicKind, site uint32) {
	it := g.it
	o := it.object(addr, kindAtomic)
	switch k {
	case AtomicLoad:
		it.step(g, event.OpAtomicLoad, o, site)
		it.acquire(g, o)
	case AtomicStore:
		it.step(g, event.OpAtomicStore, o, site)
		it.release(g, o)
	default:
		it.step(g, event.OpAtomicRMW, o, site)
		it.acqrel(g, o)
	}
}

// MapOp reports an operation on the sync.Map at addr; the caller then
// performs it natively.
func (g *G) MapOp(addr unsafe.Pointer, write bool, site uint32) {
	it := g.it
	o := it.object(addr, kindMap)
	if write {
		it.step(g, event.OpMapWrite, o, site)
		it.acqrel(g, o)
		return
	}
	it.step(g, event.OpMapRead, o, site)
	it.acquire(g, o)
}

// Yield is runtime.Gosched: a scheduling point and nothing else.
func (g *G) Yield(site uint32) {
	g.it.yielded(g)
	g.it.step(g, event.OpYield, nil, site)
}

// Go starts f in a new controlled goroutine.
func (g *G) Go(f func(), site uint32) {
	it := g.it
	it.step(g, event.OpSpawn, nil, site)
	it.spawn(g, g.ID, f, site)
}
