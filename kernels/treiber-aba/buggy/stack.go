// Package buggy is the buggy variant of the treiber-aba kernel.
package buggy

import (
	"sync"
	"sync/atomic"
)

type node struct {
	val  atomic.Int64
	next atomic.Pointer[node]
}

// Stack is a lock-free (Treiber) stack.
type Stack struct {
	top  atomic.Pointer[node]
	mu   sync.Mutex // guards free
	free []*node
}

// alloc recycles the oldest released node (FIFO free list), or makes one.
func (s *Stack) alloc() *node {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.free) > 0 {
		n := s.free[0]
		s.free = s.free[1:]
		return n
	}
	return &node{}
}

// release puts n on the free list. BUG: a node is recycled while another
// Pop may still hold it as its "old top", so that Pop's CAS can succeed
// with a stale next pointer (ABA).
func (s *Stack) release(n *node) {
	s.mu.Lock()
	s.free = append(s.free, n)
	s.mu.Unlock()
}

// Push pushes v.
func (s *Stack) Push(v int64) {
	n := s.alloc()
	n.val.Store(v)
	for {
		old := s.top.Load()
		n.next.Store(old)
		if s.top.CompareAndSwap(old, n) {
			return
		}
	}
}

// Pop pops the top value.
func (s *Stack) Pop() (int64, bool) {
	for {
		old := s.top.Load()
		if old == nil {
			return 0, false
		}
		next := old.next.Load()
		if s.top.CompareAndSwap(old, next) {
			v := old.val.Load()
			s.release(old)
			return v, true
		}
	}
}
