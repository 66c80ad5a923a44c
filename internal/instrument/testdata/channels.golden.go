//line testdata/channels.go:1
package channels; import __rt "interleave.dev/rt"

import (
	"time"
)

type Events chan string

type Pair struct{ A, B int }

func sum(a, b int) int { return a + b }

func Channels(n int64) {
	c := __rt.MakeChan[int](10, __rtSites_028d2987+0)
	d := __rt.MakeChan[int](0, __rtSites_028d2987+1)
	var e Events = (Events)(__rt.MakeChan[string](int(n), __rtSites_028d2987+2))
	var ro <-chan time.Time = __rt.MakeChan[time.Time](1, __rtSites_028d2987+3)
	ps := __rt.MakeChan[Pair](1, __rtSites_028d2987+4)

	__rt.Send[int](c, 1, __rtSites_028d2987+5)
	__rt.Send[int](d, sum(__rt.Recv[int](c, __rtSites_028d2987+7), 2), __rtSites_028d2987+6)
	__rt.Send[string](e, "x", __rtSites_028d2987+8)
	__rt.Send[Pair](ps, Pair{A: 1}, __rtSites_028d2987+9)

	v := __rt.Recv[int](c, __rtSites_028d2987+10)
	v, ok := __rt.Recv2[int](c, __rtSites_028d2987+11)
	w, ok := __rt.Recv2[int](d, __rtSites_028d2987+12)
	v, ok = __rt.Recv2[int](c, __rtSites_028d2987+13)
	var x, ok2 = __rt.Recv2[int](c, __rtSites_028d2987+14)
	__rt.Recv[int](d, __rtSites_028d2987+15)
	if y := __rt.Recv[int](c, __rtSites_028d2987+16); y > 0 {
		_ = y
	}
	_ = sum(__rt.Recv[int](c, __rtSites_028d2987+17), __rt.Recv[int](d, __rtSites_028d2987+18)) + __rt.Len(c, __rtSites_028d2987+19) + cap(c)
	_, _, _, _, _ = v, w, ok, x, ok2
	_ = (__rt.Recv[time.Time](ro, __rtSites_028d2987+20)).Unix()
	__rt.Close[int](c, __rtSites_028d2987+21)
	__rt.Close[string](e, __rtSites_028d2987+22)
}

func Directional(in <-chan int, out chan<- int) {
	for {
		v, ok := __rt.Recv2[int](in, __rtSites_028d2987+23)
		if !ok {
			__rt.Close[int](out, __rtSites_028d2987+24)
			return
		}
		__rt.Send[int](out, v, __rtSites_028d2987+25)
	}
}

func Generic[T any](c chan T, v T) T {
	__rt.Send[T](c, v, __rtSites_028d2987+26)
	return __rt.Recv[T](c, __rtSites_028d2987+27)
}

func Block() {
	for { __rt.SelectStart(__rtSites_028d2987+28).Do(false) }
}

var __rtSites_028d2987 = __rt.RegisterFile("testdata/channels.go", "c*c\nc*d\nc*e\nc*ro\nc*ps\nc*c\nc*d\nc*c\nc*e\nc*ps\nc*c\nc*c\nc*d\nc*c\nc*c\nc*d\nc*c\nc*c\nc*d\nc*c\nc*ro\nc*c\nc*e\nc*in\nc*out\nc*out\nc*c\nc*c", 14, 7, 15, 7, 16, 17, 17, 28, 18, 8, 20, 4, 21, 4, 21, 11, 22, 4, 23, 5, 25, 7, 26, 11, 27, 11, 28, 10, 29, 15, 30, 2, 31, 10, 34, 10, 34, 15, 34, 22, 36, 7, 37, 2, 38, 2, 43, 12, 45, 4, 48, 7, 53, 4, 54, 9, 58, 2)
