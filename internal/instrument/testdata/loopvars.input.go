// The module declares go 1.22 or later: every iteration of a for loop has
// its own loop variables, and the post statement runs on the next
// iteration's copy.
package loopvars

import "sync"

func Capture(q chan int) {
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ { // the post statement's i is the next iteration's: the copy reads i
		wg.Add(1)
		go func() { defer wg.Done(); q <- i }()
	}
	wg.Wait()
}

func SameIteration(q chan int) {
	for i := 0; i < 3; i++ {
		go func() { q <- i }()
		i += 0 // a write of this iteration's i, after the goroutine started
	}
}

type node struct{ next *node }

func Pointers(head *node, done chan bool) {
	for p := head; p != nil; p = p.next { // p.next is read through the old p
		go func() { _ = p; done <- true }()
	}
}

// Range statements that assign variables declared outside them write them
// at every iteration.
func RangeAssign(xs []int, seq func(func(int) bool), done chan bool) {
	var i, v int
	go func() { _ = i + v; done <- true }()
	for i, v = range xs {
	}
	for i = range 3 {
	}
	for v = range seq {
		_ = v
	}
}

// Range variables a range statement declares are new in every iteration.
func RangeDefine(xs []int, done chan bool) {
	for _, v := range xs {
		go func() { _ = v; done <- true }()
	}
}
