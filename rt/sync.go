package rt

import (
	"reflect"
	"sync"
	"unsafe"
)

// Lock replaces (*sync.Mutex).Lock.
func Lock(m *sync.Mutex, s Site) {
	if g := cur(); g != nil {
		g.Lock(unsafe.Pointer(m), uint32(s))
		return
	}
	m.Lock()
}

// Unlock replaces (*sync.Mutex).Unlock.
func Unlock(m *sync.Mutex, s Site) {
	if g := cur(); g != nil {
		g.Unlock(unsafe.Pointer(m), uint32(s))
		return
	}
	m.Unlock()
}

// TryLock replaces (*sync.Mutex).TryLock.
func TryLock(m *sync.Mutex, s Site) bool {
	if g := cur(); g != nil {
		return g.TryLock(unsafe.Pointer(m), uint32(s))
	}
	return m.TryLock()
}

// RWLock replaces (*sync.RWMutex).Lock.
func RWLock(rw *sync.RWMutex, s Site) {
	if g := cur(); g != nil {
		g.RWLock(unsafe.Pointer(rw), uint32(s))
		return
	}
	rw.Lock()
}

// RWUnlock replaces (*sync.RWMutex).Unlock.
func RWUnlock(rw *sync.RWMutex, s Site) {
	if g := cur(); g != nil {
		g.RWUnlock(unsafe.Pointer(rw), uint32(s))
		return
	}
	rw.Unlock()
}

// RWTryLock replaces (*sync.RWMutex).TryLock.
func RWTryLock(rw *sync.RWMutex, s Site) bool {
	if g := cur(); g != nil {
		return g.RWTryLock(unsafe.Pointer(rw), uint32(s))
	}
	return rw.TryLock()
}

// RLock replaces (*sync.RWMutex).RLock.
func RLock(rw *sync.RWMutex, s Site) {
	if g := cur(); g != nil {
		g.RLock(unsafe.Pointer(rw), uint32(s))
		return
	}
	rw.RLock()
}

// RUnlock replaces (*sync.RWMutex).RUnlock.
func RUnlock(rw *sync.RWMutex, s Site) {
	if g := cur(); g != nil {
		g.RUnlock(unsafe.Pointer(rw), uint32(s))
		return
	}
	rw.RUnlock()
}

// TryRLock replaces (*sync.RWMutex).TryRLock.
func TryRLock(rw *sync.RWMutex, s Site) bool {
	if g := cur(); g != nil {
		return g.TryRLock(unsafe.Pointer(rw), uint32(s))
	}
	return rw.TryRLock()
}

// RLocker replaces (*sync.RWMutex).RLocker: the returned Locker's methods
// are modeled read-lock operations.
func RLocker(rw *sync.RWMutex) sync.Locker { return rlocker{rw} }

type rlocker struct{ rw *sync.RWMutex }

// rlockerType is the type of the Locker (*sync.RWMutex).RLocker returns,
// a *sync.rlocker: a conversion of the *sync.RWMutex.
var rlockerType = reflect.TypeOf(new(sync.RWMutex).RLocker())

// nativeRLocker returns the RWMutex behind l if l is the standard
// library's RLocker (one the instrumenter did not replace: obtained
// through an interface, or in code it does not rewrite), or nil. Its
// read locks are then modeled like any other: called natively they would
// lock the real RWMutex, which the model does not see.
func nativeRLocker(l sync.Locker) *sync.RWMutex {
	if reflect.TypeOf(l) != rlockerType {
		return nil
	}
	return (*sync.RWMutex)(dataPtr(l))
}

func (r rlocker) Lock()   { RLock(r.rw, 0) }
func (r rlocker) Unlock() { RUnlock(r.rw, 0) }

// LockerLock replaces a call of Lock through a sync.Locker interface value
// (for example a Cond's L). Mutexes and RWMutexes are modeled; any other
// implementation is called as is.
func LockerLock(l sync.Locker, s Site) {
	switch m := l.(type) {
	case *sync.Mutex:
		Lock(m, s)
	case *sync.RWMutex:
		RWLock(m, s)
	case rlocker:
		RLock(m.rw, s)
	default:
		if rw := nativeRLocker(l); rw != nil {
			RLock(rw, s)
			return
		}
		l.Lock()
	}
}

// LockerUnlock replaces a call of Unlock through a sync.Locker.
func LockerUnlock(l sync.Locker, s Site) {
	switch m := l.(type) {
	case *sync.Mutex:
		Unlock(m, s)
	case *sync.RWMutex:
		RWUnlock(m, s)
	case rlocker:
		RUnlock(m.rw, s)
	default:
		if rw := nativeRLocker(l); rw != nil {
			RUnlock(rw, s)
			return
		}
		l.Unlock()
	}
}

// WGAdd replaces (*sync.WaitGroup).Add.
func WGAdd(wg *sync.WaitGroup, delta int, s Site) {
	if g := cur(); g != nil {
		g.WGAdd(unsafe.Pointer(wg), delta, uint32(s))
		return
	}
	wg.Add(delta)
}

// WGDone replaces (*sync.WaitGroup).Done.
func WGDone(wg *sync.WaitGroup, s Site) {
	if g := cur(); g != nil {
		g.WGAdd(unsafe.Pointer(wg), -1, uint32(s))
		return
	}
	wg.Done()
}

// WGWait replaces (*sync.WaitGroup).Wait.
func WGWait(wg *sync.WaitGroup, s Site) {
	if g := cur(); g != nil {
		g.WGWait(unsafe.Pointer(wg), uint32(s))
		return
	}
	wg.Wait()
}

// WGGo replaces (*sync.WaitGroup).Go: Add(1), then f in a new goroutine
// followed by Done.
func WGGo(wg *sync.WaitGroup, f func(), s Site) {
	WGAdd(wg, 1, s)
	Go(func() {
		defer WGDone(wg, s)
		f()
	}, s)
}

// OnceDo replaces (*sync.Once).Do.
func OnceDo(o *sync.Once, f func(), s Site) {
	g := cur()
	if g == nil {
		o.Do(f)
		return
	}
	if !g.OnceBegin(o, uint32(s)) {
		return
	}
	defer func() {
		g.Reenter() // f may have lost the schedule in uncontrolled code
		g.OnceEnd(o)
	}()
	f()
}

// OnceFunc replaces sync.OnceFunc.
func OnceFunc(f func(), s Site) func() {
	var (
		once  sync.Once
		valid bool
		p     any
	)
	g := func() {
		defer func() {
			p = recover()
			if !valid {
				panic(p)
			}
		}()
		f()
		f = nil
		valid = true
	}
	return func() {
		OnceDo(&once, g, s)
		if !valid {
			panic(p)
		}
	}
}

// OnceValue replaces sync.OnceValue.
func OnceValue[T any](f func() T, s Site) func() T {
	var (
		once   sync.Once
		valid  bool
		p      any
		result T
	)
	g := func() {
		defer func() {
			p = recover()
			if !valid {
				panic(p)
			}
		}()
		result = f()
		f = nil
		valid = true
	}
	return func() T {
		OnceDo(&once, g, s)
		if !valid {
			panic(p)
		}
		return result
	}
}

// OnceValues replaces sync.OnceValues.
func OnceValues[T1, T2 any](f func() (T1, T2), s Site) func() (T1, T2) {
	var (
		once  sync.Once
		valid bool
		p     any
		r1    T1
		r2    T2
	)
	g := func() {
		defer func() {
			p = recover()
			if !valid {
				panic(p)
			}
		}()
		r1, r2 = f()
		f = nil
		valid = true
	}
	return func() (T1, T2) {
		OnceDo(&once, g, s)
		if !valid {
			panic(p)
		}
		return r1, r2
	}
}

// CondWait replaces (*sync.Cond).Wait.
func CondWait(c *sync.Cond, s Site) {
	g := cur()
	if g == nil {
		c.Wait()
		return
	}
	p := unsafe.Pointer(c)
	g.CondEnqueue(p, uint32(s))
	LockerUnlock(c.L, s)
	g.CondPark(p, uint32(s))
	LockerLock(c.L, s)
}

// CondSignal replaces (*sync.Cond).Signal.
func CondSignal(c *sync.Cond, s Site) {
	if g := cur(); g != nil {
		g.CondSignal(unsafe.Pointer(c), uint32(s))
		return
	}
	c.Signal()
}

// CondBroadcast replaces (*sync.Cond).Broadcast.
func CondBroadcast(c *sync.Cond, s Site) {
	if g := cur(); g != nil {
		g.CondBroadcast(unsafe.Pointer(c), uint32(s))
		return
	}
	c.Broadcast()
}

// PoolGet replaces (*sync.Pool).Get. Inside an exploration the schedule
// chooses which pooled object it returns, or a fresh one from p.New (nil
// without New), and the Put of the object it returns happens before it.
func PoolGet(p *sync.Pool, s Site) any {
	if g := cur(); g != nil {
		if x, ok := g.PoolGet(unsafe.Pointer(p), uint32(s)); ok {
			return x
		}
		if p.New != nil {
			return p.New()
		}
		return nil
	}
	return p.Get()
}

// PoolPut replaces (*sync.Pool).Put.
func PoolPut(p *sync.Pool, x any, s Site) {
	if g := cur(); g != nil {
		if x != nil {
			g.PoolPut(unsafe.Pointer(p), x, uint32(s))
		}
		return
	}
	p.Put(x)
}
