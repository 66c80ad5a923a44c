package race

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// tcModel drives tree clocks and plain vector clocks side by side, the
// way the detector uses them: goroutines start from a parent, acquire and
// release synchronization objects, and increment their own entry after
// every release of their clock.
type tcModel struct {
	t       *testing.T
	n       int // goroutines 1..n
	started []bool
	tc      []TreeClock // goroutines' clocks, by id
	vc      [][]uint32
	sc      []TreeClock // synchronization objects' clocks
	svc     [][]uint32
}

func newTCModel(t *testing.T, n, objects int) *tcModel {
	m := &tcModel{t: t, n: n, started: make([]bool, n+1), tc: make([]TreeClock, n+1), vc: make([][]uint32, n+1),
		sc: make([]TreeClock, objects), svc: make([][]uint32, objects)}
	for i := range m.vc {
		m.vc[i] = make([]uint32, n+1)
	}
	for i := range m.svc {
		m.svc[i] = make([]uint32, n+1)
	}
	return m
}

func joinVC(dst, src []uint32) {
	for i, c := range src {
		dst[i] = max(dst[i], c)
	}
}

// start starts goroutine t, from parent p unless p is 0.
// increment advances goroutine t's own entry in both clocks.
func (m *tcModel) increment(t int) {
	m.tc[t].Increment()
	m.vc[t][t]++
}

func (m *tcModel) start(p, t int) {
	m.started[t] = true
	m.tc[t].Init(int32(t))
	m.tc[t].Increment()
	m.vc[t][t]++
	if p > 0 {
		m.tc[t].Join(&m.tc[p])
		joinVC(m.vc[t], m.vc[p])
		m.tc[p].Increment()
		m.vc[p][p]++
	}
}

// step makes one random operation and says what it did.
func (m *tcModel) step(r *rand.Rand) string {
	t := 1 + r.IntN(m.n)
	if !m.started[t] {
		p := 1 + r.IntN(m.n)
		if !m.started[p] {
			p = 0
		}
		m.start(p, t)
		return fmt.Sprintf("start %d from %d", t, p)
	}
	s := r.IntN(len(m.sc))
	switch k := r.IntN(16); {
	case k < 6:
		m.tc[t].Join(&m.sc[s])
		joinVC(m.vc[t], m.svc[s])
		return fmt.Sprintf("%d acquires %d", t, s)
	case k < 11:
		m.sc[s].MonotoneCopy(&m.tc[t])
		joinVC(m.svc[s], m.vc[t])
		m.increment(t)
		return fmt.Sprintf("%d releases into %d (monotone copy)", t, s)
	case k < 13:
		m.sc[s].Join(&m.tc[t])
		joinVC(m.svc[s], m.vc[t])
		m.increment(t)
		return fmt.Sprintf("%d releases into %d (join)", t, s)
	case k < 14:
		u := 1 + r.IntN(m.n)
		if u == t || !m.started[u] {
			return "nothing"
		}
		// u learns t's clock directly, as a spawned goroutine does.
		m.tc[u].Join(&m.tc[t])
		joinVC(m.vc[u], m.vc[t])
		m.increment(t)
		return fmt.Sprintf("%d joins %d's clock", u, t)
	case k < 15:
		m.increment(t)
		return fmt.Sprintf("%d increments", t)
	default:
		m.sc[s].Reset()
		clear(m.svc[s])
		return fmt.Sprintf("%d resets", s)
	}
}

// check compares every entry of every clock with the vector clocks and
// checks the shape of every tree.
func (m *tcModel) check(what string) {
	m.t.Helper()
	for i := range m.tc {
		if m.started[i] {
			m.checkClock(fmt.Sprintf("goroutine %d", i), &m.tc[i], m.vc[i], what)
		}
	}
	for i := range m.sc {
		m.checkClock(fmt.Sprintf("object %d", i), &m.sc[i], m.svc[i], what)
	}
}

func (m *tcModel) checkClock(name string, c *TreeClock, want []uint32, what string) {
	m.t.Helper()
	for u := 0; u <= m.n+1; u++ {
		w := uint32(0)
		if u < len(want) {
			w = want[u]
		}
		if got := c.Get(int32(u)); got != w {
			m.t.Fatalf("after %s: %s: entry %d is %d, want %d\nclock: %s", what, name, u, got, w, c.dump())
		}
	}
	if err := c.shape(); err != "" {
		m.t.Fatalf("after %s: %s: %s\nclock: %s", what, name, err, c.dump())
	}
}

// shape checks the links of c's tree: every node with a clock is reached
// once from the root, or from links[0] when c has no root, through
// consistent parent and sibling links; children come most recently
// attached first, never attached after their parent's clock. A flat
// clock keeps no links; a thread's has its root.
func (c *TreeClock) shape() string {
	if c.owned && (c.root == 0 || c.root >= int32(len(c.clk))) {
		return "a goroutine's clock without its root"
	}
	if c.flat {
		if c.owned && c.flatA > c.clk[c.root] {
			return "attached after the root's clock"
		}
		return ""
	}
	seen := 0
	var walk func(u int32) string
	walk = func(u int32) string {
		prev := int32(0)
		for v := c.links[u].first; v != 0; v = c.links[v].next {
			n := &c.links[v]
			seen++
			if seen > len(c.clk) {
				return "a cycle"
			}
			switch {
			case c.clk[v] == 0:
				return fmt.Sprintf("node %d in the tree without a clock", v)
			case n.parent != u:
				return fmt.Sprintf("node %d under %d has parent %d", v, u, n.parent)
			case n.prev != prev:
				return fmt.Sprintf("node %d has prev %d, want %d", v, n.prev, prev)
			case u != 0 && n.aclk > c.clk[u]:
				return fmt.Sprintf("node %d attached at %d, after its parent's clock", v, n.aclk)
			case u != 0 && prev != 0 && n.aclk > c.links[prev].aclk:
				return fmt.Sprintf("children of %d out of order", u)
			}
			if err := walk(v); err != "" {
				return err
			}
			prev = v
		}
		return ""
	}
	if c.root != 0 {
		if c.links[c.root].parent != -1 {
			return "the root has a parent"
		}
		seen++
		if err := walk(c.root); err != "" {
			return err
		}
	}
	if len(c.clk) > 0 {
		if c.root != 0 && c.links[0].first != 0 {
			return "top-level nodes beside a root"
		}
		if err := walk(0); err != "" {
			return err
		}
	}
	in := 0
	for i := range c.clk {
		switch {
		case c.clk[i] != 0 || c.root != 0 && int32(i) == c.root:
			in++
		case i != 0 && c.links[i] != (tcLink{}):
			return fmt.Sprintf("node %d not in the tree has links", i)
		}
	}
	if in != seen {
		return fmt.Sprintf("%d nodes with a clock, %d in the tree", in, seen)
	}
	return ""
}

// dump shows c's tree.
func (c *TreeClock) dump() string {
	if c.flat {
		return fmt.Sprintf("flat, root %d attached at %d: %v", c.root, c.flatA, c.clk)
	}
	var s string
	var walk func(u int32)
	walk = func(u int32) {
		s += fmt.Sprintf("%d:%d@%d", u, c.clk[u], c.links[u].aclk)
		if c.links[u].first != 0 {
			s += "("
			for v := c.links[u].first; v != 0; v = c.links[v].next {
				walk(v)
				if c.links[v].next != 0 {
					s += " "
				}
			}
			s += ")"
		}
	}
	if len(c.clk) > 0 {
		if c.root != 0 {
			walk(c.root)
		} else {
			walk(0)
		}
	}
	return s
}

// TestTreeClockAgainstVectorClocks runs random sequences of joins,
// monotone copies (and their fallback to a join), increments and resets
// among 1 to 50 goroutines and a few synchronization objects, and checks
// every entry of every clock against plain vector clocks after every
// operation. Clocks that small are merged entry by entry (treeMin):
// these sequences walk trees all the same. A few more have 100 to 250
// goroutines, with treeMin as it is, so that joins that move several
// nodes still go through the tree (see denseShare).
func TestTreeClockAgainstVectorClocks(t *testing.T) {
	defer func(m int) { treeMin = m }(treeMin)
	def := treeMin
	sequences, large, steps := 400, 20, 300
	if testing.Short() {
		sequences, large = 50, 2
	}
	for seq := range sequences + large {
		r := rand.New(rand.NewPCG(uint64(seq), 1))
		n := 1 + r.IntN(50)
		treeMin = 0
		if seq >= sequences {
			n = 100 + r.IntN(150)
			treeMin = def
		}
		m := newTCModel(t, n, 1+r.IntN(6))
		m.start(0, 1)
		var log []string
		for range steps {
			what := m.step(r)
			log = append(log, what)
			if len(log) > 8 {
				log = log[1:]
			}
			m.check(fmt.Sprintf("sequence %d (%d goroutines), ... %q", seq, n, log))
		}
	}
}

// TestTreeClockReuse checks that a clock reset after use is the zero
// clock and works as a fresh one.
func TestTreeClockReuse(t *testing.T) {
	defer func(m int) { treeMin = m }(treeMin)
	treeMin = 0
	for seq := range 20 {
		r := rand.New(rand.NewPCG(uint64(seq), 2))
		m := newTCModel(t, 30, 3)
		m.start(0, 1)
		for range 200 {
			m.step(r)
		}
		for i := range m.tc {
			m.tc[i].Reset()
			clear(m.vc[i])
			m.started[i] = false
		}
		for i := range m.sc {
			m.sc[i].Reset()
			clear(m.svc[i])
		}
		for i := range m.sc {
			c := &m.sc[i]
			if len(c.clk) != 0 {
				// A clock's joins and copies cost its length.
				t.Fatalf("sequence %d: object %d: %d entries long after Reset", seq, i, len(c.clk))
			}
			for j, k := range c.clk[:cap(c.clk)] {
				if k != 0 {
					t.Fatalf("sequence %d: object %d: entry %d left after Reset", seq, i, j)
				}
			}
			for j, l := range c.links[:cap(c.links)] {
				if l != (tcLink{}) {
					t.Fatalf("sequence %d: object %d: links of %d left after Reset", seq, i, j)
				}
			}
		}
		m.start(0, 1)
		for range 200 {
			what := m.step(r)
			m.check(fmt.Sprintf("sequence %d after a reset: %s", seq, what))
		}
	}
}

// TestDetectorClocksAgainstVectorClocks drives a Detector with random
// spawns (of new goroutines and again of started ones, as adoption
// does), acquires and releases of objects and of clocks the caller
// keeps, and resets, and checks every entry of every clock after every
// operation against the vector clocks the detector kept before it had
// tree clocks. Half the sequences walk trees among these few goroutines
// (treeMin).
func TestDetectorClocksAgainstVectorClocks(t *testing.T) {
	defer func(m int) { treeMin = m }(treeMin)
	def := treeMin
	const goroutines, objects = 40, 4
	for seq := range 100 {
		treeMin = def
		if seq%2 == 0 {
			treeMin = 0
		}
		r := rand.New(rand.NewPCG(uint64(seq), 3))
		d := New()
		var ext [objects]TreeClock
		var (
			vcs     [goroutines + 1][]uint32
			svc     [objects][]uint32
			evc     [objects][]uint32
			started [goroutines + 1]bool
		)
		reset := func() {
			for i := range vcs {
				vcs[i] = make([]uint32, goroutines+1)
				started[i] = false
			}
			for i := range svc {
				svc[i] = make([]uint32, goroutines+1)
				evc[i] = make([]uint32, goroutines+1)
				ext[i].Reset()
			}
		}
		reset()
		n := 1 + r.IntN(goroutines)
		for step := range 400 {
			g := int32(1 + r.IntN(n))
			k := r.IntN(objects)
			var what string
			switch op := r.IntN(20); {
			case !started[g] || op == 0:
				p := int32(1 + r.IntN(n))
				if !started[p] || p == g {
					p = 0
				}
				d.Spawn(p, g)
				if p > 0 {
					joinVC(vcs[g], vcs[p])
					vcs[p][p]++
				}
				vcs[g][g]++
				started[g] = true
				what = fmt.Sprintf("Spawn(%d, %d)", p, g)
			case op < 6:
				d.Acquire(g, int32(k))
				joinVC(vcs[g], svc[k])
				what = fmt.Sprintf("Acquire(%d, %d)", g, k)
			case op < 11:
				d.Release(g, int32(k))
				joinVC(svc[k], vcs[g])
				vcs[g][g]++
				what = fmt.Sprintf("Release(%d, %d)", g, k)
			case op < 13:
				d.AcquireRelease(g, int32(k))
				joinVC(vcs[g], svc[k])
				joinVC(svc[k], vcs[g])
				vcs[g][g]++
				what = fmt.Sprintf("AcquireRelease(%d, %d)", g, k)
			case op < 16:
				d.AcquireClock(g, &ext[k])
				joinVC(vcs[g], evc[k])
				what = fmt.Sprintf("AcquireClock(%d, %d)", g, k)
			case op < 19:
				d.ReleaseClock(g, &ext[k])
				joinVC(evc[k], vcs[g])
				vcs[g][g]++
				what = fmt.Sprintf("ReleaseClock(%d, %d)", g, k)
			default:
				if r.IntN(10) != 0 {
					continue
				}
				d.Reset()
				reset()
				what = "Reset"
			}
			check := func(name string, c *TreeClock, want []uint32) {
				t.Helper()
				for u := range int32(goroutines + 2) {
					w := uint32(0)
					if int(u) < len(want) {
						w = want[u]
					}
					if got := c.Get(u); got != w {
						t.Fatalf("sequence %d, step %d, after %s: %s: entry %d is %d, want %d", seq, step, what, name, u, got, w)
					}
				}
			}
			for i := range vcs {
				if started[i] {
					check(fmt.Sprintf("goroutine %d", i), d.clock(int32(i)), vcs[i])
				}
			}
			for i := range svc {
				check(fmt.Sprintf("object %d", i), d.sync(int32(i)), svc[i])
				check(fmt.Sprintf("clock %d", i), &ext[i], evc[i])
			}
		}
	}
}
