package strategy

import (
	"interleave.dev/rt/internal/event"
)

// Observer is implemented by strategies that follow the events of an
// iteration, not only its choice points.
type Observer interface {
	// Pending is called by goroutine ev.G itself when it reports ev, the
	// operation it is about to perform, so that the strategy can take the
	// goroutine's call stack (Callers).
	Pending(ev event.Event)
	// Executed is called when ev is performed (recorded in the trace);
	// index counts the events of the iteration from 0.
	Executed(ev event.Event, index int)
}

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
// point a goroutine whose pending event matches e_i is preferred, and one
// whose pending event is similar to a later e_j is postponed (not chosen
// while another goroutine can run) until e_{j-1} has happened: the pause
// and postpone of active testing. Other choices are uniform.
//
// Every pending event with an operation of the signature is also measured
// against the signature, whatever the level, so that after an iteration the
// strategy knows the tightest level at which every signature event had a
// similar event at all; the next iteration jumps there (the paper's "jump"
// without a human choosing it). A level whose iterations matched the whole
// signature without exposing the bug is tried three times, then the
// similarity loosens (the paper's "cut", in the other direction: exact
// first). After the loosest level the ladder starts again at the first
// feasible one.
type Regression struct {
	rng     *rng
	sig     []SigEvent
	sitePos func(site uint32) Pos
	ops     [256]bool // operations of the signature

	level int // index in Ladder of the current iteration
	tries int // iterations run at level
	max   int // loosest level tried
	first bool

	// Per iteration.
	pend    map[int32]*pendingCtx // goroutine -> its pending event
	next    int                   // signature events matched
	gBind   []int32               // signature goroutine label -> goroutine (0: unbound)
	oBind   []int32               // signature object label -> object
	need    []int                 // per signature event: tightest ladder index seen (len(Ladder): none)
	cache   map[uint64]*Context
	matched int // of the last iteration
	last    int // level of the last iteration
}

type pendingCtx struct {
	ev  event.Event
	pos Pos
	ctx *Context
}

// NewRegression returns the regression strategy for sig (1 to 4 events);
// sitePos gives the source position of a site.
func NewRegression(seed int64, sig []SigEvent, sitePos func(uint32) Pos) *Regression {
	r := &Regression{
		rng:     newRNG(seed, 0x5),
		sig:     sig,
		sitePos: sitePos,
		pend:    make(map[int32]*pendingCtx),
		cache:   make(map[uint64]*Context),
		first:   true,
	}
	for _, s := range sig {
		r.ops[s.Op] = true
	}
	r.gBind = make([]int32, len(sig)+1)
	r.oBind = make([]int32, len(sig)+1)
	r.need = make([]int, len(sig))
	return r
}

// Name implements Strategy.
func (r *Regression) Name() string { return "regression" }

// Begin implements Strategy; the space never runs out.
func (r *Regression) Begin() bool {
	clear(r.pend)
	clear(r.gBind)
	clear(r.oBind)
	for i := range r.need {
		r.need[i] = len(Ladder)
	}
	r.next = 0
	if r.level > r.max {
		r.max = r.level
	}
	return true
}

// Pending implements Observer: it takes the stack of a pending event whose
// operation is in the signature and measures it against the signature.
func (r *Regression) Pending(ev event.Event) {
	if !r.ops[ev.Op] || ev.G == 0 {
		delete(r.pend, ev.G)
		return
	}
	pcs := Callers()
	h := uint64(fnvOff)
	for _, pc := range pcs {
		h = (h ^ uint64(pc)) * fnvPrm
	}
	c, ok := r.cache[h]
	if !ok {
		cc := Resolve(pcs)
		c = &cc
		r.cache[h] = c
	}
	p := &pendingCtx{ev: ev, pos: r.sitePos(ev.Site), ctx: c}
	r.pend[ev.G] = p
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
	if !s.Similar(p.ev.Op, p.pos, p.ctx, Ladder[r.level]) {
		return false
	}
	return consistent(r.gBind, s.Goroutine, p.ev.G) && (s.Object == 0 || consistent(r.oBind, s.Object, p.ev.Obj))
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
	if r.next >= len(r.sig) || !r.ops[ev.Op] {
		return
	}
	p := r.pendingOf(ev)
	if p == nil || !r.matches(p, r.next) {
		return
	}
	s := &r.sig[r.next]
	r.gBind[s.Goroutine] = ev.G
	if s.Object != 0 {
		r.oBind[s.Object] = ev.Obj
	}
	r.next++
}

// Choose implements Strategy.
func (r *Regression) Choose(p *Point) int {
	if p.Kind != Thread || r.next >= len(r.sig) {
		return r.rng.intn(len(p.Options))
	}
	var advance, free, postponed []int
	for i, o := range p.Options {
		pc := r.pendingOf(o.Ev)
		switch {
		case o.G == 0 || pc == nil:
			free = append(free, i)
		case r.matches(pc, r.next):
			advance = append(advance, i)
		case r.later(pc):
			postponed = append(postponed, i)
		default:
			free = append(free, i)
		}
	}
	switch {
	case len(advance) > 0 && (len(free) == 0 || r.rng.intn(4) != 0):
		return advance[r.rng.intn(len(advance))]
	case len(free) > 0:
		return free[r.rng.intn(len(free))]
	}
	return postponed[r.rng.intn(len(postponed))]
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
func (r *Regression) End(o Outcome) {
	r.matched, r.last = r.next, r.level
	if o.Finding {
		return
	}
	r.tries++
	// The tightest level at which every signature event had a similar
	// event in this run; none: len(Ladder).
	feasible := 0
	for _, n := range r.need {
		if n > feasible {
			feasible = n
		}
	}
	switch {
	case feasible > r.level && feasible < len(Ladder):
		r.level, r.tries = feasible, 0
	case r.next == len(r.sig) && r.tries < 3, r.next < len(r.sig) && r.tries < 2 && feasible <= r.level:
		// Try this level again: the choices elsewhere are random.
	default:
		r.level, r.tries = r.level+1, 0
		if r.level >= len(Ladder) {
			r.level = 0
			if feasible < len(Ladder) {
				r.level = feasible
			}
		}
	}
}

// Last returns the level of the last iteration and how many signature
// events it matched.
func (r *Regression) Last() (Level, int) { return Ladder[r.last], r.matched }

// Loosest returns the loosest level tried.
func (r *Regression) Loosest() Level {
	m := r.max
	if r.level > m {
		m = r.level
	}
	return Ladder[m]
}
