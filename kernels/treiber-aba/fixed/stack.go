// Package fixed is the fixed variant of the treiber-aba kernel.
package fixed

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

// alloc makes a fresh node: nodes are never reused, so a CAS that sees the
// same top pointer sees the same node and the same next (no ABA).
func (s *Stack) alloc() *node { return &node{} }

// release drops n; the garbage collector reclaims it once unreachable.
func (s *Stack) release(n *node) {}

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
