// Package fixed is the fixed variant of the close-twice-helper kernel.
package fixed

import "sync"

// Stream is closed once by whoever finishes first.
type Stream struct {
	mu     sync.Mutex
	closed bool
	done   chan struct{}
}

// NewStream returns an open stream.
func NewStream() *Stream { return &Stream{done: make(chan struct{})} }

// Done is closed when the stream is.
func (s *Stream) Done() <-chan struct{} { return s.done }

// Close closes the stream.
func (s *Stream) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.closed = true
	close(s.done)
}
