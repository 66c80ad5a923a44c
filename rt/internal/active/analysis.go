package active

import (
	"interleave.dev/rt/internal/event"
)

// Bounds of the phase-1 analysis of one run: every table is capped, so a
// long run costs bounded memory (the analyses then see less, and predict
// less, never wrongly more).
const (
	maxGoroutines = 1024 // goroutines analysed per run; later ones are ignored
	maxAccesses   = 8    // remembered accesses per memory word
	maxWords      = 1 << 16
	maxHeld       = 16 // locks held (or taken before) per goroutine
	maxPartners   = 16 // partner operations remembered per channel, WaitGroup, Cond
	maxBlockers   = 1024
	maxCandidates = 256
)

type lockRef struct {
	obj  int32
	site uint32 // where it was acquired (the lock's abstraction)
	read bool   // an RLock
}

// gstate is what the analysis knows of one goroutine of the run.
type gstate struct {
	vc    []uint32  // vector clock, indexed by goroutine id
	held  []lockRef // locks held now, in acquisition order
	taken []lockRef // locks acquired so far (the most recent maxHeld)
	last  event.Event
	// acquire is the synchronization object whose clock the goroutine
	// joins again when it resumes: what woke it released there.
	acquire int32

	// check-then-act: reads done in the goroutine's critical sections,
	// per lock, of the current and of the previous section of that lock.
	csReads   map[int32][]readAt
	prevReads map[int32][]readAt
	reopened  map[int32]uint32 // lock -> site of the Lock that began the current section
	// load-then-store: the site of the last atomic load per word.
	loads map[int32]uint32
	// condBlock is the index in blocks of the Cond.Wait the goroutine
	// just enqueued for, until the Unlock of the Cond's lock (-1: none).
	condBlock int
}

type readAt struct {
	obj  int32
	site uint32
}

type accessRec struct {
	g      int32
	clk    uint32 // the goroutine's own clock at the access
	site   uint32
	write  bool
	atomic bool
	locks  []lockRef
}

type partner struct {
	g     int32
	op    event.Op
	taken []lockRef // locks the goroutine took before the operation
}

type blocker struct {
	g    int32
	op   event.Op
	obj  int32
	site uint32
	held []lockRef
}

type lockDep struct {
	g    int32
	obj  int32
	site uint32
	held []lockRef
}

type candidate struct {
	what          string
	g             int32
	obj           int32
	first, second uint32
	act           uint32 // the write that acts on what was checked
}

// analysis is phase 1 over the events of one run, as they execute: the
// paper's analysis() callback (Algorithm 1), with the lockset and
// vector-clock trackers of section 3.
type analysis struct {
	gs      []*gstate // by id-1
	nextG   int32
	objVC   map[int32][]uint32
	mem     map[int32][]accessRec
	writers map[int32][]readAt // writes per word: goroutine in obj, site
	deps    []lockDep
	blocks  []blocker
	partner map[int32][]partner
	cands   []candidate
	out     *set

	// Lost communication: the cases a goroutine's select announced
	// (pending), and per channel the plain sends and receives and the
	// select cases the run executed.
	cases   map[int32][]event.Event
	plain   map[int32][]chanUse
	selects map[int32][]chanUse
}

// chanUse is a send or receive on a channel: by whom, which, where.
type chanUse struct {
	g    int32
	op   event.Op
	site uint32
}

func newAnalysis(out *set) *analysis {
	return &analysis{
		nextG:   2, // the test's goroutine is 1
		objVC:   make(map[int32][]uint32),
		mem:     make(map[int32][]accessRec),
		writers: make(map[int32][]readAt),
		partner: make(map[int32][]partner),
		out:     out,
		cases:   make(map[int32][]event.Event),
		plain:   make(map[int32][]chanUse),
		selects: make(map[int32][]chanUse),
	}
}

// pending notes the cases a select announces before it runs (pending
// events of a send or receive at the select's site).
func (a *analysis) pending(ev event.Event) {
	if (ev.Op != event.OpSend && ev.Op != event.OpRecv) || ev.Obj == 0 || ev.G <= 0 || ev.G > maxGoroutines {
		return
	}
	if cs := a.cases[ev.G]; len(cs) < maxPartners {
		a.cases[ev.G] = append(cs, ev)
	}
}

// used records a plain channel operation or a select case of the run on
// channel obj, and predicts a lost communication for each plain
// operation whose partner (a send for a receive, a receive for a send)
// was a select case of another goroutine.
func (a *analysis) used(obj int32, u chanUse, sel bool) {
	mine, theirs := a.plain, a.selects
	if sel {
		mine, theirs = a.selects, a.plain
	}
	us := mine[obj]
	for _, x := range us {
		if x == u {
			return
		}
	}
	if len(us) >= maxPartners || (us == nil && len(mine) >= maxWords) {
		return
	}
	mine[obj] = append(us, u)
	for _, x := range theirs[obj] {
		if x.g == u.g || x.op == u.op {
			continue
		}
		op, c := u, x // the plain operation, the select's case
		if sel {
			op, c = x, u
		}
		a.out.add(&Prediction{Kind: Lost, What: "lost communication", Op: op.op, A: op.site, B: c.site})
	}
}

func (a *analysis) g(id int32) *gstate {
	if id <= 0 || id > maxGoroutines {
		return nil
	}
	for int32(len(a.gs)) < id {
		a.gs = append(a.gs, nil)
	}
	s := a.gs[id-1]
	if s == nil {
		s = &gstate{
			csReads:   make(map[int32][]readAt),
			prevReads: make(map[int32][]readAt),
			reopened:  make(map[int32]uint32),
			loads:     make(map[int32]uint32),
			condBlock: -1,
		}
		s.tick(id)
		a.gs[id-1] = s
	}
	return s
}

func (s *gstate) tick(id int32) {
	for int32(len(s.vc)) < id {
		s.vc = append(s.vc, 0)
	}
	s.vc[id-1]++
}

func join(dst *[]uint32, src []uint32) {
	for len(*dst) < len(src) {
		*dst = append(*dst, 0)
	}
	for i, v := range src {
		if v > (*dst)[i] {
			(*dst)[i] = v
		}
	}
}

// release makes what g did so far happen before the next acquire of obj.
func (a *analysis) release(id int32, s *gstate, obj int32) {
	v, ok := a.objVC[obj]
	if !ok && len(a.objVC) >= maxWords {
		// Too many synchronization objects: the edge is lost, which only
		// predicts more.
		s.tick(id)
		return
	}
	join(&v, s.vc)
	a.objVC[obj] = v
	s.tick(id)
}

func (a *analysis) acquire(s *gstate, obj int32) {
	if v, ok := a.objVC[obj]; ok {
		join(&s.vc, v)
	}
}

// event is the analysis of one executed event.
func (a *analysis) event(ev event.Event) {
	if ev.Op == event.OpEnter && ev.G >= a.nextG {
		a.nextG = ev.G + 1
	}
	s := a.g(ev.G)
	if s == nil {
		return
	}
	s.last = ev
	defer delete(a.cases, ev.G) // a select's cases are announced just before it runs
	if ev.Op == event.OpResume && s.acquire != 0 {
		a.acquire(s, s.acquire)
	}
	if ev.Op != event.OpResume {
		s.acquire = 0
	}
	if ev.Op != event.OpUnlock && ev.Op != event.OpWUnlock && ev.Op != event.OpRUnlock && ev.Op != event.OpCondWait {
		s.condBlock = -1
	}
	switch ev.Op {
	case event.OpSpawn:
		child := a.nextG
		a.nextG++
		if c := a.g(child); c != nil {
			join(&c.vc, s.vc)
		}
		s.tick(ev.G)
	case event.OpRead, event.OpWrite:
		a.access(ev, s, ev.Op == event.OpWrite, false)
		if ev.Op == event.OpRead {
			for l := range s.csReads {
				if len(s.csReads[l]) < maxAccesses {
					s.csReads[l] = append(s.csReads[l], readAt{ev.Obj, ev.Site})
				}
			}
		} else {
			a.checkThenAct(ev, s)
			a.wrote(ev)
		}
	case event.OpAtomicLoad:
		a.acquire(s, ev.Obj)
		a.access(ev, s, false, true)
		if len(s.loads) >= maxAccesses {
			clear(s.loads)
		}
		s.loads[ev.Obj] = ev.Site
	case event.OpAtomicStore:
		a.access(ev, s, true, true)
		if r, ok := s.loads[ev.Obj]; ok {
			delete(s.loads, ev.Obj)
			a.candidate(candidate{what: "atomic load-then-store", g: ev.G, obj: ev.Obj, first: r, second: ev.Site, act: ev.Site})
		}
		a.wrote(ev)
		a.release(ev.G, s, ev.Obj)
	case event.OpAtomicRMW:
		a.acquire(s, ev.Obj)
		a.access(ev, s, true, true)
		delete(s.loads, ev.Obj)
		a.wrote(ev)
		a.release(ev.G, s, ev.Obj)
	case event.OpLock, event.OpWLock, event.OpRLock, event.OpTryLock, event.OpTryWLock, event.OpTryRLock:
		// A TryLock that fails is followed by no unlock: counting it as
		// held only adds protection, so predicts less.
		a.lock(ev, s, ev.Op == event.OpRLock || ev.Op == event.OpTryRLock, ev.Op == event.OpTryLock || ev.Op == event.OpTryWLock || ev.Op == event.OpTryRLock)
	case event.OpUnlock, event.OpWUnlock, event.OpRUnlock:
		a.unlock(ev, s)
	case event.OpSend, event.OpRecv:
		a.acquire(s, ev.Obj)
		a.blocking(ev, s)
		a.release(ev.G, s, ev.Obj)
		s.acquire = ev.Obj
		a.used(ev.Obj, chanUse{g: ev.G, op: ev.Op, site: ev.Site}, false)
	case event.OpSelect:
		for _, c := range a.cases[ev.G] {
			if c.Site == ev.Site {
				a.used(c.Obj, chanUse{g: ev.G, op: c.Op, site: ev.Site}, true)
			}
		}
	case event.OpClose, event.OpWGAdd, event.OpCondSignal, event.OpCondBroadcast, event.OpPoolPut, event.OpMapWrite, event.OpCancel:
		a.blocking(ev, s)
		a.release(ev.G, s, ev.Obj)
	case event.OpWGWait, event.OpCondWait:
		a.acquire(s, ev.Obj)
		a.blocking(ev, s)
		s.acquire = ev.Obj
	case event.OpOnce:
		a.acquire(s, ev.Obj)
		a.release(ev.G, s, ev.Obj)
		s.acquire = ev.Obj
	case event.OpPoolGet, event.OpMapRead:
		a.acquire(s, ev.Obj)
	}
}

// access is the hybrid race detection of one memory access (O'Callahan
// and Choi, reference 5 of the paper): two accesses of different
// goroutines to one word, at least one a write and not both atomic, race
// on some schedule if no happens-before edge other than a lock orders them
// (goroutine start, channels, WaitGroup, Once, Cond, atomics: the edges of
// the observed run) and no common lock protects both (the lockset part:
// held locks protect, where a happens-before detector would only see the
// order the run happened to take).
func (a *analysis) access(ev event.Event, s *gstate, write, atomic bool) {
	recs := a.mem[ev.Obj]
	if recs == nil && len(a.mem) >= maxWords {
		return
	}
	for _, r := range recs {
		if r.g == ev.G || !(write || r.write) || (atomic && r.atomic) {
			continue
		}
		if int(r.g) <= len(s.vc) && s.vc[r.g-1] >= r.clk {
			continue // ordered by happens-before
		}
		if protected(r.locks, s.held) {
			continue
		}
		p := &Prediction{Kind: Race, What: "hybrid race", A: r.site, B: ev.Site, WriteA: r.write, WriteB: write}
		if p.A > p.B || (p.A == p.B && !p.WriteA) {
			p.A, p.B, p.WriteA, p.WriteB = p.B, p.A, p.WriteB, p.WriteA
		}
		a.out.add(p)
	}
	rec := accessRec{g: ev.G, clk: s.vc[ev.G-1], site: ev.Site, write: write, atomic: atomic, locks: append([]lockRef(nil), s.held...)}
	// One record per goroutine, site and kind: the latest.
	for i, r := range recs {
		if r.g == rec.g && r.site == rec.site && r.write == rec.write && r.atomic == rec.atomic {
			recs[i] = rec
			return
		}
	}
	if len(recs) >= maxAccesses {
		copy(recs, recs[1:])
		recs = recs[:len(recs)-1]
	}
	a.mem[ev.Obj] = append(recs, rec)
}

// protected reports whether a lock is held by both sides, in write mode
// by at least one of them.
func protected(x, y []lockRef) bool {
	for _, l := range x {
		for _, m := range y {
			if l.obj == m.obj && !(l.read && m.read) {
				return true
			}
		}
	}
	return false
}

func (a *analysis) wrote(ev event.Event) {
	w := a.writers[ev.Obj]
	if w == nil && len(a.writers) >= maxWords {
		return
	}
	for _, x := range w {
		if x.obj == ev.G && x.site == ev.Site {
			return
		}
	}
	if len(w) < maxAccesses {
		a.writers[ev.Obj] = append(w, readAt{obj: ev.G, site: ev.Site})
	}
}

func (a *analysis) lock(ev event.Event, s *gstate, read, try bool) {
	if len(s.held) > 0 && len(a.deps) < maxBlockers && !read && !try {
		a.deps = append(a.deps, lockDep{g: ev.G, obj: ev.Obj, site: ev.Site, held: append([]lockRef(nil), s.held...)})
	}
	l := lockRef{obj: ev.Obj, site: ev.Site, read: read}
	if len(s.held) < maxHeld {
		s.held = append(s.held, l)
	}
	if len(s.taken) >= maxHeld {
		copy(s.taken, s.taken[1:])
		s.taken = s.taken[:len(s.taken)-1]
	}
	s.taken = append(s.taken, l)
	// A new critical section of this lock: the previous one's reads are
	// what a check-then-act checked.
	if r, ok := s.csReads[ev.Obj]; ok {
		s.prevReads[ev.Obj] = r
	}
	if len(s.prevReads) > maxHeld || len(s.reopened) > maxHeld {
		// The sections of locks taken long ago are forgotten.
		clear(s.prevReads)
		clear(s.reopened)
	}
	if len(s.csReads) >= maxHeld {
		return
	}
	s.csReads[ev.Obj] = s.csReads[ev.Obj][:0:0]
	s.reopened[ev.Obj] = ev.Site
}

func (a *analysis) unlock(ev event.Event, s *gstate) {
	if s.condBlock >= 0 {
		// Cond.Wait unlocks the Cond's own lock right after it enqueues:
		// that lock is not held while the goroutine waits.
		b := &a.blocks[s.condBlock]
		for i, h := range b.held {
			if h.obj == ev.Obj {
				b.held = append(b.held[:i], b.held[i+1:]...)
				break
			}
		}
		s.condBlock = -1
	}
	for i := len(s.held) - 1; i >= 0; i-- {
		if s.held[i].obj == ev.Obj {
			s.held = append(s.held[:i], s.held[i+1:]...)
			break
		}
	}
	// The reads of the section stay in csReads until the next Lock of
	// the same lock moves them to prevReads; a read outside any section
	// is not recorded (csReads only has keys for locks taken).
	if r, ok := s.csReads[ev.Obj]; ok {
		s.prevReads[ev.Obj] = r
		delete(s.csReads, ev.Obj)
	}
}

// checkThenAct notes a write, inside a critical section of lock L, to a
// word that the goroutine read in its previous critical section of L: the
// check and the act are split by an Unlock and a Lock, which Lipton's
// reduction cannot move together (Unlock moves left, Lock moves right),
// so another goroutine may change the word in between (Atomizer,
// reference 1 of the paper).
func (a *analysis) checkThenAct(ev event.Event, s *gstate) {
	for _, l := range s.held {
		second, ok := s.reopened[l.obj]
		if !ok {
			continue
		}
		for _, r := range s.prevReads[l.obj] {
			if r.obj == ev.Obj {
				a.candidate(candidate{what: "check-then-act", g: ev.G, obj: ev.Obj, first: r.site, second: second, act: ev.Site})
			}
		}
	}
}

func (a *analysis) candidate(c candidate) {
	for _, d := range a.cands {
		if d.first == c.first && d.second == c.second && d.obj == c.obj {
			return
		}
	}
	if len(a.cands) < maxCandidates {
		a.cands = append(a.cands, c)
	}
}

// blocking records what the lock-and-channel analysis needs: operations
// that may block while the goroutine holds a lock, and the partner
// operations that unblock them with the locks taken before each.
func (a *analysis) blocking(ev event.Event, s *gstate) {
	switch ev.Op {
	case event.OpSend, event.OpRecv, event.OpWGWait, event.OpCondWait:
		if len(s.held) > 0 && len(a.blocks) < maxBlockers {
			if ev.Op == event.OpCondWait {
				s.condBlock = len(a.blocks)
			}
			a.blocks = append(a.blocks, blocker{g: ev.G, op: ev.Op, obj: ev.Obj, site: ev.Site, held: append([]lockRef(nil), s.held...)})
		}
	}
	switch ev.Op {
	case event.OpSend, event.OpRecv, event.OpClose, event.OpWGAdd, event.OpCondSignal, event.OpCondBroadcast:
		ps := a.partner[ev.Obj]
		if len(ps) < maxPartners && len(s.taken) > 0 && (ps != nil || len(a.partner) < maxWords) {
			a.partner[ev.Obj] = append(ps, partner{g: ev.G, op: ev.Op, taken: append([]lockRef(nil), s.taken...)})
		}
	}
}

func partners(block, p event.Op) bool {
	switch block {
	case event.OpRecv:
		return p == event.OpSend || p == event.OpClose
	case event.OpSend:
		return p == event.OpRecv
	case event.OpWGWait:
		return p == event.OpWGAdd
	case event.OpCondWait:
		return p == event.OpCondSignal || p == event.OpCondBroadcast
	}
	return false
}

// finish turns what the run showed into predictions.
func (a *analysis) finish() {
	a.lockCycles()
	a.lockAndWait()
	for _, c := range a.cands {
		p := &Prediction{Kind: Atomicity, What: c.what, First: c.first, Second: c.second}
		for _, w := range a.writers[c.obj] {
			if w.obj != c.g {
				p.addConflict(w.site)
			}
		}
		// Another goroutine that touched the word may run the same block:
		// its act is then the conflicting write (two callers that both
		// check before either acts), though no such write was seen.
		for _, r := range a.mem[c.obj] {
			if r.g != c.g {
				p.addConflict(c.act)
				break
			}
		}
		if len(p.Conflicts) > 0 {
			a.out.add(p)
		}
	}
}

// Bounds of the cycle search: goroutines in a cycle, and steps of the
// search per run (a run with many nested locks is searched in part).
const (
	maxCycle      = 6
	maxCycleSteps = 1 << 16
)

// lockCycles is iGoodlock (reference 3 of the paper) on the run's lock
// dependencies (goroutine, locks held, lock acquired): chains of
// dependencies of distinct goroutines, each acquiring a lock the next
// holds, with pairwise disjoint held sets (a common gate lock prevents the
// deadlock), closing into a cycle of at most maxCycle goroutines (the
// five philosophers' is one of five).
func (a *analysis) lockCycles() {
	holds := func(d lockDep, obj int32) (lockRef, bool) {
		for _, h := range d.held {
			if h.obj == obj {
				return h, true
			}
		}
		return lockRef{}, false
	}
	disjoint := func(x, y []lockRef) bool {
		for _, l := range x {
			for _, m := range y {
				if l.obj == m.obj {
					return false
				}
			}
		}
		return true
	}
	emit := func(chain []int) {
		cyc := make([]Component, len(chain))
		for i, k := range chain {
			d := a.deps[k]
			prev := a.deps[chain[(i+len(chain)-1)%len(chain)]]
			h, _ := holds(d, prev.obj)
			cyc[i] = Component{Held: h.site, Op: event.OpLock, At: d.site}
		}
		a.out.add(&Prediction{Kind: Deadlock, What: "lock-order cycle", Cycle: canonical(cyc)})
	}
	steps := 0
	var extend func(chain []int)
	extend = func(chain []int) {
		first, last := a.deps[chain[0]], a.deps[chain[len(chain)-1]]
		if len(chain) > 1 {
			if _, ok := holds(first, last.obj); ok {
				emit(chain)
				return
			}
		}
		if len(chain) == maxCycle {
			return
		}
	next:
		// The chain starts at its smallest index: each cycle is found
		// from one place only.
		for k := chain[0] + 1; k < len(a.deps); k++ {
			if steps++; steps > maxCycleSteps {
				return
			}
			d := a.deps[k]
			if _, ok := holds(d, last.obj); !ok {
				continue
			}
			for _, c := range chain {
				if a.deps[c].g == d.g || !disjoint(a.deps[c].held, d.held) {
					continue next
				}
			}
			extend(append(chain, k))
		}
	}
	for i := range a.deps {
		extend([]int{i})
	}
}

// lockAndWait extends iGoodlock to waits that are not locks: a goroutine
// that holds lock m while it blocks on a channel operation, a
// WaitGroup.Wait or a Cond.Wait, and another goroutine that takes m before
// the partner operation that would unblock it. If the second reaches its
// Lock while the first holds m and waits, neither goes on.
func (a *analysis) lockAndWait() {
	for _, b := range a.blocks {
		for _, p := range a.partner[b.obj] {
			if p.g == b.g || !partners(b.op, p.op) {
				continue
			}
			for _, h := range b.held {
				for _, t := range p.taken {
					if t.obj != h.obj || t.read && h.read {
						continue
					}
					what := "lock and channel"
					switch b.op {
					case event.OpWGWait:
						what = "lock and WaitGroup"
					case event.OpCondWait:
						what = "lock and Cond"
					}
					a.out.add(&Prediction{Kind: Deadlock, What: what, Cycle: []Component{
						{Held: h.site, Op: b.op, At: b.site},
						{Op: event.OpLock, At: t.site},
					}})
				}
			}
		}
	}
}
