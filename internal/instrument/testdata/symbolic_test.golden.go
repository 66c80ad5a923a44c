//line testdata/symbolic_test.go:1
package symbolic; import __rt "interleave.dev/rt"

// instrument: symbolic

import (
	"sync"
	"testing"
)

const Closed = 7

var g int

// Run's parameters are captured by goroutines that never assign them:
// "a" leaves, bound by SymEnter to their addresses.
func Run(i, j int) bool { __rt.SymEnter("command-line-arguments.Run", &i, __rtSites_b6914f1a+33);
	if __rt.Branch(i+1 == Closed || j == Closed, __rtSites_b6914f1a+34, "(|| (== (+ a0:i64 1) 7) (== l0 7))", []int64{int64(__rtSites_b6914f1a+33), int64(j)}, &i) {
		return false
	}
	var mu sync.Mutex
	x := 0
	saw := false
	var wg sync.WaitGroup
	__rt.WGAdd(&wg, 2, __rtSites_b6914f1a+0)
	__rt.Go(func() {
		defer __rt.WGDone(&wg, __rtSites_b6914f1a+2)
		__rt.Lock(&mu, __rtSites_b6914f1a+3)
		__rt.Write(&x, __rtSites_b6914f1a+15); x = i; __rt.SymWrite(&x, __rtSites_b6914f1a+35, "a0:i64", nil, &i)
		__rt.Unlock(&mu, __rtSites_b6914f1a+4)
		__rt.Lock(&mu, __rtSites_b6914f1a+5)
		__rt.Update(&x, __rtSites_b6914f1a+16); x = x + 1; __rt.SymWrite(&x, __rtSites_b6914f1a+36, "(+ m0:i64 1)", nil, &x)
		__rt.Unlock(&mu, __rtSites_b6914f1a+6)
	}, __rtSites_b6914f1a+1)
	__rt.Go(func() {
		defer __rt.WGDone(&wg, __rtSites_b6914f1a+8)
		__rt.Lock(&mu, __rtSites_b6914f1a+9)
		__rt.Read(&x, __rtSites_b6914f1a+17); v := x; __rt.SymSet(__rtSites_b6914f1a+37, "m0:i64", nil, &x) // a local from a shared read
		__rt.Unlock(&mu, __rtSites_b6914f1a+10)
		if __rt.Branch(v == Closed, __rtSites_b6914f1a+38, "(== l0 7)", []int64{int64(__rtSites_b6914f1a+37), int64(v)}) {
			__rt.Write(&saw, __rtSites_b6914f1a+18); saw = true
		}
	}, __rtSites_b6914f1a+7)
	__rt.WGWait(&wg, __rtSites_b6914f1a+11)
	__rt.Read(&saw, __rtSites_b6914f1a+14); return saw
}

// steps exercises locals: op-assign, v = v*2, a loop over a parameter.
func steps(n int, k uint8) int { __rt.SymEnter("command-line-arguments.steps", __rtSites_b6914f1a+39, __rtSites_b6914f1a+62);
	total := 0
	for s := 0; __rt.Branch(s < n, __rtSites_b6914f1a+40, "(< v0 l1)", []int64{int64(s), int64(__rtSites_b6914f1a+39), int64(n)}); s++ {
		total += s
	}
	v := n + 1; __rt.SymSet(__rtSites_b6914f1a+41, "(+ l0 1)", []int64{int64(__rtSites_b6914f1a+39), int64(n)})
	__rt.SymSet(__rtSites_b6914f1a+41, "(* l0 2)", []int64{int64(__rtSites_b6914f1a+41), int64(v)}); v = v * 2
	__rt.SymSet(__rtSites_b6914f1a+41, "(- l2 l0)", []int64{int64(__rtSites_b6914f1a+62), int64(k), int64(__rtSites_b6914f1a+41), int64(v)}); v -= int(k)
	__rt.SymSet(__rtSites_b6914f1a+41, "(+ l0 1)", []int64{int64(__rtSites_b6914f1a+41), int64(v)}); v++
	if __rt.Branch(v > 10, __rtSites_b6914f1a+42, "(> l0 10)", []int64{int64(__rtSites_b6914f1a+41), int64(v)}) {
		__rt.Write(&g, __rtSites_b6914f1a+19); g = v; __rt.SymWrite(&g, __rtSites_b6914f1a+43, "l0", []int64{int64(__rtSites_b6914f1a+41), int64(v)})
	}
	w := len("abc"); __rt.SymSet(__rtSites_b6914f1a+44, "", nil) // not symbolic: a call
	w = v; __rt.SymSet(__rtSites_b6914f1a+44, "l0", []int64{int64(__rtSites_b6914f1a+41), int64(v)})
	if __rt.Branch(w == 3, __rtSites_b6914f1a+45, "(== l0 3)", []int64{int64(__rtSites_b6914f1a+44), int64(w)}) {
	}
	for p := n; p > 0; p-- { // assigned in a post statement: concrete
	}
	__rt.SymSet(__rtSites_b6914f1a+46, "(- l0 1)", []int64{int64(__rtSites_b6914f1a+39), int64(n)}); if n2 := n - 1; __rt.Branch(n2 == 0, __rtSites_b6914f1a+47, "(== l0 0)", []int64{int64(__rtSites_b6914f1a+46), int64(n2)}) {
	}
	for _, r := range []int{1, 2} {
		if __rt.Branch(r == n, __rtSites_b6914f1a+48, "(== v0 l1)", []int64{int64(r), int64(__rtSites_b6914f1a+39), int64(n)}) {
		}
	}
	return total
}

type acct struct{ bal int }

func (a *acct) withdraw(amt int, force bool) bool { __rt.SymEnter("(*command-line-arguments.acct).withdraw", __rtSites_b6914f1a+49, __rtSites_b6914f1a+51);
	__rt.Read(&a.bal, __rtSites_b6914f1a+20); if __rt.Branch(amt > a.bal && !force, __rtSites_b6914f1a+52, "(&& (> l0 m0:i64) (! l2))", []int64{int64(__rtSites_b6914f1a+49), int64(amt), int64(__rtSites_b6914f1a+51), __rt.B(force)}, &a.bal) {
		return false
	}
	__rt.Update(&a.bal, __rtSites_b6914f1a+21); a.bal -= amt; __rt.SymWrite(&a.bal, __rtSites_b6914f1a+50, "(- m0:i64 l0)", []int64{int64(__rtSites_b6914f1a+49), int64(amt)}, &a.bal)
	return true
}

func double(n int) int { return 2 * n }

func callers(a *acct, n int) { __rt.SymEnter("command-line-arguments.callers", nil, &n);
	a.withdraw(__rt.SymCall[int](n+1, "(*command-line-arguments.acct).withdraw", "(+ a0:i64 1) (> a0:i64 3)", nil, &n), n > 3) // a method call with symbolic arguments
	a.withdraw(double(n), false)
	x := n * 3; __rt.SymSet(__rtSites_b6914f1a+61, "(* a0:i64 3)", nil, &n)
	steps(__rt.SymCall[int](x, "command-line-arguments.steps", "l0 2", []int64{int64(__rtSites_b6914f1a+61), int64(x)}), 2)
	steps(2, 1) // nothing symbolic
	{ __rtArg1 := n; __rt.Go(func() { steps(__rtArg1, 1) }, __rtSites_b6914f1a+12) }
	defer steps(n, 2)
	f := func(m int) { // nested literals
		y := m + n; __rt.SymSetAt(&y, "(+ v0 a0:i64)", []int64{int64(m)}, &n)
		func() {
			if __rt.Branch(y > n, __rtSites_b6914f1a+53, "(> a0:i64 a1:i64)", nil, &y, &n) {
			}
		}()
	}
	f(n)
}

func FuzzRun(f *testing.F) {
	f.Add(1, 2)
	f.Fuzz(func(t *testing.T, i, j int) { __rt.FuzzBody(t, func(t *testing.T) {
		__rt.Untracked(__rtSites_b6914f1a+27); if Run(__rt.SymCall[int](i, "command-line-arguments.Run", "i0 i1", nil), j) {
			__rt.TError(t, "saw the sentinel")
		}
		k := i - j; __rt.SymSetAt(&k, "(- i0 i1)", nil)
		__rt.Go(func() {
			if __rt.Branch(k > i, __rtSites_b6914f1a+54, "(> a0:i64 i0)", nil, &k) {
			}
		}, __rtSites_b6914f1a+13)
	}, &i, &j)})
}

// Conditions and divisions the rewrite cannot express: rt.Untracked.

func (a *acct) balance() int { __rt.Read(&a.bal, __rtSites_b6914f1a+22); return a.bal }

func even(n int) bool { return n%2 == 0 }

type stats struct{ total, per int }

func (s *stats) average() int {
	__rt.Read(&s.total, __rtSites_b6914f1a+23); __rt.Read(&s.per, __rtSites_b6914f1a+24); __rt.Branch(s.per != 0, __rtSites_b6914f1a+55, "(!= m0:i64 0)", nil, &s.per); return s.total / s.per // by a shared field: checked
}

func untracked(a *acct, s *stats, n, k int) int { __rt.SymEnter("command-line-arguments.untracked", nil, nil, __rtSites_b6914f1a+56, nil);
	__rt.Untracked(__rtSites_b6914f1a+30); if even(n) { // a call with a tracked argument
		return 0
	}
	__rt.Untracked(__rtSites_b6914f1a+31); if a.balance() < n { // a method result compared with a parameter
		return 1
	}
	if len("ab") > 1 { // constants: nothing
	}
	c := 3
	if c > 2 { // an untracked local: nothing
	}
	__rt.Branch(n != 0, __rtSites_b6914f1a+57, "(!= l0 0)", []int64{int64(__rtSites_b6914f1a+56), int64(n)}); q := k / n // by a parameter: checked
	__rt.Branch((n + 1) != 0, __rtSites_b6914f1a+58, "(!= (+ l0 1) 0)", []int64{int64(__rtSites_b6914f1a+56), int64(n)}); q += k % (n + 1)
	__rt.Branch(n != 0, __rtSites_b6914f1a+59, "(!= l0 0)", []int64{int64(__rtSites_b6914f1a+56), int64(n)}); q /= n
	q = q / c // by an untracked local: nothing
	q = q / 2
	__rt.Untracked(__rtSites_b6914f1a+28); q = k / double(n) // by a call: untracked
	__rt.Untracked(__rtSites_b6914f1a+32); if n > 0 && k/n > 1 { // may not be evaluated: untracked
	}
	__rt.Untracked(__rtSites_b6914f1a+29); if q := k / n; q > 1 { // in an init statement: untracked
	}
	__rt.Read(&s.total, __rtSites_b6914f1a+25); __rt.Read(&s.per, __rtSites_b6914f1a+26); __rt.Branch(s.per != 0, __rtSites_b6914f1a+60, "(!= m0:i64 0)", nil, &s.per); return q + s.total/s.per
}

var __rtSites_b6914f1a = __rt.RegisterFile("testdata/symbolic_test.go", 24, 2, 25, 2, 26, 9, 27, 3, 29, 3, 30, 3, 32, 3, 34, 2, 35, 9, 36, 3, 38, 3, 43, 2, 93, 2, 112, 3, 44, 9, 28, 3, 31, 7, 37, 8, 40, 4, 58, 3, 78, 11, 81, 2, 121, 39, 128, 9, 128, 19, 153, 13, 153, 21, 108, 6, 148, 8, 151, 12, 132, 5, 135, 5, 149, 5, 16, 13, 17, 5, 28, 3, 31, 3, 37, 3, 39, 6, 48, 12, 50, 14, 53, 2, 57, 5, 58, 3, 60, 2, 62, 5, 66, 5, 66, 18, 69, 6, 77, 25, 81, 2, 77, 34, 78, 5, 98, 7, 113, 7, 128, 17, 131, 35, 143, 9, 144, 9, 145, 4, 153, 20, 90, 2, 48, 19)
