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

// mix is how one randomized schedule chooses (rng.draw), and what it
// holds back so far.
type mix struct {
	// stay is 0, uniform at every point, or n: going on with the
	// goroutine that reached a thread point with probability 1-1/n.
	stay int
	// hold is 0, or n: at a thread point, the goroutine that reached it
	// is held back with probability 1/n, for the rest of the schedule,
	// until maxHeld are.
	hold int
	// held are the goroutines held back: chosen only when no other
	// option is, as PCT's goroutine below a change point (pct.go).
	held  [maxHeld]int32
	nheld int
}

// maxHeld bounds the goroutines a schedule holds back, as PCT's depth
// bounds its change points: a few are what the bugs need, and a point
// then costs the same however long the schedule and however many the
// goroutines.
const maxHeld = 3

// draw draws a schedule's mix: one schedule in three chooses uniformly
// at every point, the others go on with probability 3/4 or 15/16; and
// one schedule in four also holds goroutines back, each thread point
// with probability 1/16, 1/64 or 1/256, up to maxHeld of them. A stay
// of 15/16 almost never keeps a goroutine waiting for the 40 points a
// pipe exchange and a few locks of another take; holding it back does,
// as PCT's change points do (the race of docs/difftest.md's class 25).
func (r *rng) draw() mix {
	m := mix{stay: [3]int{0, 4, 16}[r.intn(3)]}
	if r.intn(4) == 0 {
		m.hold = [3]int{16, 64, 256}[r.intn(3)]
	}
	return m
}

// pick chooses an option of p under the mix m: the option of the
// goroutine that reached a thread point unless the odds say switch (or it
// is held back), and uniformly then, at select points and under stay 0,
// among the options not held back (among all when every one is).
func (r *rng) pick(p *Point, m *mix) int {
	if p.Kind != Thread {
		return r.intn(p.Len())
	}
	if p.Current != 0 && r.goOn(m, p.Current) {
		if i := p.indexOf(p.Current); i >= 0 {
			return i
		}
	}
	return r.other(p, m)
}

// goOn draws whether goroutine g, which reached a thread point, goes on
// under the mix m: the first half of pick, for a strategy.GoerOn.
func (r *rng) goOn(m *mix, g int32) bool {
	if m.hold != 0 && m.nheld < maxHeld && r.intn(m.hold) == 0 && !m.isHeld(g) {
		m.held[m.nheld] = g
		m.nheld++
	}
	return m.stay != 0 && r.intn(m.stay) != 0 && !m.isHeld(g)
}

// other is the second half of pick: uniform among the options of p not
// held back, or among all when every one is.
func (r *rng) other(p *Point, m *mix) int {
	n := p.Len()
	if m.nheld == 0 {
		return r.intn(n)
	}
	// A few draws, which usually find one, then a scan.
	for try := 0; try < 8; try++ {
		if i := r.intn(n); !m.isHeld(p.At(i).G) {
			return i
		}
	}
	free := 0
	for i := 0; i < n; i++ {
		if !m.isHeld(p.At(i).G) {
			free++
		}
	}
	if free == 0 {
		return r.intn(n)
	}
	k := r.intn(free)
	for i := 0; i < n; i++ {
		if !m.isHeld(p.At(i).G) {
			if k == 0 {
				return i
			}
			k--
		}
	}
	panic("unreachable")
}

// isHeld reports whether goroutine g is held back (the timer, 0, never
// is).
func (m *mix) isHeld(g int32) bool {
	for _, h := range m.held[:m.nheld] {
		if h == g {
			return g != 0
		}
	}
	return false
}

// Mix is a randomized schedule's mix (rng.draw) for a strategy of another
// package.
type Mix struct{ m mix }

// Draw draws a schedule's mix: random's odds, for a strategy of another
// package.
func (r *Rand) Draw() Mix { return Mix{r.r.draw()} }

// Uniform is the mix that chooses uniformly at every point and holds
// nothing back.
func Uniform() Mix { return Mix{} }

// Pick is pick for a strategy of another package.
func (r *Rand) Pick(p *Point, m *Mix) int { return r.r.pick(p, &m.m) }
