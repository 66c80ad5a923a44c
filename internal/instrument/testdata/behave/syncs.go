// Mutex, RWMutex, WaitGroup, Once, Cond, sync.Map and OnceValue.
package main

import (
	"fmt"
	"sort"
	"sync"
)

type counter struct {
	sync.Mutex
	n int
}

func (c *counter) inc() {
	c.Lock()
	defer c.Unlock()
	c.n++
}

type cache struct {
	mu   sync.RWMutex
	data map[int]int
}

func (c *cache) get(k int) (int, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.data[k]
	return v, ok
}

func (c *cache) put(k, v int) {
	c.mu.Lock()
	c.data[k] = v
	c.mu.Unlock()
}

type queue struct {
	mu    sync.Mutex
	cond  *sync.Cond
	items []int
}

func main() {
	var c counter
	var wg sync.WaitGroup
	for i := 0; i < 10; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.inc()
		}()
	}
	wg.Wait()
	fmt.Println("counter", c.n)

	ca := &cache{data: map[int]int{}}
	for i := 0; i < 5; i++ {
		k := i
		wg.Go(func() { ca.put(k, k*10) })
	}
	wg.Wait()
	v, ok := ca.get(3)
	fmt.Println("cache", v, ok, len(ca.data))

	var once sync.Once
	calls := 0
	for i := 0; i < 3; i++ {
		once.Do(func() { calls++ })
	}
	fmt.Println("once", calls)

	q := &queue{}
	q.cond = sync.NewCond(&q.mu)
	got := make(chan int)
	go func() {
		q.cond.L.Lock()
		for len(q.items) == 0 {
			q.cond.Wait()
		}
		it := q.items[0]
		q.cond.L.Unlock()
		got <- it
	}()
	q.mu.Lock()
	q.items = append(q.items, 42)
	q.mu.Unlock()
	q.cond.Broadcast()
	fmt.Println("cond", <-got)

	var m sync.Map
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			m.Store(i, i*i)
		}(i)
	}
	wg.Wait()
	var keys []int
	m.Range(func(k, v any) bool {
		keys = append(keys, k.(int))
		return true
	})
	sort.Ints(keys)
	fmt.Println("map", keys)

	lazy := sync.OnceValue(func() int { fmt.Println("computing"); return 5 })
	fmt.Println("lazy", lazy(), lazy())

	lock, unlock := c.Lock, c.Unlock
	lock()
	c.n = 100
	unlock()
	var l sync.Locker = &c.Mutex
	l.Lock()
	fmt.Println("locker", c.n)
	l.Unlock()
}
