// Package fixed is the fixed variant of the pfscan-late-init kernel.
package fixed

import (
	"strings"
	"sync"
)

// Scanner counts pattern matches in files with one worker per file.
type Scanner struct {
	mu     sync.Mutex
	cond   *sync.Cond
	active int
	found  int
}

// Scan returns the number of matches of pattern in all files.
func Scan(files []string, pattern string) int {
	s := &Scanner{}
	s.cond = sync.NewCond(&s.mu)
	s.active = len(files) // before any worker can finish
	for _, f := range files {
		go s.worker(f, pattern)
	}
	s.mu.Lock()

	for s.active > 0 {
		s.cond.Wait()
	}
	n := s.found
	s.mu.Unlock()
	return n
}

func (s *Scanner) worker(file, pattern string) {
	n := strings.Count(file, pattern)
	s.mu.Lock()
	s.found += n
	s.active--
	if s.active == 0 {
		s.cond.Broadcast()
	}
	s.mu.Unlock()
}
