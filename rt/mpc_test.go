package rt

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"interleave.dev/internal/mcr"
	"interleave.dev/rt/internal/explore"
	"interleave.dev/rt/internal/sched"
	"interleave.dev/rt/internal/strategy/causal"
	"interleave.dev/rt/wire"
)

func (localSolver) SolveMPC(q *wire.MPCQuery) (*wire.MPCAnswer, error) { return mcr.SolveMPC(q), nil }

// mpcProgram is a program with integer inputs, written as the
// instrumenter writes a fuzz body: its accesses reported, its branches
// with their terms (rt.Branch), its symbolic writes (rt.SymWrite).
type mpcProgram struct {
	name string
	seed []int64
	// body runs once with the input in; it returns the run's outcome,
	// "error" where the program's bug shows.
	body func(in []int64) string
}

func ms(k int) Site { return textbookSites + 100 + Site(k) }

// mpcResult is what a search of an mpcProgram did.
type mpcResult struct {
	runs     int
	outcomes []string
	inputs   map[string][]int64 // outcome -> an input that reached it
	complete bool
}

// runMPC explores p under strategy mpc (sound or simple) with the solver
// in this process.
func runMPC(t *testing.T, p mpcProgram, sound bool, limit int) (mpcResult, *causal.MPC) {
	t.Helper()
	ins := make([]wire.MPCInput, len(p.seed))
	for i, v := range p.seed {
		ins[i] = wire.MPCInput{Min: -1 << 31, Max: 1<<31 - 1, Value: v}
	}
	m := causal.NewMPC(localSolver{}, ins, 0)
	m.Sound = sound
	r := mpcResult{inputs: map[string][]int64{}}
	res := sched.Explore(sched.Config{
		Strategy: m, Symbolic: m,
		Schedules:  limit,
		Leaks:      true,
		StuckAfter: 10 * time.Second,
		Stall:      100 * time.Millisecond,
	}, func() {
		in := append([]int64(nil), m.Input()...)
		o := p.body(in)
		if _, ok := r.inputs[o]; !ok {
			r.inputs[o] = in
			r.outcomes = append(r.outcomes, o)
		}
	})
	if err := m.Err(); err != nil {
		t.Fatal(err)
	}
	if res.Diverged != "" || res.Finding != nil {
		t.Fatalf("%s: diverged %q, finding %v", p.name, res.Diverged, res.Finding)
	}
	sort.Strings(r.outcomes)
	r.runs, r.complete = res.Iterations, m.Complete()
	t.Logf("%s (sound %v): %d runs, %d paths, %d queries for %d prefixes (%d sat, %d unsat, %d unknown, %d extended), %v solving; outcomes %v; incomplete %q",
		p.name, sound, r.runs, m.Paths, m.Queries, m.Prefixes, m.Sat, m.Unsat, m.Unknown, m.Extended, m.SolverTime.Round(time.Millisecond), r.outcomes, m.Incomplete())
	return r, m
}

// mpcFigure1 is the program of figure 1 of Yi and Huang (FSE 2018): T1
// writes input i to x, T2 input j, and T3 fails when it reads 10. No
// schedule fails with the seed input (0, 0); MCR, which keeps the input,
// cannot find the error.
func mpcFigure1() mpcProgram {
	return mpcProgram{"figure1", []int64{0, 0}, func(in []int64) string {
		i, j := int(in[0]), int(in[1])
		x := 0
		out := "ok"
		done := spawnAll(3, func(k int) {
			switch k {
			case 0:
				Write(&x, ms(1))
				x = i
				SymWrite(&x, ms(2), "i0", nil)
			case 1:
				Write(&x, ms(3))
				x = j
				SymWrite(&x, ms(4), "i1", nil)
			case 2:
				Read(&x, ms(5))
				if Branch(x == 10, ms(6), "(== m0:i64 10)", nil, &x) {
					out = "error"
				}
			}
		})
		joinAll(done)
		return out
	}}
}

// mpcFigure6 is the program of figure 6(a) of Yi and Huang, the one that
// shows strategy S1 unsound (section 4.3.1): T1 writes x = 1 when i == 0,
// else x = 2 when j == 5; T2 fails when it reads 2. From the seed (0, 0)
// the first trace shows no write of 2, so S1 finds "T1 takes i != 0 and T2
// reads 2" unsatisfiable and never looks again; S2 extends T1 alone (its
// path condition is not in the core), whose run shows the write of 2.
func mpcFigure6() mpcProgram {
	return mpcProgram{"figure6a", []int64{0, 0}, func(in []int64) string {
		i, j := int(in[0]), int(in[1])
		x := 0
		out := "ok"
		done := spawnAll(2, func(k int) {
			switch k {
			case 0:
				if Branch(i == 0, ms(10), "(== i0 0)", nil) {
					Write(&x, ms(11))
					x = 1
				} else if Branch(j == 5, ms(12), "(== i1 5)", nil) {
					Write(&x, ms(13))
					x = 2
				}
			case 1:
				Read(&x, ms(14))
				if Branch(x == 2, ms(15), "(== m0:i64 2)", nil, &x) {
					out = "error"
				}
			}
		})
		joinAll(done)
		return out
	}}
}

// TestMPCFigure1: mpc finds the input and the schedule together.
func TestMPCFigure1(t *testing.T) {
	r, _ := runMPC(t, mpcFigure1(), true, 100)
	in, ok := r.inputs["error"]
	if !ok {
		t.Fatalf("mpc did not reach the error: outcomes %v", r.outcomes)
	}
	if in[0] != 10 && in[1] != 10 {
		t.Errorf("the error was reached with input %v, neither of which is 10", in)
	}
	if !r.complete {
		t.Errorf("mpc did not claim every path")
	}
	if r.runs > 4 {
		t.Errorf("%d runs: figure 1 has 3 paths (T3's branch either way), the paper explores them in 2", r.runs)
	}
}

// TestMPCSoundness: on figure 6(a), strategy S2 reaches the error and S1
// does not (section 4.3.1 of the paper).
func TestMPCSoundness(t *testing.T) {
	p := mpcFigure6()
	sound, _ := runMPC(t, p, true, 100)
	if _, ok := sound.inputs["error"]; !ok {
		t.Errorf("S2 missed the error: outcomes %v", sound.outcomes)
	} else if in := sound.inputs["error"]; in[0] == 0 || in[1] != 5 {
		t.Errorf("S2 reached the error with %v; it needs i != 0 and j == 5", in)
	}
	if !sound.complete {
		t.Errorf("S2 did not claim every path")
	}
	simple, m := runMPC(t, p, false, 100)
	if _, ok := simple.inputs["error"]; ok {
		t.Errorf("S1 reached the error: figure 6(a) is the paper's example of a path it misses")
	}
	if m.Complete() {
		t.Errorf("S1 claimed every path")
	}
}

// TestMPCFixedTwins: where no input and schedule reach an error, mpc
// explores every path and reports none.
func TestMPCFixedTwins(t *testing.T) {
	fixed := mpcProgram{"figure1-fixed", []int64{0, 0}, func(in []int64) string {
		i, j := int(in[0]), int(in[1])
		if Branch(i == 10 || j == 10, ms(20), "(|| (== i0 10) (== i1 10))", nil) {
			return "rejected" // the input is validated before it is published
		}
		x := 0
		out := "ok"
		done := spawnAll(3, func(k int) {
			switch k {
			case 0:
				Write(&x, ms(21))
				x = i
				SymWrite(&x, ms(22), "i0", nil)
			case 1:
				Write(&x, ms(23))
				x = j
				SymWrite(&x, ms(24), "i1", nil)
			case 2:
				Read(&x, ms(25))
				if Branch(x == 10, ms(26), "(== m0:i64 10)", nil, &x) {
					out = "error"
				}
			}
		})
		joinAll(done)
		return out
	}}
	r, _ := runMPC(t, fixed, true, 100)
	if _, ok := r.inputs["error"]; ok {
		t.Errorf("mpc reached the error of a program that has none: %v", r.inputs["error"])
	}
	if !r.complete {
		t.Errorf("mpc did not claim every path")
	}
	if fmt.Sprint(r.outcomes) != "[ok rejected]" {
		t.Errorf("outcomes %v, want [ok rejected]", r.outcomes)
	}
}

// countingSolver answers in this process and counts what it was given.
type countingSolver struct {
	localSolver
	mu       *sync.Mutex
	prefixes *[]int
}

func (c countingSolver) SolveMPC(q *wire.MPCQuery) (*wire.MPCAnswer, error) {
	c.mu.Lock()
	*c.prefixes = append(*c.prefixes, len(q.Prefixes))
	c.mu.Unlock()
	return c.localSolver.SolveMPC(q)
}

func (countingSolver) Close() {}

// TestSolverPool: a pool splits a query's prefixes between its solvers,
// and the search it answers is the same as with one solver: the same
// runs, paths and outcome, whatever the number of solvers.
func TestSolverPool(t *testing.T) {
	p := mpcFigure6()
	one, m1 := runMPC(t, p, true, 100)
	var mu sync.Mutex
	var shares []int
	pool, err := explore.NewSolverPool(func() (explore.SolverConn, error) {
		return countingSolver{mu: &mu, prefixes: &shares}, nil
	}, 3)
	if err != nil {
		t.Fatal(err)
	}
	pool.MinShare = 1
	ins := []wire.MPCInput{{Min: -1 << 31, Max: 1<<31 - 1}, {Min: -1 << 31, Max: 1<<31 - 1}}
	m := causal.NewMPC(pool, ins, 0)
	outcomes := map[string]bool{}
	res := sched.Explore(sched.Config{Strategy: m, Symbolic: m, Schedules: 100, Leaks: true, StuckAfter: 10 * time.Second},
		func() { outcomes[p.body(append([]int64(nil), m.Input()...))] = true })
	if res.Diverged != "" || m.Err() != nil {
		t.Fatalf("diverged %q, error %v", res.Diverged, m.Err())
	}
	if res.Iterations != one.runs || m.Paths != m1.Paths || m.Prefixes != m1.Prefixes || m.Sat != m1.Sat || !outcomes["error"] {
		t.Errorf("with 3 solvers: %d runs, %d paths, %d prefixes (%d sat), outcomes %v; with one: %d runs, %d paths, %d prefixes (%d sat)",
			res.Iterations, m.Paths, m.Prefixes, m.Sat, outcomes, one.runs, m1.Paths, m1.Prefixes, m1.Sat)
	}
	if pool.Solvers() < 2 {
		t.Errorf("the pool used %d solver for queries of up to %d prefixes", pool.Solvers(), maxOf(shares...))
	}
}

func maxOf(xs ...int) int {
	m := 0
	for _, x := range xs {
		if x > m {
			m = x
		}
	}
	return m
}

// BenchmarkBranchOff is what a rewritten condition costs outside mpc: the
// check that no mpc search runs.
func BenchmarkBranchOff(b *testing.B) {
	x := 0
	n := 0
	for i := 0; i < b.N; i++ {
		if Branch(x == i, ms(30), "(== m0:i64 v0)", []int64{int64(i)}, &x) {
			n++
		}
	}
	_ = n
}

// BenchmarkSymSetOff is the same for the report of a local's value.
func BenchmarkSymSetOff(b *testing.B) {
	for i := 0; i < b.N; i++ {
		SymSet(ms(31), "(+ l0 1)", []int64{int64(ms(31)), int64(i)})
	}
}

// BenchmarkBranchOffPointer is BenchmarkBranchOff with a memory leaf
// alone, a pointer, which needs no boxing.
func BenchmarkBranchOffPointer(b *testing.B) {
	x := 0
	n := 0
	for i := 0; i < b.N; i++ {
		if Branch(x == i, ms(30), "(== m0:i64 0)", nil, &x) {
			n++
		}
	}
	_ = n
}

// TestMPCUntracked: a condition the instrumentation could not express
// (rt.Untracked) keeps the search from claiming every path, and a divisor
// checked as a branch is explored to zero.
func TestMPCUntracked(t *testing.T) {
	untracked := mpcProgram{"untracked", []int64{3}, func(in []int64) string {
		Untracked(ms(40)) // if f(i) > 2, say
		return "ok"
	}}
	if r, _ := runMPC(t, untracked, true, 10); r.complete {
		t.Errorf("mpc claimed every path past an untracked condition")
	}
	divisor := mpcProgram{"divisor", []int64{4, 1}, func(in []int64) string {
		d := in[0] - in[1]
		if !Branch(d != 0, ms(41), "(!= (- i0 i1) 0)", nil) {
			return "divide by zero"
		}
		return fmt.Sprint(100 / d)
	}}
	r, _ := runMPC(t, divisor, true, 10)
	if in, ok := r.inputs["divide by zero"]; !ok || in[0] != in[1] {
		t.Errorf("the divisor's check was not explored to zero: %v", r.inputs)
	}
	if !r.complete {
		t.Errorf("mpc did not claim every path of the divisor")
	}
}

// TestMPCPrefixBound: a run whose goroutines have many new branches makes
// more prefixes than MaxPrefixes; split keeps the bound, fewest cut
// goroutines first, and the search says it is not complete.
func TestMPCPrefixBound(t *testing.T) {
	many := mpcProgram{"many", []int64{-1}, func(in []int64) string {
		done := spawnAll(3, func(k int) {
			for b := 0; b < 8; b++ {
				Branch(in[0] == int64(10*k+b), ms(50+k), fmt.Sprintf("(== i0 %d)", 10*k+b), nil)
			}
		})
		joinAll(done)
		return "ok"
	}}
	ins := []wire.MPCInput{{Min: -100, Max: 100, Value: -1}} // no branch taken
	m := causal.NewMPC(localSolver{}, ins, 0)
	m.MaxPrefixes = 20
	sched.Explore(sched.Config{Strategy: m, Symbolic: m, Schedules: 1, Leaks: true, StuckAfter: 10 * time.Second},
		func() { many.body(m.Input()) })
	t.Logf("%d runs, %d queries, %d prefixes, %d sat, %d unsat, %d extended; %q", m.Executions, m.Queries, m.Prefixes, m.Sat, m.Unsat, m.Extended, m.Incomplete())
	if m.Prefixes != 20 {
		t.Errorf("%d prefixes solved after one run, want the bound, 20", m.Prefixes)
	}
	if m.Complete() || !strings.Contains(fmt.Sprint(m.Incomplete()), "more than 20 new path prefixes") {
		t.Errorf("incomplete: %q", m.Incomplete())
	}
	// 3 goroutines with 8 new branches each: the first 20 prefixes cut
	// one goroutine each (24 such) and negate one of its branches, which
	// the input satisfies alone (i0 = 10k+b).
	if m.Sat != 20 {
		t.Errorf("%d of 20 prefixes satisfiable", m.Sat)
	}
}

// mpcOverdraft is kernels/input-overdraft as the instrumenter writes it:
// each of two goroutines withdraws its input if the balance, which a
// method returns under a lock, covers it; the check and the debit are
// separate critical sections. The balance goes negative only with
// inputs that each fit and together do not, and both checks before
// either debit. fixed takes the check and the debit in one critical
// section.
func mpcOverdraft(fixed bool) mpcProgram {
	name := "overdraft"
	if fixed {
		name += "-fixed"
	}
	return mpcProgram{name, []int64{30, 30}, func(in []int64) string {
		var mu sync.Mutex
		bal := int64(100)
		balance := func() int64 { // (*Account).Balance
			frame := SymEnter("balance")
			Lock(&mu, ms(60))
			defer Unlock(&mu, ms(61))
			Read(&bal, ms(62))
			return SymRet(bal, frame, "m0:i64", nil, &bal)
		}
		done := spawnAll(2, func(k int) {
			n := in[k]
			if Branch(n < 0, ms(59), fmt.Sprintf("(< i%d 0)", k), nil) {
				return
			}
			if fixed {
				Lock(&mu, ms(63))
				Read(&bal, ms(64))
				if Branch(bal < n, ms(65), fmt.Sprintf("(< m0:i64 i%d)", k), nil, &bal) {
					Unlock(&mu, ms(66))
					return
				}
			} else {
				if Branch(SymResult(SymMark("balance"), balance(), ms(67)) < n, ms(68), fmt.Sprintf("(< r0 i%d)", k), []int64{int64(ms(67))}) {
					return
				}
				Lock(&mu, ms(63))
			}
			Update(&bal, ms(69))
			bal -= n
			SymWrite(&bal, ms(70), fmt.Sprintf("(- m0:i64 i%d)", k), nil, &bal)
			Unlock(&mu, ms(66))
		})
		joinAll(done)
		if Read(&bal, ms(71)); Branch(bal < 0, ms(72), "(< m0:i64 0)", nil, &bal) {
			return "error"
		}
		return "ok"
	}}
}

// TestMPCCallResult: the term of a method's result (a read under a lock)
// reaches the caller's condition, so that mpc finds the overdraft's input
// and schedule together, and covers every path of the fixed twin.
func TestMPCCallResult(t *testing.T) {
	r, m := runMPC(t, mpcOverdraft(false), true, 200)
	in, ok := r.inputs["error"]
	if !ok {
		t.Fatalf("mpc did not reach the overdraft: outcomes %v", r.outcomes)
	}
	if in[0] > 100 || in[1] > 100 || in[0]+in[1] <= 100 {
		t.Errorf("the overdraft was reached with %v: each must fit the balance of 100, both not", in)
	}
	if why := m.Incomplete(); len(why) > 0 {
		t.Errorf("the search is incomplete: %q", why)
	}
	fixed, _ := runMPC(t, mpcOverdraft(true), true, 200)
	if _, ok := fixed.inputs["error"]; ok {
		t.Errorf("the fixed twin overdrew: %v", fixed.inputs["error"])
	}
	if !fixed.complete {
		t.Errorf("mpc did not claim every path of the fixed twin")
	}
}

// TestMPCResultUnrecorded: a callee that returns without recording its
// result (it recovered from a panic) leaves the caller a concrete value,
// never a term of another call, and the search does not claim every path.
func TestMPCResultUnrecorded(t *testing.T) {
	f := func(n int64) (r int64) {
		frame := SymEnter("f", ms(80))
		defer func() {
			if recover() != nil {
				r = 7
			}
		}()
		if Branch(n > 5, ms(85), "(> l0 5)", []int64{int64(ms(80)), n}) {
			panic("big")
		}
		return SymRet(n, frame, "l0", []int64{int64(ms(80)), n})
	}
	p := mpcProgram{"unrecorded", []int64{6}, func(in []int64) string {
		first := SymResult(SymMark("f"), f(SymCall(in[0]-3, "f", "(- i0 3)", nil)), ms(81)) // recorded: i0 - 3
		if Branch(first == 3, ms(82), "(== r0 3)", []int64{int64(ms(81))}) {
			return "three"
		}
		v := SymResult(SymMark("f"), f(SymCall(in[0], "f", "i0", nil)), ms(83)) // may panic and recover: 7, no record
		if Branch(v == 7, ms(84), "(== r0 7)", []int64{int64(ms(83))}) {
			return "seven"
		}
		return "other"
	}}
	r, m := runMPC(t, p, true, 20)
	if r.complete {
		t.Errorf("mpc claimed every path past a result its callee did not record")
	}
	if !strings.Contains(fmt.Sprint(m.Incomplete()), "not tracked symbolically") {
		t.Errorf("incomplete: %q, want the concrete result named", m.Incomplete())
	}
	if in, ok := r.inputs["three"]; !ok || in[0] != 6 {
		t.Errorf("the recorded result's term did not lead to input 6: %v", r.inputs)
	}
	if _, ok := r.inputs["other"]; !ok {
		t.Errorf("the second call's condition on its parameter was not explored: %v", r.outcomes)
	}
	if m.Diverged > 0 {
		t.Errorf("%d runs departed from their prefix", m.Diverged)
	}
}

// TestMPCRecursion: a function entered again while it runs on the
// goroutine's stack makes the goroutine's locals concrete, and the search
// says why it is not complete; a function called twice, one call after
// the other, does not.
func TestMPCRecursion(t *testing.T) {
	var rec func(n int64) int64
	rec = func(n int64) int64 {
		SymEnter("rec", ms(90))
		if n <= 0 {
			return 0
		}
		return rec(n-1) + 1
	}
	flat := func(n int64) int64 {
		SymEnter("flat", ms(91))
		return n
	}
	for _, c := range []struct {
		name    string
		call    func(int64) int64
		reenter bool
	}{{"recursive", rec, true}, {"flat", func(n int64) int64 { return flat(n) + flat(n) }, false}} {
		p := mpcProgram{c.name, []int64{2}, func(in []int64) string {
			c.call(in[0])
			return "ok"
		}}
		_, m := runMPC(t, p, true, 5)
		if got := strings.Contains(fmt.Sprint(m.Incomplete()), "recursion"); got != c.reenter {
			t.Errorf("%s: recursion noted %v, want %v (%q)", c.name, got, c.reenter, m.Incomplete())
		}
	}
}

// runStrings explores body, whose first input is a string (seed) and
// whose other inputs are integers (ints), under mpc; a panic of body is
// a finding, which ends the search.
func runStrings(t *testing.T, seed string, ints []int64, body func(s string, in []int64) string) (map[string]string, *causal.MPC, *sched.Finding) {
	t.Helper()
	ins := []wire.MPCInput{{Min: 0, Max: 8, Value: int64(len(seed))}}
	for _, v := range ints {
		ins = append(ins, wire.MPCInput{Min: -100, Max: 100, Value: v})
	}
	m := causal.NewMPC(localSolver{}, ins, 0)
	m.StringInput(0, []byte(seed), 8)
	found := map[string]string{} // outcome -> the string that reached it
	res := sched.Explore(sched.Config{Strategy: m, Symbolic: m, Schedules: 100, Leaks: true, StuckAfter: 10 * time.Second}, func() {
		s := string(m.Bytes(0))
		in := append([]int64(nil), m.Input()...)
		found["input"] = fmt.Sprintf("%q %v", s, in[1:len(ints)+1])
		o := body(s, in)
		if _, ok := found[o]; !ok {
			found[o] = s
		}
	})
	if err := m.Err(); err != nil {
		t.Fatal(err)
	}
	if res.Diverged != "" {
		t.Fatalf("diverged %q", res.Diverged)
	}
	t.Logf("%d runs, %d paths, %d prefixes (%d sat, %d unsat); found %q; incomplete %q", res.Iterations, m.Paths, m.Prefixes, m.Sat, m.Unsat, found, m.Incomplete())
	return found, m, res.Finding
}

// TestMPCStringInput: the length and the bytes of a string input are
// inputs: a condition over them is solved, and the string made of the
// solver's bytes (the seed's where it gave none) reaches the path.
func TestMPCStringInput(t *testing.T) {
	found, m, f := runStrings(t, "ab", nil, func(s string, _ []int64) string {
		if Branch(len(s) > 3 && s[0] == 'x' && s[2] == 'y', ms(100), "(&& (> i0 3) (== (@ i0 0 v0) 120) (== (@ i0 2 v1) 121))",
			[]int64{At(s, 0), At(s, 2)}) {
			return "xy"
		}
		return "other"
	})
	if f != nil {
		t.Fatalf("finding: %v", f)
	}
	s, ok := found["xy"]
	if !ok {
		t.Fatalf("mpc did not find a string with len > 3, s[0] == 'x' and s[2] == 'y': %q", found)
	}
	if len(s) <= 3 || s[0] != 'x' || s[2] != 'y' || s[1] != 'b' {
		t.Errorf("found %q; want len > 3, x at 0, y at 2 and the seed's b at 1", s)
	}
	if !m.Complete() {
		t.Errorf("mpc did not claim every path: %q", m.Incomplete())
	}
}

// TestMPCStringIndex: a byte at a symbolic index is the byte input the
// index selects, and the read is a branch that the index is within the
// string: guarded, mpc puts the byte wanted where the index says and
// covers every path; unguarded, it finds the input whose index is out of
// range, at which the read panics.
func TestMPCStringIndex(t *testing.T) {
	found, m, f := runStrings(t, "abc", []int64{1}, func(s string, in []int64) string {
		i := in[1]
		if Branch(i >= 0 && i < int64(len(s)) && s[i] == 'q', ms(101), "(&& (>= i1 0) (< i1 i0) (== (@ i0 i1 v0) 113))", []int64{At(s, i)}) {
			return "q"
		}
		return "other"
	})
	var s string
	var i int
	if _, err := fmt.Sscanf(found["input"], "%q [%d]", &s, &i); err != nil {
		t.Fatal(err)
	}
	if q, ok := found["q"]; !ok || !strings.Contains(q, "q") {
		t.Errorf("mpc did not put a q at the index: %q", found)
	}
	if f != nil || !m.Complete() {
		t.Errorf("finding %v; incomplete %q", f, m.Incomplete())
	}
	found, _, f = runStrings(t, "abc", []int64{1}, func(s string, in []int64) string {
		if Branch(s[in[1]] == 'q', ms(102), "(== (@ i0 i1 v0) 113)", []int64{At(s, in[1])}) {
			return "q"
		}
		return "other"
	})
	if f == nil || f.Kind != sched.KindPanic || !strings.Contains(f.Message, "index out of range") {
		t.Fatalf("finding %v, want the panic of an index out of range", f)
	}
	if _, err := fmt.Sscanf(found["input"], "%q [%d]", &s, &i); err != nil || i >= 0 && i < len(s) {
		t.Errorf("the panic's input %s has its index within the string (%v)", found["input"], err)
	}
}

// TestMPCStringEquals: a switch on a string input, as the instrumenter
// writes it (a chain of branches, each the string's length and bytes
// compared with a case's constant, its bytes read without a bounds
// branch), reaches every case from a seed that matches none, in one run
// per path, and covers every path.
func TestMPCStringEquals(t *testing.T) {
	eq := func(s, lit string, site int) bool {
		sym := "(&& (== i0 " + fmt.Sprint(len(lit)) + ")"
		var vals []int64
		for i := 0; i < len(lit); i++ {
			sym += fmt.Sprintf(" (== (@? i0 %d v%d) %d)", i, i, lit[i])
			vals = append(vals, At(s, int64(i)))
		}
		return Branch(s == lit, ms(site), sym+")", vals)
	}
	found, m, f := runStrings(t, "ab", nil, func(s string, _ []int64) string {
		switch {
		case eq(s, "get", 110), eq(s, "ping", 111):
			return "read"
		case eq(s, "incr", 112):
			return "incr"
		case eq(s, "reset", 113):
			return "reset"
		}
		return "other"
	})
	if f != nil {
		t.Fatalf("finding: %v", f)
	}
	for o, want := range map[string]string{"incr": "incr", "reset": "reset"} {
		if found[o] != want {
			t.Errorf("outcome %s: reached with %q, want %q (found %q)", o, found[o], want, found)
		}
	}
	if r := found["read"]; r != "get" && r != "ping" {
		t.Errorf("outcome read: reached with %q, want get or ping", r)
	}
	// get, ping, incr, reset, none: no path of a bounds branch.
	if m.Paths != 5 || !m.Complete() {
		t.Errorf("%d paths, want 5; incomplete %q", m.Paths, m.Incomplete())
	}
}

// TestMPCBytesWritten: when the byte the program reads is not the
// input's (the program wrote its []byte, which the instrumenter did not
// see), the read is taken as it was, and the search does not claim every
// path.
func TestMPCBytesWritten(t *testing.T) {
	found, m, f := runStrings(t, "ab", nil, func(s string, _ []int64) string {
		b := []byte(s)
		if len(b) > 0 {
			b[0] = 'z'
		}
		if Branch(len(b) > 0 && b[0] == 'x', ms(114), "(&& (> i0 0) (== (@ i0 0 v0) 120))", []int64{At(b, 0)}) {
			return "x"
		}
		return "other"
	})
	if f != nil {
		t.Fatalf("finding: %v", f)
	}
	if _, ok := found["x"]; ok {
		t.Errorf("reached the unreachable: %q", found)
	}
	if m.Complete() || !strings.Contains(strings.Join(m.Incomplete(), " "), "not tracked symbolically") {
		t.Errorf("the search claims every path: incomplete %q", m.Incomplete())
	}
}

//go:noinline
func benchCallee(n int) int { return n + 1 }

//go:noinline
func benchCalleeRewritten(n int) int {
	frame := SymEnter("benchCallee")
	return SymRet(n+1, frame, "(+ l0 1)", []int64{int64(ms(32)), int64(n)})
}

// BenchmarkResultPlain is a call of a function that returns an integer,
// as written.
func BenchmarkResultPlain(b *testing.B) {
	n := 0
	for i := 0; i < b.N; i++ {
		if benchCallee(i) > n {
			n++
		}
	}
}

// BenchmarkResultOff is the same call as the instrumenter rewrites it
// (the callee reports its result, the caller marks the call and binds
// its result to its condition), outside mpc: the difference with
// BenchmarkResultPlain is what the rewrite costs.
func BenchmarkResultOff(b *testing.B) {
	n := 0
	for i := 0; i < b.N; i++ {
		if Branch(SymResult(SymMark("benchCallee"), benchCalleeRewritten(i), ms(33)) > n, ms(34), "(> r0 v1)", []int64{int64(ms(33)), int64(n)}) {
			n++
		}
	}
}

// mpcSearch is what a search of a program did, to compare two searches.
type mpcSearch struct {
	runs                                           int
	paths, queries, prefixes, sat, unsat, extended int
	outcomes                                       string
	complete, finding                              bool
}

// exploreMPC explores a program of inputs ins (setup declares its string
// inputs, body runs it once under the search given) under strategy mpc.
// With batch 0 the search makes its runs itself, one after the other;
// with batch k it hands out the next k items of its queue at a time
// (Take), each made by a search of its own that serves it as a worker
// process does (Serve, Record), and takes the runs in, in the order of
// the queue (Absorb).
func exploreMPC(t *testing.T, ins []wire.MPCInput, setup func(*causal.MPC), body func(*causal.MPC) string, limit, batch int) mpcSearch {
	t.Helper()
	m := causal.NewMPC(localSolver{}, ins, 0)
	setup(m)
	outcomes := map[string]bool{}
	one := func(s *causal.MPC, n int) *sched.Result {
		return sched.Explore(sched.Config{Strategy: s, Symbolic: s, Schedules: n, Leaks: true, StuckAfter: 10 * time.Second, Stall: 100 * time.Millisecond}, func() {
			outcomes[body(s)] = true
		})
	}
	var r mpcSearch
	if batch == 0 {
		res := one(m, limit)
		r.runs, r.finding = res.Iterations, res.Finding != nil
	} else {
		res := one(m, 1) // the seed's run
		r.runs, r.finding = 1, res.Finding != nil
		for r.runs < limit && !r.finding {
			reqs := m.Take(min(batch, limit-r.runs), r.runs+1)
			if len(reqs) == 0 {
				break
			}
			for _, req := range reqs {
				w := causal.NewMPC(nil, ins, 0)
				setup(w)
				if err := w.Serve(req); err != nil {
					t.Fatal(err)
				}
				res := one(w, 2) // a worker's search makes the one run
				if res.Iterations != 1 {
					t.Fatalf("a worker's search made %d runs", res.Iterations)
				}
				r.runs++
				if res.Finding != nil {
					r.finding = true
					break
				}
				m.Absorb(w.Served)
			}
		}
	}
	if err := m.Err(); err != nil {
		t.Fatal(err)
	}
	var os []string
	for o := range outcomes {
		os = append(os, o)
	}
	sort.Strings(os)
	r.paths, r.queries, r.prefixes, r.sat, r.unsat, r.extended = m.Paths, m.Queries, m.Prefixes, m.Sat, m.Unsat, m.Extended
	r.outcomes, r.complete = strings.Join(os, " "), m.Complete()
	return r
}

// mpcSpawning starts goroutines on some inputs only, so that runs made
// apart number their threads apart: with i > 5 the test goroutine
// starts a writer of its own, with j > 5 the first goroutine starts one;
// the first goroutine fails when it reads 7, which either writer writes
// when i + j == 20.
func mpcSpawning() mpcProgram {
	return mpcProgram{"spawning", []int64{0, 0}, func(in []int64) string {
		i, j := int(in[0]), int(in[1])
		x := 0
		out := "ok"
		writer := func() {
			if Branch(i+j == 20, ms(83), "(== (+ i0 i1) 20)", nil) {
				Write(&x, ms(84))
				x = 7
			}
		}
		var done []chan struct{}
		done = append(done, spawnAll(1, func(int) {
			if Branch(j > 5, ms(86), "(> i1 5)", nil) {
				joinAll(spawnAll(1, func(int) { writer() }))
			}
			Read(&x, ms(81))
			if Branch(x == 7, ms(82), "(== m0:i64 7)", nil, &x) {
				out = "error"
			}
		})...)
		if Branch(i > 5, ms(80), "(> i0 5)", nil) {
			done = append(done, spawnAll(1, func(int) { writer() })...)
		}
		joinAll(done)
		return out
	}}
}

// TestMPCBatchesAgree: a search whose runs are made apart, k at a time
// by searches that serve them as worker processes do, and taken in in
// the order of the queue, is the search that makes them one after the
// other: the same runs, paths, queries, answers and outcomes, whatever
// k. The programs renumber threads (a goroutine spawned on some paths
// only) and inputs (bytes of a string input read on some paths only).
func TestMPCBatchesAgree(t *testing.T) {
	ints := func(p mpcProgram) ([]wire.MPCInput, func(*causal.MPC), func(*causal.MPC) string) {
		ins := make([]wire.MPCInput, len(p.seed))
		for i, v := range p.seed {
			ins[i] = wire.MPCInput{Min: -1 << 31, Max: 1<<31 - 1, Value: v}
		}
		return ins, func(*causal.MPC) {}, func(m *causal.MPC) string { return p.body(append([]int64(nil), m.Input()...)) }
	}
	type prog struct {
		name  string
		ins   []wire.MPCInput
		setup func(*causal.MPC)
		body  func(*causal.MPC) string
	}
	var progs []prog
	for _, p := range []mpcProgram{mpcFigure1(), mpcFigure6(), mpcOverdraft(false), mpcOverdraft(true), mpcSpawning()} {
		ins, setup, body := ints(p)
		progs = append(progs, prog{p.name, ins, setup, body})
	}
	progs = append(progs, prog{"string", []wire.MPCInput{{Min: 0, Max: 8, Value: 2}},
		func(m *causal.MPC) { m.StringInput(0, []byte("ab"), 8) },
		func(m *causal.MPC) string {
			s := string(m.Bytes(0))
			if Branch(len(s) > 3, ms(90), "(> i0 3)", nil) {
				if Branch(s[3] == 'q', ms(91), "(== (@ i0 3 v0) 113)", []int64{At(s, 3)}) {
					return "q at 3"
				}
				if Branch(s[0] == 'x' && s[2] == 'y', ms(92), "(&& (== (@ i0 0 v0) 120) (== (@ i0 2 v1) 121))", []int64{At(s, 0), At(s, 2)}) {
					return "xy"
				}
			} else if Branch(len(s) == 1, ms(93), "(== i0 1)", nil) {
				if Branch(s[0] == 'z', ms(94), "(== (@ i0 0 v0) 122)", []int64{At(s, 0)}) {
					return "z"
				}
			}
			return "other"
		}})
	for _, p := range progs {
		seq := exploreMPC(t, p.ins, p.setup, p.body, 200, 0)
		if seq.runs < 2 {
			t.Fatalf("%s: %d runs: the program does not test the batches", p.name, seq.runs)
		}
		for _, k := range []int{1, 2, 3, 7} {
			b := exploreMPC(t, p.ins, p.setup, p.body, 200, k)
			if b != seq {
				t.Errorf("%s: batches of %d made\n\t%+v\none run at a time\n\t%+v", p.name, k, b, seq)
			}
		}
		t.Logf("%s: %+v", p.name, seq)
	}
}
