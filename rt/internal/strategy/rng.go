package strategy

// rng is a small seeded pseudo-random generator (SplitMix64), kept here so
// that the runtime builds with Go 1.21 and its sequences never change
// between Go releases: a seed means the same exploration everywhere.
type rng struct{ s uint64 }

func newRNG(seed int64, stream uint64) *rng {
	return &rng{s: uint64(seed)*0x9e3779b97f4a7c15 ^ stream}
}

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// intn returns a uniform number in [0, n), n > 0.
func (r *rng) intn(n int) int {
	if n <= 1 {
		return 0
	}
	// Lemire's multiply-shift with rejection, for an unbiased result.
	bound := uint64(n)
	for {
		x := r.next()
		hi, lo := mul64(x, bound)
		if lo >= bound || lo >= -bound%bound {
			return int(hi)
		}
	}
}

func mul64(x, y uint64) (hi, lo uint64) {
	const mask32 = 1<<32 - 1
	x0, x1 := x&mask32, x>>32
	y0, y1 := y&mask32, y>>32
	w0 := x0 * y0
	t := x1*y0 + w0>>32
	w1, w2 := t&mask32, t>>32
	w1 += x0 * y1
	hi = x1*y1 + w2 + w1>>32
	lo = x * y
	return
}

// int63n returns a uniform number in [0, n), n > 0.
func (r *rng) int63n(n int64) int64 { return int64(r.next()>>1) % n }

// Rand is the strategies' seeded generator for strategies defined outside
// this package (rt/internal/active), so that every strategy draws from the
// same sequences.
type Rand struct{ r rng }

// NewRand returns a generator for seed; stream separates the users of
// one seed.
func NewRand(seed int64, stream uint64) *Rand { return &Rand{r: *newRNG(seed, stream)} }

// Intn returns a uniform number in [0, n), n > 0.
func (r *Rand) Intn(n int) int { return r.r.intn(n) }

// stayOdds draws how a schedule switches goroutines: 0, uniform at every
// point (one schedule in three), or n, going on with the goroutine that
// reached a point with probability 1-1/n (n is 4 or 16): see Random.
func (r *rng) stayOdds() int { return [3]int{0, 4, 16}[r.intn(3)] }

// pick chooses an option of p under the odds stay (stayOdds): the option
// of the goroutine that reached a thread point unless the odds say
// switch, and uniformly then, at select points and under stay 0.
func (r *rng) pick(p *Point, stay int) int {
	if stay != 0 && p.Kind == Thread && p.Current != 0 && r.intn(stay) != 0 {
		if i := p.indexOf(p.Current); i >= 0 {
			return i
		}
	}
	return r.intn(p.Len())
}

// StayOdds is stayOdds for a strategy of another package.
func (r *Rand) StayOdds() int { return r.r.stayOdds() }

// Pick is pick for a strategy of another package.
func (r *Rand) Pick(p *Point, stay int) int { return r.r.pick(p, stay) }
