// Nested and unusual forms.
package edge

import (
	"fmt"
	"sync"
	"sync/atomic"
	stdtime "time"
)

type box[T any] struct {
	mu  sync.Mutex
	val atomic.Pointer[T]
	ch  chan T
}

func (b *box[T]) swap(v *T) *T {
	b.mu.Lock()
	defer b.mu.Unlock()
	load := b.val.Load
	old := load()
	b.val.Store(v)
	return old
}

func Locked[L sync.Locker](l L, f func()) {
	l.Lock()
	defer l.Unlock()
	f()
}

func Nested(cc chan chan int, d chan int, timeout stdtime.Duration) {
	d <- <-d
	(<-cc) <- 1
	select {
	case d <- <-d: // the received value is evaluated when the select starts
	case v := <-<-cc:
		fmt.Println(v)
	case <-stdtime.After(timeout):
	}
	var time int // shadows nothing: the package is imported as stdtime
	_ = time
	if v, ok := <-d; ok && v > 0 {
		fmt.Println(v)
	}
	switch x := (<-cc); {
	case x == nil:
	}
	for v := <-d; v > 0; v = <-d {
		fmt.Println(v)
	}
	var p *sync.WaitGroup = new(sync.WaitGroup)
	p.Add(1)
	go (*sync.WaitGroup).Done(p)
	p.Wait()
}

func Generic[C ~chan E, E any](c C, v E) E {
	c <- v
	close(c)
	for x := range c {
		return x
	}
	return <-c
}

var initChan = make(chan string, 1)

var initValue = func() int {
	initChan <- "init"
	return len(initChan)
}()
