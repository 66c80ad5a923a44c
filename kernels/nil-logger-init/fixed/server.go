// Package fixed is the fixed variant of the nil-logger-init kernel.
package fixed

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
	s.once.Do(s.init)
	return s.log
}

func (s *Server) init() { s.log = &Logger{} }

// Setup creates the logger.
func (s *Server) Setup() { s.once.Do(s.init) }

// Serve handles one request.
func (s *Server) Serve(req string) {
	s.logger().Log(req)
}
