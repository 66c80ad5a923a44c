package strategy

// Coverage is random scheduling with a coverage heuristic (Stoller,
// "Testing concurrent Java programs using randomized scheduling", the
// heuristics of the scheduling function, after Edelstein et al. 2002). It
// remembers what the schedules of the exploration did at each site as
// pairs: a context switch from a goroutine at one site to a goroutine at
// another, or going on at a site without one. At every Thread point it
// chooses at random among the options whose pair no schedule covered yet,
// and as Random does when all are covered (each schedule draws how often
// it switches). Select points are uniform.
//
// A site is a finer abstraction than the paper's methods: it tells apart
// two accesses in one function, which is where Go's check-then-act and
// order violations are. Going on counts as something to cover: preferring
// switches alone made every early schedule switch at every point of the
// test's set-up, and was worse on the kernels (docs/coverage.md). The
// covered set is bounded (maxCovered pairs); past it nothing new is
// recorded and the strategy is Random's.
//
// Schedules depend on the ones before (the covered set), so the strategy
// is not Independent: an exploration runs in one process. It looks at
// every option of a point, so it is not Indexed either.
type Coverage struct {
	seed    int64
	i       int
	rng     rng
	mix     mix // how the schedule chooses where all is covered (rng.draw)
	covered map[[2]uint32]bool
	last    uint32 // site of the option chosen at the last Thread point
	fresh   []int  // scratch: the options that cover a new pair
}

// maxCovered bounds the pairs Coverage remembers.
const maxCovered = 1 << 20

// NewCoverage returns a Coverage strategy with the given seed.
func NewCoverage(seed int64) *Coverage {
	return &Coverage{seed: seed, covered: map[[2]uint32]bool{}}
}

// Name implements Strategy.
func (c *Coverage) Name() string { return "coverage" }

// Begin implements Strategy; the space never runs out.
func (c *Coverage) Begin() bool {
	c.i++
	c.rng = rng{s: scheduleSeed(c.seed, c.i) ^ 0x2}
	c.mix = c.rng.draw()
	c.last = 0
	return true
}

// Choose implements Strategy.
func (c *Coverage) Choose(p *Point) int {
	n := p.Len()
	if p.Kind != Thread {
		return c.rng.intn(n)
	}
	// The goroutine that reached the point was at its pending site, or,
	// when it blocked or exited, at the site of the last choice.
	from := c.last
	for i := 0; i < n; i++ {
		if o := p.At(i); o.G == p.Current && p.Current != 0 {
			from = o.Ev.Site
			break
		}
	}
	c.fresh = c.fresh[:0]
	for i := 0; i < n; i++ {
		if !c.covered[c.pair(p, from, p.At(i))] {
			c.fresh = append(c.fresh, i)
		}
	}
	var k int
	if len(c.fresh) > 0 {
		k = c.fresh[c.rng.intn(len(c.fresh))]
	} else {
		k = c.rng.pick(p, &c.mix)
	}
	o := p.At(k)
	if len(c.covered) < maxCovered {
		c.covered[c.pair(p, from, o)] = true
	}
	c.last = o.Ev.Site
	return k
}

// stay is the second site of the pair that stands for going on at a
// site without a switch.
const stay = ^uint32(0)

// pair is what choosing o at p covers: the switch from site from to o's,
// or going on at from when o is the goroutine that reached p.
func (c *Coverage) pair(p *Point, from uint32, o Option) [2]uint32 {
	if o.G == p.Current && p.Current != 0 {
		return [2]uint32{from, stay}
	}
	return [2]uint32{from, o.Ev.Site}
}

// Pairs returns the number of pairs covered so far.
func (c *Coverage) Pairs() int { return len(c.covered) }

// End implements Strategy.
func (c *Coverage) End(Outcome) {}
