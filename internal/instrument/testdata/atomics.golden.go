//line testdata/atomics.go:1
package atomics; import __rt "interleave.dev/rt"

import (
	"sync/atomic"
	"unsafe"
)

type config struct{ name string }

type stats struct {
	hits   atomic.Int64
	misses atomic.Uint32
	ready  atomic.Bool
	cfg    atomic.Pointer[config]
	any    atomic.Value
}

var counter int32

func Funcs(p *uint64, ptr *unsafe.Pointer) {
	__rt.AtomicAddInt32(&counter, 1, __rtSites_2c06b6ab+0)
	_ = __rt.AtomicLoadInt32(&counter, __rtSites_2c06b6ab+1)
	__rt.AtomicStoreUint64(p, 5, __rtSites_2c06b6ab+2)
	old := __rt.AtomicSwapUint64(p, 6, __rtSites_2c06b6ab+3)
	if __rt.AtomicCompareAndSwapUint64(p, old, 7, __rtSites_2c06b6ab+4) {
		__rt.AtomicOrUint64(p, 1, __rtSites_2c06b6ab+5)
		__rt.AtomicAndUint64(p, 3, __rtSites_2c06b6ab+6)
	}
	_ = __rt.AtomicLoadPointer(ptr, __rtSites_2c06b6ab+7)
}

func Typed(s *stats) {
	__rt.Int64Add(&s.hits, 1, __rtSites_2c06b6ab+8)
	_ = __rt.Int64Load(&s.hits, __rtSites_2c06b6ab+9)
	__rt.Uint32Store(&s.misses, 2, __rtSites_2c06b6ab+10)
	__rt.Uint32CompareAndSwap(&s.misses, 2, 3, __rtSites_2c06b6ab+11)
	__rt.BoolStore(&s.ready, true, __rtSites_2c06b6ab+12)
	if __rt.BoolLoad(&s.ready, __rtSites_2c06b6ab+13) {
		__rt.PointerStore[config](&s.cfg, &config{name: "x"}, __rtSites_2c06b6ab+14)
	}
	c := __rt.PointerLoad[config](&s.cfg, __rtSites_2c06b6ab+15)
	__rt.PointerCompareAndSwap[config](&s.cfg, c, nil, __rtSites_2c06b6ab+16)
	__rt.ValueStore(&s.any, 1, __rtSites_2c06b6ab+17)
	_ = __rt.ValueLoad(&s.any, __rtSites_2c06b6ab+18)
	var local atomic.Int32
	__rt.Int32Add(&local, 1, __rtSites_2c06b6ab+19)
	add := func(__rtRecv1 *atomic.Int32) func(delta int32) (new int32) { return func(__rtP2 int32) int32 { return __rt.Int32Add(__rtRecv1, __rtP2, __rtSites_2c06b6ab+20) } }(&local)
	add(2)
}

var __rtSites_2c06b6ab = __rt.RegisterFile("testdata/atomics.go", "v*counter\nv*counter\nv*p\nv*p\nv*p\nv*p\nv*p\nv*ptr\nv*s.hits\nv*s.hits\nv*s.misses\nv*s.misses\nv*s.ready\nv*s.ready\nv*s.cfg\nv*s.cfg\nv*s.cfg\nv*s.any\nv*s.any\nv*local\nv*local", 21, 2, 22, 6, 23, 2, 24, 9, 25, 5, 26, 3, 27, 3, 29, 6, 33, 2, 34, 6, 35, 2, 36, 2, 37, 2, 38, 5, 39, 3, 41, 7, 42, 2, 43, 2, 44, 6, 46, 2, 47, 9)
