package mcr

import (
	"fmt"
	"math"

	"interleave.dev/rt/wire"
)

// maxTimeoutMillis bounds MCRQuery.TimeoutMillis (about 24 days), far
// below where a time.Duration overflows.
const maxTimeoutMillis = math.MaxInt32

// trace is a validated query trace with the indexes the encoding needs.
type trace struct {
	events []wire.MCREvent
	// prev is, per event, the previous event of its thread, or -1.
	prev []int32
	// locks lists the lock objects in order of first acquire; regions
	// holds each one's critical sections in trace order.
	locks   []int32
	regions map[int32][]region
	// writes lists, per location, its write accesses in trace order.
	writes map[int32][]write
	// init holds the initial value of the locations that have one.
	init map[int32]uint64
}

// region is a critical section: an acquire and its release (-1 when the
// lock is held to the end of the trace), shared for a read lock.
type region struct {
	acq, rel int32
	shared   bool
}

// holding names who holds a lock: a thread for a shared (read) lock, -1
// for the exclusive one.
type holding struct{ obj, t int32 }

func holdingOf(ev *wire.MCREvent) holding {
	if ev.Shared {
		return holding{ev.Obj, ev.T}
	}
	return holding{ev.Obj, -1}
}

// write is a write access of event e: the bits it writes and the value of
// the location after it.
type write struct {
	e    int32
	mask uint64
	v    uint64
}

// analyze validates q and indexes its trace.
func analyze(q *wire.MCRQuery) (*trace, error) {
	if q.TimeoutMillis < 0 || q.TimeoutMillis > maxTimeoutMillis {
		return nil, fmt.Errorf("timeout_ms %d out of range [0, %d]", q.TimeoutMillis, maxTimeoutMillis)
	}
	if q.BudgetMillis < 0 {
		return nil, fmt.Errorf("negative budget_ms %d", q.BudgetMillis)
	}
	tr := &q.Trace
	if tr.Threads < 0 {
		return nil, fmt.Errorf("negative thread count %d", tr.Threads)
	}
	if len(tr.Events) > math.MaxInt32 {
		return nil, fmt.Errorf("%d events, more than an int32 indexes", len(tr.Events))
	}
	x := &trace{
		events:  tr.Events,
		prev:    make([]int32, len(tr.Events)),
		regions: make(map[int32][]region),
		writes:  make(map[int32][]write),
		init:    make(map[int32]uint64),
	}
	last := make(map[int32]int32)   // thread -> its latest event so far
	open := make(map[holding][]int) // holder -> indexes of its open regions
	for i := range tr.Events {
		if err := x.add(int32(i), tr.Threads, last, open); err != nil {
			return nil, fmt.Errorf("event %d: %w", i, err)
		}
	}
	for _, in := range tr.Init {
		if _, dup := x.init[in.Loc]; dup {
			return nil, fmt.Errorf("two initial values for location %d", in.Loc)
		}
		x.init[in.Loc] = in.V
	}
	for i, t := range q.Targets {
		if err := x.checkTarget(t); err != nil {
			return nil, fmt.Errorf("target %d: %w", i, err)
		}
	}
	return x, nil
}

// add validates and indexes event i, given each thread's latest event
// before it and the open region of each lock.
func (x *trace) add(i int32, threads int, last map[int32]int32, open map[holding][]int) error {
	ev := &x.events[i]
	if ev.T < 0 || int(ev.T) >= threads {
		return fmt.Errorf("thread %d out of range [0, %d)", ev.T, threads)
	}
	x.prev[i] = -1
	if p, ok := last[ev.T]; ok {
		x.prev[i] = p
	}
	last[ev.T] = i
	for _, a := range ev.After {
		if a < 0 || a >= i {
			return fmt.Errorf("after event %d, which is not an earlier event", a)
		}
	}
	if len(ev.Acc) > 0 && ev.K != wire.MCRAccess {
		return fmt.Errorf("memory accesses on an event of kind %d", ev.K)
	}
	switch ev.K {
	case wire.MCROther:
	case wire.MCRAccess:
		return x.addAccesses(i)
	case wire.MCRAcquire:
		return x.acquire(i, open)
	case wire.MCRRelease:
		x.release(i, open)
	default:
		return fmt.Errorf("unknown kind %d", ev.K)
	}
	return nil
}

// addAccesses validates the accesses of event i and indexes its writes.
func (x *trace) addAccesses(i int32) error {
	wrote := make(map[int32]bool)
	for j, a := range x.events[i].Acc {
		switch {
		case a.Mask == 0:
			return fmt.Errorf("access %d: zero mask", j)
		case !a.Read && !a.Write:
			return fmt.Errorf("access %d: neither reads nor writes", j)
		case a.Write && wrote[a.Loc]:
			return fmt.Errorf("access %d: a second write to location %d", j, a.Loc)
		}
		if a.Write {
			wrote[a.Loc] = true
			x.writes[a.Loc] = append(x.writes[a.Loc], write{e: i, mask: a.Mask, v: a.WV})
		}
	}
	return nil
}

// acquire opens a region of the lock of event i. A thread may hold a
// read lock more than once.
func (x *trace) acquire(i int32, open map[holding][]int) error {
	ev := &x.events[i]
	obj := ev.Obj
	rs, seen := x.regions[obj]
	if ks := open[holding{obj, -1}]; len(ks) > 0 {
		return fmt.Errorf("acquire of lock %d, held since event %d", obj, rs[ks[0]].acq)
	}
	if !seen {
		x.locks = append(x.locks, obj)
	}
	h := holdingOf(ev)
	open[h] = append(open[h], len(rs))
	x.regions[obj] = append(rs, region{acq: i, rel: -1, shared: ev.Shared})
	return nil
}

// release closes the open region of the lock of event i (for a read lock,
// the thread's latest); a release with no open region is ignored.
func (x *trace) release(i int32, open map[holding][]int) {
	h := holdingOf(&x.events[i])
	if ks := open[h]; len(ks) > 0 {
		x.regions[h.obj][ks[len(ks)-1]].rel = i
		open[h] = ks[:len(ks)-1]
	}
}

// checkTarget validates a target: an event and one of its read accesses.
func (x *trace) checkTarget(t wire.MCRTarget) error {
	if t.Event < 0 || int(t.Event) >= len(x.events) {
		return fmt.Errorf("event %d out of range [0, %d)", t.Event, len(x.events))
	}
	if t.Blocked {
		if x.events[t.Event].K != wire.MCRAcquire {
			return fmt.Errorf("blocked target: event %d is not an acquire", t.Event)
		}
		return nil
	}
	acc := x.events[t.Event].Acc
	if t.Acc < 0 || int(t.Acc) >= len(acc) {
		return fmt.Errorf("access %d of event %d out of range [0, %d)", t.Acc, t.Event, len(acc))
	}
	if !acc[t.Acc].Read {
		return fmt.Errorf("access %d of event %d does not read", t.Acc, t.Event)
	}
	return nil
}

// po reports whether event a comes before event b in program order (the
// same thread, earlier in the trace).
func (x *trace) po(a, b int32) bool {
	return a < b && x.events[a].T == x.events[b].T
}
