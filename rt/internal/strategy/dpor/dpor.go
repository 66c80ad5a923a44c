package dpor

import (
	"interleave.dev/rt/internal/event"
	"interleave.dev/rt/internal/strategy"
)

// Guide sets the function that may veto reversing the race of goroutine
// jg's last transition with the pending event pe (strategy hapset's
// coverage guidance); it returns false to skip it.
func (s *DPOR) Guide(f func(jg int32, pe event.Event) bool) { s.guide = f }

// DPOR is stateless dynamic partial-order reduction with sleep sets
// (Flanagan and Godefroid, "Dynamic partial-order reduction for model
// checking software", POPL 2005: the algorithm of figure 4 with the sleep
// sets of section 5) and source sets (Abdulla et al., "Optimal dynamic
// partial order reduction", POPL 2014, section 4). Like DFS it runs one
// execution per iteration and backtracks, but at a choice point it
// explores another goroutine only when the execution showed a race that
// needs it: a transition j and the next step of a goroutine p that
// conflict (event.Conflicts) and are not ordered by happens-before. Then
// the choice point before j gets one initial of what follows j
// independently of it and then p's step, unless it has one already (p
// itself if p could run there), and every option if none could.
// At least one execution of every Mazurkiewicz trace (executions that
// differ only in the order of independent transitions) runs; sleep sets
// cut most of the executions of a trace already explored short (they run
// to the end, the program cannot be stopped, but add nothing), not all:
// docs/systematic.md measures the rest and says where it comes from.
//
// Go specifics. The next step of every goroutine, enabled or not, comes
// from the scheduler (Observer.Pending), so a blocked Lock races with the
// Lock that holds the mutex. A select's step touches all its channels.
// Local nondeterminism (which ready case a select takes, which object a
// sync.Pool returns) is a Select choice point, where every option is
// explored. The timer is goroutine 0 and its firing conflicts with
// everything (event.Global): every place where the scheduler offers it is
// explored. Where the scheduler offers fewer options than the goroutines
// that could run (fairness, a due timer), DPOR adds every option offered.
//
// Bounded (NewBounded) it is dpor combined with preemption bounding
// (Coons, Musuvathi and McKinley, "Bounded partial-order reduction",
// OOPSLA 2013, section 4): a backtrack option whose choice would make the
// execution exceed K preemptions (pcb's definition) is not explored, and
// a race whose reversal needs a preemption also schedules the racing
// goroutine at the last context switch before it, where it costs no more
// preemptions, so that the states pcb reaches within K are still reached.
// Bounded, the goroutine that reached a point goes on by default, as under
// pcb, and sleep sets are not kept: a transition explored from an earlier
// state may have been explored with fewer preemptions left, and letting
// it sleep lost an outcome of lastzero(3) with K = 0 (TestBoundedDPOR).
//
// With wakeup trees (NewOptimal, wakeup.go) it is optimal DPOR
// (Abdulla et al. 2014, section 6): a race adds the whole sequence that
// reverses it, which the next execution follows, unless an explored or
// scheduled sequence covers it already. Each race of a pending step
// counts, not only the last (two read-locks both race with an Unlock),
// and a Lock that waits for a mutex races with the acquire before the
// Unlock that frees it, not with the Unlock.
//
// Complete reports whether the space was covered: every backtrack point
// explored, no execution longer than the bounds.
type DPOR struct {
	maxDepth int
	nodes    []dnode
	h        *hb
	depth    int
	node     int32 // the last Thread choice point, until the next event
	fpNode   int32 // node whose chosen transition is being recorded, or -1
	sleep    []sleeper
	blocked  bool // the execution reached a state whose options all sleep
	started  bool
	done     bool
	cut      bool
	inexact  bool // the program did not repeat itself under a replayed prefix
	// guide, when set, may veto reversing the race of goroutine jg's last
	// transition with the pending step pe (the HaPSet strategy).
	guide   func(jg int32, pe event.Event) bool
	bound   int   // preemptions at most (-1: none)
	pre     int32 // preemptions of the execution so far
	dropped bool  // an option beyond the bound was not explored

	// With wakeup trees (NewOptimal, wakeup.go): the step being
	// followed (nil: none), whether its event is still to run, the
	// Select choices used since the last event, the depth from which the
	// execution follows it, and whether the next choice point explores
	// every option (the execution left its sequence). The events of the
	// execution are logged, and where each transition's start in the log.
	optimal bool
	gcur    *wnode
	grem    bool
	gsel    int
	gfrom   int
	widen   bool
	selBuf  []int32 // Select choices made since the last event
	evlog   []logged
	trEv    []int32
	lastOp  int32 // goroutine of the last event if it was an operation, or -1

	// offered is, by goroutine, the last Thread choice point that could
	// have started it while it had not run yet (-1: none).
	offered []int32

	// Split into rounds (dporsplit.go): the jobs, and the job being
	// explored, whose root is node root (-1: none) and which backtracks
	// at nodes from floor down; the races it found with nodes up to its
	// root, for the search to reverse.
	jobs     Jobs
	job      *Job
	root     int32
	floor    int32
	exports  []dporRace
	exported map[uint64]bool // hashes of the races exported
	ran      int
	firstLen int32 // the choice points of the job's first execution

	// Executions counts the iterations run; SleepBlocked those cut short
	// by sleep sets; Diverged the times an execution could not follow its
	// wakeup sequence.
	Executions, SleepBlocked, Diverged int
}

type dnode struct {
	kind      strategy.Kind
	gs        []int32 // goroutine of each option (Thread points)
	chosen    int
	backtrack []bool
	done      []bool
	fps       [][]event.Event // footprint of the transition each option ran
	sleep     []sleeper       // the sleep set on arrival
	maxObj    int32           // objects numbered before the point: up to maxObj,
	minObj    int32           // and memory words down to minObj
	cur       int32           // Point.Current
	pre       int32           // preemptions of the path before the point
	order     []int           // backtrack options in the order they were added
	sub       []*wnode        // the wakeup subtree of each option (nil: none)
	rank      []int32         // when each option was explored from it: 1, 2, ... (0: not)
	started   int32           // options explored from it
}

// start takes option k as the one explored next from n.
func (n *dnode) start(k int) {
	n.chosen, n.done[k] = k, true
	n.started++
	n.rank[k] = n.started
}

// mark adds option k to the backtrack set.
func (n *dnode) mark(k int) {
	if !n.backtrack[k] {
		n.backtrack[k] = true
		n.order = append(n.order, k)
	}
}

// markAll adds every option to the backtrack set.
func (n *dnode) markAll() {
	for k := range n.backtrack {
		n.mark(k)
	}
}

// preempts reports whether choosing option k at n is a preemption: the
// goroutine that reached the point could go on and another option runs.
func (n *dnode) preempts(k int) bool {
	if n.kind != strategy.Thread || n.cur == 0 || n.gs[k] == n.cur {
		return false
	}
	for _, g := range n.gs {
		if g == n.cur {
			return true
		}
	}
	return false
}

// switches reports whether the goroutine that runs after n is another than
// the one that reached it: a context switch, free or not.
func (n *dnode) switches() bool { return n.kind == strategy.Thread && n.gs[n.chosen] != n.cur }

func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// A sleeper is a goroutine whose next transition, fp, was explored from an
// earlier state and need not run again until something it conflicts with
// runs. Objects numbered after maxObj (memory words: below minObj) had
// other numbers when fp ran: they conflict with every object numbered
// after it.
type sleeper struct {
	g      int32
	fp     []event.Event
	maxObj int32
	minObj int32
}

// dporLimit bounds the transitions an execution tracks; a longer one is
// explored no further (Complete reports false).
const dporLimit = 1 << 16

// NewSource returns a DPOR strategy; maxDepth <= 0 means 10000 choice points
// per iteration.
func NewSource(maxDepth int) *DPOR {
	if maxDepth <= 0 {
		maxDepth = 10000
	}
	return &DPOR{maxDepth: maxDepth, h: newHB(true, dporLimit), bound: -1, root: -1}
}

// NewOptimal returns DPOR with wakeup trees (wakeup.go) instead of
// source sets alone.
func NewOptimal(maxDepth int) *DPOR {
	s := NewSource(maxDepth)
	s.optimal = true
	return s
}

// NewBounded returns DPOR bounded to k preemptions.
func NewBounded(k, maxDepth int) *DPOR {
	s := NewSource(maxDepth)
	s.bound = max(k, 0)
	return s
}

// Name implements Strategy.
func (s *DPOR) Name() string { return "dpor" }

// Begin implements Strategy: backtrack to the deepest choice point with a
// backtrack option neither done nor asleep (figure 4, the loop over
// backtrack(s) \ done(s) and section 5, minus sleep(s)).
func (s *DPOR) Begin() bool {
	s.depth, s.node, s.fpNode, s.sleep, s.blocked, s.pre = 0, -1, -1, s.sleep[:0], false, 0
	s.gcur, s.widen, s.selBuf, s.gsel = nil, false, s.selBuf[:0], 0
	s.evlog, s.trEv, s.lastOp = s.evlog[:0], s.trEv[:0], -1
	s.offered = s.offered[:0]
	s.h.reset()
	if s.jobs != nil {
		return s.beginJob()
	}
	if !s.started {
		s.started = true
		return true
	}
	if s.backtrackFrom(0) {
		return true
	}
	s.done = true
	return false
}

// backtrackFrom takes the deepest choice point from depth floor down
// with an option to explore, dropping the exhausted ones below it; false
// when there is none.
func (s *DPOR) backtrackFrom(floor int) bool {
	for len(s.nodes) > floor {
		n := &s.nodes[len(s.nodes)-1]
		if s.optimal {
			// Wakeup trees: the options in the order they were added
			// (the tree's order), each following its subtree.
			for _, k := range n.order {
				if !n.done[k] && !(n.kind == strategy.Thread && asleep(n.sleep, n.gs[k])) {
					n.start(k)
					if n.sub != nil && n.sub[k] != nil {
						s.gcur, s.grem, s.gfrom = n.sub[k], true, len(s.nodes)
					}
					return true
				}
			}
			s.nodes = s.nodes[:len(s.nodes)-1]
			continue
		}
		for k := range n.backtrack {
			if n.backtrack[k] && !n.done[k] && !(n.kind == strategy.Thread && asleep(n.sleep, n.gs[k])) {
				if s.bound >= 0 && int(n.pre+b2i(n.preempts(k))) > s.bound {
					n.done[k], s.dropped = true, true
					continue
				}
				n.start(k)
				return true
			}
		}
		s.nodes = s.nodes[:len(s.nodes)-1]
	}
	return false
}

func asleep(z []sleeper, g int32) bool {
	for _, sl := range z {
		if sl.g == g {
			return true
		}
	}
	return false
}

// Choose implements Strategy.
func (s *DPOR) Choose(p *strategy.Point) int {
	d := s.depth
	s.depth++
	if p.Kind == strategy.Thread {
		s.finish()
	}
	if s.blocked {
		return 0
	}
	if p.Kind == strategy.Thread {
		s.offer(int32(d), p)
	}
	if d < len(s.nodes) {
		n := &s.nodes[d]
		if k := s.replayed(n, p); k >= 0 {
			if s.optimal && p.Kind == strategy.Select {
				s.selBuf = append(s.selBuf, int32(k))
			}
			return k
		}
		s.inexact = true
		s.nodes = s.nodes[:d]
		s.gcur = nil
	}
	if d >= s.maxDepth || s.h.off {
		s.cut = true
		s.blocked = true
		return 0
	}
	n := dnode{kind: p.Kind, backtrack: make([]bool, len(p.Options)), done: make([]bool, len(p.Options)), rank: make([]int32, len(p.Options)), maxObj: s.h.maxObj, minObj: s.h.minObj, cur: p.Current, pre: s.pre}
	k := 0
	if p.Kind == strategy.Thread {
		n.gs = make([]int32, len(p.Options))
		n.fps = make([][]event.Event, len(p.Options))
		n.sleep = append([]sleeper(nil), s.sleep...)
		k = -1
		for i, o := range p.Options {
			n.gs[i] = o.G
			if o.G == 0 {
				// The timer conflicts with every transition: fire it
				// wherever it may.
				n.mark(i)
			}
			if k < 0 && !asleep(s.sleep, o.G) {
				k = i
			}
		}
		if s.optimal {
			if g := s.steer(&n, p); g >= 0 {
				k = g
			}
		}
		if c := strategy.CurrentIndex(p); s.bound >= 0 && c >= 0 && !asleep(s.sleep, p.Current) {
			k = c // bounded, going on is the default: it costs no preemption
		}
		if k < 0 {
			// Every option sleeps: this execution is equivalent to one
			// explored already (section 5). It runs on, unobserved.
			s.SleepBlocked++
			s.blocked = true
			return 0
		}
	} else {
		n.markAll()
		if s.optimal {
			// The Select choice the followed step made.
			k = max(s.steerSelect(p.Current, len(p.Options)), 0)
			s.selBuf = append(s.selBuf, int32(k))
		}
	}
	n.mark(k)
	n.start(k)
	s.pre += b2i(n.preempts(k))
	s.nodes = append(s.nodes, n)
	s.enter(int32(len(s.nodes) - 1))
	return k
}

// replayed returns the option of p that node n chose, or -1 if p does not
// match n.
func (s *DPOR) replayed(n *dnode, p *strategy.Point) int {
	if n.kind != p.Kind || len(n.backtrack) != len(p.Options) {
		return -1
	}
	if p.Kind == strategy.Select {
		return n.chosen
	}
	for i, o := range p.Options {
		if o.G != n.gs[i] {
			return -1
		}
	}
	s.pre = n.pre + b2i(n.preempts(n.chosen))
	s.enter(int32(s.depth - 1))
	return n.chosen
}

// enter takes the Thread node d, chosen already: the sleep set below it is
// its own plus the options explored from it before (section 5). (Before
// the chosen one: a search split into rounds, dporsplit.go, may have
// explored options of an ancestor after the one its path takes.)
func (s *DPOR) enter(d int32) {
	n := &s.nodes[d]
	if n.kind != strategy.Thread {
		return
	}
	s.sleep = append(s.sleep[:0], n.sleep...)
	for k, done := range n.done {
		if done && k != n.chosen && n.fps[k] != nil && s.bound < 0 && n.rank[k] < n.rank[n.chosen] {
			s.sleep = append(s.sleep, sleeper{g: n.gs[k], fp: n.fps[k], maxObj: n.maxObj, minObj: n.minObj})
		}
	}
	s.node, s.fpNode = d, d
}

// finish closes the executing transition: it is recorded as the one its
// choice point's option ran, and the sleepers it conflicts with wake up.
func (s *DPOR) finish() {
	h := s.h
	if !h.open || h.cur < 0 || h.off {
		return
	}
	h.cut()
	t := &h.tr[h.cur]
	if s.fpNode >= 0 && t.node == s.fpNode {
		n := &s.nodes[s.fpNode]
		n.fps[n.chosen] = append([]event.Event(nil), t.fp...)
		s.fpNode = -1
	}
	z := s.sleep[:0]
	for _, sl := range s.sleep {
		if sl.g != t.g && !sl.conflicts(t.fp) {
			z = append(z, sl)
		}
	}
	s.sleep = z
}

// fresh reports whether obj was numbered after the sleeper's point.
func (sl *sleeper) fresh(obj int32) bool { return obj > sl.maxObj || obj < sl.minObj }

func (sl *sleeper) conflicts(fp []event.Event) bool {
	for _, a := range sl.fp {
		for _, b := range fp {
			if event.Conflicts(a, b) {
				return true
			}
			if a.G != b.G && sl.fresh(a.Obj) && sl.fresh(b.Obj) {
				return true // fresh objects: perhaps the same one
			}
		}
	}
	return false
}

// Pending implements Observer: FG05 figure 4, for the next step of e.G
// against the last transition it races with.
func (s *DPOR) Pending(e event.Event) {
	if s.blocked {
		return
	}
	j := s.h.pending(e)
	if j < 0 {
		return
	}
	if s.optimal {
		// race does not call races, whose slice is reused.
		for _, r := range s.h.races(e, true) {
			s.race(r, e)
		}
		return
	}
	s.race(j, e)
}

// Executed implements Observer: the new transition happens after what it
// conflicts with, and races with the pending steps of the other
// goroutines it conflicts with (their last race is now this transition).
func (s *DPOR) Executed(ev event.Event, _ int) {
	if s.blocked {
		return
	}
	if !s.h.pended(ev) {
		// A start, resume or exit, or a timer firing: no Pending
		// announced it, and it races with what came before it as a
		// pending step would (FG05, figure 4: next(s, p) of every p at
		// every state, a goroutine's first transition included).
		s.Pending(ev)
	}
	node := s.node
	s.node = -1
	h := s.h
	if node >= 0 || h.cur < 0 || h.tr[h.cur].g != ev.G {
		s.finish()
		if asleep(s.sleep, ev.G) {
			// A sleeping goroutine runs because the scheduler offered
			// nothing else: the state it reaches was explored already
			// (section 5), as at a choice point whose options all sleep.
			s.SleepBlocked++
			s.blocked = true
			return
		}
	}
	i, _, from := h.executed(ev, node)
	if i < 0 {
		return
	}
	if s.optimal {
		glued := s.glued(ev)
		s.log(i, ev, glued)
		if !glued && s.gcur != nil && s.depth >= s.gfrom {
			s.track(ev.G)
		}
	}
	fp := h.tr[i].fp[from:]
	for q := range h.ths {
		th := &h.ths[q]
		if int32(q) == ev.G || len(th.pend) == 0 {
			continue
		}
		for _, pe := range th.pend {
			if conflictsAny(fp, pe) {
				if !s.optimal || !h.releases(i, pe) {
					s.race(i, pe)
				}
				break
			}
		}
	}
}

func conflictsAny(fp []event.Event, e event.Event) bool {
	for _, f := range fp {
		if event.Conflicts(f, e) {
			return true
		}
	}
	return false
}

// Yielded implements strategy.Yielder: g's poll passes it over at the
// next point, which makes the poll a yield, dependent on every step of
// the others (event.Global); it joins g's transition as an OpYield event.
// A spin loop that yields is then explored as a runtime.Gosched one is.
func (s *DPOR) Yielded(g int32, site uint32) {
	s.Executed(event.Event{G: g, Op: event.OpYield, Site: site}, -1)
}

// Woke implements Observer.
func (s *DPOR) Woke(g int32) {
	if !s.blocked {
		s.h.woke(g)
	}
}

// race makes transition j and goroutine pe.G's next step pe run the other way
// round in a later execution. FG05 (figure 4) puts g into the backtrack
// set of the choice point before j, or every option when g cannot run
// there. With source sets (Abdulla et al. 2014, section 4, Algorithm 1)
// any initial of v = notdep(j).g will do: the executions that start with
// it include one equivalent to the execution before j followed by v, in
// which the race is reversed. So nothing is added when an initial is in
// the backtrack set already, or sleeps there (its executions were
// explored, section 5); else one initial is, g when it is one. Without a
// choice point before j only the goroutine that ran j could run there:
// nothing to add. When no initial is an option there (g blocked at that
// point, say), every option becomes a backtrack point.
//
// FG05's rule, g alone even when g's steps after j depend on another
// goroutine's, made dpor miss an outcome of lastzero(3)
// (docs/systematic.md) once sleep sets skipped a sleeping g; the
// initials are what reverses such a race.
func (s *DPOR) race(j int32, pe event.Event) {
	d := s.h.tr[j].node
	if d < 0 {
		return
	}
	if s.guide != nil && !s.guide(s.h.tr[j].g, pe) {
		return
	}
	if s.optimal {
		if w := s.notdep(j, pe.G); w != nil {
			if d <= s.root {
				if n := &s.nodes[d]; !coveredBefore(n, n.chosen, w) && s.firstRace(d, w) {
					s.export(dporRace{Node: d, W: w.detach()})
				}
				return
			}
			s.insert(d, w)
			return
		}
		// Too long to keep: source sets.
	}
	init := s.h.initials(j, pe.G)
	if d <= s.root {
		s.export(dporRace{Node: d, Init: initList(init), G: pe.G})
		return
	}
	s.backtrack(d, init, pe.G)
}

// backtrack adds to the backtrack set of node d an initial of the
// sequence that reverses a race of goroutine g's next step, whose
// initials are init (race).
func (s *DPOR) backtrack(d int32, init map[int32]bool, g int32) {
	n := &s.nodes[d]
	pick := -1
	for k, o := range n.gs {
		if !init[o] {
			continue
		}
		if n.backtrack[k] || asleep(n.sleep, o) {
			if s.bound >= 0 && n.preempts(k) {
				s.conservative(d, o)
			}
			return
		}
		if pick < 0 || o == g {
			pick = k
		}
	}
	if pick >= 0 {
		n.mark(pick)
		if s.bound >= 0 && n.preempts(pick) {
			s.conservative(d, n.gs[pick])
		}
		return
	}
	n.markAll()
	if s.bound >= 0 {
		s.conservative(d, g)
	}
}

// conservative schedules g at the last context switch before node d
// (Coons et al. 2013, section 4.2), where running it costs no preemption
// more than the switch did: g if it is an option there, else every
// option.
func (s *DPOR) conservative(d int32, g int32) {
	for c := d - 1; c >= 0; c-- {
		n := &s.nodes[c]
		if !n.switches() {
			continue
		}
		for k, o := range n.gs {
			if o == g {
				n.mark(k)
				return
			}
		}
		n.markAll()
		return
	}
}

// offer records that Thread choice point d could start the goroutines
// of its options that have not run yet.
func (s *DPOR) offer(d int32, p *strategy.Point) {
	for _, o := range p.Options {
		if o.G == 0 || s.h.ran(o.G) {
			continue
		}
		for int(o.G) >= len(s.offered) {
			s.offered = append(s.offered, -1)
		}
		s.offered[o.G] = d
	}
}

// unstarted reverses, for each goroutine the execution ended without
// running, its "race" with the transition taken at the last choice point
// that could have started it: it runs there in a later execution. Its
// steps are unknown until it runs, so nothing else can order them
// against the others' (FG05, section 3, explores complete executions:
// this one ended with the goroutine enabled, when the test returned).
func (s *DPOR) unstarted() {
	if s.blocked || s.h.off {
		return
	}
	for g, d := range s.offered {
		if d < 0 || s.h.ran(int32(g)) {
			continue
		}
		if j := s.h.after(d); j >= 0 {
			s.race(j, event.Event{G: int32(g), Op: event.OpStart})
		}
	}
}

// End implements Strategy.
func (s *DPOR) End(o strategy.Outcome) {
	s.finish()
	s.unstarted()
	s.Executions++
	if s.job != nil {
		s.ran++
		if s.ran == 1 {
			s.firstLen = int32(len(s.nodes))
		}
		if o.Finding {
			s.endJob(true, false)
		}
	}
}

// Complete implements Exhaustive.
func (s *DPOR) Complete() bool { return s.Bounded() && !s.dropped }

// Bounded reports whether the space was covered within the preemption
// bound (Complete: and nothing lay beyond it).
func (s *DPOR) Bounded() bool { return s.done && !s.cut && !s.inexact }
