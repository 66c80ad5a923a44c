package z3

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"
)

// rss returns the resident set size of the process.
func rss(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		t.Skipf("no /proc/self/statm: %v", err)
	}
	f := strings.Fields(string(b))
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return pages * int64(os.Getpagesize())
}

// settle returns Go's freed memory to the OS so RSS shows the C side.
func settle() {
	runtime.GC()
	debug.FreeOSMemory()
}

// oneBatch is one context's life: the MCR-shape query solved with a model
// and, in a pushed scope, an unsat variant with its core.
func oneBatch(t *testing.T) {
	c, err := NewContext(Config{Model: true, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s := c.NewSolver()
	rf := [][2]string{{"r1", "w2"}, {"r2", "w1"}}
	o, guards := orderQuery(c, s, rf)
	solveOrder(t, s, o, guards)
	s.Push()
	_, more := orderQuery(c, s, [][2]string{{"r2", "w0"}})
	mustCheck(t, s, Unsat, guards[0], more[0])
	if _, err := s.UnsatCore(); err != nil {
		t.Fatal(err)
	}
	s.Pop()
}

// Z3 counts the bytes it has allocated per thread and adds them to its
// process-wide count in steps of about 100 KB, so a bound on that count
// must allow a few steps.
const z3Slack = 512 << 10

// Contexts made and closed one after another do not accumulate memory,
// counted by Z3 (bytes it allocated and has not freed) and by the process
// (resident set).
//
// The goroutine is locked to its thread for a steady measure: glibc gives
// each thread its own malloc arena, and a goroutine whose cgo calls move
// among threads raises the high-water mark of several arenas before the
// resident set levels off (measured: 51 MB rising to 87 MB over the first
// 2000 contexts, then flat through 8000; 35 MB flat when locked).
func TestContextsDoNotLeak(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	n := 2000
	if testing.Short() {
		n = 200
	}
	for i := 0; i < 50; i++ { // warm up the allocators
		oneBatch(t)
	}
	settle()
	rss0, z0 := rss(t), estimatedAllocSize()
	start := time.Now()
	var rssHalf int64
	for i := 0; i < n; i++ {
		if i == n/2 {
			settle()
			rssHalf = rss(t)
		}
		oneBatch(t)
	}
	took := time.Since(start)
	settle()
	rss1, z1 := rss(t), estimatedAllocSize()
	dz, drss, drss2 := int64(z1)-int64(z0), rss1-rss0, rss1-rssHalf
	t.Logf("%d contexts in %v (%v each): Z3 allocation %+d bytes (%d -> %d), RSS %+d bytes (%d -> %d -> %d), %+d over the second half",
		n, took, took/time.Duration(n), dz, z0, z1, drss, rss0, rssHalf, rss1, drss2)
	if dz > z3Slack {
		t.Errorf("Z3's allocation grew by %d bytes over %d contexts", dz, n)
	}
	// The resident set may still rise in the first half (under -race it
	// rises by about 10 MB in the first thousand contexts, then stays
	// flat); a leak of a few kilobytes a context shows in the second.
	if drss > 20<<20 || drss2 > 8<<20 {
		t.Errorf("RSS grew by %d bytes over %d contexts, %d over the second half", drss, n, drss2)
	}
}

// Close drops the references of every term, solver and model, so Z3 frees
// them: a context holding many terms gives its memory back.
func TestCloseReleasesTerms(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	const n = 2000
	fill := func() (*Context, uint64) {
		c, err := NewContext(Config{Model: true})
		if err != nil {
			t.Fatal(err)
		}
		s := c.NewSolver()
		x := c.IntVar("x")
		for i := 0; i < n; i++ {
			v := c.IntVar(fmt.Sprintf("v%d", i))
			s.Assert(c.Implies(c.BoolVar(fmt.Sprintf("b%d", i)), c.Lt(c.Add(v, x), c.IntVal(int64(i)))))
		}
		mustCheck(t, s, Sat)
		m, err := s.Model()
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := m.EvalInt(x); !ok {
			t.Fatal("no value for x")
		}
		return c, estimatedAllocSize()
	}
	// Z3 keeps the names of variables in a process-wide table that is
	// never freed; a first round puts these names there.
	c, _ := fill()
	c.Close()
	z0 := estimatedAllocSize()
	c, zOpen := fill()
	c.Close()
	zClosed := estimatedAllocSize()
	t.Logf("Z3 allocation: %d before, %d with the context open, %d after Close", z0, zOpen, zClosed)
	if zOpen < z0+4*z3Slack {
		t.Fatalf("%d constraints took only %d bytes; the measure does not work", n, zOpen-z0)
	}
	if d := int64(zClosed) - int64(z0); d > z3Slack {
		t.Errorf("%d bytes of the context's %d stay allocated after Close", d, zOpen-z0)
	}
}

// A Context that lives across many queries stays about the same size when
// each query's model (or solver) is closed: the Context holds one reference
// per distinct term, and the queries repeat their terms.
func TestLongLivedContext(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	const n = 1000
	rf := [][2]string{{"r1", "w2"}, {"r2", "w1"}}
	query := func(c *Context, s *Solver) {
		o, guards := orderQuery(c, s, rf)
		solveOrder(t, s, o, guards)
	}
	t.Run("push and pop", func(t *testing.T) {
		c := newContext(t, Config{Model: true})
		s := c.NewSolver()
		for i := 0; i < 10; i++ {
			s.Push()
			query(c, s)
			s.Pop()
		}
		terms, z0 := len(c.terms), estimatedAllocSize()
		for i := 0; i < n; i++ {
			s.Push()
			query(c, s)
			s.Pop()
		}
		z1 := estimatedAllocSize()
		t.Logf("%d queries: Z3 allocation %+d bytes (%d -> %d), %d terms held", n, int64(z1)-int64(z0), z0, z1, len(c.terms))
		if len(c.terms) != terms || len(c.models) != 0 || len(c.solvers) != 1 {
			t.Errorf("held %d terms (%d before), %d models, %d solvers", len(c.terms), terms, len(c.models), len(c.solvers))
		}
		// Z3's solver itself keeps about a kilobyte per query across
		// pops (measured: 1.0 MB over 1000, 3.5 MB over 3000); a model
		// kept open per query adds about 9 KB each.
		if d := int64(z1) - int64(z0); d > 5<<20 {
			t.Errorf("Z3's allocation grew by %d bytes", d)
		}
	})
	t.Run("solver per query", func(t *testing.T) {
		c := newContext(t, Config{Model: true})
		for i := 0; i < 10; i++ {
			s := c.NewSolver()
			query(c, s)
			s.Close()
		}
		z0 := estimatedAllocSize()
		for i := 0; i < n; i++ {
			s := c.NewSolver()
			query(c, s)
			s.Close()
		}
		z1 := estimatedAllocSize()
		t.Logf("%d queries: Z3 allocation %+d bytes (%d -> %d)", n, int64(z1)-int64(z0), z0, z1)
		if len(c.models) != 0 || len(c.solvers) != 0 {
			t.Errorf("held %d models, %d solvers", len(c.models), len(c.solvers))
		}
		if d := int64(z1) - int64(z0); d > z3Slack {
			t.Errorf("Z3's allocation grew by %d bytes", d)
		}
	})
}
