//line testdata/embedded.go:1
package p; import __rt "interleave.dev/rt"

import (
	"sync"
	"sync/atomic"
	"time"
)

// The modeled methods promoted through these embedded fields are
// declared on the structs, so that a call through an interface reaches
// the runtime.

type realTimer struct{ *time.Timer }

func (r realTimer) Chan() <-chan time.Time { __rt.Read(&r.C, __rtSites_ceb200d9+3); return r.C }

type guarded struct {
	sync.Mutex
	n int
}

type tick struct {
	time.Ticker
}

type locked struct {
	sync.Locker
}

type box[T any] struct {
	atomic.Pointer[T]
	sync.RWMutex
}

// own declares its Stop: nothing is promoted.
type own struct{ *time.Timer }

func (o own) Stop() bool { return false }

// ambiguous has two Lock methods at the same depth: none is promoted.
type ambiguous struct {
	sync.Mutex
	sync.RWMutex
}

type clock interface{ Stop() bool }

func use() {
	var c clock = realTimer{__rt.NewTimer(time.Second, __rtSites_ceb200d9+0)}
	__rt.ReadRecv(c, "Stop", __rtSites_ceb200d9+4); c.Stop()
	var l sync.Locker = &guarded{}
	__rt.LockerLock(l, __rtSites_ceb200d9+1)
	__rt.LockerUnlock(l, __rtSites_ceb200d9+2)
}

var __rtSites_ceb200d9 = __rt.RegisterFile("testdata/embedded.go", "\nl*l\nl*l\nv*r.C\nv*c\n\n\nl*guarded.Mutex\nl*guarded.Mutex\nl*guarded.Mutex\n\n\nl*locked.Locker\nl*locked.Locker\nv*box.Pointer\nv*box.Pointer\nl*box.RWMutex\nl*box.RWMutex\nl*box.RWMutex\nv*box.Pointer\nv*box.Pointer\nl*box.RWMutex\nl*box.RWMutex\nl*box.RWMutex\n\nl*ambiguous.RWMutex\nl*ambiguous.RWMutex\nl*ambiguous.RWMutex", 49, 26, 52, 2, 53, 2, 15, 53, 50, 4, 13, 30, 13, 30, 18, 7, 18, 7, 18, 7, 23, 7, 23, 7, 27, 7, 27, 7, 31, 9, 31, 9, 32, 7, 32, 7, 32, 7, 31, 9, 31, 9, 32, 7, 32, 7, 32, 7, 36, 24, 43, 7, 43, 7, 43, 7)

//line testdata/embedded.go:13
func (__rtRecv1 realTimer) Reset(__rtP2 time.Duration) bool { return __rt.TimerReset(__rtRecv1.Timer, __rtP2, __rtSites_ceb200d9+5) }

//line testdata/embedded.go:13
func (__rtRecv3 realTimer) Stop() bool { return __rt.TimerStop(__rtRecv3.Timer, __rtSites_ceb200d9+6) }

//line testdata/embedded.go:18
func (__rtRecv4 *guarded) Lock() { __rt.Lock(&__rtRecv4.Mutex, __rtSites_ceb200d9+7) }

//line testdata/embedded.go:18
func (__rtRecv5 *guarded) TryLock() bool { return __rt.TryLock(&__rtRecv5.Mutex, __rtSites_ceb200d9+8) }

//line testdata/embedded.go:18
func (__rtRecv6 *guarded) Unlock() { __rt.Unlock(&__rtRecv6.Mutex, __rtSites_ceb200d9+9) }

//line testdata/embedded.go:23
func (__rtRecv7 *tick) Reset(__rtP8 time.Duration) { __rt.TickerReset(&__rtRecv7.Ticker, __rtP8, __rtSites_ceb200d9+10) }

//line testdata/embedded.go:23
func (__rtRecv9 *tick) Stop() { __rt.TickerStop(&__rtRecv9.Ticker, __rtSites_ceb200d9+11) }

//line testdata/embedded.go:27
func (__rtRecv10 locked) Lock() { __rt.LockerLock(__rtRecv10.Locker, __rtSites_ceb200d9+12) }

//line testdata/embedded.go:27
func (__rtRecv11 locked) Unlock() { __rt.LockerUnlock(__rtRecv11.Locker, __rtSites_ceb200d9+13) }

//line testdata/embedded.go:31
func (__rtRecv12 *box[T]) CompareAndSwap(__rtP13 *T, __rtP14 *T) bool { return __rt.PointerCompareAndSwap[T](&__rtRecv12.Pointer, __rtP13, __rtP14, __rtSites_ceb200d9+14) }

//line testdata/embedded.go:31
func (__rtRecv15 *box[T]) Load() *T { return __rt.PointerLoad[T](&__rtRecv15.Pointer, __rtSites_ceb200d9+15) }

//line testdata/embedded.go:32
func (__rtRecv16 *box[T]) Lock() { __rt.RWLock(&__rtRecv16.RWMutex, __rtSites_ceb200d9+16) }

//line testdata/embedded.go:32
func (__rtRecv17 *box[T]) RLock() { __rt.RLock(&__rtRecv17.RWMutex, __rtSites_ceb200d9+17) }

//line testdata/embedded.go:32
func (__rtRecv18 *box[T]) RLocker() sync.Locker { return __rt.RLocker(&__rtRecv18.RWMutex) }

//line testdata/embedded.go:32
func (__rtRecv19 *box[T]) RUnlock() { __rt.RUnlock(&__rtRecv19.RWMutex, __rtSites_ceb200d9+18) }

//line testdata/embedded.go:31
func (__rtRecv20 *box[T]) Store(__rtP21 *T) { __rt.PointerStore[T](&__rtRecv20.Pointer, __rtP21, __rtSites_ceb200d9+19) }

//line testdata/embedded.go:31
func (__rtRecv22 *box[T]) Swap(__rtP23 *T) *T { return __rt.PointerSwap[T](&__rtRecv22.Pointer, __rtP23, __rtSites_ceb200d9+20) }

//line testdata/embedded.go:32
func (__rtRecv24 *box[T]) TryLock() bool { return __rt.RWTryLock(&__rtRecv24.RWMutex, __rtSites_ceb200d9+21) }

//line testdata/embedded.go:32
func (__rtRecv25 *box[T]) TryRLock() bool { return __rt.TryRLock(&__rtRecv25.RWMutex, __rtSites_ceb200d9+22) }

//line testdata/embedded.go:32
func (__rtRecv26 *box[T]) Unlock() { __rt.RWUnlock(&__rtRecv26.RWMutex, __rtSites_ceb200d9+23) }

//line testdata/embedded.go:36
func (__rtRecv27 own) Reset(__rtP28 time.Duration) bool { return __rt.TimerReset(__rtRecv27.Timer, __rtP28, __rtSites_ceb200d9+24) }

//line testdata/embedded.go:43
func (__rtRecv29 *ambiguous) RLock() { __rt.RLock(&__rtRecv29.RWMutex, __rtSites_ceb200d9+25) }

//line testdata/embedded.go:43
func (__rtRecv30 *ambiguous) RLocker() sync.Locker { return __rt.RLocker(&__rtRecv30.RWMutex) }

//line testdata/embedded.go:43
func (__rtRecv31 *ambiguous) RUnlock() { __rt.RUnlock(&__rtRecv31.RWMutex, __rtSites_ceb200d9+26) }

//line testdata/embedded.go:43
func (__rtRecv32 *ambiguous) TryRLock() bool { return __rt.TryRLock(&__rtRecv32.RWMutex, __rtSites_ceb200d9+27) }
