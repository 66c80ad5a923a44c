package strategy

// Random chooses uniformly among the options at every choice point: the
// randomized scheduler of Stoller's "semaphore approach" (see
// papers/randomized-scheduling-java.txt, section 2), which reaches every
// schedule the language allows with non-zero probability.
type Random struct {
	rng *rng
}

// NewRandom returns a Random strategy with the given seed.
func NewRandom(seed int64) *Random {
	return &Random{rng: newRNG(seed, 0x1)}
}

// Name implements Strategy.
func (r *Random) Name() string { return "random" }

// Begin implements Strategy; the random space never runs out.
func (r *Random) Begin() bool { return true }

// Choose implements Strategy.
func (r *Random) Choose(p *Point) int { return r.rng.intn(p.Len()) }

// Indexed implements Indexed.
func (r *Random) Indexed() {}

// End implements Strategy.
func (r *Random) End(Outcome) {}
