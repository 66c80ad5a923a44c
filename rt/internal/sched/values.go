package sched

import (
	"sync/atomic"
	"unsafe"

	"interleave.dev/rt/internal/strategy"
)

// The values memory accesses read and write, for a strategy that reasons
// about them (strategy.Valuer: maximal causality reduction). A read's
// value is the memory when its event runs: the goroutine reads right
// after, before any other goroutine runs. A write's value is the memory
// at the goroutine's next event (or its exit), by when it has written.
// Memory is read a word at a time, as the scheduler models it, with the
// mask of the bytes the access covers.

// nilPage bounds the addresses that cannot hold memory: an access through
// a nil pointer or a nil map falls below it.
const nilPage = 4096

// writeNote is a write whose value is still to be reported.
type writeNote struct {
	index  int            // the event's index in the iteration
	addr   unsafe.Pointer // nil: none pending
	size   uintptr
	atomic bool
}

// noteAccess reports the memory a plain access of size bytes at addr,
// whose event just ran, found before it (what it reads, or, for a write
// that does not read, what it overwrites); a write's value is noted for
// later. A write reported after it happened has its value reported at
// once.
func (it *Iteration) noteAccess(g *G, addr unsafe.Pointer, size uintptr, m accessMode) {
	if uintptr(addr) < nilPage {
		// A nil map's contents, or a field of a nil pointer, which the
		// program is about to dereference (and panic): no memory to read.
		return
	}
	idx := it.traceDropped + len(it.trace) - 1
	switch m {
	case wroteMode:
		it.reportWords(idx, addr, size, strategy.ValueWritten)
		return
	case writeMode:
		it.reportWords(idx, addr, size, strategy.ValueOverwritten)
	default:
		it.reportWords(idx, addr, size, strategy.ValueRead)
	}
	if m != readMode {
		g.wnote = writeNote{index: idx, addr: addr, size: size}
	}
}

// noteAtomic is noteAccess for an atomic operation on o.
func (it *Iteration) noteAtomic(g *G, o *object, addr unsafe.Pointer, size uintptr, write, blind bool) {
	if uintptr(addr) < nilPage {
		return
	}
	idx := it.traceDropped + len(it.trace) - 1
	k := strategy.ValueRead
	if blind {
		k = strategy.ValueOverwritten
	}
	it.vals.Value(idx, it.eventID(o), sizeMask(size), loadAtomic(addr, size), k)
	if write {
		g.wnote = writeNote{index: idx, addr: addr, size: size, atomic: true}
	}
}

// flushWrite reports the value g's last write left, if one is pending.
func (it *Iteration) flushWrite(g *G) {
	n := g.wnote
	if n.addr == nil {
		return
	}
	g.wnote = writeNote{}
	if n.atomic {
		it.vals.Value(n.index, it.eventID(it.object(n.addr, kindAtomic)), sizeMask(n.size), loadAtomic(n.addr, n.size), strategy.ValueWritten)
		return
	}
	it.reportWords(n.index, n.addr, n.size, strategy.ValueWritten)
}

// reportWords reports each word the size bytes at addr cover.
func (it *Iteration) reportWords(idx int, addr unsafe.Pointer, size uintptr, k strategy.ValueKind) {
	off := uintptr(addr) & 7
	for w := wordOf(addr); size > 0; w = unsafe.Add(w, 8) {
		mask := ^uint64(0) << (8 * off)
		if off+size < 8 {
			mask &= ^uint64(0) >> (8 * (8 - off - size))
		}
		v := atomic.LoadUint64((*uint64)(w))
		it.vals.Value(idx, it.eventID(it.object(w, kindMemory)), mask, v, k)
		if off+size <= 8 {
			return
		}
		size -= 8 - off
		off = 0
	}
}

// sizeMask is the mask of an atomic location of size bytes.
func sizeMask(size uintptr) uint64 {
	if size >= 8 {
		return ^uint64(0)
	}
	return 1<<(8*size) - 1
}

// loadAtomic reads an atomic location of size bytes (4 or 8).
func loadAtomic(addr unsafe.Pointer, size uintptr) uint64 {
	if size == 4 {
		return uint64(atomic.LoadUint32((*uint32)(addr)))
	}
	return atomic.LoadUint64((*uint64)(addr))
}
