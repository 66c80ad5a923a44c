// Package buggy is the buggy variant of the pfscan-late-init kernel.
package buggy

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

	for _, f := range files {
		go s.worker(f, pattern)
	}
	s.mu.Lock()
	s.active = len(files) // BUG: initialized after the workers started
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
