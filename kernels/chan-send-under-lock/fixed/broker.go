// Package fixed is the fixed variant of the chan-send-under-lock kernel.
package fixed

import "sync"

// Sub is one subscription.
type Sub struct {
	c    chan int
	done chan struct{}
	once sync.Once
}

// C returns the channel on which the subscription receives messages.
func (s *Sub) C() <-chan int { return s.c }

// Broker fans messages out to subscribers.
type Broker struct {
	mu   sync.Mutex
	subs []*Sub
}

// Subscribe adds a subscription.
func (b *Broker) Subscribe() *Sub {
	s := &Sub{c: make(chan int), done: make(chan struct{})}
	b.mu.Lock()
	b.subs = append(b.subs, s)
	b.mu.Unlock()
	return s
}

// Unsubscribe removes s; no message is delivered to s afterwards. Closing
// done first releases a Publish blocked on s without needing b.mu.
func (b *Broker) Unsubscribe(s *Sub) {
	s.once.Do(func() { close(s.done) })
	b.mu.Lock()
	defer b.mu.Unlock()
	for i, x := range b.subs {
		if x == s {
			b.subs = append(b.subs[:i], b.subs[i+1:]...)
			return
		}
	}
}

// Publish delivers v to every subscriber that has not unsubscribed. It
// never blocks while holding b.mu.
func (b *Broker) Publish(v int) {
	b.mu.Lock()
	subs := append([]*Sub(nil), b.subs...)
	b.mu.Unlock()
	for _, s := range subs {
		select {
		case s.c <- v:
		case <-s.done:
		}
	}
}
