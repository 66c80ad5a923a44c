package regress

import (
	"interleave.dev/rt/internal/event"
	"interleave.dev/rt/internal/strategy"
)

// Regression steers iterations toward an interleaving similar to a bug
// signature taken from an earlier version of the program: RegressionMaple's
// regression scheduler (Tsui, Wu, Chan, section 3.4, Algorithm 1), with
// the window and distance searched automatically instead of by hand.
//
// In an iteration at level l (window w, distance d) the signature events
// e1..ek are matched in order: an executed event similar to the next one,
// e_i, whose goroutine and object are consistent with the events matched
// before (same signature goroutine: same goroutine; same signature object:
// same object; different ones: different), matches it. At a thread choice
// point a goroutine whose pending event matches e_i is preferred; one
// whose pending event is similar to a later e_j is postponed (not chosen
// while another goroutine can run) until e_{j-1} has happened; and one
// that matched an earlier event is paused where it is until the events of
// other goroutines before its next one have happened: the pause and
// postpone of active testing. Other choices are uniform.
//
// Every pending event with an operation of the signature is also measured
// against the signature, whatever the level. A signature event with no
// similar event at the iteration's level is matched at the tightest level
// at which a similar event was seen (in this iteration or an earlier one):
// the paper's "jump", without a human choosing it, so that a helper
// extracted or renamed is matched in the first iteration. The iteration's
// level starts exact (w=0, d=0) and loosens along Ladder when its
// iterations do not expose the bug (the paper's "cut", from exact to loose
// as section 3.5 advises): after four that matched the whole signature,
// two that did not, going past the levels at which the first unmatched
// event had no consistent similar event. After a failed iteration at a
// level, later instances of similar events are tried too (skip). Every
// third iteration from the third on is left to chance, since a partial fix
// may change how the bug is triggered (section 2.3). After the loosest
// level the ladder starts again.
type Regression struct {
	rng     *strategy.Rand
	sig     []SigEvent
	sitePos func(site uint32) Pos
	ops     [256]bool // operations of the signature

	level int // index in Ladder of the current iteration
	tries int // iterations run at level
	max   int // loosest level tried

	// Per iteration.
	pend  map[int32]*pendingCtx // goroutine -> its pending event
	next  int                   // signature events matched
	gBind []int32               // signature goroutine label -> goroutine (0: unbound)
	oBind []int32               // signature object label -> object
	need  []int                 // per signature event: tightest ladder index seen in this iteration (len(Ladder): none)
	best  []int                 // the same over the earlier iterations
	used  int                   // loosest level a match of this iteration needed
	skip  []int                 // per signature event: similar events to let pass before matching
	iter  int                   // iterations begun
	free  bool                  // this iteration is left to chance
	full  bool                  // an earlier iteration at this level matched the whole signature
	cache map[uint64]*strategy.Context
	// held are the locks each goroutine holds; inside maps the key of a
	// lock acquisition (site and stack) to the signature events (a bit
	// each) that similar events inside its critical section matched, in
	// this iteration or earlier ones: a goroutine about to take that lock
	// is about to perform them, which is where it must wait.
	held   map[int32][]heldLock
	inside map[uint64]uint32
	// A started goroutine runs its first operation without a choice point
	// of its own: its start is the choice. spawnSite maps a goroutine to
	// the go statement that started it (goroutines are numbered in
	// creation order, the test goroutine being 1), fresh marks those not
	// yet past their first operation, and first maps a go statement to the
	// first operation its goroutines performed, so that a start can be
	// postponed like that operation.
	spawns    int32
	spawnSite map[int32]uint32
	fresh     map[int32]bool
	first     map[uint32]*pendingCtx
	matched   int // of the last iteration
	last      int // level of the last iteration
}

type pendingCtx struct {
	ev  event.Event
	pos Pos
	ctx *strategy.Context
	key uint64 // site and stack
}

// heldLock is a lock a goroutine holds, by the key of its acquisition.
type heldLock struct {
	obj int32
	key uint64
}

func isLock(op event.Op) bool {
	return op == event.OpLock || op == event.OpRLock || op == event.OpWLock
}

func isUnlock(op event.Op) bool {
	return op == event.OpUnlock || op == event.OpRUnlock || op == event.OpWUnlock
}

// NewRegression returns the regression strategy for sig (1 to 4 events);
// sitePos gives the source position of a site.
func NewRegression(seed int64, sig []SigEvent, sitePos func(uint32) Pos) *Regression {
	r := &Regression{
		rng:     strategy.NewRand(seed, 0x5),
		sig:     sig,
		sitePos: sitePos,
		pend:    make(map[int32]*pendingCtx),
		cache:   make(map[uint64]*strategy.Context),
		held:    make(map[int32][]heldLock),
		inside:  make(map[uint64]uint32),

		spawnSite: make(map[int32]uint32),
		fresh:     make(map[int32]bool),
		first:     make(map[uint32]*pendingCtx),
	}
	for _, s := range sig {
		r.ops[s.Op] = true
	}
	r.gBind = make([]int32, len(sig)+1)
	r.oBind = make([]int32, len(sig)+1)
	r.need = make([]int, len(sig))
	r.skip = make([]int, len(sig))
	r.best = make([]int, len(sig))
	for i := range r.best {
		r.best[i] = len(Ladder)
	}
	return r
}

// Name implements Strategy.
func (r *Regression) Name() string { return "regression" }

// Begin implements Strategy; the space never runs out.
func (r *Regression) Begin() bool {
	clear(r.pend)
	clear(r.held)
	clear(r.spawnSite)
	clear(r.fresh)
	r.spawns = 0
	clear(r.gBind)
	clear(r.oBind)
	for i := range r.need {
		r.need[i] = len(Ladder)
	}
	r.next = 0
	r.used = r.level
	// A partial fix may change how the bug is triggered (section 2.3),
	// and steering toward the old trigger then holds the new one back:
	// every third iteration from the third on is left to chance, while
	// the strategy goes on learning from it.
	r.iter++
	r.free = r.iter >= 3 && r.iter%3 == 0
	// The first similar events are matched first (Algorithm 1); once
	// that failed at this level, later instances are tried too (a loop's
	// second round, the next message).
	for j := range r.skip {
		r.skip[j] = 0
		if r.tries > 0 && r.rng.Intn(2) == 0 {
			r.skip[j] = 1 + r.rng.Intn(2)
		}
	}
	return true
}

// levelOf is the level at which signature event j is matched: the
// iteration's level, or the tightest one at which a similar event was
// seen at all, if that is looser. So the first iteration already matches
// the events of a helper extracted or renamed, without waiting for the
// ladder to get there; a run at a tight level that saw no similar event
// does not count as a try of that level.
func (r *Regression) levelOf(j int) int {
	n := r.need[j]
	if r.best[j] < n {
		n = r.best[j]
	}
	if n < r.level {
		n = r.level
	}
	return n
}

// Pending implements Observer: it takes the stack of a pending event whose
// operation is in the signature and measures it against the signature.
func (r *Regression) Pending(ev event.Event) {
	fresh := r.fresh[ev.G]
	delete(r.fresh, ev.G)
	if (!r.ops[ev.Op] && !isLock(ev.Op)) || ev.G == 0 {
		delete(r.pend, ev.G)
		return
	}
	pcs := strategy.Callers()
	h := uint64(fnvOff)
	for _, pc := range pcs {
		h = (h ^ uint64(pc)) * fnvPrm
	}
	c, ok := r.cache[h]
	if !ok {
		cc := strategy.Resolve(pcs)
		c = &cc
		r.cache[h] = c
	}
	p := &pendingCtx{ev: ev, pos: r.sitePos(ev.Site), ctx: c, key: (h ^ uint64(ev.Site)) * fnvPrm}
	r.pend[ev.G] = p
	if site, ok := r.spawnSite[ev.G]; ok && fresh {
		r.first[site] = p
	}
	for j := range r.sig {
		if w, d, ok := r.sig[j].Need(ev.Op, p.pos, c); ok {
			for li := 0; li < r.need[j]; li++ {
				if Ladder[li].covers(w, d) {
					r.need[j] = li
					break
				}
			}
		}
	}
}

const fnvOff, fnvPrm = 14695981039346656037, 1099511628211

// pendingOf returns the context of g's pending event ev, if it was taken.
func (r *Regression) pendingOf(ev event.Event) *pendingCtx {
	p := r.pend[ev.G]
	if p == nil || p.ev != ev {
		return nil
	}
	return p
}

// matches reports whether p is similar to signature event j at the
// current level, consistently with the events matched so far.
func (r *Regression) matches(p *pendingCtx, j int) bool {
	s := &r.sig[j]
	l := r.levelOf(j)
	if l >= len(Ladder) || !s.Similar(p.ev.Op, p.pos, p.ctx, Ladder[l]) {
		return false
	}
	return consistent(r.gBind, s.Goroutine, p.ev.G) && (s.Object == 0 || p.ev.Obj == 0 || consistent(r.oBind, s.Object, p.ev.Obj))
}

// consistent reports whether label may stand for id: it is bound to id,
// or unbound while id is bound to no other label.
func consistent(bind []int32, label int, id int32) bool {
	if bind[label] != 0 {
		return bind[label] == id
	}
	if id == 0 {
		return false
	}
	for _, b := range bind {
		if b == id {
			return false
		}
	}
	return true
}

// Executed implements Observer: an event similar to the next signature
// event matches it.
func (r *Regression) Executed(ev event.Event, _ int) {
	switch {
	case ev.Op == event.OpSpawn:
		r.spawns++
		r.spawnSite[r.spawns+1] = ev.Site
	case ev.Op == event.OpStart:
		r.fresh[ev.G] = true
	case isUnlock(ev.Op):
		hs := r.held[ev.G]
		for i := len(hs) - 1; i >= 0; i-- {
			if hs[i].obj == ev.Obj {
				r.held[ev.G] = append(hs[:i], hs[i+1:]...)
				break
			}
		}
	case isLock(ev.Op):
		if p := r.pendingOf(ev); p != nil {
			r.held[ev.G] = append(r.held[ev.G], heldLock{ev.Obj, p.key})
		}
	}
	if !r.ops[ev.Op] {
		return
	}
	p := r.pendingOf(ev)
	if p == nil {
		return
	}
	if hs := r.held[ev.G]; len(hs) > 0 {
		for j := range r.sig {
			if l := r.levelOf(j); l < len(Ladder) && r.sig[j].Similar(ev.Op, p.pos, p.ctx, Ladder[l]) {
				for _, h := range hs {
					r.inside[h.key] |= 1 << j
				}
			}
		}
	}
	if r.next >= len(r.sig) || !r.matches(p, r.next) {
		return
	}
	if r.skip[r.next] > 0 {
		r.skip[r.next]--
		return
	}
	s := &r.sig[r.next]
	if l := r.levelOf(r.next); l > r.used {
		r.used = l
	}
	r.gBind[s.Goroutine] = ev.G
	if s.Object != 0 {
		r.oBind[s.Object] = ev.Obj
	}
	r.next++
}

// Choose implements Strategy.
func (r *Regression) Choose(p *strategy.Point) int {
	if p.Kind != strategy.Thread || r.next >= len(r.sig) || r.free {
		return r.rng.Intn(len(p.Options))
	}
	var advance, free, postponed []int
	for i, o := range p.Options {
		pc := r.pendingOf(o.Ev)
		if o.Ev.Op == event.OpStart {
			pc = r.startAs(o.G)
		}
		switch {
		case o.G == 0:
			free = append(free, i)
		case pc != nil && r.matches(pc, r.next) && r.skip[r.next] == 0:
			advance = append(advance, i)
		case r.paused(o.G) || (pc != nil && r.later(pc)) || (pc != nil && r.lockBeforeLater(pc)):
			postponed = append(postponed, i)
		default:
			free = append(free, i)
		}
	}
	switch {
	case len(advance) > 0 && (len(free) == 0 || r.rng.Intn(4) != 0):
		return advance[r.rng.Intn(len(advance))]
	case len(free) > 0:
		return free[r.rng.Intn(len(free))]
	}
	return postponed[r.rng.Intn(len(postponed))]
}

// paused reports whether goroutine g matched signature events already
// and its next one comes after events of other goroutines that have not
// happened: it waits where it is, before taking any lock that those
// goroutines may need on their way.
func (r *Regression) paused(g int32) bool {
	label := 0
	for l, b := range r.gBind {
		if b == g && l > 0 {
			label = l
		}
	}
	if label == 0 {
		return false
	}
	for j := r.next; j < len(r.sig); j++ {
		if r.sig[j].Goroutine == label {
			return j > r.next
		}
	}
	return false
}

// startAs returns, for a goroutine about to start, the first operation
// goroutines started by the same go statement performed before, as if it
// were pending (its object unknown).
func (r *Regression) startAs(g int32) *pendingCtx {
	site, ok := r.spawnSite[g]
	if !ok {
		return nil
	}
	f := r.first[site]
	if f == nil {
		return nil
	}
	q := *f
	q.ev.G, q.ev.Obj = g, 0
	return &q
}

// lockBeforeLater reports whether p is a lock acquisition whose critical
// section held, before, events similar to later signature events of this
// goroutine's and none similar to the next one: taking the lock now would
// make the goroutine perform them too early, or hold up the goroutines
// that must go first.
func (r *Regression) lockBeforeLater(p *pendingCtx) bool {
	if !isLock(p.ev.Op) {
		return false
	}
	m := r.inside[p.key]
	if m == 0 || m&(1<<r.next) != 0 {
		return false
	}
	for j := r.next + 1; j < len(r.sig); j++ {
		if m&(1<<j) != 0 && consistent(r.gBind, r.sig[j].Goroutine, p.ev.G) {
			return true
		}
	}
	return false
}

// later reports whether p is similar to a signature event after the next
// one: it must wait until the events before that one have happened.
func (r *Regression) later(p *pendingCtx) bool {
	for j := r.next + 1; j < len(r.sig); j++ {
		if r.matches(p, j) {
			return true
		}
	}
	return false
}

// End implements Strategy: choose the level of the next iteration.
func (r *Regression) End(o strategy.Outcome) {
	for j, n := range r.need {
		if n < r.best[j] {
			r.best[j] = n
		}
	}
	if r.used > r.max {
		r.max = r.used
	}
	r.matched, r.last = r.next, r.used
	if o.Finding {
		return
	}
	r.tries++
	if r.next == len(r.sig) {
		r.full = true
	}
	// A level that matched the whole signature without exposing the bug
	// gets four tries (the choices elsewhere are random, and later
	// instances are tried), one that did not two; then the similarity
	// loosens.
	if (r.full && r.tries < 4) || (!r.full && r.tries < 2) {
		return
	}
	r.tries, r.full = 0, false
	next := r.level + 1
	if r.next < len(r.sig) {
		// The first unmatched event had no consistent similar event at
		// the level it was matched at; the levels up to there are the
		// same for it: go past them.
		if l := r.levelOf(r.next) + 1; l > next && l < len(Ladder) {
			next = l
		}
	}
	r.level = next
	if r.level >= len(Ladder) {
		r.level = 0 // from exact again: the budget goes on
	}
}

// Last returns the level of the last iteration (the loosest level its
// matches needed), how many signature events it matched, and whether it
// was steered (not left to chance).
func (r *Regression) Last() (l Level, matched int, steered bool) {
	return Ladder[r.last], r.matched, !r.free
}

// Loosest returns the loosest level tried.
func (r *Regression) Loosest() Level {
	m := r.max
	if r.level > m {
		m = r.level
	}
	return Ladder[m]
}

// Woke implements Observer; regression does not need it.
func (r *Regression) Woke(int32) {}
