package symbolic

// instrument: symbolic

import (
	"sync"
	"testing"
)

const Closed = 7

var g int

// Run's parameters are captured by goroutines that never assign them:
// "a" leaves, bound by SymEnter to their addresses.
func Run(i, j int) bool {
	if i+1 == Closed || j == Closed {
		return false
	}
	var mu sync.Mutex
	x := 0
	saw := false
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		mu.Lock()
		x = i
		mu.Unlock()
		mu.Lock()
		x = x + 1
		mu.Unlock()
	}()
	go func() {
		defer wg.Done()
		mu.Lock()
		v := x // a local from a shared read
		mu.Unlock()
		if v == Closed {
			saw = true
		}
	}()
	wg.Wait()
	return saw
}

// steps exercises locals: op-assign, v = v*2, a loop over a parameter.
func steps(n int, k uint8) int {
	total := 0
	for s := 0; s < n; s++ {
		total += s
	}
	v := n + 1
	v = v * 2
	v -= int(k)
	v++
	if v > 10 {
		g = v
	}
	w := len("abc") // not symbolic: a call
	w = v
	if w == 3 {
	}
	for p := n; p > 0; p-- { // assigned in a post statement: concrete
	}
	if n2 := n - 1; n2 == 0 {
	}
	for _, r := range []int{1, 2} {
		if r == n {
		}
	}
	return total
}

type acct struct{ bal int }

func (a *acct) withdraw(amt int, force bool) bool {
	if amt > a.bal && !force {
		return false
	}
	a.bal -= amt
	return true
}

func double(n int) int { return 2 * n }

func callers(a *acct, n int) {
	a.withdraw(n+1, n > 3) // a method call with symbolic arguments
	a.withdraw(double(n), false)
	x := n * 3
	steps(x, 2)
	steps(2, 1) // nothing symbolic
	go steps(n, 1)
	defer steps(n, 2)
	f := func(m int) { // nested literals
		y := m + n
		func() {
			if y > n {
			}
		}()
	}
	f(n)
}

func FuzzRun(f *testing.F) {
	f.Add(1, 2)
	f.Fuzz(func(t *testing.T, i, j int) {
		if Run(i, j) {
			t.Error("saw the sentinel")
		}
		k := i - j
		go func() {
			if k > i {
			}
		}()
	})
}

// Conditions and divisions the rewrite cannot express: rt.Untracked.

func (a *acct) balance() int { return a.bal }

func even(n int) bool { return n%2 == 0 }

type stats struct{ total, per int }

func (s *stats) average() int {
	return s.total / s.per // by a shared field: checked
}

func untracked(a *acct, s *stats, n, k int) int {
	if even(n) { // a call with a tracked argument
		return 0
	}
	if a.balance() < n { // a method result compared with a parameter
		return 1
	}
	if len("ab") > 1 { // constants: nothing
	}
	c := 3
	if c > 2 { // an untracked local: nothing
	}
	q := k / n // by a parameter: checked
	q += k % (n + 1)
	q /= n
	q = q / c // by an untracked local: nothing
	q = q / 2
	q = k / double(n) // by a call: untracked
	if n > 0 && k/n > 1 { // may not be evaluated: untracked
	}
	if q := k / n; q > 1 { // in an init statement: untracked
	}
	return q + s.total/s.per
}

// Results of calls.

type account struct {
	mu  sync.Mutex
	bal int
}

// Balance reports its read under the lock: SymRet with "m0:i64".
func (a *account) Balance() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.bal
}

// withdraw uses Balance's result in a condition.
func (a *account) withdraw(n int) bool {
	if a.Balance() < n {
		return false
	}
	b := a.Balance() - n // a local from a result
	if b == 0 {
	}
	return double(a.Balance()) > n // a result as an argument
}

// deferred's named result may change after its return: nothing reported.
func deferred(n int) (r int) {
	defer func() { r++ }()
	return n
}

// fact recurses: its entry checks for it (SymEnter).
func fact(n int) int {
	if n <= 1 {
		return 1
	}
	return n * fact(n-1)
}

// Strings: a parameter passed a string input stands for its length.
func parse(cmd string) bool {
	return len(cmd) > 1 && cmd[0] == '!'
}

func FuzzParse(f *testing.F) {
	f.Add("ab", 1)
	f.Fuzz(func(t *testing.T, cmd string, n int) {
		if n > 0 && parse(cmd) { // a result in a right operand: untracked
		}
		if parse(cmd) {
		}
		if deferred(n) > 2 { // no term: a concrete result
		}
		if fact(n) > 6 {
		}
		go func() {
			if len(cmd) == n {
			}
		}()
	})
}
