//line testdata/edge.go:1
// Nested and unusual forms.
package edge; import __rt "interleave.dev/rt"

import (
	"fmt"
	"sync"
	"sync/atomic"
	stdtime "time"
)

type box[T any] struct {
	mu  sync.Mutex
	val atomic.Pointer[T]
	ch  chan T
}

func (b *box[T]) swap(v *T) *T {
	__rt.Lock(&b.mu, __rtSites_3a3672a4+0)
	defer __rt.Unlock(&b.mu, __rtSites_3a3672a4+1)
	load := func(__rtRecv1 *atomic.Pointer[T]) func() *T { return func() *T { return __rt.PointerLoad[T](__rtRecv1, __rtSites_3a3672a4+2) } }(&b.val)
	old := load()
	__rt.PointerStore[T](&b.val, v, __rtSites_3a3672a4+3)
	return old
}

func Locked[L sync.Locker](l L, f func()) {
	__rt.LockerLock(l, __rtSites_3a3672a4+4)
	defer __rt.LockerUnlock(l, __rtSites_3a3672a4+5)
	f()
}

func Nested(cc chan chan int, d chan int, timeout stdtime.Duration) {
	__rt.Send[int](d, __rt.Recv[int](d, __rtSites_3a3672a4+7), __rtSites_3a3672a4+6)
	__rt.Send[int]((__rt.Recv[chan int](cc, __rtSites_3a3672a4+9)), 1, __rtSites_3a3672a4+8)
	{ __rtC3, __rtC4, __rtC5, __rtC6 := d, __rt.Recv[int](d, __rtSites_3a3672a4+11), __rt.Recv[chan int](cc, __rtSites_3a3672a4+12), __rt.After(timeout, __rtSites_3a3672a4+13); __rtSel2 := __rt.SelectStart(__rtSites_3a3672a4+10); __rt.SelectSend[int](__rtSel2, __rtC3, __rtC4); __rt.SelectRecv[int](__rtSel2, __rtC5); __rt.SelectRecv[stdtime.Time](__rtSel2, __rtC6); switch __rtSel2.Do(false) {
	case 0: // the received value is evaluated when the select starts
	case 1: v, _ := __rt.SelectValue[int](__rtSel2);
		fmt.Println(v)
	default:
	}}
	var time int // shadows nothing: the package is imported as stdtime
	_ = time
	if v, ok := __rt.Recv2[int](d, __rtSites_3a3672a4+14); ok && v > 0 {
		fmt.Println(v)
	}
	switch x := (__rt.Recv[chan int](cc, __rtSites_3a3672a4+15)); {
	case x == nil:
	}
	for v := __rt.Recv[int](d, __rtSites_3a3672a4+16); v > 0; v = __rt.Recv[int](d, __rtSites_3a3672a4+17) {
		fmt.Println(v)
	}
	var p *sync.WaitGroup = new(sync.WaitGroup)
	__rt.WGAdd(p, 1, __rtSites_3a3672a4+18)
	{ __rtArg7, __rtArg8 := func(__rtP9 *sync.WaitGroup) { __rt.WGDone(__rtP9, __rtSites_3a3672a4+20) }, p; __rt.Go(func() { __rtArg7(__rtArg8) }, __rtSites_3a3672a4+19) }
	__rt.WGWait(p, __rtSites_3a3672a4+21)
}

func Generic[C ~chan E, E any](c C, v E) E {
	__rt.Send[E](c, v, __rtSites_3a3672a4+22)
	__rt.Close[E](c, __rtSites_3a3672a4+23)
	for __rtCh10 := c; ; { x, __rtOk11 := __rt.Recv2[E](__rtCh10, __rtSites_3a3672a4+24); if !__rtOk11 { break }; {
		return x
	}}
	return __rt.Recv[E](c, __rtSites_3a3672a4+25)
}

var initChan = __rt.MakeChan[string](1, __rtSites_3a3672a4+26)

var initValue = func() int {
	__rt.Read(&initChan, __rtSites_3a3672a4+29); __rt.Send[string](initChan, "init", __rtSites_3a3672a4+27)
	__rt.Read(&initChan, __rtSites_3a3672a4+30); return __rt.Len(initChan, __rtSites_3a3672a4+28)
}()

var __rtSites_3a3672a4 = __rt.RegisterFile("testdata/edge.go", "l*b.mu\nl*b.mu\nv*b.val\nv*b.val\nl*l\nl*l\nc*d\nc*d\nc*<-cc\nc*cc\nc>d\tc<<-cc\tc<stdtime.After(timeout)\nc*d\nc*cc\n\nc*d\nc*cc\nc*d\nc*d\nw*p\n\n\nw*p\nc*c\nc*c\nc*c\nc*c\nc*initChan\nc*initChan\nc*initChan\nv*initChan\nv*initChan", 18, 2, 19, 8, 20, 10, 22, 2, 27, 2, 28, 8, 33, 4, 33, 7, 34, 9, 34, 3, 35, 2, 36, 12, 37, 14, 39, 9, 43, 14, 46, 15, 49, 11, 49, 27, 53, 2, 54, 2, 54, 5, 55, 2, 59, 4, 60, 2, 61, 2, 64, 9, 67, 16, 70, 11, 71, 9, 70, 2, 71, 13)
