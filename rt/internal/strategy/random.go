package strategy

// Random chooses uniformly among the options at every choice point: the
// randomized scheduler of Stoller's "semaphore approach" (see
// papers/randomized-scheduling-java.txt, section 2), which reaches every
// schedule the language allows with non-zero probability.
//
// Each schedule draws from a generator of its own, seeded from the seed
// and the schedule's number (Independent).
type Random struct {
	seed int64
	i    int
	rng  rng
}

// NewRandom returns a Random strategy with the given seed.
func NewRandom(seed int64) *Random {
	return &Random{seed: seed}
}

// Name implements Strategy.
func (r *Random) Name() string { return "random" }

// Begin implements Strategy; the random space never runs out.
func (r *Random) Begin() bool { return r.BeginAt(r.i + 1) }

// BeginAt implements Independent.
func (r *Random) BeginAt(i int) bool {
	r.i = i
	r.rng = rng{s: scheduleSeed(r.seed, i) ^ 0x1}
	return true
}

// Calibrate implements Independent: random needs nothing.
func (r *Random) Calibrate() bool { return false }

// Choose implements Strategy.
func (r *Random) Choose(p *Point) int { return r.rng.intn(p.Len()) }

// Indexed implements Indexed.
func (r *Random) Indexed() {}

// End implements Strategy.
func (r *Random) End(Outcome) {}
