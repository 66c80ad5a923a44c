package hapset

import (
	"fmt"
	"runtime"
	"strings"

	"interleave.dev/rt/internal/event"
	"interleave.dev/rt/internal/strategy"
	"interleave.dev/rt/internal/strategy/dpor"
)

// HaPSet is the HaPSet-guided systematic search of Wang, Said and Gupta,
// "Coverage guided systematic concurrency testing", ICSE 2011.
//
// A statement is a site together with the k innermost call sites of its
// goroutine's stack (section 3, the tuple (file, line, thr, ctx); the
// thread flag distinguishes the two ends of a pair, and a pair always
// joins two goroutines, so the ordered pair carries it). The HaPSet of a
// statement is the set of statements of other goroutines whose events it
// was ever immediately dependent on (event.Conflicts on one object, the
// last access of that other goroutine to it; unlocks are left out) in the
// good runs seen so far (Definition 1, Algorithm 2). HaPSets are learned
// from a few random runs first (Algorithm 1, when nothing was learned
// before) and then from every run of the search (Algorithm 5, continuous
// learning), and they persist between explorations (HaPSets.Save).
//
// The search is dpor, or dpor bounded to K preemptions (section 4,
// Algorithm 4, on the backtracking of dpor.DPOR or of preemption bounding,
// whose backtrack points are races in the paper's framework too): where
// it would make a goroutine's next step t run before an earlier
// transition e1 that it races with (a backtrack point), it does so only
// when stmt(t) is not yet in HaPSet(stmt(e1)): only interleavings that
// show an ordering not covered yet run. The paper looks further back for an uncovered race when the
// latest one is covered; here only the latest race of each step is
// considered, as dpor computes it: looking back over up to 16 earlier
// races found no kernel more and took the two kernels made for HaPSets
// from 15 schedules to 325 and from 13 to 283 (docs/systematic.md). The
// pruning is unsound by design:
// Complete is false even when the guided search runs out, and Summary
// says what was covered.
type HaPSet struct {
	search   *dpor.DPOR
	learn    *strategy.Random
	learnN   int // learning runs left
	learning bool
	store    *HaPSets
	k        int
	siteKey  func(site uint32) uint64
	siteKeys map[uint32]uint64 // siteKey's results, mixed (at most maxCtxs)

	// The execution being run.
	pend  []pendingStmt // by goroutine: the statement of its pending operation
	objs  map[int32]*objAccess
	fresh map[[2]uint64]struct{} // pairs of this execution not in store

	pcs    []uintptr
	ctxs   map[uintptr]uint64 // program counter -> frame key (0: a frame of the tool)
	hidden func(fn string) bool

	// Pruned counts the backtrack points or preemptions skipped as
	// covered; Learning the random runs that learned before the search;
	// After the random runs after it, once it had no uncovered ordering
	// left to try.
	Pruned, Learning, After int
	after                   bool // the guided search is over: random runs use the budget left
}

type pendingStmt struct {
	site  uint32
	stmt  uint64
	valid bool
}

// objAccess is what learning and guidance need of one object: its last
// modifying access and the non-modifying ones since (one per goroutine,
// at most maxReaders).
type objAccess struct {
	mod     access
	readers []access
}

type access struct {
	g    int32
	stmt uint64
}

const (
	maxReaders = 8
	maxCtxs    = 1 << 16
)

// DefaultK is the call sites a statement includes by default.
const DefaultK = 1

// DefaultLearn is the random runs learned from before the search
// when nothing was learned before.
const DefaultLearn = 10

// NewHaPSet returns the guided search over search (dpor, bounded or not),
// with HaPSets store, statements of k call sites and learn random runs
// first when the store is empty. siteKey names a site in terms that
// survive a rebuild (its file, line and column).
func NewHaPSet(search *dpor.DPOR, store *HaPSets, k, learn int, seed int64, siteKey func(uint32) uint64) *HaPSet {
	s := &HaPSet{search: search, store: store, k: k, siteKey: siteKey, learn: strategy.NewRandom(seed),
		objs: map[int32]*objAccess{}, fresh: map[[2]uint64]struct{}{}, ctxs: map[uintptr]uint64{}, hidden: strategy.HiddenFrame,
		siteKeys: map[uint32]uint64{}}
	if store.Len() == 0 {
		s.learnN = learn
	}
	search.Guide(s.guideRace)
	if k > 0 {
		s.pcs = make([]uintptr, 64)
	}
	return s
}

// Name implements Strategy.
func (s *HaPSet) Name() string { return "hapset" }

// Begin implements Strategy: the learning runs, then the search.
func (s *HaPSet) Begin() bool {
	s.pend = s.pend[:0]
	clear(s.objs)
	clear(s.fresh)
	if s.learnN > 0 {
		s.learnN--
		s.Learning++
		s.learning = true
		return s.learn.Begin()
	}
	s.learning = false
	if !s.after && s.search.Begin() {
		return true
	}
	// Nothing uncovered is left for the guided search to try, but the
	// coverage of pairs is no proof: a race or a deadlock may need an
	// order of pairs each seen before. The rest of the budget goes to
	// random runs, which still learn.
	s.after = true
	s.After++
	s.learning = true
	return s.learn.Begin()
}

// Choose implements Strategy.
func (s *HaPSet) Choose(p *strategy.Point) int {
	if s.learning {
		return s.learn.Choose(p)
	}
	return s.search.Choose(p)
}

// End implements Strategy: a run without a finding is a good run, whose
// pairs join the HaPSets.
func (s *HaPSet) End(o strategy.Outcome) {
	if !s.learning {
		s.search.End(o)
	}
	if !o.Finding {
		for pr := range s.fresh {
			s.store.add(pr)
		}
	}
}

// Complete implements Exhaustive: the guided search proves nothing.
func (s *HaPSet) Complete() bool { return false }

// Exhausted reports whether the guided search ran out of interleavings
// that show an uncovered ordering.
func (s *HaPSet) Exhausted() bool {
	return s.search.Bounded()
}

// Pending implements Observer: the statement of ev.G's next operation,
// taken from its own stack.
func (s *HaPSet) Pending(ev event.Event) {
	for int(ev.G) >= len(s.pend) {
		s.pend = append(s.pend, pendingStmt{})
	}
	if p := &s.pend[ev.G]; !p.valid || p.site != ev.Site {
		*p = pendingStmt{site: ev.Site, stmt: s.stmt(ev.Site), valid: true}
	}
	if !s.learning {
		s.search.Pending(ev)
	}
}

// Executed implements Observer: learning (Algorithm 2, at every step),
// then the search's own bookkeeping.
func (s *HaPSet) Executed(ev event.Event, index int) {
	s.record(ev)
	if !s.learning {
		s.search.Executed(ev, index)
	}
}

// Yielded implements strategy.Yielder for the search.
func (s *HaPSet) Yielded(g int32, site uint32) {
	if !s.learning {
		s.search.Yielded(g, site)
	}
}

// Woke implements Observer.
func (s *HaPSet) Woke(g int32) {
	if !s.learning {
		s.search.Woke(g)
	}
}

// stmtOf returns the statement of ev, ev.G's pending operation.
func (s *HaPSet) stmtOf(ev event.Event) uint64 {
	if int(ev.G) < len(s.pend) {
		if p := s.pend[ev.G]; p.valid && p.site == ev.Site {
			return p.stmt
		}
	}
	return s.site(ev.Site)
}

// site is the statement of a site without call sites.
func (s *HaPSet) site(site uint32) uint64 {
	h, ok := s.siteKeys[site]
	if !ok {
		h = strategy.Mix64(s.siteKey(site))
		if len(s.siteKeys) < maxCtxs {
			s.siteKeys[site] = h
		}
	}
	return h
}

// counted reports whether ev takes part in HaPSets: an operation on an
// object, not an unlock (section 3 ignores unlocks), not the timer's.
func counted(ev event.Event) bool {
	if ev.G == 0 || ev.Obj == 0 || ev.Global() {
		return false
	}
	switch ev.Op {
	case event.OpUnlock, event.OpRUnlock, event.OpWUnlock, event.OpStart, event.OpResume, event.OpExit:
		return false
	}
	return true
}

// readLike reports whether op conflicts only with modifying operations.
func readLike(op event.Op) bool { return !op.Modifies() || op == event.OpRLock }

// record learns from ev: for every other goroutine whose last access to
// ev's object conflicts with ev, the pair (its statement, ev's).
func (s *HaPSet) record(ev event.Event) {
	if !counted(ev) {
		if int(ev.G) < len(s.pend) {
			s.pend[ev.G].valid = false
		}
		return
	}
	st := s.stmtOf(ev)
	if int(ev.G) < len(s.pend) {
		s.pend[ev.G].valid = false // its next operation is another
	}
	a := s.objs[ev.Obj]
	if a == nil {
		a = &objAccess{}
		s.objs[ev.Obj] = a
	}
	me := access{g: ev.G, stmt: st}
	if readLike(ev.Op) {
		if a.mod.g != 0 && a.mod.g != ev.G {
			s.pair(a.mod.stmt, st)
		}
		for i := range a.readers {
			if a.readers[i].g == ev.G {
				a.readers[i] = me
				return
			}
		}
		if len(a.readers) < maxReaders {
			a.readers = append(a.readers, me)
		}
		return
	}
	modRead := false
	for _, r := range a.readers {
		if r.g != ev.G {
			s.pair(r.stmt, st)
		}
		modRead = modRead || r.g == a.mod.g
	}
	if a.mod.g != 0 && a.mod.g != ev.G && !modRead {
		s.pair(a.mod.stmt, st)
	}
	a.mod, a.readers = me, a.readers[:0]
}

// pair records that st was immediately dependent on pred.
func (s *HaPSet) pair(pred, st uint64) {
	pr := [2]uint64{pred, st}
	if !s.store.has(pr) && len(s.fresh) < maxHaPSets {
		s.fresh[pr] = struct{}{}
	}
}

// covered reports whether t ran immediately before e1 in a run seen so
// far: stmt(t) in HaPSet(stmt(e1)).
func (s *HaPSet) covered(t, e1 uint64) bool {
	pr := [2]uint64{t, e1}
	if s.store.has(pr) {
		return true
	}
	_, ok := s.fresh[pr]
	return ok
}

// guideRace is dpor's guide: reversing the race of goroutine jg's last
// transition with pe, the pending step of pe.G, would make jg's access
// to pe's object immediately dependent on pe; worth it only if that is
// new.
func (s *HaPSet) guideRace(jg int32, pe event.Event) bool {
	if !counted(pe) {
		return true
	}
	a := s.objs[pe.Obj]
	if a == nil {
		return true
	}
	e1, ok := uint64(0), false
	if !readLike(pe.Op) {
		for _, r := range a.readers {
			if r.g == jg {
				e1, ok = r.stmt, true
			}
		}
	}
	if !ok && a.mod.g == jg {
		e1, ok = a.mod.stmt, true
	}
	if !ok {
		return true
	}
	if s.covered(s.stmtOf(pe), e1) {
		s.Pruned++
		return false
	}
	return true
}

// stmt names the statement at site executed by the calling goroutine:
// the site and its k innermost call sites.
func (s *HaPSet) stmt(site uint32) uint64 {
	h := s.site(site)
	if s.k == 0 {
		return h
	}
	n := runtime.Callers(3, s.pcs)
	own := false
	found := 0
	for _, pc := range s.pcs[:n] {
		v, ok := s.ctxs[pc]
		if !ok {
			v = frameKey(pc, s.hidden)
			if len(s.ctxs) < maxCtxs {
				s.ctxs[pc] = v
			}
		}
		if v == 0 {
			continue
		}
		if !own {
			own = true // the frame of the statement itself: the site says it
			continue
		}
		h = strategy.Mix64(h ^ v)
		if found++; found == s.k {
			break
		}
	}
	return h
}

// frameKey names the call site of return address pc by its function and
// line, or 0 for a hidden frame (of the tool, package runtime or testing).
func frameKey(pc uintptr, hidden func(string) bool) uint64 {
	f := runtime.FuncForPC(pc - 1)
	if f == nil || hidden(f.Name()) {
		return 0
	}
	_, line := f.FileLine(pc - 1)
	return strategy.Mix64(hashString(strategy.ShortFuncName(f.Name())) ^ uint64(line))
}

// hashString is FNV-1a.
func hashString(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// Summary says what the search covered, for go test -v
// (strategy.Summarizer).
func (hs *HaPSet) Summary() string {
	store := hs.store
	var b strings.Builder
	fmt.Fprintf(&b, "HaPSets: %d entries covered, %d new in this run", store.Len(), store.New())
	if hs.Learning > 0 {
		fmt.Fprintf(&b, " (%d random runs learned from first)", hs.Learning)
	}
	fmt.Fprintf(&b, "; %d reorderings skipped as covered", hs.Pruned)
	if hs.Exhausted() {
		b.WriteString("; no uncovered ordering left to try")
	}
	if hs.After > 0 {
		fmt.Fprintf(&b, ", then %d random runs", hs.After)
	}
	if store.Full() {
		b.WriteString("; the store is full, nothing more is learned")
	}
	return b.String()
}

// Store returns the HaPSets the search learns into.
func (hs *HaPSet) Store() *HaPSets { return hs.store }
