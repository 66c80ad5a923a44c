package z3

import (
	"fmt"
	"reflect"
	"sort"
	"testing"
	"time"
)

// A query of the shape MCR asks: which total orders of these events (an
// order variable per event) keep program order and lock mutual exclusion
// and make each read see a chosen write?
//
//	thread 0: w0  x = 0 (before the others start)
//	thread 1: l1 lock m; w1 x = 1; u1 unlock m
//	thread 2: l2 lock m; w2 x = 2; u2 unlock m
//	thread 3: r1 read x; r2 read x

type kind int

const (
	lock kind = iota
	unlock
	write
	read
)

type event struct {
	name   string
	thread int
	kind   kind
}

var events = []event{
	{"w0", 0, write},
	{"l1", 1, lock}, {"w1", 1, write}, {"u1", 1, unlock},
	{"l2", 2, lock}, {"w2", 2, write}, {"u2", 2, unlock},
	{"r1", 3, read}, {"r2", 3, read},
}

// orderQuery asserts the events' constraints on s and returns an order
// variable per event and one guard literal per read-from choice in rf
// (read name -> write name): the caller passes the guards as assumptions.
func orderQuery(c *Context, s *Solver, rf [][2]string) (map[string]Int, []Bool) {
	o := make(map[string]Int)
	all := make([]Expr, len(events))
	for i, e := range events {
		o[e.name] = c.IntVar("O_" + e.name)
		all[i] = o[e.name]
	}
	s.Assert(c.Distinct(all...))
	// Program order, and the initial write before every thread starts.
	for i, e := range events[1:] {
		prev := events[i]
		if prev.thread == e.thread {
			s.Assert(c.Lt(o[prev.name], o[e.name]))
		}
		if e.thread != 0 {
			s.Assert(c.Lt(o["w0"], o[e.name]))
		}
	}
	// Lock mutual exclusion: one critical section ends before the other
	// begins.
	s.Assert(c.Or(c.Lt(o["u1"], o["l2"]), c.Lt(o["u2"], o["l1"])))
	// Read-from: r sees w when w is before r and every other write to x is
	// before w or after r.
	var guards []Bool
	for _, p := range rf {
		r, w := p[0], p[1]
		sees := []Bool{c.Lt(o[w], o[r])}
		for _, e := range events {
			if e.kind == write && e.name != w {
				sees = append(sees, c.Or(c.Lt(o[e.name], o[w]), c.Lt(o[r], o[e.name])))
			}
		}
		g := c.BoolVar(fmt.Sprintf("rf_%s_%s", r, w))
		s.Assert(c.Implies(g, c.And(sees...)))
		guards = append(guards, g)
	}
	return o, guards
}

// replay runs the events in the order the model gives and checks that it
// is a valid schedule in which each read of rf sees its write.
func replay(t *testing.T, m *Model, o map[string]Int, rf [][2]string) []string {
	t.Helper()
	at := make(map[string]int64)
	seen := make(map[int64]string)
	for _, e := range events {
		v, ok := m.EvalInt(o[e.name])
		if !ok {
			t.Fatalf("no value for O_%s", e.name)
		}
		if other, dup := seen[v]; dup {
			t.Fatalf("O_%s = O_%s = %d: not a total order", e.name, other, v)
		}
		seen[v] = e.name
		at[e.name] = v
	}
	order := append([]event(nil), events...)
	sort.Slice(order, func(i, j int) bool { return at[order[i].name] < at[order[j].name] })

	next := make(map[int]int) // thread -> index of its next event in events
	for i := len(events) - 1; i >= 0; i-- {
		next[events[i].thread] = i
	}
	holder, lastWrite := -1, ""
	saw := make(map[string]string)
	var names []string
	for _, e := range order {
		names = append(names, e.name)
		if i := next[e.thread]; events[i].name != e.name {
			t.Fatalf("order %v: %s runs before %s of its thread", names, e.name, events[i].name)
		}
		next[e.thread]++
		if e.thread != 0 && lastWrite == "" {
			t.Fatalf("order %v: %s runs before the initial write", names, e.name)
		}
		switch e.kind {
		case lock:
			if holder != -1 {
				t.Fatalf("order %v: %s while thread %d holds the lock", names, e.name, holder)
			}
			holder = e.thread
		case unlock:
			if holder != e.thread {
				t.Fatalf("order %v: %s without holding the lock", names, e.name)
			}
			holder = -1
		case write:
			lastWrite = e.name
		case read:
			saw[e.name] = lastWrite
		}
	}
	for _, p := range rf {
		if saw[p[0]] != p[1] {
			t.Errorf("order %v: %s sees %s, want %s", names, p[0], saw[p[0]], p[1])
		}
	}
	return names
}

func TestMCRSchedule(t *testing.T) {
	c := newContext(t, Config{Model: true, Timeout: 10 * time.Second, MinimizeCores: true})
	s := c.NewSolver()
	// r1 sees thread 2's write and r2 thread 1's: this forces thread 2's
	// critical section first, then r1, then thread 1's write, then r2.
	rf := [][2]string{{"r1", "w2"}, {"r2", "w1"}}
	o, guards := orderQuery(c, s, rf)
	mustCheck(t, s, Sat, guards...)
	m, err := s.Model()
	if err != nil {
		t.Fatal(err)
	}
	order := replay(t, m, o, rf)
	t.Logf("order: %v", order)
	pos := make(map[string]int)
	for i, n := range order {
		pos[n] = i
	}
	if !(pos["u2"] < pos["l1"] && pos["w2"] < pos["r1"] && pos["r1"] < pos["w1"] && pos["w1"] < pos["r2"]) {
		t.Errorf("order %v does not have u2 < l1, w2 < r1 < w1 < r2", order)
	}

	// The initial write is no longer visible to r2 once r1 has seen w2
	// (w0 < w2 < r1 < r2): unsat, and the core names those two choices,
	// not the ordering of the critical sections passed with them (which
	// either choice allows on its own).
	s.Push()
	_, more := orderQuery(c, s, [][2]string{{"r2", "w0"}})
	first := c.BoolVar("t1_first")
	s.Assert(c.Implies(first, c.Lt(o["u1"], o["l2"])))
	mustCheck(t, s, Sat, guards[0], first)
	mustCheck(t, s, Sat, more[0], first)
	mustCheck(t, s, Unsat, guards[0], first, more[0])
	core, err := s.UnsatCore()
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{0, 2}; !reflect.DeepEqual(core, want) {
		t.Errorf("core = %v, want %v (r1<-w2 and r2<-w0)", core, want)
	}
	s.Pop()
	mustCheck(t, s, Sat, guards...)
}

// The benchmarks measure one small MCR-shape query: assert the order
// constraints, check under the read-from guards, read every order
// variable. They differ in what lives across queries.

// BenchmarkMCRQuery: one Context and solver for all queries, a Push and Pop
// around each.
func BenchmarkMCRQuery(b *testing.B) {
	c := newContext(b, Config{Model: true, Timeout: 10 * time.Second})
	s := c.NewSolver()
	rf := [][2]string{{"r1", "w2"}, {"r2", "w1"}}
	for b.Loop() {
		s.Push()
		o, guards := orderQuery(c, s, rf)
		solveOrder(b, s, o, guards)
		s.Pop()
	}
}

// BenchmarkMCRQueryNewSolver: one Context, a solver made and closed for
// each query.
func BenchmarkMCRQueryNewSolver(b *testing.B) {
	c := newContext(b, Config{Model: true, Timeout: 10 * time.Second})
	rf := [][2]string{{"r1", "w2"}, {"r2", "w1"}}
	for b.Loop() {
		s := c.NewSolver()
		o, guards := orderQuery(c, s, rf)
		solveOrder(b, s, o, guards)
		s.Close()
	}
}

// BenchmarkMCRQueryNewContext: a Context made and closed for each query.
func BenchmarkMCRQueryNewContext(b *testing.B) {
	rf := [][2]string{{"r1", "w2"}, {"r2", "w1"}}
	for b.Loop() {
		c, err := NewContext(Config{Model: true, Timeout: 10 * time.Second})
		if err != nil {
			b.Fatal(err)
		}
		s := c.NewSolver()
		o, guards := orderQuery(c, s, rf)
		solveOrder(b, s, o, guards)
		c.Close()
	}
}

// solveOrder checks an order query under its guards, expecting Sat, and
// reads every order variable from the model.
func solveOrder(tb testing.TB, s *Solver, o map[string]Int, guards []Bool) {
	tb.Helper()
	mustCheck(tb, s, Sat, guards...)
	m, err := s.Model()
	if err != nil {
		tb.Fatal(err)
	}
	for name, x := range o {
		if _, ok := m.EvalInt(x); !ok {
			tb.Fatalf("no value for O_%s", name)
		}
	}
	m.Close()
}
