//line testdata/loopvars.go:1
// The module declares go 1.22 or later: every iteration of a for loop has
// its own loop variables, and the post statement runs on the next
// iteration's copy.
package loopvars; import __rt "interleave.dev/rt"

import "sync"

func Capture(q chan int) {
	var wg sync.WaitGroup
	for i := 0; func() bool { __rt.Read(&i, __rtSites_16c72eab+13); return true }() && (i < 3); i++ { // the post statement's i is the next iteration's: the copy reads i
		__rt.WGAdd(&wg, 1, __rtSites_16c72eab+0)
		__rt.Go(func() { defer __rt.WGDone(&wg, __rtSites_16c72eab+2); __rt.Read(&i, __rtSites_16c72eab+15); __rt.Send[int](q, i, __rtSites_16c72eab+3) }, __rtSites_16c72eab+1)
	; __rt.Read(&i, __rtSites_16c72eab+14); }
	__rt.WGWait(&wg, __rtSites_16c72eab+4)
}

func SameIteration(q chan int) {
	for i := 0; func() bool { __rt.Read(&i, __rtSites_16c72eab+16); return true }() && (i < 3); i++ {
		__rt.Go(func() { __rt.Read(&i, __rtSites_16c72eab+19); __rt.Send[int](q, i, __rtSites_16c72eab+6) }, __rtSites_16c72eab+5)
		__rt.Update(&i, __rtSites_16c72eab+18); i += 0 // a write of this iteration's i, after the goroutine started
	; __rt.Read(&i, __rtSites_16c72eab+17); }
}

type node struct{ next *node }

func Pointers(head *node, done chan bool) {
	for p := head; func() bool { __rt.Read(&p, __rtSites_16c72eab+20); return true }() && (p != nil); p = p.next { // p.next is read through the old p
		__rt.Go(func() { __rt.Read(&p, __rtSites_16c72eab+23); _ = p; __rt.Send[bool](done, true, __rtSites_16c72eab+8) }, __rtSites_16c72eab+7)
	; __rt.Read(&p, __rtSites_16c72eab+21); __rt.Read(&p.next, __rtSites_16c72eab+22); }
}

// Range statements that assign variables declared outside them write them
// at every iteration.
func RangeAssign(xs []int, seq func(func(int) bool), done chan bool) {
	var i, v int
	__rt.Go(func() { __rt.Read(&i, __rtSites_16c72eab+24); __rt.Read(&v, __rtSites_16c72eab+25); _ = i + v; __rt.Send[bool](done, true, __rtSites_16c72eab+10) }, __rtSites_16c72eab+9)
	for i, v = range xs { __rt.Wrote(&i, __rtSites_16c72eab+26); __rt.Wrote(&v, __rtSites_16c72eab+27); 
	}
	for i = range 3 { __rt.Wrote(&i, __rtSites_16c72eab+28); 
	}
	for v = range seq { __rt.Wrote(&v, __rtSites_16c72eab+29); 
		__rt.Read(&v, __rtSites_16c72eab+30); _ = v
	}
}

// Range variables a range statement declares are new in every iteration.
func RangeDefine(xs []int, done chan bool) {
	for __rtK1, v := range xs { __rt.Read(&xs[__rtK1], __rtSites_16c72eab+31);
		__rt.Go(func() { _ = v; __rt.Send[bool](done, true, __rtSites_16c72eab+12) }, __rtSites_16c72eab+11)
	}
}

var __rtSites_16c72eab = __rt.RegisterFile("testdata/loopvars.go", "w*wg\n\nw*wg\nc*q\nw*wg\n\nc*q\n\nc*done\n\nc*done\n\nc*done\nv*i\nv*i\nv*i\nv*i\nv*i\nv*i\nv*i\nv*p\nv*p\nv*p.next\nv*p\nv*i\nv*v\nv*i\nv*v\nv*i\nv*v\nv*v\nv*xs", 11, 3, 12, 3, 12, 21, 12, 34, 14, 2, 19, 3, 19, 17, 28, 3, 28, 27, 36, 2, 36, 30, 49, 3, 49, 27, 10, 14, 10, 21, 12, 37, 18, 14, 18, 21, 20, 3, 19, 20, 27, 17, 27, 31, 27, 31, 28, 19, 36, 18, 36, 22, 37, 6, 37, 9, 39, 6, 41, 6, 42, 7, 48, 2)
