package sched

import (
	"unsafe"

	"interleave.dev/rt/internal/event"
	"interleave.dev/rt/internal/race"
	"interleave.dev/rt/internal/strategy"
)

// A channel's values live in a typed slab owned by the rt package; the
// scheduler moves only slot numbers. A slot is -1 for "the zero value".

// chanState is the model of one channel.
type chanState struct {
	cap    int
	buf    slotQueue
	closed bool
	recvq  waitq
	sendq  waitq
	// Slab is the typed value storage, set and used by package rt.
	Slab any

	// Happens-before, as the Go memory model orders channels: values
	// ever put into and taken out of the buffer, the clocks of the
	// buffer's positions (a send is ordered before the receive of its
	// value; the k-th receive before the (k+C)-th send completes) and the
	// clock of the close.
	sent, recvd int
	elemClock   []race.TreeClock
	spaceClock  []race.TreeClock
	closeClock  race.TreeClock

	// timed says a timer sent on the channel or a deadline closed it;
	// abandoned, that a select waiting on it took a timed channel's case
	// instead: a goroutine left waiting on it lost a race with a timeout
	// (leaks.go).
	timed, abandoned bool
}

// hbRing bounds the positions a channel keeps clocks for. A channel of
// larger capacity shares positions, which orders a little more than Go
// promises: it can hide a race, never report a false one.
const hbRing = 64

// bufSend records the happens-before of g putting a value into c's buffer.
func (it *Iteration) bufSend(g *G, c *chanState) {
	if it.race != nil && g != nil {
		it.toolBegin() // the clocks grow
		k := c.position(c.sent)
		it.race.AcquireClock(g.ID, &c.spaceClock[k])
		it.race.ReleaseClock(g.ID, &c.elemClock[k])
		it.toolEnd()
	}
	c.sent++
}

// bufRecv records the happens-before of g taking a value out of c's buffer.
func (it *Iteration) bufRecv(g *G, c *chanState) {
	if it.race != nil && g != nil {
		it.toolBegin() // the clocks grow
		k := c.position(c.recvd)
		it.race.AcquireClock(g.ID, &c.elemClock[k])
		it.race.ReleaseClock(g.ID, &c.spaceClock[k])
		it.toolEnd()
	}
	c.recvd++
}

func (c *chanState) position(n int) int {
	r := c.cap
	if r > hbRing {
		r = hbRing
	}
	if c.elemClock == nil {
		c.elemClock, c.spaceClock = make([]race.TreeClock, r), make([]race.TreeClock, r)
	}
	return n % r
}

// pop takes the oldest value out of the buffer without a receiver (a
// stopped timer discarding its tick).
func (c *chanState) pop() int32 {
	c.recvd++
	return c.buf.pop()
}

type slotQueue struct {
	s    []int32
	head int
}

func (q *slotQueue) len() int { return len(q.s) - q.head }

func (q *slotQueue) push(v int32) {
	if q.head > 0 && len(q.s) == cap(q.s) {
		n := copy(q.s, q.s[q.head:])
		q.s, q.head = q.s[:n], 0
	}
	q.s = append(q.s, v)
}

func (q *slotQueue) pop() int32 {
	v := q.s[q.head]
	q.head++
	if q.head == len(q.s) {
		q.s, q.head = q.s[:0], 0
	}
	return v
}

// sudog is a goroutine waiting in a channel queue.
type sudog struct {
	g       *G
	slot    int32  // value of a blocked send
	sel     bool   // part of a select
	gen     uint32 // the select's number (G.selGen), for a select case
	caseIdx int
	cases   int // how many channels the select waits on
	o       *object
}

type waitq struct {
	q []*sudog
}

// dequeue returns the first waiter still waiting (selects already
// completed elsewhere are skipped and dropped).
func (w *waitq) dequeue() *sudog {
	for len(w.q) > 0 {
		s := w.q[0]
		copy(w.q, w.q[1:])
		w.q[len(w.q)-1] = nil
		w.q = w.q[:len(w.q)-1]
		if !s.live() {
			continue
		}
		return s
	}
	return nil
}

// live reports whether s still waits: a plain send or receive does until
// it is taken out of its queue, a select case while its select has yet to
// complete. The generation check keeps a registration that outlived its
// select (it must not, but a wrong wake-up is silent: a later select of
// the same goroutine returns at a case it did not choose, with a zero
// value) from ever waking a later select.
func (s *sudog) live() bool {
	return !s.sel || (s.gen == s.g.selGen && !s.g.selDone)
}

func (w *waitq) remove(s *sudog) { w.q = without(w.q, s) }

// enqueue adds s at the end of w.
func (it *Iteration) enqueue(w *waitq, s *sudog) {
	if !it.growing(len(w.q), cap(w.q)) {
		w.q = append(w.q, s)
		return
	}
	it.toolBegin()
	w.q = append(w.q, s)
	it.toolEnd()
}

// without removes the first x from s, keeping the order of the rest.
func without[T comparable](s []T, x T) []T {
	for i, y := range s {
		if y == x {
			copy(s[i:], s[i+1:])
			var zero T
			s[len(s)-1] = zero
			return s[:len(s)-1]
		}
	}
	return s
}

// ChanObj is a handle on a channel's model.
type ChanObj = object

// Chan returns the model of the channel at addr (nil addr: a nil channel,
// for which it returns nil). size is the channel's capacity.
func (g *G) Chan(addr unsafe.Pointer, size int) *ChanObj {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	if addr == nil {
		return nil
	}
	o := g.it.object(addr, kindChan)
	if o.ch == nil {
		g.it.toolBegin()
		o.ch = &chanState{cap: size}
		g.it.toolEnd()
	}
	return o
}

// AdoptNative gives channel o, whose model was just made, the state the
// channel has natively at the start of its first use in the iteration:
// the values slots hold in its buffer, and closed. They happen before
// everything in the iteration, as what was done before it did.
func (o *ChanObj) AdoptNative(slots []int32, closed bool) {
	c := o.ch
	for _, s := range slots {
		c.buf.push(s)
		c.sent++
	}
	c.closed = closed
}

// State returns the channel state of a channel object.
func (o *ChanObj) State() *chanState { return o.ch }

// MakeChan records the creation of a channel.
func (g *G) MakeChan(o *ChanObj, site uint32) {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	g.it.step(g, event.OpMakeChan, o, site)
}

// RuntimeError is a panic raised by the Go runtime's rules (send on a closed
// channel, ...): it implements runtime.Error like the real one.
type RuntimeError string

func (e RuntimeError) Error() string { return string(e) }

// RuntimeError marks e as a runtime error.
func (e RuntimeError) RuntimeError() {}

// sudog returns g's i-th waiting record, cleared. Records are allocated
// one by one, never moved: a select puts a pointer to each into a channel
// queue and later removes it by that pointer, and records in one slice
// moved when the slice grew halfway through the registration, leaving
// the select's earlier cases in their queues for good.
func (g *G) sudog(i int) *sudog {
	for len(g.sudogs) <= i {
		g.it.toolBegin()
		g.sudogs = append(g.sudogs, new(sudog))
		g.it.toolEnd()
	}
	s := g.sudogs[i]
	*s = sudog{g: g}
	return s
}

func (it *Iteration) blockForever(g *G, op event.Op, site uint32) {
	it.block(g, op, nil, site)
	panic("unreachable: goroutine blocked forever was woken")
}

// Send performs a send of the value in slot on channel o.
func (g *G) Send(o *ChanObj, slot int32, site uint32) {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	it := g.it
	it.step(g, event.OpSend, o, site)
	if o == nil {
		it.blockForever(g, event.OpSend, site)
	}
	it.checkChanRace(g, o, false, site)
	c := o.ch
	if c.closed || c.recvq.hasWaiter() || c.buf.len() < c.cap {
		it.sendReady(g, o, slot)
		return
	}
	s := g.sudog(0)
	s.slot, s.o = slot, o
	it.enqueue(&c.sendq, s)
	it.block(g, event.OpSend, o, site) // the receiver recorded the happens-before
	if g.sendClosed {
		g.sendClosed = false
		panic(RuntimeError("send on closed channel"))
	}
}

// deliver completes a blocked receive (or receive case) with slot.
func (it *Iteration) deliver(r *sudog, slot int32, ok bool) {
	w := r.g
	w.slot, w.ok = slot, ok
	if r.sel {
		w.selDone = true
		w.selChosen = r.caseIdx
	}
	it.wakeUp(w)
}

// Recv performs a receive from channel o and returns the slot received
// and whether it came from a send (false: the channel is closed).
func (g *G) Recv(o *ChanObj, site uint32) (int32, bool) {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	it := g.it
	it.step(g, event.OpRecv, o, site)
	if o == nil {
		it.blockForever(g, event.OpRecv, site)
	}
	if slot, ok, done := it.tryRecv(g, o); done {
		return slot, ok
	}
	s := g.sudog(0)
	s.o = o
	it.enqueue(&o.ch.recvq, s)
	it.block(g, event.OpRecv, o, site) // the sender or the close recorded the happens-before
	return g.slot, g.ok
}

// tryRecv receives without blocking if the channel allows it.
func (it *Iteration) tryRecv(g *G, o *object) (slot int32, ok, done bool) {
	c := o.ch
	if c.buf.len() > 0 {
		slot = c.buf.pop()
		it.bufRecv(g, c)
		if s := c.sendq.dequeue(); s != nil {
			// The blocked sender's value takes the freed place: its send
			// completes now.
			it.push(&c.buf, s.slot)
			it.bufSend(s.g, c)
			it.completeSend(s)
		}
		return slot, true, true
	}
	if s := c.sendq.dequeue(); s != nil {
		it.completeSend(s)
		it.syncPair(g, s.g, o)
		return s.slot, true, true
	}
	if c.closed {
		if it.race != nil {
			it.race.AcquireClock(g.ID, &c.closeClock)
		}
		return -1, false, true
	}
	return 0, false, false
}

// completeSend wakes a goroutine whose blocked send (or send case) was
// taken.
func (it *Iteration) completeSend(s *sudog) {
	w := s.g
	if s.sel {
		w.selDone = true
		w.selChosen = s.caseIdx
	}
	it.wakeUp(w)
}

// Close closes channel o.
func (g *G) Close(o *ChanObj, site uint32) {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	it := g.it
	it.step(g, event.OpClose, o, site)
	if o == nil {
		panic(RuntimeError("close of nil channel"))
	}
	it.checkChanRace(g, o, true, site)
	c := o.ch
	if c.closed {
		panic(RuntimeError("close of closed channel"))
	}
	it.closeChan(g, o)
}

// checkChanRace treats a close as a write of the channel and a send as a
// read of it, as Go's race detector does: a send and a close not ordered
// by happens-before race (whichever comes first, some interleaving panics).
func (it *Iteration) checkChanRace(g *G, o *object, close bool, site uint32) {
	if it.race == nil {
		return
	}
	var r *race.Race
	if close {
		r = it.race.Write(g.ID, o.id, site)
	} else {
		r = it.race.Read(g.ID, o.id, site)
	}
	if r != nil {
		it.fail(g, it.raceFinding(r))
	}
}

// closeChan closes o on behalf of g (nil for a timer or context).
func (it *Iteration) closeChan(g *G, o *object) {
	c := o.ch
	c.closed = true
	if g != nil && it.race != nil {
		it.race.ReleaseClock(g.ID, &c.closeClock)
	}
	for r := c.recvq.dequeue(); r != nil; r = c.recvq.dequeue() {
		if it.race != nil {
			it.race.AcquireClock(r.g.ID, &c.closeClock)
		}
		it.deliver(r, -1, false)
	}
	for s := c.sendq.dequeue(); s != nil; s = c.sendq.dequeue() {
		s.g.sendClosed = true
		if s.sel {
			s.g.selDone = true
			s.g.selChosen = s.caseIdx
		}
		it.wakeUp(s.g)
	}
}

// Len returns the number of buffered values of channel o.
func (g *G) Len(o *ChanObj, site uint32) int {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	g.it.step(g, event.OpChanLen, o, site)
	if o == nil {
		return 0
	}
	return o.ch.buf.len()
}

// SelectCase is one case of a select statement.
type SelectCase struct {
	Ch   *ChanObj // nil: a nil channel, never ready
	Send bool
	Slot int32 // the value of a send case
}

func (it *Iteration) ready(c SelectCase) bool {
	if c.Ch == nil {
		return false
	}
	ch := c.Ch.ch
	if c.Send {
		return ch.closed || ch.recvq.hasWaiter() || ch.buf.len() < ch.cap
	}
	return ch.buf.len() > 0 || ch.sendq.hasWaiter() || ch.closed
}

func (w *waitq) hasWaiter() bool {
	for _, s := range w.q {
		if s.live() {
			return true
		}
	}
	return false
}

// Select runs a select statement over cases. It returns the index of the
// case taken (-1: default) and, for a receive case, the slot received and
// the ok flag.
func (g *G) Select(cases []SelectCase, hasDefault bool, site uint32) (int, int32, bool) {
	return g.SelectOrdered(cases, 0, hasDefault, site)
}

// SelectOrdered is Select in which the first first cases, when ready at the
// point, are taken before any other, the lowest index first: one point for
// what is, in the code it models, a sequence of non-blocking polls followed
// by a select (net/pipe.go's checks for a closed pipe or a passed deadline
// before its select). The polls' own interleavings are not explored: a case
// ready before the point wins, as it does after the polls, and one that
// becomes ready later wakes the select, which the code allows too; no
// outcome the code cannot give is added.
func (g *G) SelectOrdered(cases []SelectCase, first int, hasDefault bool, site uint32) (int, int32, bool) {
	if g.it.toolTrack {
		g.it.toolBegin() // the allocator's counters are watched (alloc.go)
		defer g.it.toolEnd()
	}
	it := g.it
	// The select touches every channel it waits on: they are numbered as
	// events' objects here, whether a strategy observes (and is told of
	// each) or not, so that the numbers do not depend on the strategy.
	for _, c := range cases {
		if c.Ch != nil {
			id := it.eventID(c.Ch)
			if it.obs != nil {
				op := event.OpRecv
				if c.Send {
					op = event.OpSend
				}
				it.obs.Pending(event.Event{G: g.ID, Op: op, Obj: id, Site: site})
			}
		}
	}
	it.step(g, event.OpSelect, nil, site)
	it.opts = reserve(it, it.opts[:0], len(cases))
	for i, c := range cases {
		if it.ready(c) {
			op := event.OpRecv
			if c.Send {
				op = event.OpSend
			}
			it.opts = append(it.opts, strategy.Option{G: g.ID, Case: int32(i), Ev: event.Event{G: g.ID, Op: op, Obj: it.eventID(c.Ch), Site: site}})
		}
	}
	if first > 0 && len(it.opts) > 1 && it.opts[0].Case < int32(first) {
		it.opts = it.opts[:1] // built in case order: the lowest index first
	}
	switch {
	case len(it.opts) > 0:
		it.progressed()
		k := 0
		if len(it.opts) > 1 {
			k = it.choose(strategy.Select, g)
		}
		i := int(it.opts[k].Case)
		c := cases[i]
		if c.Send {
			it.checkChanRace(g, c.Ch, false, site)
			it.sendReady(g, c.Ch, c.Slot)
			return i, 0, false
		}
		slot, ok, _ := it.tryRecv(g, c.Ch)
		abandon(cases, i)
		return i, slot, ok
	case hasDefault:
		it.pollFailed(g, site)
		return -1, 0, false
	}
	// Block on every non-nil case.
	g.selDone = false
	g.selGen++
	n := 0
	for i, c := range cases {
		if c.Ch == nil {
			continue
		}
		s := g.sudog(n)
		n++
		s.sel, s.gen, s.caseIdx, s.o, s.slot = true, g.selGen, i, c.Ch, c.Slot
		if c.Send {
			it.enqueue(&c.Ch.ch.sendq, s)
		} else {
			it.enqueue(&c.Ch.ch.recvq, s)
		}
	}
	if n == 0 {
		it.blockForever(g, event.OpSelect, site)
	}
	for i := 0; i < n; i++ {
		g.sudogs[i].cases = n
	}
	it.block(g, event.OpSelect, nil, site)
	for i := 0; i < n; i++ {
		s := g.sudogs[i]
		s.o.ch.sendq.remove(s)
		s.o.ch.recvq.remove(s)
	}
	// The partner (or the close) recorded the happens-before.
	i := g.selChosen
	c := cases[i]
	abandon(cases, i)
	if c.Send {
		if g.sendClosed {
			g.sendClosed = false
			panic(RuntimeError("send on closed channel"))
		}
		return i, 0, false
	}
	return i, g.slot, g.ok
}

// sendReady performs a send that cannot block: the channel is closed (it
// panics), a receiver waits, or the buffer has room.
func (it *Iteration) sendReady(g *G, o *object, slot int32) {
	c := o.ch
	if c.closed {
		panic(RuntimeError("send on closed channel"))
	}
	if r := c.recvq.dequeue(); r != nil {
		it.deliver(r, slot, true)
		if c.cap == 0 {
			it.syncPair(g, r.g, o) // each side completes after the other began
			return
		}
		// A buffered channel orders only the send before the receive,
		// also when the value goes straight to a waiting receiver: as
		// through the buffer (Go's race detector does the same).
		it.bufSend(g, c)
		it.bufRecv(r.g, c)
		return
	}
	it.push(&c.buf, slot)
	it.bufSend(g, c)
}

// push puts slot into a channel's buffer q.
func (it *Iteration) push(q *slotQueue, slot int32) {
	if !it.growing(len(q.s), cap(q.s)) {
		q.push(slot)
		return
	}
	it.toolBegin()
	q.push(slot)
	it.toolEnd()
}

// abandon marks the channels of the cases of a select other than the one
// it took, case i, when that one was a timer's or a deadline's: the
// select gave them up at a timeout.
func abandon(cases []SelectCase, i int) {
	if c := cases[i].Ch; c == nil || !c.ch.timed {
		return
	}
	for k, c := range cases {
		if k != i && c.Ch != nil {
			c.Ch.ch.abandoned = true
		}
	}
}
