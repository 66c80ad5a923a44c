// Package buggy is the buggy variant of the mpc-string-command kernel.
package buggy

import "sync"

// Server holds a value that commands update and a monitor samples; no
// sample may see an update half done.
type Server struct {
	mu      sync.Mutex
	value   int
	pending bool // an update is half done
}

// Apply runs cmd. Only an urgent reset, "!r" and anything after it,
// changes the server; other commands are left to a queue.
func (s *Server) Apply(cmd string) {
	if len(cmd) < 2 || cmd[0] != '!' {
		return // not urgent
	}
	if cmd[1] != 'r' {
		return // not a reset
	}
	// BUG: the update is marked pending and done in two critical
	// sections; a sample in between sees it half done.
	s.mu.Lock()
	s.pending = true
	s.mu.Unlock()
	s.mu.Lock()
	s.value = 0
	s.pending = false
	s.mu.Unlock()
}

// Consistent reports whether no update is half done.
func (s *Server) Consistent() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.pending
}

// Run applies cmd while a monitor samples the server, and reports whether
// the monitor saw an update half done.
func Run(cmd string) bool {
	s := &Server{value: 1}
	saw := false
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		s.Apply(cmd)
	}()
	go func() {
		defer wg.Done()
		if !s.Consistent() {
			saw = true
		}
	}()
	wg.Wait()
	return saw
}
