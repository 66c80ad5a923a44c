package strategy

// PCT is probabilistic concurrency testing (Burckhardt, Kothari, Musuvathi,
// Nagarakatte, ASPLOS 2010). Each goroutine gets a random priority when it
// is first seen; the highest-priority enabled goroutine always runs; at d-1
// change points, chosen uniformly among the k scheduling points of an
// iteration (each applied at the first choice point at or after it), the
// goroutine about to run drops to a priority below every initial one. A bug of depth d is then found with probability at least
// 1/(n k^(d-1)) per iteration. k is not known in advance: it is learned
// from schedule 1 (its number of scheduling points), so that every later
// schedule is a function of the seed and its number alone, whichever
// process runs it (Independent).
//
// The earliest pending timer is a pseudo-goroutine (id 0) with a priority
// of its own, so timeouts race with goroutines like any other thread.
// Select choices, which the priorities do not order, are uniform.
type PCT struct {
	seed    int64
	i       int // the schedule begun last
	rng     *rng
	depth   int
	k       int
	learned bool // k was learned from schedule 1
	prio    map[int32]int64
	changes []int // choice-point indexes where priorities change, ascending
	next    int   // next change to apply
}

// NewPCT returns a PCT strategy of bug depth d.
func NewPCT(seed int64, d int) *PCT {
	return &PCT{
		seed:  seed,
		rng:   &rng{},
		depth: d,
		k:     1, // learned from the first iteration on
		prio:  make(map[int32]int64),
	}
}

// Name implements Strategy.
func (s *PCT) Name() string { return "pct" }

// Begin implements Strategy: fresh priorities and change points.
func (s *PCT) Begin() bool { return s.BeginAt(s.i + 1) }

// Calibrate implements Independent: k comes from schedule 1.
func (s *PCT) Calibrate() bool { return !s.learned }

// BeginAt implements Independent.
func (s *PCT) BeginAt(i int) bool {
	s.i = i
	*s.rng = rng{s: scheduleSeed(s.seed, i) ^ 0x2}
	clear(s.prio)
	s.changes = s.changes[:0]
	for i := 0; i < s.depth-1; i++ {
		s.changes = append(s.changes, s.rng.intn(s.k))
	}
	sortInts(s.changes)
	s.next = 0
	return true
}

func (s *PCT) priority(g int32) int64 {
	p, ok := s.prio[g]
	if !ok {
		// Initial priorities lie above every change-point priority.
		p = int64(s.depth) + 1 + s.rng.int63n(1<<40)
		s.prio[g] = p
	}
	return p
}

func (s *PCT) best(p *Point) int {
	bi, bp := 0, int64(-1<<62)
	for i, n := 0, p.Len(); i < n; i++ {
		if pr := s.priority(p.At(i).G); pr > bp {
			bi, bp = i, pr
		}
	}
	return bi
}

// Choose implements Strategy.
func (s *PCT) Choose(p *Point) int {
	if p.Kind == Select {
		return s.rng.intn(p.Len())
	}
	i := s.best(p)
	for s.next < len(s.changes) && s.changes[s.next] <= p.Step {
		// The goroutine about to run at a change point drops below all
		// initial priorities: d-1, d-2, ... for the successive changes.
		s.prio[p.At(i).G] = int64(s.depth - 1 - s.next)
		s.next++
		i = s.best(p)
	}
	return i
}

// Indexed implements Indexed: PCT reads every option (the enabled one of
// highest priority runs), O(enabled goroutines) per point, in any order.
func (s *PCT) Indexed() {}

// End implements Strategy: learn k from schedule 1, its number of
// scheduling points. Steps, not choice points: the paper's k counts the
// steps of an execution, which change little from one schedule to the
// next, where the choice points do (a goroutine that runs alone for a
// while in schedule 1 offers no choices there, and change points drawn
// below schedule 1's choices never reached the end of a longer schedule).
func (s *PCT) End(o Outcome) {
	if s.i == 1 {
		s.k, s.learned = max(1, o.Steps), true
	}
}

func sortInts(a []int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}
