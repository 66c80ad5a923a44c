//line testdata/goroutines.go:1
package goroutines; import __rt "interleave.dev/rt"

import (
	"fmt"
	"sync"
)

type worker struct{ id int }

func (w *worker) run(n int) { __rt.Read(&w.id, __rtSites_74cdc52e+20); fmt.Println(w.id, n) }

func work(a, b int) { fmt.Println(a + b) }

func generic[T any](v T) { fmt.Println(v) }

func variadic(prefix string, xs ...int) { fmt.Println(prefix, xs) }

func next() int { return 1 }

func Spawn(w *worker, fs []func(int), xs []int) {
	{ __rtArg1 := next(); __rt.Go(func() { work(1, __rtArg1) }, __rtSites_74cdc52e+0) }
	{ __rtArg2, __rtArg3 := w.run, next(); __rt.Go(func() { __rtArg2(__rtArg3) }, __rtSites_74cdc52e+1) }
	__rt.Go(func() {
		fmt.Println("literal")
	}, __rtSites_74cdc52e+2)
	{ __rtArg4 := next(); __rt.Go(func() { func(x int) {
		fmt.Println(x)
	}(__rtArg4) }, __rtSites_74cdc52e+3) }
	__rt.Read(&fs[0], __rtSites_74cdc52e+21); f := fs[0]
	{ __rtArg5 := f; __rt.Go(func() { __rtArg5(2) }, __rtSites_74cdc52e+4) }
	{ __rtArg6 := fs[func(__rtV20 int) int { __rt.Read(&fs[__rtV20], __rtSites_74cdc52e+22); return __rtV20 }(next())]; __rt.Go(func() { __rtArg6(3) }, __rtSites_74cdc52e+5) }
	{ __rtArg7 := next(); __rt.Go(func() { generic(__rtArg7) }, __rtSites_74cdc52e+6) }
	__rt.Go(func() { generic[string]("s") }, __rtSites_74cdc52e+7)
	{ __rtArg8 := next(); __rt.Go(func() { variadic("p", 1, __rtArg8) }, __rtSites_74cdc52e+8) }
	{ __rtArg9 := xs; __rt.Go(func() { variadic("p", __rtArg9...) }, __rtSites_74cdc52e+9) }
	{ __rtArg10 := next(); __rt.Go(func() { println(__rtArg10) }, __rtSites_74cdc52e+10) }

	var wg sync.WaitGroup
	{ __rtArg11 := &wg; __rt.Go(func() { __rt.WGWait(__rtArg11, __rtSites_74cdc52e+12) }, __rtSites_74cdc52e+11) }
	c := __rt.MakeChan[int](0, __rtSites_74cdc52e+13)
	{ __rtArg12 := c; __rt.Go(func() { __rt.Close[int](__rtArg12, __rtSites_74cdc52e+15) }, __rtSites_74cdc52e+14) }
}

type ID int64

func takeID(id ID) {}

func Untyped(a, b int) {
	{ __rtArg13 := (ID)(1 << a); __rt.Go(func() { takeID(__rtArg13) }, __rtSites_74cdc52e+16) }
	{ __rtArg14 := (bool)(a == b); __rt.Go(func() { fmt.Println(__rtArg14) }, __rtSites_74cdc52e+17) }
}

func pair() (int, int) { return 1, 2 }

func MultiValue(fs []func(int, int)) {
	{ __rtArg15, __rtArg16 := pair(); __rt.Go(func() { work(__rtArg15, __rtArg16) }, __rtSites_74cdc52e+18) }
	__rt.Read(&fs[0], __rtSites_74cdc52e+23); { __rtFn17 := fs[0]; __rtArg18, __rtArg19 := pair(); __rt.Go(func() { __rtFn17(__rtArg18, __rtArg19) }, __rtSites_74cdc52e+19) }
}

var __rtSites_74cdc52e = __rt.RegisterFile("testdata/goroutines.go", "\n\n\n\n\n\n\n\n\n\n\n\nw*wg\nc*c\n\nc*c\n\n\n\n\nv*w.id\nv*fs[0]\nv*fs[next()]\nv*fs[0]", 21, 2, 22, 2, 23, 2, 26, 2, 30, 2, 31, 2, 32, 2, 33, 2, 34, 2, 35, 2, 36, 2, 39, 2, 39, 5, 40, 7, 41, 2, 41, 5, 49, 2, 50, 2, 56, 2, 57, 2, 10, 43, 29, 7, 31, 5, 57, 5)
