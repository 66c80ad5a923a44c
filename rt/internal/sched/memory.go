package sched

import (
	"unsafe"

	"interleave.dev/rt/internal/event"
	"interleave.dev/rt/internal/race"
)

// Access reports a read (write == false) or write of the size bytes at
// addr and checks it for a data race. Memory is modeled per 8-byte word:
// the event names the object of the first word, and every word the access
// covers is checked.
//
// With Config.Reduce (and race detection), a plain access is no
// scheduling point: it runs as part of the goroutine's step, seen by the
// race detector and by an observing strategy as every event is. This is
// Stoller's reduction ("Testing concurrent Java programs using
// randomized scheduling", 2002, section 4: no scheduling point at an
// access to a location that is unshared or protected by a lock), taken to
// its limit by the happens-before detector: between two synchronization
// operations, a goroutine's plain accesses can conflict with another
// goroutine's only in a data race, which the detector reports wherever
// the accesses fall (it needs them unordered, not adjacent); in a run
// without one, the outcome depends only on the order of the
// synchronization operations (atomics included), which stay scheduling
// points. A misclassified location, in Stoller's terms, is a data race,
// reported at the access that shows it. QuietRun accesses in a row at
// most, so that a goroutine polling a variable still lets others run.
func (g *G) Access(addr unsafe.Pointer, size uintptr, write bool, site uint32) {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	m := readMode
	if write {
		m = writeMode
	}
	g.access(addr, size, m, site)
}

// Update reports a statement that reads the size bytes at addr and then
// writes them: a write, except that a strategy.Valuer is told that the
// old value was read.
func (g *G) Update(addr unsafe.Pointer, size uintptr, site uint32) {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	g.access(addr, size, updateMode, site)
}

// Wrote reports a write of the size bytes at addr right after it
// happened: a write, except that a strategy.Valuer is told the value
// written at once, and nothing of what was there before.
func (g *G) Wrote(addr unsafe.Pointer, size uintptr, site uint32) {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	g.access(addr, size, wroteMode, site)
}

// accessMode says what an access does, for the values a strategy.Valuer
// gets (values.go).
type accessMode uint8

const (
	readMode   accessMode = iota
	writeMode             // a write reported before it, that does not read
	updateMode            // a read, then a write, reported before both
	wroteMode             // a write reported after it
)

// access reports an access.
func (g *G) access(addr unsafe.Pointer, size uintptr, m accessMode, site uint32) {
	write := m != readMode
	it := g.it
	if it.x.cfg.Reduce && it.race != nil {
		if g.quietRun < QuietRun {
			g.quietRun++
			g.free = true
		} else {
			g.quietRun = 0
		}
	}
	o := it.object(wordOf(addr), kindMemory)
	op := event.OpRead
	if write {
		op = event.OpWrite
	}
	var words []*object
	var gen uint64
	if size > 8 || it.obs != nil {
		// The event names the first word; an observing strategy is told
		// of every word the access covers. The words are numbered as
		// events' objects whether a strategy observes or not, so that
		// the numbers in events (and the event hash a replay checks) do
		// not depend on the strategy.
		it.eventID(o)
		last := wordOf(unsafe.Add(addr, int(size)-1))
		keep := it.race != nil && size > 8
		if keep {
			// The race detector checks the same words after the
			// scheduling point: keep their objects for it, which
			// spares a lookup per word of a large access.
			n := int((uintptr(last) - uintptr(wordOf(addr))) / 8)
			if cap(it.words) < n {
				it.words = make([]*object, 0, n)
			}
			words = it.words[:0]
		}
		for w := unsafe.Add(wordOf(addr), 8); size > 0 && uintptr(w) <= uintptr(last); w = unsafe.Add(w, 8) {
			wo := it.object(w, kindMemory)
			id := it.eventID(wo)
			if keep {
				words = append(words, wo)
			}
			if it.obs != nil {
				it.obs.Pending(event.Event{G: g.ID, Op: op, Obj: id, Site: site})
			}
		}
		if keep {
			it.wordsGen++
			it.words, gen = words, it.wordsGen
		}
	}
	it.step(g, op, o, site)
	if it.vals != nil && size > 0 {
		it.noteAccess(g, addr, size, m)
	}
	if it.race != nil && size > 0 {
		if it.wordsGen != gen {
			// Another access took the buffer during the scheduling
			// point, or a collection emptied it (gc.go): look the
			// words up again.
			words = nil
		}
		it.checkWords(g, o, addr, size, write, false, site, words)
	}
}

// wordOf is the address of the 8-byte word holding addr.
func wordOf(addr unsafe.Pointer) unsafe.Pointer {
	return unsafe.Add(addr, -int(uintptr(addr)&7))
}

// checkWords checks an access of size > 0 bytes at addr, whose first word
// has the object first, word by word. words, when not nil, holds the
// objects of the further words, in order.
func (it *Iteration) checkWords(g *G, first *object, addr unsafe.Pointer, size uintptr, write, atomic bool, site uint32, words []*object) {
	off := uintptr(addr) & 7
	o := first
	i := 0
	for w := wordOf(addr); ; {
		mask := race.FullWord << off
		if off+size < 8 {
			mask &= race.FullWord >> (8 - off - size)
		}
		if r := it.race.Access(g.ID, o.id, mask, write, atomic, site); r != nil {
			it.fail(g, it.raceFinding(r))
		}
		if off+size <= 8 {
			return
		}
		size -= 8 - off
		off = 0
		w = unsafe.Add(w, 8)
		if i < len(words) {
			o = words[i]
			i++
		} else {
			o = it.object(w, kindMemory)
		}
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

// Atomic reports an atomic operation on the size bytes at addr. Atomics
// are sequentially consistent: a load acquires, a store releases, a
// read-modify-write does both. They are also accesses, which race with
// unordered plain accesses to the same bytes (never with atomics). The
// caller then performs the operation natively.
func (g *G) Atomic(addr unsafe.Pointer, size uintptr, k AtomicKind, site uint32) {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	it := g.it
	o := it.object(addr, kindAtomic)
	switch k {
	case AtomicLoad:
		it.step(g, event.OpAtomicLoad, o, site)
		if it.vals != nil {
			it.noteAtomic(g, o, addr, size, false, false)
		}
		it.acquire(g, o)
		it.atomicAccess(g, o, addr, size, false, site)
	case AtomicStore:
		it.step(g, event.OpAtomicStore, o, site)
		if it.vals != nil {
			it.noteAtomic(g, o, addr, size, true, true)
		}
		it.atomicAccess(g, o, addr, size, true, site)
		it.release(g, o)
	default:
		it.step(g, event.OpAtomicRMW, o, site)
		if it.vals != nil {
			it.noteAtomic(g, o, addr, size, true, false)
		}
		it.acquire(g, o)
		it.atomicAccess(g, o, addr, size, true, site)
		it.release(g, o)
	}
}

// atomicAccess checks the memory access of an atomic operation, after
// what it acquires and before what it releases.
func (it *Iteration) atomicAccess(g *G, o *object, addr unsafe.Pointer, size uintptr, write bool, site uint32) {
	if it.race == nil {
		return
	}
	w := o
	if uintptr(addr)&7 != 0 {
		w = it.object(wordOf(addr), kindMemory)
	}
	it.checkWords(g, w, addr, size, write, true, site, nil)
}

// MapOp reports an operation on the sync.Map at addr; the caller then
// performs it natively.
func (g *G) MapOp(addr unsafe.Pointer, write bool, site uint32) {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
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
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	g.it.yielded(g)
	g.it.step(g, event.OpYield, nil, site)
}

// WaitIdle is testing/synctest.Wait inside an exploration: it yields
// until no other goroutine of the iteration can run, that is until they
// are all blocked (on channels, locks, or timers, which do not fire while
// the caller can run under the default timer policy).
func (g *G) WaitIdle(site uint32) {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	for {
		g.Yield(site)
		if !g.it.othersCanRun(g) {
			return
		}
	}
}

// EnterBubble and LeaveBubble bracket synctest.Test inside an exploration:
// within, time moves only when every goroutine is blocked, and no timer
// fires before its time.
func (g *G) EnterBubble() { g.it.bubble++ }

// LeaveBubble ends what EnterBubble began.
func (g *G) LeaveBubble() { g.it.bubble-- }

// othersCanRun reports whether a goroutine other than g can run.
func (it *Iteration) othersCanRun(g *G) bool {
	n := it.enabledCount()
	if it.enabledIndex(g) >= 0 {
		n--
	}
	return n > 0
}

// Go starts f in a new controlled goroutine.
func (g *G) Go(f func(), site uint32) {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	it := g.it
	it.step(g, event.OpSpawn, nil, site)
	it.spawn(g, g.ID, f, site)
}

// GoWatcher starts f in a new goroutine, as Go does, for a goroutine the
// standard library starts on the program's behalf (the one with which
// package context follows a parent it does not know). Still blocked when
// the test ends, it is no leak of the program's.
func (g *G) GoWatcher(f func(), site uint32) {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	it := g.it
	it.step(g, event.OpSpawn, nil, site)
	it.spawn(g, g.ID, f, site).watcher = true
}

// WordID returns the object number, as events and strategy.Valuer name
// it, of the memory word holding addr.
func (g *G) WordID(addr unsafe.Pointer) int32 {
	return g.it.eventID(g.it.object(wordOf(addr), kindMemory))
}
