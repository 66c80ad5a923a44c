package testdata

import (
	"iter"
	"sync"
)

type pair struct{ k, v int }

func pulls() {
	var mu sync.Mutex
	seq := func(yield func(int) bool) {
		mu.Lock()
		mu.Unlock()
		yield(1)
	}
	next, stop := iter.Pull(seq)
	defer stop()
	next()

	seq2 := func(yield func(string, pair) bool) { yield("a", pair{1, 2}) }
	next2, stop2 := iter.Pull2(seq2)
	next2()
	stop2()

	// Explicit instantiation, and the function as a value.
	n, s := iter.Pull[int](seq)
	_, _ = n, s
	var pull func(iter.Seq[int]) (func() (int, bool), func()) = iter.Pull
	_ = pull
}

func generic[V any](seq iter.Seq[V]) (V, bool) {
	next, stop := iter.Pull(seq)
	defer stop()
	return next()
}

func local() {
	type item struct{ n int }
	seq := func(yield func(item) bool) { yield(item{1}) }
	next, _ := iter.Pull(seq)
	next()
}
