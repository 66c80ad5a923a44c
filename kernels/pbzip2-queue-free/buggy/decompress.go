// Package buggy is the buggy variant of the pbzip2-queue-free kernel.
package buggy

import "sync"

type fifo struct {
	mu    sync.Mutex
	items []int
}

func (q *fifo) pop() (int, bool) {
	q.mu.Lock() // panics if q is nil
	defer q.mu.Unlock()
	if len(q.items) == 0 {
		return 0, false
	}
	v := q.items[0]
	q.items = q.items[1:]
	return v, true
}

type decompressor struct {
	mu   sync.Mutex
	fifo *fifo
}

func (d *decompressor) consumer(out chan<- int, done chan<- struct{}) {
	defer close(done)
	d.mu.Lock()
	q := d.fifo
	d.mu.Unlock()
	sum := 0
	for {
		v, ok := q.pop()
		if !ok {
			break
		}
		sum += v
	}
	out <- sum
}

// Decompress consumes blocks with two consumers and returns their sum.
func Decompress(blocks []int) int {
	d := &decompressor{fifo: &fifo{items: append([]int(nil), blocks...)}}
	const consumers = 2
	out := make(chan int, consumers)
	var done [consumers]chan struct{}
	for i := range done {
		done[i] = make(chan struct{})
		go d.consumer(out, done[i])
	}
	// BUG: frees the queue without waiting for the consumers to be done
	// with it.
	d.mu.Lock()
	d.fifo = nil // the queue is freed
	d.mu.Unlock()
	total := 0
	for i := 0; i < consumers; i++ {
		total += <-out
	}
	return total
}
