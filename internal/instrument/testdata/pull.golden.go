//line testdata/pull.go:1
package testdata; import __rt "interleave.dev/rt"

import (
	"iter"
	"sync"
)

type pair struct{ k, v int }

func pulls() {
	var mu sync.Mutex
	seq := func(yield func(int) bool) {
		__rt.Lock(&mu, __rtSites_509f632e+0)
		__rt.Unlock(&mu, __rtSites_509f632e+1)
		yield(1)
	}
	next, stop := __rt.Pull[int](seq, __rtSites_509f632e+2)
	defer stop()
	next()

	seq2 := func(yield func(string, pair) bool) { yield("a", pair{1, 2}) }
	next2, stop2 := __rt.Pull2[string, pair](seq2, __rtSites_509f632e+3)
	next2()
	stop2()

	// Explicit instantiation, and the function as a value.
	n, s := __rt.Pull[int](seq, __rtSites_509f632e+4)
	_, _ = n, s
	var pull func(iter.Seq[int]) (func() (int, bool), func()) = func(__rtP1 iter.Seq[int]) (func() (int, bool), func()) { return __rt.Pull[int](__rtP1, __rtSites_509f632e+5) }
	_ = pull
}

func generic[V any](seq iter.Seq[V]) (V, bool) {
	next, stop := __rt.Pull[V](seq, __rtSites_509f632e+6)
	defer stop()
	return next()
}

func local() {
	type item struct{ n int }
	seq := func(yield func(item) bool) { yield(item{1}) }
	next, _ := __rt.Pull[item](seq, __rtSites_509f632e+7)
	next()
}

var __rtSites_509f632e = __rt.RegisterFile("testdata/pull.go", "l*mu\nl*mu", 13, 3, 14, 3, 17, 16, 22, 18, 27, 10, 29, 62, 34, 16, 42, 13)
