// Package partial is the partial variant of the close-twice-helper kernel.
package partial

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

func (s *Stream) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

func (s *Stream) markClosed() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
}

// Close closes the stream.
func (s *Stream) Close() {
	if s.isClosed() {
		return
	}
	s.markClosed() // BUG: still apart from the check
	close(s.done)
}
