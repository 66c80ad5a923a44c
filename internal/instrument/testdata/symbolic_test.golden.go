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
func Run(i, j int) bool { __rtFrame := __rt.SymEnter("command-line-arguments.Run", &i, __rtSites_b6914f1a+35);
	if __rt.Branch(i+1 == Closed || j == Closed, __rtSites_b6914f1a+36, "(|| (== (+ a0:i64 1) 7) (== l0 7))", []int64{int64(__rtSites_b6914f1a+35), int64(j)}, &i) {
		return __rt.SymRet[bool](false, __rtFrame, "0", nil)
	}
	var mu sync.Mutex
	x := 0
	saw := false
	var wg sync.WaitGroup
	__rt.WGAdd(&wg, 2, __rtSites_b6914f1a+0)
	__rt.Go(func() {
		defer __rt.WGDone(&wg, __rtSites_b6914f1a+2)
		__rt.Lock(&mu, __rtSites_b6914f1a+3)
		__rt.Write(&x, __rtSites_b6914f1a+18); x = i; __rt.SymWrite(&x, __rtSites_b6914f1a+37, "a0:i64", nil, &i)
		__rt.Unlock(&mu, __rtSites_b6914f1a+4)
		__rt.Lock(&mu, __rtSites_b6914f1a+5)
		__rt.Update(&x, __rtSites_b6914f1a+19); x = x + 1; __rt.SymWrite(&x, __rtSites_b6914f1a+38, "(+ m0:i64 1)", nil, &x)
		__rt.Unlock(&mu, __rtSites_b6914f1a+6)
	}, __rtSites_b6914f1a+1)
	__rt.Go(func() {
		defer __rt.WGDone(&wg, __rtSites_b6914f1a+8)
		__rt.Lock(&mu, __rtSites_b6914f1a+9)
		__rt.Read(&x, __rtSites_b6914f1a+20); v := x; __rt.SymSet(__rtSites_b6914f1a+39, "m0:i64", nil, &x) // a local from a shared read
		__rt.Unlock(&mu, __rtSites_b6914f1a+10)
		if __rt.Branch(v == Closed, __rtSites_b6914f1a+40, "(== l0 7)", []int64{int64(__rtSites_b6914f1a+39), int64(v)}) {
			__rt.Write(&saw, __rtSites_b6914f1a+21); saw = true
		}
	}, __rtSites_b6914f1a+7)
	__rt.WGWait(&wg, __rtSites_b6914f1a+11)
	__rt.Read(&saw, __rtSites_b6914f1a+17); return __rt.SymRet[bool](saw, __rtFrame, "m0:b", nil, &saw)
}

// steps exercises locals: op-assign, v = v*2, a loop over a parameter.
func steps(n int, k uint8) int { __rtFrame := __rt.SymEnter("command-line-arguments.steps", __rtSites_b6914f1a+41, __rtSites_b6914f1a+92);
	total := 0
	for s := 0; __rt.Branch(s < n, __rtSites_b6914f1a+42, "(< v0 l1)", []int64{int64(s), int64(__rtSites_b6914f1a+41), int64(n)}); s++ {
		total += s
	}
	v := n + 1; __rt.SymSet(__rtSites_b6914f1a+43, "(+ l0 1)", []int64{int64(__rtSites_b6914f1a+41), int64(n)})
	__rt.SymSet(__rtSites_b6914f1a+43, "(* l0 2)", []int64{int64(__rtSites_b6914f1a+43), int64(v)}); v = v * 2
	__rt.SymSet(__rtSites_b6914f1a+43, "(- l2 l0)", []int64{int64(__rtSites_b6914f1a+92), int64(k), int64(__rtSites_b6914f1a+43), int64(v)}); v -= int(k)
	__rt.SymSet(__rtSites_b6914f1a+43, "(+ l0 1)", []int64{int64(__rtSites_b6914f1a+43), int64(v)}); v++
	if __rt.Branch(v > 10, __rtSites_b6914f1a+44, "(> l0 10)", []int64{int64(__rtSites_b6914f1a+43), int64(v)}) {
		__rt.Write(&g, __rtSites_b6914f1a+22); g = v; __rt.SymWrite(&g, __rtSites_b6914f1a+45, "l0", []int64{int64(__rtSites_b6914f1a+43), int64(v)})
	}
	w := len("abc"); __rt.SymSet(__rtSites_b6914f1a+46, "", nil) // not symbolic: a call
	w = v; __rt.SymSet(__rtSites_b6914f1a+46, "l0", []int64{int64(__rtSites_b6914f1a+43), int64(v)})
	if __rt.Branch(w == 3, __rtSites_b6914f1a+47, "(== l0 3)", []int64{int64(__rtSites_b6914f1a+46), int64(w)}) {
	}
	for p := n; p > 0; p-- { // assigned in a post statement: concrete
	}
	if n2 := n - 1; __rt.Branch(__rt.SymSet(__rtSites_b6914f1a+48, "(- l0 1)", []int64{int64(__rtSites_b6914f1a+41), int64(n)}) && (n2 == 0), __rtSites_b6914f1a+49, "(== l0 0)", []int64{int64(__rtSites_b6914f1a+48), int64(n2)}) {
	}
	for _, r := range []int{1, 2} {
		if __rt.Branch(r == n, __rtSites_b6914f1a+50, "(== v0 l1)", []int64{int64(r), int64(__rtSites_b6914f1a+41), int64(n)}) {
		}
	}
	return __rt.SymRet[int](total, __rtFrame, "v0", []int64{int64(total)})
}

type acct struct{ bal int }

func (a *acct) withdraw(amt int, force bool) bool { __rtFrame := __rt.SymEnter("(*command-line-arguments.acct).withdraw", __rtSites_b6914f1a+51, __rtSites_b6914f1a+53);
	__rt.Read(&a.bal, __rtSites_b6914f1a+23); if __rt.Branch(amt > a.bal && !force, __rtSites_b6914f1a+54, "(&& (> l0 m0:i64) (! l2))", []int64{int64(__rtSites_b6914f1a+51), int64(amt), int64(__rtSites_b6914f1a+53), __rt.B(force)}, &a.bal) {
		return __rt.SymRet[bool](false, __rtFrame, "0", nil)
	}
	__rt.Update(&a.bal, __rtSites_b6914f1a+24); a.bal -= amt; __rt.SymWrite(&a.bal, __rtSites_b6914f1a+52, "(- m0:i64 l0)", []int64{int64(__rtSites_b6914f1a+51), int64(amt)}, &a.bal)
	return __rt.SymRet[bool](true, __rtFrame, "1", nil)
}

func double(n int) int { __rtFrame := __rt.SymEnter("command-line-arguments.double", __rtSites_b6914f1a+85); return __rt.SymRet[int](2 * n, __rtFrame, "(* 2 l0)", []int64{int64(__rtSites_b6914f1a+85), int64(n)}) }

func callers(a *acct, n int) { __rt.SymEnter("command-line-arguments.callers", nil, &n);
	a.withdraw(n+1, __rt.SymCall[bool](n > 3, "(*command-line-arguments.acct).withdraw", "(+ a0:i64 1) (> a0:i64 3)", nil, &n)) // a method call with symbolic arguments
	a.withdraw(__rt.SymResult[int](__rt.SymMark("command-line-arguments.double"), double(__rt.SymCall[int](n, "command-line-arguments.double", "a0:i64", nil, &n)), __rtSites_b6914f1a+89), __rt.SymCall[bool](false, "(*command-line-arguments.acct).withdraw", "r0 0", []int64{int64(__rtSites_b6914f1a+89)}))
	x := n * 3; __rt.SymSet(__rtSites_b6914f1a+90, "(* a0:i64 3)", nil, &n)
	steps(x, __rt.SymCall[uint8](2, "command-line-arguments.steps", "l0 2", []int64{int64(__rtSites_b6914f1a+90), int64(x)}))
	steps(2, 1) // nothing symbolic
	{ __rtArg1 := n; __rt.Go(func() { steps(__rtArg1, 1) }, __rtSites_b6914f1a+12) }
	defer steps(n, 2)
	f := func(m int) { // nested literals
		y := m + n; __rt.SymSetAt(&y, "(+ v0 a0:i64)", []int64{int64(m)}, &n)
		func() {
			if __rt.Branch(y > n, __rtSites_b6914f1a+55, "(> a0:i64 a1:i64)", nil, &y, &n) {
			}
		}()
	}
	f(n)
}

func FuzzRun(f *testing.F) {
	f.Add(1, 2)
	f.Fuzz(func(t *testing.T, i, j int) { __rt.FuzzBody(t, func(t *testing.T) { __rt.SymEnter("");
		if __rt.Branch(__rt.SymResult[bool](__rt.SymMark("command-line-arguments.Run"), Run(i, __rt.SymCall[int](j, "command-line-arguments.Run", "i0 i1", nil)), __rtSites_b6914f1a+56), __rtSites_b6914f1a+57, "r0", []int64{int64(__rtSites_b6914f1a+56)}) {
			__rt.TError(t, "saw the sentinel")
		}
		k := i - j; __rt.SymSetAt(&k, "(- i0 i1)", nil)
		__rt.Go(func() {
			if __rt.Branch(k > i, __rtSites_b6914f1a+58, "(> a0:i64 i0)", nil, &k) {
			}
		}, __rtSites_b6914f1a+13)
	}, &i, &j)})
}

// Conditions and divisions the rewrite cannot express: rt.Untracked.

func (a *acct) balance() int { __rtFrame := __rt.SymEnter("(*command-line-arguments.acct).balance"); __rt.Read(&a.bal, __rtSites_b6914f1a+25); return __rt.SymRet[int](a.bal, __rtFrame, "m0:i64", nil, &a.bal) }

func even(n int) bool { return n%2 == 0 }

type stats struct{ total, per int }

func (s *stats) average() int {
	__rt.Read(&s.total, __rtSites_b6914f1a+26); __rt.Read(&s.per, __rtSites_b6914f1a+27); __rt.Branch(s.per != 0, __rtSites_b6914f1a+59, "(!= m0:i64 0)", nil, &s.per); return s.total / s.per // by a shared field: checked
}

func untracked(a *acct, s *stats, n, k int) int { __rtFrame := __rt.SymEnter("command-line-arguments.untracked", nil, nil, __rtSites_b6914f1a+60, nil);
	if __rt.Branch(__rt.SymResult[bool](__rt.SymMark("command-line-arguments.even"), even(n), __rtSites_b6914f1a+65), __rtSites_b6914f1a+66, "r0", []int64{int64(__rtSites_b6914f1a+65)}) { // a call with a tracked argument
		return __rt.SymRet[int](0, __rtFrame, "0", nil)
	}
	if __rt.Branch(__rt.SymResult[int](__rt.SymMark("(*command-line-arguments.acct).balance"), a.balance(), __rtSites_b6914f1a+67) < n, __rtSites_b6914f1a+68, "(< r0 l1)", []int64{int64(__rtSites_b6914f1a+67), int64(__rtSites_b6914f1a+60), int64(n)}) { // a method result compared with a parameter
		return __rt.SymRet[int](1, __rtFrame, "1", nil)
	}
	if len("ab") > 1 { // constants: nothing
	}
	c := 3
	if c > 2 { // an untracked local: nothing
	}
	__rt.Branch(n != 0, __rtSites_b6914f1a+61, "(!= l0 0)", []int64{int64(__rtSites_b6914f1a+60), int64(n)}); q := k / n // by a parameter: checked
	__rt.Branch((n + 1) != 0, __rtSites_b6914f1a+62, "(!= (+ l0 1) 0)", []int64{int64(__rtSites_b6914f1a+60), int64(n)}); q += k % (n + 1)
	__rt.Branch(n != 0, __rtSites_b6914f1a+63, "(!= l0 0)", []int64{int64(__rtSites_b6914f1a+60), int64(n)}); q /= n
	q = q / c // by an untracked local: nothing
	q = q / 2
	__rt.Untracked(__rtSites_b6914f1a+31); q = k / double(__rt.SymCall[int](n, "command-line-arguments.double", "l0", []int64{int64(__rtSites_b6914f1a+60), int64(n)})) // by a call: untracked
	__rt.Untracked(__rtSites_b6914f1a+33); if n > 0 && k/n > 1 { // may not be evaluated: untracked
	}
	__rt.Untracked(__rtSites_b6914f1a+32); if q := k / n; __rt.Branch(__rt.SymSet(__rtSites_b6914f1a+69, "", nil) && (q > 1), __rtSites_b6914f1a+70, "(> l0 1)", []int64{int64(__rtSites_b6914f1a+69), int64(q)}) { // in an init statement: untracked
	}
	__rt.Read(&s.total, __rtSites_b6914f1a+28); __rt.Read(&s.per, __rtSites_b6914f1a+29); __rt.Branch(s.per != 0, __rtSites_b6914f1a+64, "(!= m0:i64 0)", nil, &s.per); return q + s.total/s.per
}

// Results of calls.

type account struct {
	mu  sync.Mutex
	bal int
}

// Balance reports its read under the lock: SymRet with "m0:i64".
func (a *account) Balance() int { __rtFrame := __rt.SymEnter("(*command-line-arguments.account).Balance");
	__rt.Lock(&a.mu, __rtSites_b6914f1a+14)
	defer __rt.Unlock(&a.mu, __rtSites_b6914f1a+15)
	__rt.Read(&a.bal, __rtSites_b6914f1a+30); return __rt.SymRet[int](a.bal, __rtFrame, "m0:i64", nil, &a.bal)
}

// withdraw uses Balance's result in a condition.
func (a *account) withdraw(n int) bool { __rtFrame := __rt.SymEnter("(*command-line-arguments.account).withdraw", __rtSites_b6914f1a+72);
	if __rt.Branch(__rt.SymResult[int](__rt.SymMark("(*command-line-arguments.account).Balance"), a.Balance(), __rtSites_b6914f1a+71) < n, __rtSites_b6914f1a+73, "(< r0 l1)", []int64{int64(__rtSites_b6914f1a+71), int64(__rtSites_b6914f1a+72), int64(n)}) {
		return __rt.SymRet[bool](false, __rtFrame, "0", nil)
	}
	b := __rt.SymResult[int](__rt.SymMark("(*command-line-arguments.account).Balance"), a.Balance(), __rtSites_b6914f1a+93) - n; __rt.SymSet(__rtSites_b6914f1a+74, "(- r0 l1)", []int64{int64(__rtSites_b6914f1a+93), int64(__rtSites_b6914f1a+72), int64(n)}) // a local from a result
	if __rt.Branch(b == 0, __rtSites_b6914f1a+75, "(== l0 0)", []int64{int64(__rtSites_b6914f1a+74), int64(b)}) {
	}
	return __rt.SymRet[bool](__rt.SymResult[int](__rt.SymMark("command-line-arguments.double"), double(__rt.SymCall[int](__rt.SymResult[int](__rt.SymMark("(*command-line-arguments.account).Balance"), a.Balance(), __rtSites_b6914f1a+91), "command-line-arguments.double", "r0", []int64{int64(__rtSites_b6914f1a+91)})), __rtSites_b6914f1a+86) > n, __rtFrame, "(> r0 l1)", []int64{int64(__rtSites_b6914f1a+86), int64(__rtSites_b6914f1a+72), int64(n)}) // a result as an argument
}

// deferred's named result may change after its return: nothing reported.
func deferred(n int) (r int) {
	defer func() { r++ }()
	return n
}

// fact recurses: its entry checks for it (SymEnter).
func fact(n int) int { __rtFrame := __rt.SymEnter("command-line-arguments.fact", __rtSites_b6914f1a+76);
	if __rt.Branch(n <= 1, __rtSites_b6914f1a+77, "(<= l0 1)", []int64{int64(__rtSites_b6914f1a+76), int64(n)}) {
		return __rt.SymRet[int](1, __rtFrame, "1", nil)
	}
	return __rt.SymRet[int](n * __rt.SymResult[int](__rt.SymMark("command-line-arguments.fact"), fact(__rt.SymCall[int](n-1, "command-line-arguments.fact", "(- l0 1)", []int64{int64(__rtSites_b6914f1a+76), int64(n)})), __rtSites_b6914f1a+87), __rtFrame, "(* l0 r2)", []int64{int64(__rtSites_b6914f1a+76), int64(n), int64(__rtSites_b6914f1a+87)})
}

// Strings: a parameter passed a string input stands for its length.
func parse(cmd string) bool { __rtFrame := __rt.SymEnter("command-line-arguments.parse", __rtSites_b6914f1a+88);
	return __rt.SymRet[bool](len(cmd) > 1 && cmd[0] == '!', __rtFrame, "(&& (> l0 1) (== (@ l0 0 v2) 33))", []int64{int64(__rtSites_b6914f1a+88), int64(len(cmd)), __rt.At(cmd, int64(0))})
}

func FuzzParse(f *testing.F) {
	f.Add("ab", 1)
	f.Fuzz(func(t *testing.T, cmd string, n int) { __rt.FuzzBody(t, func(t *testing.T) { __rt.SymEnter("");
		__rt.Untracked(__rtSites_b6914f1a+34); if n > 0 && parse(__rt.SymCall[string](cmd, "command-line-arguments.parse", "i0", nil)) { // a result in a right operand: untracked
		}
		if __rt.Branch(__rt.SymResult[bool](__rt.SymMark("command-line-arguments.parse"), parse(__rt.SymCall[string](cmd, "command-line-arguments.parse", "i0", nil)), __rtSites_b6914f1a+78), __rtSites_b6914f1a+79, "r0", []int64{int64(__rtSites_b6914f1a+78)}) {
		}
		if __rt.Branch(__rt.SymResult[int](__rt.SymMark("command-line-arguments.deferred"), deferred(n), __rtSites_b6914f1a+80) > 2, __rtSites_b6914f1a+81, "(> r0 2)", []int64{int64(__rtSites_b6914f1a+80)}) { // no term: a concrete result
		}
		if __rt.Branch(__rt.SymResult[int](__rt.SymMark("command-line-arguments.fact"), fact(__rt.SymCall[int](n, "command-line-arguments.fact", "i1", nil)), __rtSites_b6914f1a+82) > 6, __rtSites_b6914f1a+83, "(> r0 6)", []int64{int64(__rtSites_b6914f1a+82)}) {
		}
		__rt.Go(func() {
			if __rt.Branch(len(cmd) == n, __rtSites_b6914f1a+84, "(== i0 i1)", nil) {
			}
		}, __rtSites_b6914f1a+16)
	}, &cmd, &n)})
}

var __rtSites_b6914f1a = __rt.RegisterFile("testdata/symbolic_test.go", "w*wg\n\nw*wg\nl*mu\nl*mu\nl*mu\nl*mu\n\nw*wg\nl*mu\nl*mu\nw*wg\n\n\nl*a.mu\nl*a.mu\n\nv*saw\nv*x\nv*x\nv*x\nv*saw\nv*g\nv*a.bal\nv*a.bal\nv*a.bal\nv*s.total\nv*s.per\nv*s.total\nv*s.per\nv*a.bal", 24, 2, 25, 2, 26, 9, 27, 3, 29, 3, 30, 3, 32, 3, 34, 2, 35, 9, 36, 3, 38, 3, 43, 2, 93, 2, 112, 3, 165, 2, 166, 8, 211, 3, 44, 9, 28, 3, 31, 7, 37, 8, 40, 4, 58, 3, 78, 11, 81, 2, 121, 39, 128, 9, 128, 19, 153, 13, 153, 21, 167, 9, 148, 8, 151, 12, 149, 5, 203, 6, 16, 13, 17, 5, 28, 3, 31, 3, 37, 3, 39, 6, 48, 12, 50, 14, 53, 2, 57, 5, 58, 3, 60, 2, 62, 5, 66, 5, 66, 18, 69, 6, 77, 25, 81, 2, 77, 34, 78, 5, 98, 7, 108, 6, 108, 6, 113, 7, 128, 17, 131, 35, 143, 9, 144, 9, 145, 4, 153, 20, 132, 5, 132, 5, 135, 5, 135, 5, 151, 5, 151, 17, 172, 5, 171, 28, 172, 5, 175, 2, 176, 5, 188, 11, 189, 5, 205, 6, 205, 6, 207, 6, 207, 6, 209, 6, 209, 6, 212, 7, 85, 13, 178, 9, 192, 13, 196, 12, 89, 13, 90, 2, 178, 16, 48, 19, 175, 7)
