package causal

import (
	"slices"

	"interleave.dev/rt/internal/event"
	"interleave.dev/rt/wire"
)

// How strategy mcr models Go's operations for the solver, which knows
// threads, program order, kept edges, lock regions and memory accesses
// (wire.MCRQuery). Each object's operations are modeled after what they
// are:
//
//   - a sync.Mutex used only through Lock and Unlock: lock regions, which
//     the solver may reorder;
//   - a channel used only by sends, receives and close: the sends (and
//     the close) keep their order, and so do the receives, so that the
//     k-th receive still gets the k-th send (channels are FIFO); a
//     receiver goes on only after its send, a sender only once its value
//     fits in the buffer (as many values as the trace showed waiting at
//     once: no more than the capacity);
//   - a WaitGroup: a Wait goes on after the Adds and Dones that came before
//     it returned, and before those that came after;
//   - a sync.RWMutex used only through Lock, Unlock, RLock and RUnlock:
//     lock regions, shared for the read locks; an acquire that waited is
//     placed where its goroutine resumed (it is recorded where it began
//     to wait), and one that waited to the end keeps the object's order;
//   - any other object (Cond, Once, a channel in a select or under len,
//     a sync.Map, a Pool, a context, a mutex under TryLock): its
//     operations keep their order;
//   - the time operations keep their order among themselves.
//
// A goroutine's first event comes after the go statement that started it,
// and an event after a wake-up after the operation that woke it. A
// goroutine's start, its resume (going on after it was woken) and its
// exit are not events of their own: the scheduler runs them with the
// goroutine's next (or last) operation, with no choice in between; and
// whether an operation blocks depends on the order, while a plan names
// events by their position among the goroutine's operations.

// makeTrace makes m.tr and m.steps of the run recorded in m.raw.
func (m *MCR) makeTrace() {
	raw := m.raw
	idx := make([]int32, len(raw)) // raw event -> trace event, or -1
	nextReal := make([]int32, len(raw))
	last := map[int32]int32{} // goroutine -> its next real event, scanning backwards
	for i := len(raw) - 1; i >= 0; i-- {
		g := raw[i].ev.G
		if n, ok := last[g]; ok {
			nextReal[i] = n
		} else {
			nextReal[i] = -1
		}
		if raw[i].n >= 0 {
			last[g] = int32(i)
		}
	}
	m.tr = wire.MCRTrace{Threads: len(m.keys)}
	m.steps = m.steps[:0]
	emit := func(i int) {
		r := raw[i]
		idx[i] = int32(len(m.steps))
		m.steps = append(m.steps, mcrStep{T: r.t, N: r.n, Case: r.cs})
		m.tr.Events = append(m.tr.Events, wire.MCREvent{T: r.t})
	}
	// An RWMutex acquire that waited is recorded where its goroutine
	// began to wait; it acquires where the goroutine resumes, and goes
	// into the trace there.
	deferred := map[int]int{} // resume -> the acquire that waited for it
	waited := map[int32]bool{}
	for i, r := range raw {
		if r.ev.Op != event.OpRLock && r.ev.Op != event.OpWLock {
			continue
		}
		for j := i + 1; j < len(raw); j++ {
			if raw[j].ev.G != r.ev.G {
				continue
			}
			if raw[j].ev.Op == event.OpResume {
				deferred[j] = i
				idx[i] = -2 // placed at j
			}
			break
		}
		if idx[i] != -2 && r.n >= 0 && m.blockedAtEnd(i) {
			waited[r.ev.Obj] = true // it never acquired
		}
	}
	for i, r := range raw {
		if a, ok := deferred[i]; ok {
			emit(a)
		}
		switch {
		case idx[i] == -2:
		case r.n < 0:
			idx[i] = -1
		default:
			emit(i)
		}
	}
	b := traceBuilder{m: m, idx: idx, nextReal: nextReal, waited: waited}
	b.accesses()
	b.objects()
	for i, r := range raw {
		if r.n >= 0 && r.woke >= 0 {
			b.edge(r.woke, int32(i))
		}
	}
	m.idx = idx
	m.indexTrace()
}

// indexTrace sets m.prev and m.rel for the trace m.tr.
func (m *MCR) indexTrace() {
	n := len(m.tr.Events)
	m.prev, m.rel = slices.Grow(m.prev[:0], n)[:n], slices.Grow(m.rel[:0], n)[:n]
	last := map[int32]int32{}
	open := map[[2]int32][]int32{} // lock and reader (-1: the writer) -> open acquires
	for i, ev := range m.tr.Events {
		p, ok := last[ev.T]
		if !ok {
			p = -1
		}
		m.prev[i], last[ev.T] = p, int32(i)
		m.rel[i] = -1
		h := [2]int32{ev.Obj, -1}
		if ev.Shared {
			h[1] = ev.T
		}
		switch ev.K {
		case wire.MCRAcquire:
			open[h] = append(open[h], int32(i))
		case wire.MCRRelease:
			if as := open[h]; len(as) > 0 {
				m.rel[as[len(as)-1]] = int32(i)
				open[h] = as[:len(as)-1]
			}
		}
	}
}

// traceBuilder adds the model's constraints to m.tr.
type traceBuilder struct {
	m        *MCR
	idx      []int32
	nextReal []int32
	waited   map[int32]bool // RWMutexes an acquire of which never acquired
}

// edge makes raw event from come before raw event to, or, where the run
// had to before from (a receive that waited for its send), before the
// next event of to's goroutine, which is where the order shows.
func (b *traceBuilder) edge(from, to int32) {
	for from >= 0 && b.idx[from] < 0 {
		from = b.prevReal(from) // a step that is no event: the one before it
	}
	if from < 0 || to < 0 {
		return
	}
	if to <= from || b.idx[to] < 0 {
		to = b.nextReal[to]
		if to <= from {
			return // nothing of to's goroutine comes after: nothing to order
		}
	}
	if b.idx[from] >= b.idx[to] {
		return // an acquire placed later than recorded (makeTrace)
	}
	e := &b.m.tr.Events[b.idx[to]]
	e.After = append(e.After, b.idx[from])
}

// prevReal returns the event of raw event i's goroutine before it, or -1.
func (b *traceBuilder) prevReal(i int32) int32 {
	g := b.m.raw[i].ev.G
	for j := i - 1; j >= 0; j-- {
		if r := b.m.raw[j]; r.ev.G == g && r.n >= 0 {
			return j
		}
	}
	return -1
}

// accesses fills the memory accesses of the trace and the initial values.
func (b *traceBuilder) accesses() {
	inited := map[int32]bool{}
	for i, r := range b.m.raw {
		if r.n < 0 || len(r.acc) == 0 {
			continue
		}
		e := &b.m.tr.Events[b.idx[i]]
		for _, a := range r.acc {
			if !inited[a.Loc] {
				// The first access tells the initial value, unless it
				// was reported after it wrote (none is known then).
				inited[a.Loc] = true
				if !slices.Contains(r.unknown, a.Loc) {
					b.m.tr.Init = append(b.m.tr.Init, wire.MCRInit{Loc: a.Loc, V: a.RV})
				}
			}
			if !a.Read {
				if !a.Write {
					continue // the run ended before the write's value was seen
				}
				a.RV = 0
			}
			e.Acc = append(e.Acc, a)
		}
		if len(e.Acc) > 0 {
			e.K = wire.MCRAccess
		}
	}
}

// objClass is how an object's operations are modeled.
type objClass uint8

const (
	classMutex objClass = iota
	classRWMutex
	classChan
	classWaitGroup
	classOrdered
)

// objects models the operations on every object, and the time
// operations.
func (b *traceBuilder) objects() {
	ops := map[int32][]int32{} // object -> raw events touching it
	var order []int32
	var timeOps []int32
	for i, r := range b.m.raw {
		if r.n < 0 {
			continue
		}
		for _, o := range r.objs {
			if _, ok := ops[o]; !ok {
				order = append(order, o)
			}
			ops[o] = append(ops[o], int32(i))
		}
		// (A yield orders nothing here: mcr steers by values.)
		if r.ev.Global() && r.ev.Op != event.OpExit && r.ev.Op != event.OpYield {
			timeOps = append(timeOps, int32(i))
		}
	}
	for _, o := range order {
		evs := ops[o]
		switch b.classify(evs) {
		case classRWMutex:
			if b.waited[o] {
				b.keepOrder(evs, "an RWMutex's RLock or Lock waited to the end of a run: its operations keep their order")
				continue
			}
			if b.shared(evs) {
				// Shared sections reorder freely, and a plan need not
				// hold an earlier reader: readers-writers(2,1) lost the
				// state in which the first reader reads before the
				// writer and the second after it (TestMCRTextbooks).
				b.m.incomplete["read locks of several goroutines: mcr reorders their sections but does not claim to reach every state"] = true
			}
			fallthrough
		case classMutex:
			for _, i := range evs {
				e := &b.m.tr.Events[b.idx[i]]
				e.Obj = o
				switch op := b.m.raw[i].ev.Op; op {
				case event.OpLock, event.OpWLock, event.OpRLock:
					e.K, e.Shared = wire.MCRAcquire, op == event.OpRLock
				default:
					e.K, e.Shared = wire.MCRRelease, op == event.OpRUnlock
				}
			}
		case classChan:
			b.channel(evs)
		case classWaitGroup:
			b.waitGroup(evs)
		default:
			b.keepOrder(evs, "operations on an object other than a Mutex, channel or WaitGroup by several goroutines keep their order")
		}
	}
	if len(timeOps) > 0 {
		b.keepOrder(timeOps, "")
		b.m.incomplete["the program uses time (timers, sleeps, time.Now), whose values depend on the order"] = true
	}
}

// shared reports whether several goroutines take read locks among evs.
func (b *traceBuilder) shared(evs []int32) bool {
	t := int32(-1)
	for _, i := range evs {
		if r := b.m.raw[i]; r.ev.Op == event.OpRLock {
			if t >= 0 && t != r.t {
				return true
			}
			t = r.t
		}
	}
	return false
}

// classify tells how the operations evs on one object are modeled.
func (b *traceBuilder) classify(evs []int32) objClass {
	c := objClass(255)
	for _, i := range evs {
		var k objClass
		switch b.m.raw[i].ev.Op {
		case event.OpLock, event.OpUnlock:
			k = classMutex
		case event.OpRLock, event.OpRUnlock, event.OpWLock, event.OpWUnlock:
			k = classRWMutex
		case event.OpSend, event.OpRecv, event.OpClose, event.OpMakeChan:
			k = classChan
		case event.OpWGAdd, event.OpWGWait:
			k = classWaitGroup
		default:
			return classOrdered
		}
		if c != 255 && c != k {
			return classOrdered
		}
		c = k
	}
	return c
}

// keepOrder chains evs in their order; why, when the events are of
// several goroutines, is a reason the search is not complete.
func (b *traceBuilder) keepOrder(evs []int32, why string) {
	for k := 1; k < len(evs); k++ {
		b.edge(evs[k-1], evs[k])
		if why != "" && b.m.raw[evs[k]].t != b.m.raw[evs[0]].t {
			b.m.incomplete[why] = true
		}
	}
}

// channel models the sends, receives and close of one channel.
func (b *traceBuilder) channel(evs []int32) {
	var sends, recvs []int32
	closed := int32(-1)
	for _, i := range evs {
		switch b.m.raw[i].ev.Op {
		case event.OpSend:
			sends = append(sends, i)
		case event.OpRecv:
			recvs = append(recvs, i)
		case event.OpClose:
			closed = i
		}
	}
	const why = "several goroutines send on one channel or receive from it: their order is kept"
	b.keepOrder(sends, why)
	b.keepOrder(recvs, why)
	if closed >= 0 && len(sends) > 0 {
		b.edge(sends[len(sends)-1], closed)
	}
	for k, r := range recvs {
		switch {
		case k < len(sends):
			b.edge(sends[k], r)
		case closed >= 0:
			b.edge(closed, r)
		}
	}
	// The buffer: how many values the run showed waiting at once, their
	// senders gone on (at most the capacity). Send k goes on only once
	// receive k-c has taken its value.
	c := 0
	for k, s := range sends {
		x := b.nextReal[s]
		if x < 0 {
			continue
		}
		arrived := 0
		for _, r := range recvs {
			if r < x {
				arrived++
			}
		}
		c = max(c, k+1-arrived)
	}
	for k, s := range sends {
		if k-c >= 0 && k-c < len(recvs) && b.nextReal[s] >= 0 {
			b.edge(recvs[k-c], b.nextReal[s])
		}
	}
}

// waitGroup models the Adds (and Dones) and Waits of one WaitGroup.
func (b *traceBuilder) waitGroup(evs []int32) {
	for _, w := range evs {
		if b.m.raw[w].ev.Op != event.OpWGWait {
			continue
		}
		done := b.nextReal[w] // the Wait has returned by then
		for _, a := range evs {
			if b.m.raw[a].ev.Op != event.OpWGAdd {
				continue
			}
			switch {
			case done >= 0 && a < done:
				b.edge(a, done)
			case done >= 0:
				b.edge(w, a)
			}
		}
	}
}

// blockedAtEnd reports whether raw event i is its goroutine's last: an
// operation that began to wait and never went on.
func (m *MCR) blockedAtEnd(i int) bool {
	g := m.raw[i].ev.G
	for _, r := range m.raw[i+1:] {
		if r.ev.G == g {
			return false
		}
	}
	return true
}
