// Package buggy is the buggy variant of the waitgroup-missing-done kernel.
package buggy

import "sync"

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

// Sum adds up items with the given number of workers.
func Sum(items []int, workers int) int {
	q := &queue{items: append([]int(nil), items...)}
	var mu sync.Mutex
	total := 0
	var wg sync.WaitGroup
	wg.Add(workers)
	for w := 0; w < workers; w++ {
		go func() {
			n, s := 0, 0
			for {
				v, ok := q.pop()
				if !ok {
					break
				}
				n++
				s += v
			}
			if n == 0 {
				return // BUG: an idle worker returns without wg.Done
			}
			mu.Lock()
			total += s
			mu.Unlock()
			wg.Done()
		}()
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	return total
}
