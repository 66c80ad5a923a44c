package active

import (
	"interleave.dev/rt/internal/event"
	"interleave.dev/rt/internal/strategy"
)

// Config configures the active strategy: how many runs phase 1 observes
// and how the budget is shared among the predictions (section 2).
type Config struct {
	Seed int64
	// Observe is the number of random runs of phase 1 (default 5).
	Observe int
	// Schedules is the exploration's budget of schedules; phase 2 shares
	// what phase 1 leaves among the predictions, between 10 and 100 each
	// (unless PerPrediction is set).
	Schedules     int
	PerPrediction int
}

// Bounds of phase 2.
const (
	// maxPause is how many choice points a goroutine stays paused before
	// it is released: the paper's monitor for threads paused too long
	// (section 2), counted in choice points so that it is deterministic.
	maxPause = 1000
	// maxNext bounds the operations remembered after a start or resume.
	maxNext     = 4
	maxNextKeys = 4096
)

// Strategy is the active strategy: phase 1 (random runs observed by the
// analyses), then one directed exploration per prediction, each a random
// scheduler that pauses goroutines at the prediction's statements
// (CalFuzzer's Algorithm 1 with the check() of Algorithm 2 and its
// DeadlockFuzzer and AtomFuzzer counterparts). It implements
// strategy.Strategy and strategy.Observer. Pausing is only the choice of
// another option, so a schedule replays with the replay strategy.
type Strategy struct {
	cfg Config
	rng *strategy.Rand

	run   int // iterations begun
	phase int // 1: observing, 2: directed
	until int // the last run of the current observing phase
	preds set
	an    *analysis
	order []*Prediction
	cur   int // index in order of the prediction being directed at
	runs  int // directed runs of order[cur]
	per   int

	// Per iteration.
	gs      map[int32]*track
	nextG   int32
	follow  int32 // a racing goroutine that runs right after its partner
	reached bool
	point   int
	lostB   bool         // lost communication: the select at B has run
	mix     strategy.Mix // how an observed run chooses (strategy.Rand.Draw)

	// What follows a start or a resume, learned from every run: the
	// pending event of a goroutine about to start or resume does not say
	// which operation it will perform, and that operation runs without a
	// choice point of its own.
	next map[nextKey][]eff
}

type nextKey struct {
	start bool
	site  uint32 // the go statement's site, or the site the goroutine blocked at
}

// eff is an operation a goroutine is about to perform: its pending event,
// or for a start or resume, one it was seen performing next (object
// unknown, 0).
type eff struct {
	op   event.Op
	site uint32
	obj  int32
}

// track is what phase 2 knows of one goroutine of the current iteration.
type track struct {
	spawn    uint32
	lastOp   event.Op
	lastSite uint32 // site of the last operation other than a start or resume
	held     []lockRef
	paused   int  // choice point at which it was paused at its pending operation (-1: not)
	released bool // released by a safety valve until its next operation
	armed    bool // atomicity: executed the block's first operation
	armedObj int32
	done     bool // atomicity: its block was interleaved
}

// New returns the active strategy.
func New(c Config) *Strategy {
	if c.Observe <= 0 {
		c.Observe = 5
	}
	return &Strategy{cfg: c, rng: strategy.NewRand(c.Seed, 0xa), phase: 1, until: c.Observe, next: make(map[nextKey][]eff)}
}

// Name implements strategy.Strategy.
func (s *Strategy) Name() string { return "active" }

// Begin implements strategy.Strategy: it starts an observed random run,
// or the next directed run; false when every prediction had its runs.
func (s *Strategy) Begin() bool {
	s.run++
	if s.phase == 1 && s.run > s.until {
		s.direct()
	}
	if s.phase == 2 {
		for s.cur < len(s.order) && s.runs >= s.per {
			s.order[s.cur].Status = Unconfirmed
			s.cur++
			s.runs = 0
		}
		if s.cur >= len(s.order) {
			// Every prediction had its runs and the budget is not
			// spent: observe more runs, whose new predictions get
			// theirs in turn (a bug the first observed runs did not
			// hint at may show in others).
			s.phase, s.until = 1, s.run+s.cfg.Observe-1
		}
	}
	if s.phase == 1 {
		s.an = newAnalysis(&s.preds)
		// The first observed runs switch at every point, uniformly
		// (section 1's random runs: many pairs of events meet, for the
		// predictions); later ones at random's odds, which reach the
		// bugs that need a goroutine to run a long stretch.
		s.mix = strategy.Uniform()
		if s.run > s.cfg.Observe {
			s.mix = s.rng.Draw()
		}
	}
	s.gs = make(map[int32]*track)
	s.nextG = 2
	s.follow = 0
	s.reached = false
	s.point = 0
	s.lostB = false
	return true
}

// direct starts phase 2 on the predictions not directed at yet, each
// with its share of the budget left.
func (s *Strategy) direct() {
	s.phase = 2
	tried := make(map[*Prediction]bool, len(s.order))
	for _, p := range s.order {
		tried[p] = true
	}
	var fresh []*Prediction
	for _, p := range s.preds.sorted() {
		if !tried[p] {
			fresh = append(fresh, p)
		}
	}
	s.order = append(s.order, fresh...)
	s.per = s.cfg.PerPrediction
	if s.per <= 0 {
		s.per = 100
		if n := len(fresh); n > 0 && s.cfg.Schedules > 0 {
			s.per = (s.cfg.Schedules - s.run + 1) / n
		}
		s.per = max(10, min(100, s.per))
	}
}

// End implements strategy.Strategy.
func (s *Strategy) End(o strategy.Outcome) {
	if s.phase == 1 {
		s.an.finish()
		s.an = nil
		return
	}
	p := s.order[s.cur]
	s.runs++
	p.Schedules++
	p.Reached = p.Reached || s.reached
	if !o.Finding && s.runs >= s.per {
		p.Status = Unconfirmed
	}
}

// Predictions returns every prediction of phase 1, in the order phase 2
// tries them (nil while phase 1 runs).
func (s *Strategy) Predictions() []*Prediction {
	if s.phase == 1 {
		return s.preds.sorted()
	}
	return s.order
}

// Directed returns the prediction the last run was directed at, and
// whether that run reached its situation; nil during phase 1.
func (s *Strategy) Directed() (*Prediction, bool) {
	if s.phase != 2 || s.cur >= len(s.order) {
		return nil, false
	}
	return s.order[s.cur], s.reached
}

func (s *Strategy) track(id int32) *track {
	t := s.gs[id]
	if t == nil {
		if len(s.gs) >= maxGoroutines {
			return nil
		}
		t = &track{paused: -1}
		s.gs[id] = t
	}
	return t
}

// Pending implements strategy.Observer: the analyses learn the cases of
// a select from the pending events it announces before it runs.
func (s *Strategy) Pending(ev event.Event) {
	if s.an != nil {
		s.an.pending(ev)
	}
}

// Woke implements strategy.Observer.
func (s *Strategy) Woke(int32) {}

// Executed implements strategy.Observer.
func (s *Strategy) Executed(ev event.Event, _ int) {
	if s.an != nil {
		s.an.event(ev)
	}
	if ev.Op == event.OpEnter && ev.G >= s.nextG {
		s.nextG = ev.G + 1
	}
	t := s.track(ev.G)
	if t == nil {
		return
	}
	if ev.Op != event.OpStart && ev.Op != event.OpResume {
		switch t.lastOp {
		case event.OpStart:
			s.learn(nextKey{true, t.spawn}, ev)
		case event.OpResume:
			s.learn(nextKey{false, t.lastSite}, ev)
		}
		t.lastSite = ev.Site
		t.paused, t.released = -1, false
	}
	t.lastOp = ev.Op
	switch ev.Op {
	case event.OpSpawn:
		if c := s.track(s.nextG); c != nil {
			c.spawn = ev.Site
		}
		s.nextG++
	case event.OpLock, event.OpWLock, event.OpRLock, event.OpTryLock, event.OpTryWLock, event.OpTryRLock:
		if len(t.held) < maxHeld {
			t.held = append(t.held, lockRef{obj: ev.Obj, site: ev.Site})
		}
	case event.OpUnlock, event.OpWUnlock, event.OpRUnlock:
		for i := len(t.held) - 1; i >= 0; i-- {
			if t.held[i].obj == ev.Obj {
				t.held = append(t.held[:i], t.held[i+1:]...)
				break
			}
		}
	}
	if s.phase == 2 && s.order[s.cur].Kind == Lost && ev.Op == event.OpSelect && ev.Site == s.order[s.cur].B {
		// The select ran while the operation at A was held back.
		for _, o := range s.gs {
			if o.paused >= 0 {
				s.reached = true // held at A, the only breakpoint
			}
		}
		s.lostB = true
	}
	if s.phase == 2 && s.order[s.cur].Kind == Atomicity {
		p := s.order[s.cur]
		switch ev.Site {
		case p.First:
			if !t.done {
				t.armed, t.armedObj = true, ev.Obj
			}
		case p.Second:
			t.armed = false
		}
		if isWrite(ev.Op) {
			for _, o := range s.gs {
				if o != t && o.armed && o.armedObj == ev.Obj {
					// Another goroutine wrote the word inside the block.
					o.armed, o.done = false, true
					s.reached = true
				}
			}
		}
	}
}

func (s *Strategy) learn(k nextKey, ev event.Event) {
	n := s.next[k]
	for _, e := range n {
		if e.op == ev.Op && e.site == ev.Site {
			return
		}
	}
	if len(n) >= maxNext || (n == nil && len(s.next) >= maxNextKeys) {
		return
	}
	s.next[k] = append(n, eff{op: ev.Op, site: ev.Site})
}

// effective gives what option o's goroutine is about to do.
func (s *Strategy) effective(o strategy.Option) []eff {
	t := s.gs[o.G]
	switch o.Ev.Op {
	case event.OpStart:
		if t != nil {
			return s.next[nextKey{true, t.spawn}]
		}
		return nil
	case event.OpResume:
		if t != nil {
			return s.next[nextKey{false, t.lastSite}]
		}
		return nil
	}
	return []eff{{op: o.Ev.Op, site: o.Ev.Site, obj: o.Ev.Obj}}
}

func isWrite(op event.Op) bool {
	return op == event.OpWrite || op == event.OpAtomicStore || op == event.OpAtomicRMW
}

func isAccess(op event.Op) bool {
	switch op {
	case event.OpRead, event.OpWrite, event.OpAtomicLoad, event.OpAtomicStore, event.OpAtomicRMW:
		return true
	}
	return false
}

func isAtomic(op event.Op) bool {
	return op == event.OpAtomicLoad || op == event.OpAtomicStore || op == event.OpAtomicRMW
}

// Choose implements strategy.Strategy: uniform in phase 1 and at select
// points; in phase 2 the prediction's checker decides which options are
// paused, and the choice is uniform among the others (Algorithm 1).
func (s *Strategy) Choose(p *strategy.Point) int {
	if s.phase == 1 {
		return s.rng.Pick(p, &s.mix) // an observed run: random's, odds and all
	}
	if p.Kind == strategy.Select {
		return s.rng.Intn(len(p.Options))
	}
	s.point = p.Index
	pred := s.order[s.cur]
	if s.follow != 0 {
		g := s.follow
		s.follow = 0
		for i, o := range p.Options {
			if o.G == g {
				return i
			}
		}
	}
	switch pred.Kind {
	case Race:
		if i, ok := s.raceCaught(pred, p); ok {
			return i
		}
	case Atomicity:
		if i, ok := s.interleave(pred, p); ok {
			return i
		}
	}
	var free, paused []int
	for i, o := range p.Options {
		if o.G != 0 && s.pause(pred, o) {
			paused = append(paused, i)
		} else {
			free = append(free, i)
		}
	}
	if len(free) > 0 {
		return free[s.rng.Intn(len(free))]
	}
	// Every option is paused: release one at random (Algorithm 1).
	i := paused[s.rng.Intn(len(paused))]
	if t := s.gs[p.Options[i].G]; t != nil {
		t.released = true
	}
	return i
}

// pause reports whether option o stays paused at this point.
func (s *Strategy) pause(pred *Prediction, o strategy.Option) bool {
	t := s.track(o.G)
	if t == nil || t.released {
		return false
	}
	if !s.atBreakpoint(pred, t, s.effective(o)) {
		t.paused = -1
		return false
	}
	if t.paused < 0 {
		t.paused = s.point
	}
	if s.point-t.paused > maxPause {
		t.released = true
		return false
	}
	return true
}

// atBreakpoint reports whether a goroutine about to do one of es is at a
// statement of pred where its checker pauses it.
func (s *Strategy) atBreakpoint(pred *Prediction, t *track, es []eff) bool {
	for _, e := range es {
		switch pred.Kind {
		case Race:
			if isAccess(e.op) && (e.site == pred.A || e.site == pred.B) {
				return true
			}
		case Deadlock:
			for _, c := range pred.Cycle {
				if e.site == c.At && sameWait(e.op, c.Op) && (c.Held == 0 || holds(t, c.Held)) {
					s.reached = true
					return true
				}
			}
		case Atomicity:
			if t.armed && !t.done && e.site == pred.Second {
				return true
			}
		case Lost:
			if !s.lostB && e.site == pred.A && (e.op == pred.Op || e.op == event.OpSelect) {
				return true // held back until the select at B has run
			}
		}
	}
	return false
}

func holds(t *track, site uint32) bool {
	for _, l := range t.held {
		if l.site == site {
			return true
		}
	}
	return false
}

// sameWait reports whether a pending operation op may be the waiting
// operation w of a deadlock component (a select may be the channel
// operation).
func sameWait(op, w event.Op) bool {
	switch w {
	case event.OpLock, event.OpWLock, event.OpRLock:
		return op == event.OpLock || op == event.OpWLock || op == event.OpRLock
	case event.OpSend, event.OpRecv:
		return op == w || op == event.OpSelect
	}
	return op == w
}

// raceCaught is Algorithm 2: two goroutines about to access one word at
// the prediction's two sites, one of them writing, is a real race; it is
// resolved at random (either runs first, the other right after), and the
// race detector reports it with both accesses.
func (s *Strategy) raceCaught(pred *Prediction, p *strategy.Point) (int, bool) {
	for i, oi := range p.Options {
		if oi.G == 0 {
			continue
		}
		for j := i + 1; j < len(p.Options); j++ {
			oj := p.Options[j]
			if oj.G == 0 {
				continue
			}
			for _, a := range s.effective(oi) {
				for _, b := range s.effective(oj) {
					if !isAccess(a.op) || !isAccess(b.op) || !(isWrite(a.op) || isWrite(b.op)) || (isAtomic(a.op) && isAtomic(b.op)) {
						continue
					}
					if !(a.site == pred.A && b.site == pred.B || a.site == pred.B && b.site == pred.A) {
						continue
					}
					if a.obj != 0 && b.obj != 0 && a.obj != b.obj {
						continue
					}
					s.reached = true
					if s.rng.Intn(2) == 0 {
						i, j = j, i
					}
					s.follow = p.Options[j].G
					return i, true
				}
			}
		}
	}
	return 0, false
}

// interleave is AtomFuzzer's check: while a goroutine is paused inside a
// predicted block, another goroutine about to perform one of the
// conflicting writes runs first.
func (s *Strategy) interleave(pred *Prediction, p *strategy.Point) (int, bool) {
	inside := false
	for _, o := range p.Options {
		if t := s.gs[o.G]; o.G != 0 && t != nil && t.armed && !t.done && t.paused >= 0 {
			inside = true
		}
	}
	if !inside {
		return 0, false
	}
	for i, o := range p.Options {
		t := s.gs[o.G]
		if o.G == 0 || (t != nil && t.armed) {
			continue
		}
		for _, e := range s.effective(o) {
			for _, c := range pred.Conflicts {
				if e.site == c && isWrite(e.op) {
					return i, true
				}
			}
		}
	}
	return 0, false
}

// Evidence is what a finding shows, for Confirms: its kind and the sites
// it names (a race's two accesses, where a deadlock's goroutines wait):
// the "real data race between t and t'" of Algorithm 2 (section 2).
type Evidence struct {
	Kind  string // the finding's kind, as sched names it
	Sites []uint32
}

// Confirms reports whether a finding of a run directed at p, which
// reached p's situation or not, confirms p: a data race between p's two
// sites; a deadlock (or goroutines left blocked) with a goroutine waiting
// at each component's site; any finding of a run in which a conflicting
// write interleaved the block.
func (p *Prediction) Confirms(e Evidence, reached bool) bool {
	has := func(site uint32) bool {
		for _, s := range e.Sites {
			if s == site {
				return true
			}
		}
		return false
	}
	switch p.Kind {
	case Race:
		return e.Kind == "data race" && has(p.A) && has(p.B)
	case Deadlock:
		if e.Kind != "deadlock" && e.Kind != "goroutine leak" {
			return false
		}
		for _, c := range p.Cycle {
			if !has(c.At) {
				return false
			}
		}
		return true
	case Lost:
		return (e.Kind == "deadlock" || e.Kind == "goroutine leak") && has(p.A)
	case Atomicity:
		return reached
	}
	return false
}

// RunOn follows the choices of a schedule and then chooses at random: a
// race's schedule run on past the race, to see what the race does (the
// paper resolves a real race and lets the program go on, section 2,
// Algorithm 2).
type RunOn struct {
	choices []int
	i       int
	ran     bool
	rng     *strategy.Rand
}

// NewRunOn returns a RunOn strategy of one iteration.
func NewRunOn(choices []int, seed int64) *RunOn {
	return &RunOn{choices: choices, rng: strategy.NewRand(seed, 0xb)}
}

// Name implements strategy.Strategy.
func (r *RunOn) Name() string { return "active" }

// Begin implements strategy.Strategy: one iteration.
func (r *RunOn) Begin() bool {
	if r.ran {
		return false
	}
	r.ran = true
	return true
}

// Choose implements strategy.Strategy.
func (r *RunOn) Choose(p *strategy.Point) int {
	if r.i < len(r.choices) {
		c := r.choices[r.i]
		r.i++
		if j := p.Find(c); j >= 0 {
			return j
		}
	}
	return r.rng.Intn(len(p.Options))
}

// End implements strategy.Strategy.
func (r *RunOn) End(strategy.Outcome) {}
