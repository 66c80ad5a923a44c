package rt

import (
	"net"
	"os"
	"time"
)

// Deadlines of real connections inside an exploration.
//
// Instrumented code computes a deadline from the virtual clock
// (time.Now().Add(d)), which starts near the wall clock but does not
// follow it: it restarts with every schedule and jumps when a timer
// fires. A socket, a file or a TLS connection over one compares its
// deadline with the wall clock, so the deadline is moved to the wall
// clock, keeping its distance from now: a deadline d away in virtual time
// is d away in real time. A net.Pipe of the runtime, and a TLS connection
// over one, keep their deadlines on virtual time.

// SetDeadline replaces a call of SetDeadline on a connection, listener or
// file of the standard library (net.Conn, *net.TCPConn, *tls.Conn,
// *os.File, ...).
func SetDeadline(c interface{ SetDeadline(time.Time) error }, t time.Time) error {
	return c.SetDeadline(wallDeadline(c, t))
}

// SetReadDeadline replaces a call of SetReadDeadline, as SetDeadline.
func SetReadDeadline(c interface{ SetReadDeadline(time.Time) error }, t time.Time) error {
	return c.SetReadDeadline(wallDeadline(c, t))
}

// SetWriteDeadline replaces a call of SetWriteDeadline, as SetDeadline.
func SetWriteDeadline(c interface{ SetWriteDeadline(time.Time) error }, t time.Time) error {
	return c.SetWriteDeadline(wallDeadline(c, t))
}

// wallDeadline returns deadline t of c on the wall clock, when c is a
// real connection (or wraps one) and the caller is controlled.
func wallDeadline(c any, t time.Time) time.Time {
	if t.IsZero() || !realConn(c) {
		return t
	}
	g := cur()
	if g == nil {
		return t
	}
	it := g.Iteration()
	return time.Now().Add(t.Sub(it.Wall(it.Clock())))
}

// realConn reports whether c is, or wraps (NetConn, as *tls.Conn does), a
// connection, listener or file of the operating system. Other types (the
// runtime's net.Pipe, a type of the program that forwards the call) are
// not: the program's forwarding call is rewritten too, and moves the
// deadline when it reaches the real one.
func realConn(c any) bool {
	for i := 0; i < 8; i++ {
		switch c.(type) {
		case *net.TCPConn, *net.UDPConn, *net.UnixConn, *net.IPConn,
			*net.TCPListener, *net.UnixListener, *os.File:
			return true
		}
		w, ok := c.(interface{ NetConn() net.Conn })
		if !ok {
			return false
		}
		c = w.NetConn()
	}
	return false
}
