package mcr

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"interleave.dev/rt/wire"
)

// genConfig shapes a random trace.
type genConfig struct {
	threads   int
	perThread int    // events per thread (thread 0 has one more: the go statement)
	locs      int    // full-word locations; the last has no initial value
	halves    bool   // one more location, accessed by half-word accesses only
	locks     int    // lock objects
	values    uint64 // values written: 0 to values-1
}

// generate runs a random program under a random schedule and records it:
// thread 0 starts the others (their first events list the go statement in
// After), then each thread takes locks around a few accesses or accesses
// memory outside them (reads, writes, and updates that read and write
// together). A thread stops after perThread events, even holding a lock,
// so some regions stay open. The trace is a real execution: each read
// returns what the last write before it wrote.
func generate(seed uint64, c genConfig) *wire.MCRTrace {
	g := &gen{c: c, rng: rand.New(rand.NewPCG(seed, 0)), tr: &wire.MCRTrace{Threads: c.threads}}
	g.mem = newMemory(g.tr)
	for l := 0; l < c.locs-1; l++ {
		g.setInit(int32(l), g.rng.Uint64N(c.values))
	}
	if c.halves {
		g.setInit(int32(c.locs), 0)
	}
	g.tr.Events = append(g.tr.Events, wire.MCREvent{T: 0})
	g.n = make([]int, c.threads)
	g.holds = make([]int32, c.threads)
	for i := range g.holds {
		g.holds[i] = -1
	}
	g.busy = make(map[int32]bool)
	for {
		var live []int
		for t, n := range g.n {
			if n < c.perThread {
				live = append(live, t)
			}
		}
		if len(live) == 0 {
			return g.tr
		}
		g.step(live[g.rng.IntN(len(live))])
	}
}

type gen struct {
	c     genConfig
	rng   *rand.Rand
	tr    *wire.MCRTrace
	mem   *memory
	n     []int   // events per thread so far
	holds []int32 // the lock each thread holds, or -1
	busy  map[int32]bool
}

func (g *gen) setInit(loc int32, v uint64) {
	g.tr.Init = append(g.tr.Init, wire.MCRInit{Loc: loc, V: v})
	g.mem.val[loc], g.mem.known[loc] = v, full
}

// step runs the next event of thread t.
func (g *gen) step(t int) {
	ev := wire.MCREvent{T: int32(t)}
	if t > 0 && g.n[t] == 0 {
		ev.After = []int32{0}
	}
	if !g.lockOp(t, &ev) {
		ev.K, ev.Acc = wire.MCRAccess, []wire.MCRMemAccess{g.access()}
	}
	g.tr.Events = append(g.tr.Events, ev)
	g.n[t]++
}

// lockOp makes ev, at random, a release of the lock thread t holds or an
// acquire of a free lock, and reports whether it did.
func (g *gen) lockOp(t int, ev *wire.MCREvent) bool {
	if held := g.holds[t]; held >= 0 {
		if g.rng.IntN(3) != 0 {
			return false
		}
		ev.K, ev.Obj = wire.MCRRelease, held
		g.holds[t], g.busy[held] = -1, false
		return true
	}
	if g.c.locks == 0 || g.rng.IntN(4) != 0 {
		return false
	}
	l := int32(g.rng.IntN(g.c.locks))
	if g.busy[l] {
		return false
	}
	ev.K, ev.Obj = wire.MCRAcquire, l
	g.holds[t], g.busy[l] = l, true
	return true
}

// access makes and performs a random access: a read, a write, or an
// update (a read and a write of one location); a location not written
// yet is written. Values read and written are whole words, compared
// under the mask.
func (g *gen) access() wire.MCRMemAccess {
	n := g.c.locs
	if g.c.halves {
		n++
	}
	a := wire.MCRMemAccess{Loc: int32(g.rng.IntN(n)), Mask: full}
	if int(a.Loc) == g.c.locs {
		a.Mask = []uint64{low, high}[g.rng.IntN(2)]
	}
	k := g.rng.IntN(3)
	if g.mem.known[a.Loc]&a.Mask != a.Mask {
		k = 0
	}
	if k > 0 {
		a.Read, a.RV = true, g.mem.val[a.Loc]
	}
	if k != 1 {
		v := g.rng.Uint64N(g.c.values)
		if a.Mask == high {
			v <<= 32
		}
		a.Write, a.WV = true, g.mem.val[a.Loc]&^a.Mask|v&a.Mask
	}
	g.mem.apply([]wire.MCRMemAccess{a})
	return a
}

// targets asks, for every read access of tr, every value under its mask
// that a write to its location, or its initial value, gives.
func targets(tr *wire.MCRTrace) []wire.MCRTarget {
	var out []wire.MCRTarget
	for i, ev := range tr.Events {
		for j, a := range ev.Acc {
			if !a.Read {
				continue
			}
			var vals []uint64
			for _, in := range tr.Init {
				if in.Loc == a.Loc {
					vals = append(vals, in.V&a.Mask)
				}
			}
			for _, w := range tr.Events {
				for _, b := range w.Acc {
					if b.Write && b.Loc == a.Loc {
						vals = append(vals, b.WV&a.Mask)
					}
				}
			}
			slices.Sort(vals)
			for _, v := range slices.Compact(vals) {
				out = append(out, wire.MCRTarget{Event: int32(i), Acc: int32(j), Value: v})
			}
		}
	}
	return out
}

// oracle decides a target by enumerating sequential runs of the trace's
// events: each thread in program order, each event after those in its
// After, an acquire only of a free lock, every read of every event run
// returning its trace value, until the target event runs with its access
// returning the asked value.
type oracle struct {
	tr      *wire.MCRTrace
	tg      wire.MCRTarget
	threads [][]int32 // each thread's events
	pos     []int     // each event's position in its thread
	seen    map[string]bool
}

func reachable(tr *wire.MCRTrace, tg wire.MCRTarget) bool {
	o := &oracle{tr: tr, tg: tg, threads: make([][]int32, tr.Threads), pos: make([]int, len(tr.Events)), seen: make(map[string]bool)}
	for i, ev := range tr.Events {
		o.pos[i] = len(o.threads[ev.T])
		o.threads[ev.T] = append(o.threads[ev.T], int32(i))
	}
	return o.search(make([]int, tr.Threads), newMemory(tr), make(map[int32]bool))
}

// search reports whether the target is reachable from the state where
// thread t has run its first next[t] events, leaving memory m and the
// locks held.
func (o *oracle) search(next []int, m *memory, held map[int32]bool) bool {
	key := fmt.Sprint(next, m.val, m.known, held)
	if o.seen[key] {
		return false
	}
	o.seen[key] = true
	for t, evs := range o.threads {
		if next[t] == len(evs) {
			continue
		}
		e := evs[next[t]]
		ev := o.tr.Events[e]
		if !o.ready(ev, next, held) {
			continue
		}
		if e == o.tg.Event {
			if m.check(ev.Acc[o.tg.Acc], o.tg.Value) == nil {
				return true
			}
			continue
		}
		if !o.readsTrace(ev, m) {
			continue
		}
		m2, held2, next2 := m.clone(), maps.Clone(held), slices.Clone(next)
		m2.apply(ev.Acc)
		switch ev.K {
		case wire.MCRAcquire:
			held2[ev.Obj] = true
		case wire.MCRRelease:
			held2[ev.Obj] = false
		}
		next2[t]++
		if o.search(next2, m2, held2) {
			return true
		}
	}
	return false
}

// ready reports whether ev can run now, its reads aside: the events of
// its After have run and, for an acquire, the lock is free.
func (o *oracle) ready(ev wire.MCREvent, next []int, held map[int32]bool) bool {
	for _, a := range ev.After {
		if o.pos[a] >= next[o.tr.Events[a].T] {
			return false
		}
	}
	return ev.K != wire.MCRAcquire || !held[ev.Obj]
}

// readsTrace reports whether every read of ev returns its trace value.
func (o *oracle) readsTrace(ev wire.MCREvent, m *memory) bool {
	for _, a := range ev.Acc {
		if a.Read && m.check(a, a.RV) != nil {
			return false
		}
	}
	return true
}

// Small random traces, every target decided by Solve and by enumeration:
// the two must agree (the traces read whole words or non-overlapping
// halves, so every value read comes from a single write, the case the
// encoding covers), and every sat prefix passes the replay check.
func TestAgainstEnumeration(t *testing.T) {
	n := 150
	if testing.Short() {
		n = 30
	}
	configs := []genConfig{
		{threads: 3, perThread: 4, locs: 2, halves: true, locks: 1, values: 2},
		{threads: 2, perThread: 7, locs: 2, halves: true, locks: 2, values: 3},
	}
	count := map[string]int{}
	for seed := range uint64(n) {
		tr := generate(seed, configs[seed%2])
		q := &wire.MCRQuery{Trace: *tr, Targets: targets(tr)}
		rs := solveChecked(t, q)
		for i, r := range rs {
			want := unsat
			if reachable(tr, q.Targets[i]) {
				want = sat
			}
			count[r.Status]++
			if r.Status != want {
				t.Errorf("seed %d, target %+v: %s, enumeration says %s; trace %+v", seed, q.Targets[i], r.Status, want, *tr)
			}
		}
	}
	t.Logf("%d traces: %v", n, count)
	if count[sat] < n || count[unsat] < n/2 {
		t.Errorf("too few sat or unsat targets for the comparison to mean much: %v", count)
	}
}
