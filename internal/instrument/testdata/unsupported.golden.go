//line testdata/unsupported.go:1
// Constructs left as they are, each with a warning.
package unsupported; import __rt "interleave.dev/rt"

import (
	"sync"
	. "time"
)

type locked struct{ sync.Mutex }

func Native(c chan int, n []int) {
	Sleep(Millisecond) // through a dot import

	i := 0
again:
	{ __rtC2 := c; __rtSel1 := __rt.SelectStart(__rtSites_d92ff698+0); __rt.SelectRecv[int](__rtSel1, __rtC2); switch __rtSel1.Do(false) { // the target of a goto: the label stays on the block
	default:
		i++
		if i < 2 {
			goto again
		}
	}}

	f := sync.OnceValue[int] // an explicitly instantiated function value
	_ = f
	g := (*locked).Lock // a method expression through an embedded field: the struct declares Lock
	_ = g
}

var __rtSites_d92ff698 = __rt.RegisterFile("testdata/unsupported.go", "c<c\nl*locked.Mutex\nl*locked.Mutex\nl*locked.Mutex", 16, 2, 9, 26, 9, 26, 9, 26)

//line testdata/unsupported.go:9
func (__rtRecv3 *locked) Lock() { __rt.Lock(&__rtRecv3.Mutex, __rtSites_d92ff698+1) }

//line testdata/unsupported.go:9
func (__rtRecv4 *locked) TryLock() bool { return __rt.TryLock(&__rtRecv4.Mutex, __rtSites_d92ff698+2) }

//line testdata/unsupported.go:9
func (__rtRecv5 *locked) Unlock() { __rt.Unlock(&__rtRecv5.Mutex, __rtSites_d92ff698+3) }

// Warnings:
//	testdata/unsupported.go:12:2: time.Sleep called through a dot import is not instrumented
//	testdata/unsupported.go:24:7: instantiated function value sync.OnceValue left native
