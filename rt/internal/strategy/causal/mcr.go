package causal

import (
	"fmt"
	"sort"
	"strconv"
	"time"

	"interleave.dev/rt/internal/event"
	"interleave.dev/rt/internal/strategy"
	"interleave.dev/rt/wire"
)

// MCRSolver answers the queries of strategy mcr (interleave-solver, a
// process of its own that links Z3; see wire.MCRQuery for the model).
type MCRSolver interface {
	Solve(q *wire.MCRQuery) (*wire.MCRAnswer, error)
}

// MCR is maximal causality reduction (Huang, "Stateless model checking
// concurrent programs with maximal causality reduction", PLDI 2015; as
// summarized in section 2 of Yi and Huang, "Concurrency verification with
// maximal path causality", FSE 2018): a stateless search that, instead of
// reordering conflicting events as dpor does, asks a solver for schedules
// in which a read returns a value it has not returned before at that
// point, so that each run reaches a new state.
//
// Each run records its trace with the values every access read and wrote
// (Valuer). For every read of the trace, and every value another write of
// the trace gave its location (or its initial value), the solver is asked
// for a prefix: an order of some of the trace's events, each read
// returning what it returned in the trace, in which that read returns
// that value. Each prefix that leads to a state not queued before (how
// far each goroutine got, what each read of the prefix returned, the
// memory it leaves) is run: the goroutines are scheduled along the prefix
// (events named by goroutine and position, the goroutine by the path of
// go statements that started it, which does not depend on creation
// order), then along the rest of the trace it came from, as far as the
// program still follows it, so that the other goroutines stay where the
// trace had them; past that, the goroutine running keeps running.
//
// Two variants were measured and lost states on the textbook programs
// (docs/mpc.md): asking only for the reads after the run's prefix (a
// write that shows only in the new run can give an earlier read of the
// prefix a new value), and keeping of a prefix only what the read needs
// (the events placed before it for no reason pin the values that, in
// later runs, make combinations of flips reachable).
//
// What the solver reorders: memory accesses (plain and atomic, by value),
// the critical sections of sync.Mutex (mutual exclusion), channel
// operations as far as the k-th receive still gets the k-th send, and a
// WaitGroup's Adds around its Waits (mcrtrace.go). The operations on
// every other object (RWMutex, Cond, Once, a channel in a select, sync.Map,
// Pool, contexts), the sends of several goroutines on one channel and the
// time operations keep the order they had in the trace. That keeps every
// prefix feasible, but a state reachable only by another such order is
// not reached: Complete says so whenever such an order was kept between
// two goroutines.
//
// Complete reports whether the search covered every state: the queue ran
// empty, every query was answered (no timeout), no run departed from its
// prefix, no trace was cut at MCRMaxEvents, and no order was kept that the
// model does not reason about (above).
type MCR struct {
	solver  MCRSolver
	timeout time.Duration
	// Deadline, when set, is the end of the exploration's budget: no
	// query runs past it.
	Deadline time.Time
	// MaxQueued bounds the steps of the plans waiting to run (16 bytes
	// each; NewMCR sets DefaultMCRMaxQueued): a state found when the
	// queue is full is dropped, and the search is then not complete.
	MaxQueued int

	threads map[string]int32 // thread key (path of go statements) -> number
	keys    []string
	queue   []mcrPlan
	queued  map[uint64]bool // states queued or run
	inQueue int             // steps of the plans in queue

	// The current run.
	plan      mcrPlan
	next      int // plan steps done
	tailAt    int // the first tail step perhaps not done
	curCase   int // the select case of the step just run (noCase: none)
	diverged  bool
	gThread   map[int32]int32 // goroutine -> thread
	threadG   map[int32]int32 // thread -> goroutine
	children  map[int32]int   // goroutine -> go statements run
	count     map[int32]int32 // thread -> events run, resumes aside
	raw       []mcrRaw        // the events of the run, up to MCRMaxEvents
	truncated bool
	pendObjs  map[int32][]int32 // goroutine -> objects its pending operation touches
	wokeBy    map[int32]int32   // goroutine -> the event that woke it last
	lastOf    map[int32]int32   // goroutine -> its last event
	lastEvent int32
	started   bool
	exhausted bool
	failed    error

	// The trace made of the run at its end, each of its events' step, the
	// previous event of its thread and, for an acquire, its release (or
	// -1).
	tr        wire.MCRTrace
	steps     []mcrStep
	prev, rel []int32
	idx       []int32 // raw event -> its trace event, or -1

	// Why the search cannot claim to be complete (empty: it can).
	incomplete map[string]bool

	// Statistics: runs, solver queries and targets, their answers, the
	// solver's time, the runs that departed from their prefix.
	Executions, Queries, Targets, Sat, Unsat, Unknown, Diverged int
	SolverTime                                                  time.Duration
}

// mcrRaw is an event of a run as strategy mcr records it.
type mcrRaw struct {
	ev      event.Event
	t, n    int32   // thread and position in it (n < 0: glued, which plans skip)
	objs    []int32 // the objects the operation touches (not memory)
	woke    int32   // the event that woke the goroutine before this one, or -1
	acc     []wire.MCRMemAccess
	unknown []int32 // locations whose value before the event is unknown
	cs      int     // the case of the select point after it, or noCase
}

// mcrStep is a step of a plan: an event named across runs by its thread
// and its position in the thread, and the case its select takes (or
// noCase).
type mcrStep struct {
	T, N int32
	Case int
}

const noCase = 1 << 30

// mcrPlan is what a run follows: the prefix the solver found (Steps),
// which it must, then the rest of the trace it came from (Tail), as far as
// the program still does the same: the new state is reached with the
// other goroutines where the trace had them, not where some fixed policy
// would put them.
type mcrPlan struct {
	Steps, Tail []mcrStep
}

// MCRMaxEvents bounds the events of a trace given to the solver; a longer
// run is cut there (its later reads are not targeted) and the search is
// then not complete.
const MCRMaxEvents = 1000

// mcrMaxTargets bounds the targets of one trace.
const mcrMaxTargets = 1000

// DefaultMCRMaxQueued is MCR.MaxQueued's default: 128 MiB of plans.
const DefaultMCRMaxQueued = 1 << 23

// DefaultSolverTimeout bounds each query (the targets of one run) when
// NewMCR is given none; the targets a query leaves unchecked count as
// unknown.
const DefaultSolverTimeout = 10 * time.Second

// NewMCR returns strategy mcr over solver; timeout bounds each query, the
// targets of one run (0: DefaultSolverTimeout).
func NewMCR(solver MCRSolver, timeout time.Duration) *MCR {
	if timeout <= 0 {
		timeout = DefaultSolverTimeout
	}
	return &MCR{
		solver:     solver,
		timeout:    timeout,
		MaxQueued:  DefaultMCRMaxQueued,
		threads:    map[string]int32{},
		queued:     map[uint64]bool{},
		incomplete: map[string]bool{},
	}
}

// Name implements Strategy.
func (m *MCR) Name() string { return "mcr" }

// Err is the error that stopped the search (a failing solver), or nil.
func (m *MCR) Err() error { return m.failed }

// Complete implements Exhaustive.
func (m *MCR) Complete() bool { return m.exhausted && len(m.incomplete) == 0 }

// Incomplete lists why the search is not complete, sorted.
func (m *MCR) Incomplete() []string {
	var r []string
	for k := range m.incomplete {
		r = append(r, k)
	}
	sort.Strings(r)
	return r
}

// Begin implements Strategy.
func (m *MCR) Begin() bool {
	if m.failed != nil {
		return false
	}
	plan := mcrPlan{}
	if !m.started {
		m.started = true
	} else {
		if len(m.queue) == 0 {
			m.exhausted = true
			return false
		}
		plan = m.queue[len(m.queue)-1]
		m.queue[len(m.queue)-1] = mcrPlan{}
		m.queue = m.queue[:len(m.queue)-1]
		m.inQueue -= len(plan.Steps) + len(plan.Tail)
	}
	m.reset(plan)
	return true
}

// reset starts a run that follows plan.
func (m *MCR) reset(plan mcrPlan) {
	m.plan = plan
	m.next, m.tailAt, m.curCase, m.diverged = 0, 0, noCase, false
	m.gThread = map[int32]int32{}
	m.threadG = map[int32]int32{}
	m.children = map[int32]int{}
	m.count = map[int32]int32{}
	m.raw = m.raw[:0]
	m.truncated = false
	m.pendObjs = map[int32][]int32{}
	m.wokeBy = map[int32]int32{}
	m.lastOf = map[int32]int32{}
	m.lastEvent = -1
	m.Executions++
}

// thread returns the thread of goroutine g, numbering a new one: the
// main goroutine, the timer, or the n-th goroutine its parent started.
func (m *MCR) thread(g int32) int32 {
	if t, ok := m.gThread[g]; ok {
		return t
	}
	var key string
	switch {
	case g == 0:
		key = "timer"
	case m.lastEvent < 0:
		key = "main"
	default:
		pg := m.raw[m.lastEvent].ev.G
		key = m.keys[m.gThread[pg]] + "." + strconv.Itoa(m.children[pg])
		m.children[pg]++
	}
	t, ok := m.threads[key]
	if !ok {
		t = int32(len(m.keys))
		m.threads[key] = t
		m.keys = append(m.keys, key)
	}
	m.gThread[g], m.threadG[t] = t, g
	return t
}

// Choose implements Strategy: along the plan, the goroutine of its next
// step (and the case it recorded, at a select); past it, the goroutine
// that is running, or the lowest.
func (m *MCR) Choose(p *strategy.Point) int {
	if p.Kind == strategy.Select {
		c := 0
		if m.curCase != noCase {
			if i := p.Find(m.curCase); i >= 0 {
				c = i
			}
		}
		if m.lastEvent >= 0 && int(m.lastEvent) < len(m.raw) {
			m.raw[m.lastEvent].cs = p.Encode(c)
		}
		return c
	}
	for i := 0; i < p.Len(); i++ {
		if m.waking(p.At(i).Ev) {
			return i // the rest of a Done the plan counts as done
		}
	}
	if m.next < len(m.plan.Steps) && !m.diverged {
		if g, ok := m.threadG[m.plan.Steps[m.next].T]; ok {
			if i := p.Find(int(g)); i >= 0 {
				return i
			}
		}
		m.diverge()
	}
	if i := m.followTail(p); i >= 0 {
		return i
	}
	if p.Current != 0 {
		if i := p.Find(int(p.Current)); i >= 0 {
			return i
		}
	}
	return 0
}

// tailLook bounds how far ahead in the tail a choice looks for a step
// whose goroutine can run.
const tailLook = 64

// followTail returns the option that follows the plan's tail: the
// goroutine of the first step not done whose goroutine can run, or -1.
func (m *MCR) followTail(p *strategy.Point) int {
	for m.tailAt < len(m.plan.Tail) && m.count[m.plan.Tail[m.tailAt].T] > m.plan.Tail[m.tailAt].N {
		m.tailAt++
	}
	for k := m.tailAt; k < len(m.plan.Tail) && k < m.tailAt+tailLook; k++ {
		s := m.plan.Tail[k]
		if m.count[s.T] > s.N {
			continue
		}
		if g, ok := m.threadG[s.T]; ok {
			if i := p.Find(int(g)); i >= 0 {
				return i
			}
		}
	}
	return -1
}

func (m *MCR) diverge() {
	if !m.diverged {
		m.diverged = true
		m.Diverged++
		m.incomplete["a run departed from the prefix it was given"] = true
	}
}

// Pending implements Observer.
func (m *MCR) Pending(ev event.Event) {
	if ev.Obj > 0 {
		m.pendObjs[ev.G] = append(m.pendObjs[ev.G], ev.Obj)
	}
}

// Woke implements Observer.
func (m *MCR) Woke(g int32) {
	m.thread(g) // a go statement names the new goroutine after its parent
	if m.lastEvent >= 0 {
		m.wokeBy[g] = m.lastEvent
	}
}

// Executed implements Observer.
func (m *MCR) Executed(ev event.Event, index int) {
	t := m.thread(ev.G)
	n := int32(-1)
	m.curCase = noCase
	if !glued(ev.Op) && !(index == len(m.raw) && m.waking(ev)) {
		n = m.count[t]
		m.count[t]++
		switch {
		case m.next < len(m.plan.Steps) && !m.diverged:
			if s := m.plan.Steps[m.next]; s.T == t && s.N == n {
				m.next++
				m.curCase = s.Case
			} else {
				m.diverge()
			}
		case m.tailAt < len(m.plan.Tail):
			if s := m.plan.Tail[m.tailAt]; s.T == t && s.N == n {
				m.curCase = s.Case
			}
		}
	}
	objs := m.pendObjs[ev.G]
	m.pendObjs[ev.G] = nil
	if index != len(m.raw) || index >= MCRMaxEvents {
		if !m.truncated {
			m.truncated = true
			m.incomplete[fmt.Sprintf("a run was longer than %d events", MCRMaxEvents)] = true
		}
		return
	}
	if ev.Obj > 0 && (len(objs) == 0 || objs[len(objs)-1] != ev.Obj) {
		objs = append(objs, ev.Obj)
	}
	r := mcrRaw{ev: ev, t: t, n: n, objs: objs, woke: -1, cs: noCase}
	if n >= 0 {
		if w, ok := m.wokeBy[ev.G]; ok {
			delete(m.wokeBy, ev.G)
			r.woke = w
		}
	}
	m.raw = append(m.raw, r)
	m.lastEvent = int32(index)
	m.lastOf[ev.G] = int32(index)
}

// waking reports whether ev is the second step of a WaitGroup's Done (or
// Add) that brings the counter to zero with goroutines waiting: the
// scheduler makes it a step of its own, which only the last Done has, so
// that it would shift the positions of the goroutine's events with the
// order. It is no step of a plan, and runs as soon as it can.
func (m *MCR) waking(ev event.Event) bool {
	if ev.Op != event.OpWGAdd {
		return false
	}
	last, ok := m.lastOf[ev.G]
	if !ok {
		return false
	}
	l := m.raw[last]
	return l.ev.Op == event.OpWGAdd && l.ev.Obj == ev.Obj && l.ev.Site == ev.Site && l.n >= 0
}

// glued reports whether the scheduler runs op with the goroutine's next
// operation (a start, a resume) or its last (an exit) without a choice
// point in between: such an event is no step of a plan.
func glued(op event.Op) bool {
	return op == event.OpStart || op == event.OpResume || op == event.OpExit
}

// Value implements Valuer.
func (m *MCR) Value(index int, obj int32, mask, v uint64, k strategy.ValueKind) {
	if index >= len(m.raw) {
		return
	}
	r := &m.raw[index]
	if k == strategy.ValueWritten {
		for i := range r.acc {
			if r.acc[i].Loc == obj {
				r.acc[i].Write, r.acc[i].WV = true, v
				return
			}
		}
		// A write reported after it happened: what it overwrote is
		// unknown.
		r.acc = append(r.acc, wire.MCRMemAccess{Loc: obj, Mask: mask, Write: true, WV: v})
		r.unknown = append(r.unknown, obj)
		return
	}
	// The memory before a write that does not read is kept (as RV, with
	// Read false) until the trace is made, for the location's initial
	// value.
	r.acc = append(r.acc, wire.MCRMemAccess{Loc: obj, Mask: mask, Read: k == strategy.ValueRead, RV: v})
}

// End implements Strategy: it asks the solver for the prefixes of the
// new states the trace shows, and queues them.
func (m *MCR) End(o strategy.Outcome) {
	if o.Finding {
		return
	}
	m.makeTrace()
	targets := m.targets()
	if len(targets) == 0 {
		return
	}
	budget := m.timeout
	if !m.Deadline.IsZero() {
		budget = min(budget, time.Until(m.Deadline))
		if budget <= 0 {
			return
		}
	}
	q := &wire.MCRQuery{Trace: m.tr, Targets: targets, TimeoutMillis: int(m.timeout / time.Millisecond),
		BudgetMillis: max(1, int(budget/time.Millisecond))}
	t0 := time.Now()
	a, err := m.solver.Solve(q)
	m.SolverTime += time.Since(t0)
	m.Queries++
	m.Targets += len(targets)
	if err == nil && a.Error != "" {
		err = fmt.Errorf("%s", a.Error)
	}
	if err == nil && len(a.Results) != len(targets) {
		err = fmt.Errorf("the solver answered %d of %d targets", len(a.Results), len(targets))
	}
	if err != nil {
		m.failed = fmt.Errorf("strategy mcr: the solver failed: %w", err)
		return
	}
	for i, r := range a.Results {
		switch r.Status {
		case wire.MCRSat:
			m.Sat++
			m.enqueue(targets[i], r.Prefix)
		case wire.MCRUnsat:
			m.Unsat++
		default:
			m.Unknown++
			m.incomplete["a solver check gave up ("+r.Reason+")"] = true
		}
	}
}

// targets lists, for every read access of the trace, each value another
// write of the trace (or the initial value) could give it.
func (m *MCR) targets() []wire.MCRTarget {
	type wref struct{ e, a int32 }
	writes := map[int32][]wref{}
	for i, e := range m.tr.Events {
		for j, a := range e.Acc {
			if a.Write {
				writes[a.Loc] = append(writes[a.Loc], wref{int32(i), int32(j)})
			}
		}
	}
	init := map[int32]uint64{}
	for _, in := range m.tr.Init {
		init[in.Loc] = in.V
	}
	var ts []wire.MCRTarget
	for i := range m.tr.Events {
		e := m.tr.Events[i]
		for j, a := range e.Acc {
			if !a.Read {
				continue
			}
			seen := map[uint64]bool{a.RV & a.Mask: true}
			add := func(v uint64) {
				if !seen[v] {
					seen[v] = true
					ts = append(ts, wire.MCRTarget{Event: int32(i), Acc: int32(j), Value: v})
				}
			}
			for _, w := range writes[a.Loc] {
				we := m.tr.Events[w.e]
				wa := we.Acc[w.a]
				if int(w.e) == i || (we.T == e.T && int(w.e) > i) || wa.Mask&a.Mask != a.Mask {
					continue
				}
				add(wa.WV & a.Mask)
			}
			if v, ok := init[a.Loc]; ok {
				add(v & a.Mask)
			}
		}
	}
	ts = append(ts, m.blockedTargets()...)
	if len(ts) > mcrMaxTargets {
		ts = ts[:mcrMaxTargets]
		m.incomplete[fmt.Sprintf("a run had more than %d targets", mcrMaxTargets)] = true
	}
	return ts
}

// needed keeps of the prefix the solver found for the blocked target e
// only what reaching e with its lock held needs (Huang 2015: the events
// that must happen before it): e, the acquire of the critical section
// that holds the lock, and, for every event kept, the earlier events of
// its thread, the events it must follow (MCREvent.After), the write each
// of its reads reads from (the last write before it in the prefix that
// touches the bytes read), and, of two critical sections of one lock
// kept, the release of the first. The solver places other events before e
// too, as any order allows; run, they would take the other goroutines
// past the states where they wait as well (two philosophers each holding
// a fork).
func (m *MCR) needed(e int32, prefix []int32) []int32 {
	pos := make(map[int32]int, len(prefix))
	for i, x := range prefix {
		pos[x] = i
	}
	prev, rel := m.prev, m.rel
	acquired := map[int32][]int32{} // lock -> its acquires kept
	keep := map[int32]bool{}
	var stack []int32
	add := func(x int32) {
		if _, ok := pos[x]; ok && !keep[x] {
			keep[x] = true
			stack = append(stack, x)
		}
	}
	add(e)
	if h := m.holder(e, prefix, pos); h >= 0 {
		add(h)
	}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		ev := m.tr.Events[x]
		if prev[x] >= 0 {
			add(prev[x])
		}
		for _, a := range ev.After {
			add(a)
		}
		for _, a := range ev.Acc {
			if !a.Read {
				continue
			}
			for k := pos[x] - 1; k >= 0; k-- {
				if m.writes(prefix[k], a.Loc, a.Mask) {
					add(prefix[k])
					break
				}
			}
		}
		if ev.K == wire.MCRAcquire && x != e {
			// Of two critical sections of one lock kept, the first must
			// end before the second begins.
			for _, y := range acquired[ev.Obj] {
				first := y
				if pos[x] < pos[y] {
					first = x
				}
				if u := rel[first]; u >= 0 {
					add(u)
				}
			}
			acquired[ev.Obj] = append(acquired[ev.Obj], x)
		}
	}
	kept := make([]int32, 0, len(keep))
	for _, x := range prefix {
		if keep[x] {
			kept = append(kept, x)
		}
	}
	return kept
}

// holder returns the acquire, in the prefix, of another thread's critical
// section of e's lock that is open at e (exclusive, when e is a read
// lock's acquire), or -1.
func (m *MCR) holder(e int32, prefix []int32, pos map[int32]int) int32 {
	ev := m.tr.Events[e]
	open := map[int32]int32{} // thread -> its open acquire of the lock
	for _, x := range prefix[:pos[e]] {
		switch r := m.tr.Events[x]; {
		case r.Obj != ev.Obj || r.T == ev.T || (r.Shared && ev.Shared):
		case r.K == wire.MCRAcquire:
			open[r.T] = x
		case r.K == wire.MCRRelease:
			delete(open, r.T)
		}
	}
	h := int32(-1)
	for _, x := range open {
		h = max(h, x)
	}
	return h
}

// writes reports whether event w writes bytes of mask at loc.
func (m *MCR) writes(w, loc int32, mask uint64) bool {
	for _, a := range m.tr.Events[w].Acc {
		if a.Write && a.Loc == loc && a.Mask&mask != 0 {
			return true
		}
	}
	return false
}

// blockedTargets asks, for every Mutex acquire of the trace whose lock
// another thread also takes, for a state in which its goroutine waits
// there while the other thread holds the lock: values alone never show
// the other order of two critical sections that read nothing of each
// other, and a lock-order inversion's deadlock is such a state.
func (m *MCR) blockedTargets() []wire.MCRTarget {
	users := map[int32]int32{} // lock -> a thread taking it, or -1: several
	for _, e := range m.tr.Events {
		if e.K != wire.MCRAcquire {
			continue
		}
		if u, ok := users[e.Obj]; !ok {
			users[e.Obj] = e.T
		} else if u != e.T {
			users[e.Obj] = -1
		}
	}
	var ts []wire.MCRTarget
	for i, e := range m.tr.Events {
		if e.K == wire.MCRAcquire && users[e.Obj] == -1 {
			ts = append(ts, wire.MCRTarget{Event: int32(i), Blocked: true})
		}
	}
	return ts
}

// enqueue queues the plan of a prefix the solver found for target t,
// unless its state was queued before. A state is named by how far each
// thread got, what each read of the prefix returned and what memory it
// leaves: a value, or, for a value that looks like an address (which
// differs from run to run), the step of the write that made it.
func (m *MCR) enqueue(t wire.MCRTarget, prefix []int32) {
	var plan mcrPlan
	counts := map[int32]int32{}
	h := uint64(fnvOffset)
	mix := func(x uint64) { h = (h ^ x) * fnvPrime }
	if t.Blocked && len(prefix) > 0 {
		// The acquire is reached, not run: the goroutine waits there,
		// the other goroutines no further than the wait needs.
		prefix = m.needed(t.Event, prefix)
		prefix = prefix[:len(prefix)-1]
		s := m.steps[t.Event]
		mix(^uint64(0) - 1)
		mix(uint64(s.T)<<32 | uint64(uint32(s.N)))
	}
	type writer struct {
		s mcrStep
		v uint64
	}
	last := map[int32]writer{}
	for _, in := range m.tr.Init {
		last[in.Loc] = writer{mcrStep{T: -1}, in.V}
	}
	for _, i := range prefix {
		if i < 0 || int(i) >= len(m.steps) {
			m.failed = fmt.Errorf("strategy mcr: the solver's prefix names event %d of %d", i, len(m.steps))
			return
		}
		s := m.steps[i]
		plan.Steps = append(plan.Steps, s)
		counts[s.T]++
		for j, a := range m.tr.Events[i].Acc {
			if !a.Read {
				continue
			}
			w := last[a.Loc]
			mix(uint64(s.T)<<40 | uint64(s.N)<<8 | uint64(j))
			if v := w.v & a.Mask; v < 1<<32 {
				mix(v)
			} else {
				mix(uint64(w.s.T)<<32 | uint64(uint32(w.s.N)))
			}
		}
		for _, a := range m.tr.Events[i].Acc {
			if a.Write {
				old := last[a.Loc]
				last[a.Loc] = writer{s, old.v&^a.Mask | a.WV&a.Mask}
			}
		}
	}
	for _, k := range sortedKeys(counts) {
		mix(uint64(k))
		mix(uint64(counts[k]))
	}
	// The memory the prefix leaves, which the reads to come will see: by
	// location in the order the trace first touched them.
	for _, in := range m.tr.Init {
		w := last[in.Loc]
		if w.v < 1<<32 {
			mix(w.v)
		} else {
			mix(uint64(w.s.T)<<32 | uint64(uint32(w.s.N)))
		}
	}
	if m.queued[h] {
		return
	}
	m.queued[h] = true
	kept := make(map[int32]bool, len(prefix))
	for _, e := range prefix {
		kept[e] = true
	}
	for i, s := range m.steps {
		if !kept[int32(i)] {
			plan.Tail = append(plan.Tail, s)
		}
	}
	if m.inQueue+len(plan.Steps)+len(plan.Tail) > m.MaxQueued {
		m.incomplete[fmt.Sprintf("more states were found than the queue holds (%d steps of plans)", m.MaxQueued)] = true
		return
	}
	m.inQueue += len(plan.Steps) + len(plan.Tail)
	m.queue = append(m.queue, plan)
}

const fnvOffset, fnvPrime = 14695981039346656037, 1099511628211

func sortedKeys[V any](mp map[int32]V) []int32 {
	ks := make([]int32, 0, len(mp))
	for k := range mp {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool { return ks[i] < ks[j] })
	return ks
}
