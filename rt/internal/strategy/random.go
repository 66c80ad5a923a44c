package strategy

// Random is the randomized scheduler of Stoller's "semaphore approach"
// (papers/randomized-scheduling-java.txt, section 2): at every choice
// point it picks the goroutine to run at random, which reaches every
// schedule the language allows with non-zero probability, and "the
// probability distribution can easily be controlled". A uniform choice
// at every point switches goroutines at nearly every point, so a
// goroutine almost never runs a long stretch while another that could run
// waits: the order the Go scheduler gives most of the time (a goroutine
// runs until it blocks, the ones it started wait), under which a select
// with a default finds nobody ready yet. Each schedule therefore draws
// how often it switches: one schedule in three chooses uniformly at every
// point; the others go on with the goroutine that reached the point with
// probability 3/4 or 15/16, and else choose uniformly; one schedule in
// four also holds goroutines back for the rest of the schedule, at a
// point drawn as it comes, the way PCT's change points do (rng.draw).
//
// Each schedule draws from a generator of its own, seeded from the seed
// and the schedule's number (Independent).
type Random struct {
	seed int64
	i    int
	rng  rng
	mix  mix // how the schedule chooses (rng.draw)
	// drawn: GoOn drew the odds of going on at the point Choose is asked
	// next, and they said switch.
	drawn bool
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
	r.mix = r.rng.draw()
	r.drawn = false
	return true
}

// Calibrate implements Independent: random needs nothing.
func (r *Random) Calibrate() bool { return false }

// Choose implements Strategy.
func (r *Random) Choose(p *Point) int {
	if r.drawn {
		r.drawn = false
		return r.rng.other(p, &r.mix)
	}
	return r.rng.pick(p, &r.mix)
}

// GoOn implements GoerOn: the odds pick draws first, before the options.
func (r *Random) GoOn(g int32) bool {
	if r.rng.goOn(&r.mix, g) {
		return true
	}
	r.drawn = true
	return false
}

// Indexed implements Indexed.
func (r *Random) Indexed() {}

// End implements Strategy.
func (r *Random) End(Outcome) {}
