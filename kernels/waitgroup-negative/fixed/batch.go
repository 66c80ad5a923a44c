// Package fixed is the fixed variant of the waitgroup-negative kernel.
package fixed

import (
	"sync"
	"sync/atomic"
)

type queue struct {
	mu    sync.Mutex
	items []int
}

func (q *queue) pop() (int, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.items) == 0 {
		return 0, false
	}
	v := q.items[0]
	q.items = q.items[1:]
	return v, true
}

// Process runs one worker per item plus a spare, each taking one item.
func Process(items []int) int64 {
	q := &queue{items: append([]int(nil), items...)}
	var total atomic.Int64
	var wg sync.WaitGroup
	workers := len(items) + 1
	wg.Add(workers)
	for w := 0; w < workers; w++ {
		go func() {
			defer wg.Done()
			v, ok := q.pop()
			if !ok {
				return
			}
			total.Add(int64(v))
		}()
	}
	wg.Wait()
	return total.Load()
}
