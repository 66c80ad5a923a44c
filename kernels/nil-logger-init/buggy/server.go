// Package buggy is the buggy variant of the nil-logger-init kernel.
package buggy

import "sync"

// Logger records lines.
type Logger struct {
	mu    sync.Mutex
	lines []string
}

// Log records one line.
func (l *Logger) Log(s string) {
	l.mu.Lock()
	l.lines = append(l.lines, s)
	l.mu.Unlock()
}

// Len returns the number of lines.
func (l *Logger) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.lines)
}

// Server serves requests and logs them.
type Server struct {
	mu   sync.Mutex
	once sync.Once
	log  *Logger
}

func (s *Server) logger() *Logger {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.log // BUG: nil until Setup has run
}

// Setup creates the logger.
func (s *Server) Setup() {
	s.mu.Lock()
	s.log = &Logger{}
	s.mu.Unlock()
}

// Serve handles one request.
func (s *Server) Serve(req string) {
	s.logger().Log(req)
}
