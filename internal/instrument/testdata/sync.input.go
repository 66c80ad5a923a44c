package syncops

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
	c.Lock()
	defer c.Unlock()
	c.n++
}

func (s *Store) Get(k string) (int, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	v, ok := s.data[k]
	return v, ok
}

func (s *Store) Put(k string, v int) {
	if !s.mu.TryLock() {
		s.mu.Lock()
	}
	s.data[k] = v
	s.mu.Unlock()
	if s.mu.TryRLock() {
		s.mu.RUnlock()
	}
	r := s.mu.RLocker()
	r.Lock()
	r.Unlock()
}

func NewQueue() *Queue {
	mu := new(sync.Mutex)
	return &Queue{lock: mu, cond: sync.NewCond(mu)}
}

func (q *Queue) Pop() int {
	q.cond.L.Lock()
	for len(q.items) == 0 {
		q.cond.Wait()
	}
	v := q.items[0]
	q.items = q.items[1:]
	q.cond.L.Unlock()
	return v
}

func (q *Queue) Push(v int) {
	q.lock.Lock()
	q.items = append(q.items, v)
	q.lock.Unlock()
	q.cond.Signal()
	q.cond.Broadcast()
}

func Group(n int) {
	var wg sync.WaitGroup
	var once sync.Once
	var m sync.Map
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			once.Do(func() { fmt.Println("once") })
			m.Store(i, i)
		}()
	}
	wg.Go(func() { m.Delete(0) })
	wg.Wait()
	v, ok := m.Load(1)
	m.Range(func(k, v any) bool { return true })
	fmt.Println(v, ok)
	m.LoadOrStore(2, 2)
	m.LoadAndDelete(2)
	m.Swap(3, 3)
	m.CompareAndSwap(3, 3, 4)
	m.CompareAndDelete(3, 4)
	m.Clear()
}

func Values(c *Counter, l sync.Locker) {
	lock := c.Lock // method value: the receiver is evaluated here
	unlock := c.Unlock
	lock()
	unlock()
	l.Lock()
	defer l.Unlock()
	f := sync.OnceFunc(func() { fmt.Println("f") })
	g := sync.OnceValue(func() int { return 1 })
	h := sync.OnceValues(func() (int, error) { return 1, nil })
	f()
	fmt.Println(g())
	fmt.Println(h())
	lockExpr := (*sync.Mutex).Lock
	var mu sync.Mutex
	lockExpr(&mu)
	mu.Unlock()
}

var bufs = sync.Pool{New: func() any { return new([]byte) }}

func Pooled(p *sync.Pool) {
	b := bufs.Get().(*[]byte)
	bufs.Put(b)
	p.Put(p.Get())
}
