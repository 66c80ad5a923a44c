// Package buggy is the buggy variant of the close-twice-helper kernel.
package buggy

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
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return
	}
	// BUG: another Close can pass the check before the flag is set.
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	close(s.done)
}
