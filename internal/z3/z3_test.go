package z3

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

func newContext(t testing.TB, cfg Config) *Context {
	t.Helper()
	c, err := NewContext(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

func mustCheck(t testing.TB, s *Solver, want Result, lits ...Bool) {
	t.Helper()
	r, err := s.CheckAssumptions(lits...)
	if err != nil {
		t.Fatal(err)
	}
	if r != want {
		t.Fatalf("check = %v (reason %q), want %v", r, s.ReasonUnknown(), want)
	}
}

func TestSatModel(t *testing.T) {
	c := newContext(t, Config{Model: true, Timeout: 10 * time.Second})
	x, y, z := c.IntVar("x"), c.IntVar("y"), c.FreshInt("z")
	p, q := c.BoolVar("p"), c.FreshBool("q")
	s := c.NewSolver()
	s.Assert(
		c.Eq(c.Add(x, y), c.IntVal(10)),
		c.Eq(c.Sub(x, y), c.IntVal(4)),
		c.Eq(p, c.Gt(x, c.IntVal(5))), // p iff x > 5
		c.Eq(z, c.Ite(p, c.Mul(c.IntVal(3), x), y)),
		c.Implies(q, c.Lt(x, y)),
		c.Distinct(x, y, z),
		c.Ge(z, c.IntVal(-1<<40)),
		c.Le(z, c.IntVal(1<<40)),
		c.Or(c.Not(q), c.False()),
		c.And(c.True(), c.Gt(z, x)),
	)
	mustCheck(t, s, Sat)
	m, err := s.Model()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		x    Int
		want int64
	}{{"x", x, 7}, {"y", y, 3}, {"z", z, 21}, {"x+y+z", c.Add(x, y, z), 31}, {"2*y", c.Mul(c.IntVal(2), y), 6}} {
		got, ok := m.EvalInt(tc.x)
		if !ok || got != tc.want {
			t.Errorf("%s = %d, %v; want %d", tc.name, got, ok, tc.want)
		}
	}
	for _, tc := range []struct {
		name string
		p    Bool
		want bool
	}{{"p", p, true}, {"q", q, false}, {"x<y", c.Lt(x, y), false}, {"x>=y", c.Ge(x, y), true}} {
		got, ok := m.EvalBool(tc.p)
		if !ok || got != tc.want {
			t.Errorf("%s = %v, %v; want %v", tc.name, got, ok, tc.want)
		}
	}
	// A variable the formulas do not mention gets a value by model
	// completion.
	if _, ok := m.EvalInt(c.IntVar("unmentioned")); !ok {
		t.Error("model completion gave no value to an unmentioned variable")
	}
	if _, ok := m.EvalBool(c.BoolVar("unmentionedBool")); !ok {
		t.Error("model completion gave no value to an unmentioned Boolean")
	}
	if err := c.Err(); err != nil {
		t.Fatal(err)
	}
}

func TestEmptyAndSingleArguments(t *testing.T) {
	c := newContext(t, Config{Model: true})
	x := c.IntVar("x")
	s := c.NewSolver()
	s.Assert(c.And(), c.Not(c.Or()), c.Distinct(x), c.Eq(c.Add(x), c.IntVal(5)),
		c.Eq(c.Add(), c.IntVal(0)), c.Eq(c.Mul(), c.IntVal(1)), c.Eq(c.Mul(x), x))
	mustCheck(t, s, Sat)
	m, err := s.Model()
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := m.EvalInt(x); !ok || v != 5 {
		t.Errorf("x = %d, %v; want 5", v, ok)
	}
}

func TestInt64Range(t *testing.T) {
	c := newContext(t, Config{Model: true})
	x, y := c.IntVar("x"), c.IntVar("y")
	s := c.NewSolver()
	const min = -1 << 63
	s.Assert(c.Eq(x, c.IntVal(min)), c.Eq(y, c.Mul(c.IntVal(4), c.IntVal(1<<62))))
	mustCheck(t, s, Sat)
	m, err := s.Model()
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := m.EvalInt(x); !ok || v != min {
		t.Errorf("x = %d, %v; want %d", v, ok, int64(min))
	}
	if v, ok := m.EvalInt(y); ok {
		t.Errorf("y = 2^64 read as %d; want not ok", v)
	}
	if err := c.Err(); err != nil {
		t.Fatalf("a value out of int64 range made an error: %v", err)
	}
}

// UintVal makes the unsigned constants above the int64 range, which
// compare and add as integers.
func TestUintVal(t *testing.T) {
	c := newContext(t, Config{Model: true})
	x := c.IntVar("x")
	s := c.NewSolver()
	const max = 1<<64 - 1
	s.Assert(c.Eq(c.Add(x, c.UintVal(1<<63)), c.UintVal(max)))
	mustCheck(t, s, Sat)
	m, err := s.Model()
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := m.EvalInt(x); !ok || v != 1<<63-1 {
		t.Errorf("x = %d, %v; want %d", v, ok, int64(1<<63-1))
	}
	s.Assert(c.Lt(c.UintVal(max), c.IntVal(1<<62)))
	mustCheck(t, s, Unsat)
}

func TestUnsat(t *testing.T) {
	c := newContext(t, Config{})
	x := c.IntVar("x")
	s := c.NewSolver()
	s.Assert(c.Gt(x, c.IntVal(3)), c.Lt(x, c.IntVal(4)))
	mustCheck(t, s, Unsat)
	if s.ReasonUnknown() != "" {
		t.Errorf("reason after unsat = %q", s.ReasonUnknown())
	}
}

func TestUnsatCore(t *testing.T) {
	for _, minimize := range []bool{false, true} {
		t.Run(fmt.Sprintf("minimize=%v", minimize), func(t *testing.T) {
			testUnsatCore(t, minimize)
		})
	}
}

func testUnsatCore(t *testing.T, minimize bool) {
	c := newContext(t, Config{Model: true, MinimizeCores: minimize})
	x, y, z := c.IntVar("x"), c.IntVar("y"), c.IntVar("z")
	// Guarded constraints: x<y, y<z and z<x form a cycle (unsat together,
	// sat in any pair); x>100 and y>50 are consistent with each pair.
	cons := []Bool{
		c.Gt(x, c.IntVal(100)),
		c.Lt(x, y),
		c.Gt(y, c.IntVal(50)),
		c.Lt(y, z),
		c.Lt(z, x),
	}
	var lits []Bool
	s := c.NewSolver()
	for i, f := range cons {
		g := c.BoolVar(fmt.Sprintf("g%d", i))
		s.Assert(c.Implies(g, f))
		lits = append(lits, g)
	}
	// A negated literal: n false makes x < y.
	n := c.BoolVar("n")
	s.Assert(c.Implies(c.Not(n), c.Lt(x, y)))
	mustCheck(t, s, Sat, lits[0], lits[2], lits[3], lits[4])

	for _, tc := range []struct {
		lits []Bool
		want []int // the exact core, for a minimal core; else needed in it
	}{
		{lits, []int{1, 3, 4}},
		// Order and repetition: indexes refer to the call's list.
		{[]Bool{lits[4], lits[0], c.Not(n), lits[3], lits[4]}, []int{0, 2, 3, 4}},
	} {
		mustCheck(t, s, Unsat, tc.lits...)
		core, err := s.UnsatCore()
		if err != nil {
			t.Fatal(err)
		}
		if minimize {
			if !reflect.DeepEqual(core, tc.want) {
				t.Errorf("core = %v, want %v", core, tc.want)
			}
			continue
		}
		// Not minimized: it must hold every literal of the cycle and be
		// unsat on its own.
		in := make(map[int]bool)
		var coreLits []Bool
		for _, i := range core {
			in[i] = true
			coreLits = append(coreLits, tc.lits[i])
		}
		for _, i := range tc.want {
			if !in[i] {
				t.Errorf("core %v lacks %d", core, i)
			}
		}
		mustCheck(t, s, Unsat, coreLits...)
		t.Logf("core %v (needed %v)", core, tc.want)
	}
	// The assumptions were not asserted: without them it is sat.
	mustCheck(t, s, Sat)
}

func TestPushPop(t *testing.T) {
	c := newContext(t, Config{Model: true})
	x := c.IntVar("x")
	s := c.NewSolver()
	s.Assert(c.Gt(x, c.IntVal(0)))
	mustCheck(t, s, Sat)
	s.Push()
	s.Assert(c.Lt(x, c.IntVal(0)))
	mustCheck(t, s, Unsat)
	s.Push()
	s.Assert(c.Eq(x, c.IntVal(1)))
	mustCheck(t, s, Unsat)
	s.Pop()
	s.Pop()
	mustCheck(t, s, Sat)
	s.Push()
	s.Assert(c.Eq(x, c.IntVal(42)))
	mustCheck(t, s, Sat)
	m, err := s.Model()
	if err != nil {
		t.Fatal(err)
	}
	s.Pop()
	s.Assert(c.Lt(x, c.IntVal(10)))
	mustCheck(t, s, Sat)
	// The model of an earlier check stays readable.
	if v, ok := m.EvalInt(x); !ok || v != 42 {
		t.Errorf("x in the earlier model = %d, %v; want 42", v, ok)
	}
}

// pigeonhole asserts that n+1 pigeons sit in n holes, no two in one: unsat,
// and exponential for resolution (so for Z3's SAT core).
func pigeonhole(c *Context, s *Solver, n int) {
	p := make([][]Bool, n+1)
	for i := range p {
		p[i] = make([]Bool, n)
		for j := range p[i] {
			p[i][j] = c.BoolVar(fmt.Sprintf("p%d_%d", i, j))
		}
		s.Assert(c.Or(p[i]...))
	}
	for j := 0; j < n; j++ {
		for i := 0; i <= n; i++ {
			for k := i + 1; k <= n; k++ {
				s.Assert(c.Not(c.And(p[i][j], p[k][j])))
			}
		}
	}
}

func TestTimeout(t *testing.T) {
	c := newContext(t, Config{Timeout: time.Millisecond})
	s := c.NewSolver()
	pigeonhole(c, s, 12)
	start := time.Now()
	r, err := s.Check()
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if r != Unknown {
		t.Fatalf("pigeonhole 13 in 12 with a 1ms timeout: %v after %v, want unknown", r, took)
	}
	if reason := s.ReasonUnknown(); !strings.Contains(reason, "timeout") && !strings.Contains(reason, "canceled") {
		t.Errorf("reason = %q, want it to mention timeout or canceled", reason)
	}
	if took > 5*time.Second {
		t.Errorf("a 1ms timeout took %v", took)
	}
	t.Logf("unknown after %v: %q", took, s.ReasonUnknown())
	// A timeout is not an error: the Context stays usable (a check under
	// the same 1 ms budget may itself run out on a loaded machine).
	if err := c.Err(); err != nil {
		t.Fatalf("the timeout left an error: %v", err)
	}
	s2 := c.NewSolver()
	s2.Assert(c.Lt(c.IntVar("x"), c.IntVar("y")))
	if r, err := s2.Check(); err != nil || r == Unsat {
		t.Errorf("check after the timeout = %v, %v; want sat or unknown", r, err)
	}
}

// DiffLogic switches the arithmetic solver: on order constraints Z3 then
// runs a difference-logic solver, whose statistics are named dd or dl,
// instead of its general one, whose statistics are named arith-; both give
// the same answers. Arithmetic outside difference logic gets Unknown.
func TestDiffLogic(t *testing.T) {
	for _, diff := range []bool{false, true} {
		c := newContext(t, Config{Model: true, DiffLogic: diff})
		s := c.NewSolver()
		a, b, d := c.IntVar("a"), c.IntVar("b"), c.IntVar("d")
		s.Assert(c.Or(c.Lt(a, b), c.Lt(b, d)), c.Lt(d, a), c.Lt(a, c.Sub(b, c.IntVal(2))))
		mustCheck(t, s, Sat)
		m, err := s.Model()
		if err != nil {
			t.Fatal(err)
		}
		va, _ := m.EvalInt(a)
		vb, _ := m.EvalInt(b)
		vd, _ := m.EvalInt(d)
		if !(vd < va && va < vb-2) {
			t.Errorf("DiffLogic %v: model a=%d b=%d d=%d breaks the constraints", diff, va, vb, vd)
		}
		names := "," + strings.Join(s.statisticNames(), ",")
		dl := strings.Contains(names, ",dd ") || strings.Contains(names, ",dl ")
		if general := strings.Contains(names, ",arith-"); dl != diff || general == diff {
			t.Errorf("DiffLogic %v: statistics %s", diff, names)
		}
		s.Push()
		s.Assert(c.Lt(b, d))
		mustCheck(t, s, Unsat)
		s.Pop()
		mustCheck(t, s, Sat)

		x, y := c.IntVar("x"), c.IntVar("y")
		s2 := c.NewSolver()
		s2.Assert(c.Eq(c.Add(x, y), c.IntVal(10)), c.Eq(c.Sub(x, y), c.IntVal(4)))
		want := Sat
		if diff {
			want = Unknown
		}
		mustCheck(t, s2, want)
		if diff && !strings.Contains(s2.ReasonUnknown(), "difference-logic") {
			t.Errorf("x + y = 10 under DiffLogic: reason %q", s2.ReasonUnknown())
		}
	}
}

func TestSortMismatchIsError(t *testing.T) {
	c := newContext(t, Config{Model: true})
	x, p := c.IntVar("x"), c.BoolVar("p")
	s := c.NewSolver()
	s.Assert(c.Gt(x, c.IntVal(0)))
	bad := c.Eq(x, p) // compiles: Eq takes terms of either sort
	if c.Err() == nil || !strings.Contains(c.Err().Error(), "mk_eq") {
		t.Fatalf("Eq(Int, Bool): Err() = %v, want a Z3 error from mk_eq", c.Err())
	}
	t.Logf("Eq(Int, Bool): %v", c.Err())
	// The error is sticky: later constructors do nothing, checks report it.
	s.Assert(bad, c.Lt(x, c.IntVal(3)))
	r, err := s.Check()
	if r != Unknown || !errors.Is(err, c.Err()) {
		t.Errorf("Check after the error = %v, %v; want unknown and %v", r, err, c.Err())
	}
	if _, err := s.Model(); err == nil {
		t.Error("Model after the error: no error")
	}
	if _, err := s.UnsatCore(); err == nil {
		t.Error("UnsatCore after the error: no error")
	}
	if c.Distinct(x, p); !strings.Contains(c.Err().Error(), "mk_eq") {
		t.Errorf("the first error was replaced: %v", c.Err())
	}
}

// Add's Go signature admits only Ints; this drives Z3's own sort check of
// add through the same path, with a Bool.
func TestAddBoolIntIsError(t *testing.T) {
	c := newContext(t, Config{})
	x, p := c.IntVar("x"), c.BoolVar("p")
	sum := Int{c, c.nary("mk_add", mkAdd, []Expr{x, p})}
	if sum.a != nil {
		t.Error("Add(Int, Bool) made a term")
	}
	if c.Err() == nil || !strings.Contains(c.Err().Error(), "mk_add") {
		t.Fatalf("Add(Int, Bool): Err() = %v, want a Z3 error from mk_add", c.Err())
	}
	t.Logf("Add(Int, Bool): %v", c.Err())
}

func TestDistinctMixedSortsIsError(t *testing.T) {
	c := newContext(t, Config{})
	c.Distinct(c.IntVar("x"), c.True())
	if c.Err() == nil {
		t.Fatal("Distinct(Int, Bool): no error")
	}
}

func TestMisuse(t *testing.T) {
	t.Run("other context", func(t *testing.T) {
		a, b := newContext(t, Config{}), newContext(t, Config{})
		x := b.IntVar("x")
		a.Lt(a.IntVar("x"), x)
		if err := a.Err(); err == nil || !strings.Contains(err.Error(), "another context") {
			t.Errorf("Err() = %v, want a term of another context", err)
		}
		if b.Err() != nil {
			t.Errorf("the other context got an error: %v", b.Err())
		}
	})
	t.Run("assert of other context", func(t *testing.T) {
		a, b := newContext(t, Config{}), newContext(t, Config{})
		s := a.NewSolver()
		s.Assert(b.True())
		if _, err := s.Check(); err == nil {
			t.Error("no error")
		}
	})
	t.Run("zero values", func(t *testing.T) {
		c := newContext(t, Config{})
		c.Not(Bool{})
		if err := c.Err(); err == nil || !strings.Contains(err.Error(), "zero") {
			t.Errorf("Err() = %v, want a zero term error", err)
		}
		c2 := newContext(t, Config{})
		c2.Eq(nil, c2.IntVal(1))
		if err := c2.Err(); err == nil || !strings.Contains(err.Error(), "nil") {
			t.Errorf("Err() = %v, want a nil term error", err)
		}
		var s Solver
		s.Push()
		s.Pop()
		s.Assert(c.True())
		if _, err := s.Check(); err == nil {
			t.Error("zero Solver: Check gave no error")
		}
		if _, err := s.Model(); err == nil {
			t.Error("zero Solver: Model gave no error")
		}
		var m Model
		if _, ok := m.EvalInt(c.IntVal(1)); ok {
			t.Error("zero Model: EvalInt ok")
		}
	})
	// A variable, a solver with x > 1 checked and its model.
	sat := func(t *testing.T, c *Context) (Int, *Solver, *Model) {
		x := c.IntVar("x")
		s := c.NewSolver()
		s.Assert(c.Gt(x, c.IntVal(1)))
		mustCheck(t, s, Sat)
		m, err := s.Model()
		if err != nil {
			t.Fatal(err)
		}
		return x, s, m
	}
	t.Run("closed context", func(t *testing.T) {
		c, err := NewContext(Config{Model: true})
		if err != nil {
			t.Fatal(err)
		}
		x, s, m := sat(t, c)
		c.Close()
		c.Close()
		if _, ok := m.EvalInt(x); ok {
			t.Error("EvalInt after Close: ok")
		}
		c.Add(x, c.IntVal(1))
		s.Push()
		s.Assert(c.Lt(x, c.IntVal(1)))
		if _, err := s.Check(); !errors.Is(err, ErrClosed) {
			t.Errorf("Check after Close: %v, want ErrClosed", err)
		}
		if c.NewSolver().String() == "" {
			t.Error("String of a solver of a closed context is empty")
		}
	})
	t.Run("closed solver and model", func(t *testing.T) {
		c := newContext(t, Config{Model: true})
		x, _, m := sat(t, c)
		m.Close()
		m.Close()
		if _, ok := m.EvalInt(x); ok {
			t.Error("EvalInt of a closed model: ok")
		}
		if err := c.Err(); err == nil || !strings.Contains(err.Error(), "model is closed") {
			t.Errorf("Err() = %v, want model is closed", err)
		}
		c2 := newContext(t, Config{})
		s2 := c2.NewSolver()
		s2.Close()
		s2.Close()
		if _, err := s2.Check(); err == nil || !strings.Contains(err.Error(), "solver is closed") {
			t.Errorf("Check of a closed solver: %v, want solver is closed", err)
		}
	})
	t.Run("pop without push", func(t *testing.T) {
		c := newContext(t, Config{})
		s := c.NewSolver()
		s.Pop()
		if _, err := s.Check(); err == nil {
			t.Error("no error")
		} else {
			t.Logf("pop without push: %v", err)
		}
	})
	t.Run("model and core at the wrong time", func(t *testing.T) {
		c := newContext(t, Config{Model: true})
		s := c.NewSolver()
		if _, err := s.Model(); err == nil {
			t.Error("Model before a check: no error")
		}
		g := c.BoolVar("g")
		mustCheck(t, s, Sat, g)
		if _, err := s.UnsatCore(); err == nil {
			t.Error("UnsatCore after sat: no error")
		}
		s.Assert(c.Not(g))
		mustCheck(t, s, Unsat, g)
		if _, err := s.Model(); err == nil {
			t.Error("Model after unsat: no error")
		}
		if core, err := s.UnsatCore(); err != nil || !reflect.DeepEqual(core, []int{0}) {
			t.Errorf("core = %v, %v; want [0]", core, err)
		}
		if err := c.Err(); err != nil {
			t.Errorf("asking at the wrong time made a sticky error: %v", err)
		}
	})
	t.Run("no models", func(t *testing.T) {
		c := newContext(t, Config{})
		s := c.NewSolver()
		s.Assert(c.Lt(c.IntVar("x"), c.IntVar("y")))
		mustCheck(t, s, Sat)
		if _, err := s.Model(); err == nil {
			t.Error("Model without Config.Model: no error")
		}
	})
}

func TestSolverString(t *testing.T) {
	c := newContext(t, Config{})
	s := c.NewSolver()
	s.Assert(c.Lt(c.IntVar("O_a"), c.IntVar("O_b")))
	str := s.String()
	for _, want := range []string{"(declare-fun O_a () Int)", "(declare-fun O_b () Int)", "(assert "} {
		if !strings.Contains(str, want) {
			t.Errorf("String() = %q, want it to contain %q", str, want)
		}
	}
}

// Independent contexts on different goroutines (run with -race).
func TestConcurrentContexts(t *testing.T) {
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	for g := 0; g < 2; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				if err := solveOrderQuery(int64(g*1000 + i)); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// solveOrderQuery solves a chain a < b < c with a = base in a fresh
// context and checks the model.
func solveOrderQuery(base int64) error {
	c, err := NewContext(Config{Model: true, Timeout: 10 * time.Second})
	if err != nil {
		return err
	}
	defer c.Close()
	a, b, d := c.IntVar("a"), c.IntVar("b"), c.IntVar("c")
	s := c.NewSolver()
	s.Assert(c.Eq(a, c.IntVal(base)), c.Lt(a, b), c.Lt(b, d), c.Le(d, c.Add(a, c.IntVal(2))))
	r, err := s.Check()
	if err != nil {
		return err
	}
	if r != Sat {
		return fmt.Errorf("chain from %d: %v", base, r)
	}
	m, err := s.Model()
	if err != nil {
		return err
	}
	for i, x := range []Int{a, b, d} {
		if v, ok := m.EvalInt(x); !ok || v != base+int64(i) {
			return fmt.Errorf("chain from %d: element %d = %d, %v", base, i, v, ok)
		}
	}
	return nil
}

func TestFreshIsDistinct(t *testing.T) {
	c := newContext(t, Config{Model: true})
	f, g := c.FreshInt("v"), c.FreshInt("v")
	named := c.IntVar("v!0") // the name Z3 prints for the first fresh one
	s := c.NewSolver()
	s.Assert(c.Eq(f, c.IntVal(1)), c.Eq(g, c.IntVal(2)), c.Eq(named, c.IntVal(3)))
	mustCheck(t, s, Sat)
	p, q := c.FreshBool("p"), c.FreshBool("p")
	s.Assert(p, c.Not(q))
	mustCheck(t, s, Sat)
}
