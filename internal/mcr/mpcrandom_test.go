package mcr

import (
	"math/rand/v2"
	"slices"
	"testing"

	"interleave.dev/rt/wire"
)

// genMPC makes a small random MPC query: two or three threads of a few
// events each over locations x and y (with initial values) and one lock,
// in a random order that respects the lock; threads after the first may
// start after an event of another (an After edge). Reads are followed by
// branches on their value, an input, or both; writes write a constant, an
// input, or a read of their thread plus one. Branch outcomes are random
// (the solver never looks at the values the trace read). The prefixes are
// a sample of the cuts of every thread.
func genMPC(seed uint64) *wire.MPCQuery {
	rng := rand.New(rand.NewPCG(seed, 1))
	var b mpcBuilder
	b.init(x, rng.Uint64N(2))
	b.init(y, rng.Uint64N(2))
	var ins []wire.MPCTerm
	for range 1 + rng.IntN(2) {
		ins = append(ins, b.input(0, 2, rng.Int64N(3)))
	}
	threads := 2 + rng.IntN(2)
	// Each thread's program: 'l' lock, 'u' unlock, 'r' read, 'w' write.
	progs := make([][]byte, threads)
	for t := range progs {
		var p []byte
		for range 1 + rng.IntN(2) {
			p = append(p, "rw"[rng.IntN(2)])
		}
		if rng.IntN(3) == 0 {
			p = append(append([]byte{'l'}, p...), 'u')
		}
		progs[t] = p
	}
	next := make([]int, threads)
	lastRead := make([]int32, threads)
	for t := range lastRead {
		lastRead[t] = -1
	}
	holder := -1
	var events []int32 // emitted so far
	for {
		var ready []int
		for t, p := range progs {
			if next[t] < len(p) && (p[next[t]] != 'l' || holder < 0) {
				ready = append(ready, t)
			}
		}
		if len(ready) == 0 {
			break
		}
		t := ready[rng.IntN(len(ready))]
		tt := int32(t)
		loc := int32(rng.IntN(2))
		var e int32
		switch progs[t][next[t]] {
		case 'l':
			e, holder = b.lock(tt, m), t
		case 'u':
			e, holder = b.unlock(tt, m), -1
		case 'r':
			e = b.read(tt, loc, 0)
			lastRead[t] = e
			in := ins[rng.IntN(len(ins))]
			c := cnst(rng.Int64N(4))
			var cond wire.MPCTerm
			switch rng.IntN(5) {
			case 0:
				cond = op("==", rdv(e), c)
			case 1:
				cond = op(">", op("+", rdv(e), in), c)
			case 2:
				cond = op("==", in, c)
			case 3:
				cond = op("==", op(wire.TermIte, op(">", in, cnst(1)), rdv(e), in), c)
			default:
				cond = op("!=", rdv(e), c)
			}
			b.branch(tt, e, cond, rng.IntN(2) == 0)
		case 'w':
			v := rng.Int64N(3)
			switch k := rng.IntN(3); {
			case k == 0:
				e = b.write(tt, loc, uint64(v))
			case k == 1 || lastRead[t] < 0:
				e = b.symWrite(tt, loc, uint64(v), ins[rng.IntN(len(ins))])
			default:
				e = b.symWrite(tt, loc, uint64(v), op("+", rdv(lastRead[t]), cnst(1)))
			}
		}
		if next[t] == 0 && t > 0 && len(events) > 0 && rng.IntN(2) == 0 {
			a := events[rng.IntN(len(events))]
			if b.tr.Events[a].T != tt {
				b.tr.Events[e].After = []int32{a}
			}
		}
		events = append(events, e)
		next[t]++
	}
	b.tr.Threads = threads
	// The cuts: per thread, whole or any of its cuts.
	branches := make([]int32, threads)
	for _, br := range b.q.Branches {
		branches[br.T]++
	}
	var ps []wire.MPCPrefix
	for range 12 {
		var p wire.MPCPrefix
		for t := range int32(threads) {
			n := branches[t]
			switch k := rng.Int32N(2*n + 2); {
			case k == 2*n+1: // whole
			case k == 0:
				p.Cuts = append(p.Cuts, cut(t, 0, false))
			default:
				p.Cuts = append(p.Cuts, cut(t, (k+1)/2, k%2 == 1))
			}
		}
		ps = append(ps, p)
	}
	return b.query(ps...)
}

// mpcWitness looks for a schedule of prefix p's subtrace and an input
// that take p, checking the branches of the threads in only (nil: all),
// by enumerating the merges of the threads' events and every input.
func mpcWitness(q *wire.MPCQuery, p wire.MPCPrefix, only map[int32]bool) bool {
	kept := make(map[int32]int32) // cut thread -> its last event kept
	for _, c := range p.Cuts {
		kept[c.T] = -1
		if c.N > 0 {
			n := int32(0)
			for _, b := range q.Branches {
				if b.T == c.T {
					if n++; n == c.N {
						kept[c.T] = b.After
					}
				}
			}
		}
	}
	seqs := make([][]int32, q.Trace.Threads)
	for i, ev := range q.Trace.Events {
		if l, cut := kept[ev.T]; !cut || int32(i) <= l {
			seqs[ev.T] = append(seqs[ev.T], int32(i))
		}
	}
	var inputs [][]int64
	var gen func(prefix []int64)
	gen = func(prefix []int64) {
		if len(prefix) == len(q.Inputs) {
			inputs = append(inputs, slices.Clone(prefix))
			return
		}
		in := q.Inputs[len(prefix)]
		for v := in.Min; v <= in.Max; v++ {
			gen(append(prefix, v))
		}
	}
	gen(nil)
	pos := make([]int, len(seqs))
	var sched []int32
	var merge func() bool
	merge = func() bool {
		progressed := false
		for t, s := range seqs {
			if pos[t] == len(s) {
				continue
			}
			progressed = true
			sched = append(sched, s[pos[t]])
			pos[t]++
			found := merge()
			pos[t]--
			sched = sched[:len(sched)-1]
			if found {
				return true
			}
		}
		if progressed {
			return false
		}
		for _, in := range inputs {
			r := wire.MPCResult{Status: wire.MCRSat, Prefix: sched, Inputs: in}
			if checkMPCOf(q, p, r, only) == nil {
				return true
			}
		}
		return false
	}
	return merge()
}

// Small random queries, every prefix decided by SolveMPC and by
// enumeration of schedules and inputs: the two must agree, every sat
// answer passes the replay check, and every unsat core is one: with the
// path conditions of the other threads dropped, no schedule and input
// takes the prefix.
func TestMPCAgainstEnumeration(t *testing.T) {
	n := 150
	if testing.Short() {
		n = 30
	}
	count := map[string]int{}
	for seed := range uint64(n) {
		q := genMPC(seed)
		rs := solveMPCChecked(t, q)
		for i, r := range rs {
			p := q.Prefixes[i]
			want := unsat
			if mpcWitness(q, p, nil) {
				want = sat
			}
			count[r.Status]++
			if r.Status != want {
				t.Errorf("seed %d, prefix %+v: %s, enumeration says %s", seed, p, r.Status, want)
				continue
			}
			if r.Status == unsat {
				only := make(map[int32]bool)
				for _, c := range r.Core {
					only[c] = true
				}
				if mpcWitness(q, p, only) {
					t.Errorf("seed %d, prefix %+v: core %v, but the prefix is sat with only their path conditions", seed, p, r.Core)
				}
			}
		}
	}
	t.Logf("%d queries: %v", n, count)
	if count[sat] < n || count[unsat] < n {
		t.Errorf("too few sat or unsat prefixes for the comparison to mean much: %v", count)
	}
}
