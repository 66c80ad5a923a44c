// Package partial is the partial variant of the chan-send-under-lock kernel.
package partial

import "sync"

// Sub is one subscription.
type Sub struct {
	c chan int
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
	s := &Sub{c: make(chan int, 1)} // partial fix: one message of slack
	b.mu.Lock()
	b.subs = append(b.subs, s)
	b.mu.Unlock()
	return s
}

// Unsubscribe removes s; no message is delivered to s afterwards.
func (b *Broker) Unsubscribe(s *Sub) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i, x := range b.subs {
		if x == s {
			b.subs = append(b.subs[:i], b.subs[i+1:]...)
			return
		}
	}
}

// deliver hands v to s.
func (s *Sub) deliver(v int) {
	s.c <- v
}

// Publish delivers v to every subscriber.
func (b *Broker) Publish(v int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, s := range b.subs {
		// BUG: still sends while holding b.mu (in deliver); the buffer of
		// one only postpones the deadlock to the next message.
		s.deliver(v)
	}
}
