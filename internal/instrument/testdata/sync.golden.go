//line testdata/sync.go:1
package syncops; import __rt "interleave.dev/rt"

import (
	"fmt"
	"sync"
)

type Counter struct {
	sync.Mutex
	n int
}

type Store struct {
	mu   sync.RWMutex
	data map[string]int
}

type Queue struct {
	lock  *sync.Mutex
	cond  *sync.Cond
	items []int
}

func (c *Counter) Inc() {
	__rt.Lock(&c.Mutex, __rtSites_a09b6b8a+0)
	defer __rt.Unlock(&c.Mutex, __rtSites_a09b6b8a+1)
	__rt.Update(&c.n, __rtSites_a09b6b8a+47); c.n++
}

func (s *Store) Get(k string) (int, bool) {
	__rt.RLock(&s.mu, __rtSites_a09b6b8a+2)
	defer __rt.RUnlock(&s.mu, __rtSites_a09b6b8a+3)
	__rt.Read(&s.data, __rtSites_a09b6b8a+48); __rt.Read(s.data, __rtSites_a09b6b8a+49); v, ok := s.data[k]
	return v, ok
}

func (s *Store) Put(k string, v int) {
	if !__rt.RWTryLock(&s.mu, __rtSites_a09b6b8a+4) {
		__rt.RWLock(&s.mu, __rtSites_a09b6b8a+5)
	}
	__rt.Read(&s.data, __rtSites_a09b6b8a+50); __rt.Write(s.data, __rtSites_a09b6b8a+51); s.data[k] = v
	__rt.RWUnlock(&s.mu, __rtSites_a09b6b8a+6)
	if __rt.TryRLock(&s.mu, __rtSites_a09b6b8a+7) {
		__rt.RUnlock(&s.mu, __rtSites_a09b6b8a+8)
	}
	r := __rt.RLocker(&s.mu)
	__rt.LockerLock(r, __rtSites_a09b6b8a+9)
	__rt.LockerUnlock(r, __rtSites_a09b6b8a+10)
}

func NewQueue() *Queue {
	mu := new(sync.Mutex)
	return &Queue{lock: mu, cond: sync.NewCond(mu)}
}

func (q *Queue) Pop() int {
	__rt.Read(&q.cond, __rtSites_a09b6b8a+52); __rt.Read(&q.cond.L, __rtSites_a09b6b8a+53); __rt.LockerLock(q.cond.L, __rtSites_a09b6b8a+11)
	for func() bool { __rt.Read(&q.items, __rtSites_a09b6b8a+59); return true }() && (len(q.items) == 0) {
		__rt.Read(&q.cond, __rtSites_a09b6b8a+60); __rt.CondWait(q.cond, __rtSites_a09b6b8a+12)
	}
	__rt.Read(&q.items, __rtSites_a09b6b8a+54); __rt.Read(&q.items[0], __rtSites_a09b6b8a+55); v := q.items[0]
	__rt.Update(&q.items, __rtSites_a09b6b8a+56); q.items = q.items[1:]
	__rt.Read(&q.cond, __rtSites_a09b6b8a+57); __rt.Read(&q.cond.L, __rtSites_a09b6b8a+58); __rt.LockerUnlock(q.cond.L, __rtSites_a09b6b8a+13)
	return v
}

func (q *Queue) Push(v int) {
	__rt.Read(&q.lock, __rtSites_a09b6b8a+61); __rt.Lock(q.lock, __rtSites_a09b6b8a+14)
	__rt.Update(&q.items, __rtSites_a09b6b8a+62); __rt.Append(q.items, 1, __rtSites_a09b6b8a+63); q.items = append(q.items, v)
	__rt.Read(&q.lock, __rtSites_a09b6b8a+64); __rt.Unlock(q.lock, __rtSites_a09b6b8a+15)
	__rt.Read(&q.cond, __rtSites_a09b6b8a+65); __rt.CondSignal(q.cond, __rtSites_a09b6b8a+16)
	__rt.Read(&q.cond, __rtSites_a09b6b8a+66); __rt.CondBroadcast(q.cond, __rtSites_a09b6b8a+17)
}

func Group(n int) {
	var wg sync.WaitGroup
	var once sync.Once
	var m sync.Map
	for i := 0; func() bool { __rt.Read(&i, __rtSites_a09b6b8a+67); return true }() && (i < n); i++ {
		__rt.WGAdd(&wg, 1, __rtSites_a09b6b8a+18)
		__rt.Go(func() {
			defer __rt.WGDone(&wg, __rtSites_a09b6b8a+20)
			__rt.OnceDo(&once, func() { fmt.Println("once") }, __rtSites_a09b6b8a+21)
			__rt.Read(&i, __rtSites_a09b6b8a+69); __rt.MapStore(&m, i, i, __rtSites_a09b6b8a+22)
		}, __rtSites_a09b6b8a+19)
	; __rt.Read(&i, __rtSites_a09b6b8a+68); }
	__rt.WGGo(&wg, func() { __rt.MapDelete(&m, 0, __rtSites_a09b6b8a+24) }, __rtSites_a09b6b8a+23)
	__rt.WGWait(&wg, __rtSites_a09b6b8a+25)
	v, ok := __rt.MapLoad(&m, 1, __rtSites_a09b6b8a+26)
	__rt.MapRange(&m, func(k, v any) bool { return true }, __rtSites_a09b6b8a+27)
	fmt.Println(v, ok)
	__rt.MapLoadOrStore(&m, 2, 2, __rtSites_a09b6b8a+28)
	__rt.MapLoadAndDelete(&m, 2, __rtSites_a09b6b8a+29)
	__rt.MapSwap(&m, 3, 3, __rtSites_a09b6b8a+30)
	__rt.MapCompareAndSwap(&m, 3, 3, 4, __rtSites_a09b6b8a+31)
	__rt.MapCompareAndDelete(&m, 3, 4, __rtSites_a09b6b8a+32)
	__rt.MapClear(&m, __rtSites_a09b6b8a+33)
}

func Values(c *Counter, l sync.Locker) {
	lock := func(__rtRecv1 *sync.Mutex) func() { return func() { __rt.Lock(__rtRecv1, __rtSites_a09b6b8a+34) } }(&c.Mutex) // method value: the receiver is evaluated here
	unlock := func(__rtRecv2 *sync.Mutex) func() { return func() { __rt.Unlock(__rtRecv2, __rtSites_a09b6b8a+35) } }(&c.Mutex)
	lock()
	unlock()
	__rt.LockerLock(l, __rtSites_a09b6b8a+36)
	defer __rt.LockerUnlock(l, __rtSites_a09b6b8a+37)
	f := __rt.OnceFunc(func() { fmt.Println("f") }, __rtSites_a09b6b8a+38)
	g := __rt.OnceValue[int](func() int { return 1 }, __rtSites_a09b6b8a+39)
	h := __rt.OnceValues[int, error](func() (int, error) { return 1, nil }, __rtSites_a09b6b8a+40)
	f()
	fmt.Println(g())
	fmt.Println(h())
	lockExpr := func(__rtP3 *sync.Mutex) { __rt.Lock(__rtP3, __rtSites_a09b6b8a+41) }
	var mu sync.Mutex
	lockExpr(&mu)
	__rt.Unlock(&mu, __rtSites_a09b6b8a+42)
}

var bufs = sync.Pool{New: func() any { return new([]byte) }}

func Pooled(p *sync.Pool) {
	b := __rt.PoolGet(&bufs, __rtSites_a09b6b8a+43).(*[]byte)
	__rt.PoolPut(&bufs, b, __rtSites_a09b6b8a+44)
	__rt.PoolPut(p, __rt.PoolGet(p, __rtSites_a09b6b8a+46), __rtSites_a09b6b8a+45)
}

var __rtSites_a09b6b8a = __rt.RegisterFile("testdata/sync.go", "l*c.Mutex\nl*c.Mutex\nl*s.mu\nl*s.mu\nl*s.mu\nl*s.mu\nl*s.mu\nl*s.mu\nl*s.mu\nl*r\nl*r\nl*q.cond.L\nk*q.cond\nl*q.cond.L\nl*q.lock\nl*q.lock\nk*q.cond\nk*q.cond\nw*wg\n\nw*wg\no*once\nm*m\nw*wg\nm*m\nw*wg\nm*m\nm*m\nm*m\nm*m\nm*m\nm*m\nm*m\nm*m\nl*c.Mutex\nl*c.Mutex\nl*l\nl*l\n\n\n\n\nl*mu\np*bufs\np*bufs\np*p\np*p\nv*c.n\nv*s.data\nv*s.data[k]\nv*s.data\nv*s.data[k]\nv*q.cond\nv*q.cond.L\nv*q.items\nv*q.items[0]\nv*q.items\nv*q.cond\nv*q.cond.L\nv*q.items\nv*q.cond\nv*q.lock\nv*q.items\nv*q.items\nv*q.lock\nv*q.cond\nv*q.cond\nv*i\nv*i\nv*i\nl*Counter.Mutex\nl*Counter.Mutex\nl*Counter.Mutex", 25, 2, 26, 8, 31, 2, 32, 8, 38, 6, 39, 3, 42, 2, 43, 5, 44, 3, 47, 2, 48, 2, 57, 2, 59, 3, 63, 2, 68, 2, 70, 2, 71, 2, 72, 2, 80, 3, 81, 3, 82, 10, 83, 4, 84, 4, 87, 2, 87, 17, 88, 2, 89, 11, 90, 2, 92, 2, 93, 2, 94, 2, 95, 2, 96, 2, 97, 2, 101, 10, 102, 12, 105, 2, 106, 8, 107, 7, 108, 7, 109, 7, 113, 14, 116, 2, 122, 7, 123, 2, 124, 2, 124, 8, 27, 2, 33, 11, 33, 11, 41, 2, 41, 2, 57, 2, 57, 2, 61, 7, 61, 7, 62, 12, 63, 2, 63, 2, 58, 10, 59, 3, 68, 2, 69, 19, 69, 12, 70, 2, 71, 2, 72, 2, 79, 14, 79, 21, 84, 12, 9, 7, 9, 7, 9, 7)

//line testdata/sync.go:9
func (__rtRecv4 *Counter) Lock() { __rt.Lock(&__rtRecv4.Mutex, __rtSites_a09b6b8a+70) }

//line testdata/sync.go:9
func (__rtRecv5 *Counter) TryLock() bool { return __rt.TryLock(&__rtRecv5.Mutex, __rtSites_a09b6b8a+71) }

//line testdata/sync.go:9
func (__rtRecv6 *Counter) Unlock() { __rt.Unlock(&__rtRecv6.Mutex, __rtSites_a09b6b8a+72) }
