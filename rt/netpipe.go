package rt

import (
	"io"
	"net"
	"os"
	"sync"
	"time"
)

// net.Pipe inside an exploration.
//
// net.Pipe returns two net.Conn, an interface, so the runtime's pipe
// replaces the standard library's whole: NetPipe returns two conns of its
// own that implement net.Conn with net/pipe.go's algorithm over the
// runtime's modeled primitives (channels, mutexes, and AfterFunc timers on
// virtual time for the deadlines). Every call reaches the model, from
// instrumented code or not (bufio, crypto/tls, net/http over the conn);
// outside an exploration the same primitives run natively.

// NetPipe replaces net.Pipe.
func NetPipe(s Site) (net.Conn, net.Conn) {
	cb1 := MakeChan[[]byte](0, s)
	cb2 := MakeChan[[]byte](0, s)
	cn1 := MakeChan[int](0, s)
	cn2 := MakeChan[int](0, s)
	done1 := MakeChan[struct{}](0, s)
	done2 := MakeChan[struct{}](0, s)

	p1 := &netPipe{
		site: s,
		rdRx: cb1, rdTx: cn1,
		wrTx: cb2, wrRx: cn2,
		localDone: done1, remoteDone: done2,
		readDeadline:  makePipeDeadline(s),
		writeDeadline: makePipeDeadline(s),
	}
	p2 := &netPipe{
		site: s,
		rdRx: cb2, rdTx: cn2,
		wrTx: cb1, wrRx: cn1,
		localDone: done2, remoteDone: done1,
		readDeadline:  makePipeDeadline(s),
		writeDeadline: makePipeDeadline(s),
	}
	return p1, p2
}

// pipeDeadline is net/pipe.go's: a channel closed when the deadline
// passes, by a timer on virtual time.
type pipeDeadline struct {
	site   Site
	mu     sync.Mutex // guards timer and cancel (modeled)
	timer  *time.Timer
	cancel chan struct{} // must be non-nil
}

func makePipeDeadline(s Site) *pipeDeadline {
	return &pipeDeadline{site: s, cancel: MakeChan[struct{}](0, s)}
}

// set sets the point in time when the deadline will time out.
func (d *pipeDeadline) set(t time.Time) {
	s := d.site
	Lock(&d.mu, s)
	defer Unlock(&d.mu, s)

	if d.timer != nil && !TimerStop(d.timer, s) {
		Recv((<-chan struct{})(d.cancel), s) // wait for the timer callback to finish and close cancel
	}
	d.timer = nil

	// Time is zero, then there is no deadline.
	closed := isClosedChan(d.cancel, s)
	if t.IsZero() {
		if closed {
			d.cancel = MakeChan[struct{}](0, s)
		}
		return
	}

	// Time in the future, set up a timer to cancel in the future.
	if dur := Until(t, s); dur > 0 {
		if closed {
			d.cancel = MakeChan[struct{}](0, s)
		}
		c := d.cancel
		d.timer = AfterFunc(dur, func() { Close(c, s) }, s)
		return
	}

	// Time in the past, so close immediately.
	if !closed {
		Close(d.cancel, s)
	}
}

// wait returns a channel that is closed when the deadline is exceeded.
func (d *pipeDeadline) wait() chan struct{} {
	Lock(&d.mu, d.site)
	defer Unlock(&d.mu, d.site)
	return d.cancel
}

// isClosedChan polls c, as net/pipe.go does.
func isClosedChan(c <-chan struct{}, s Site) bool {
	sel := SelectStart(s)
	SelectRecv(sel, c)
	return sel.Do(true) == 0
}

// pipeAddr is the address of both ends of a pipe.
type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "pipe" }

// netPipe is one end of a modeled net.Pipe.
type netPipe struct {
	site Site       // where net.Pipe was called: the site of every operation
	wrMu sync.Mutex // serializes Write operations (modeled)

	rdRx <-chan []byte
	rdTx chan<- int

	wrTx chan<- []byte
	wrRx <-chan int

	once       sync.Once // protects closing localDone (modeled)
	localDone  chan struct{}
	remoteDone <-chan struct{}

	readDeadline  *pipeDeadline
	writeDeadline *pipeDeadline
}

func (*netPipe) LocalAddr() net.Addr  { return pipeAddr{} }
func (*netPipe) RemoteAddr() net.Addr { return pipeAddr{} }

func (p *netPipe) Read(b []byte) (int, error) {
	n, err := p.read(b)
	if err != nil && err != io.EOF && err != io.ErrClosedPipe {
		err = &net.OpError{Op: "read", Net: "pipe", Err: err}
	}
	return n, err
}

func (p *netPipe) read(b []byte) (n int, err error) {
	s := p.site
	switch {
	case isClosedChan(p.localDone, s):
		return 0, io.ErrClosedPipe
	case isClosedChan(p.remoteDone, s):
		return 0, io.EOF
	case isClosedChan(p.readDeadline.wait(), s):
		return 0, os.ErrDeadlineExceeded
	}

	deadline := p.readDeadline.wait()
	sel := SelectStart(s)
	SelectRecv(sel, p.rdRx)
	SelectRecv(sel, (<-chan struct{})(p.localDone))
	SelectRecv(sel, p.remoteDone)
	SelectRecv(sel, (<-chan struct{})(deadline))
	switch sel.Do(false) {
	case 0:
		bw, _ := SelectValue[[]byte](sel)
		nr := copy(b, bw)
		Send(p.rdTx, nr, s)
		return nr, nil
	case 1:
		return 0, io.ErrClosedPipe
	case 2:
		return 0, io.EOF
	default:
		return 0, os.ErrDeadlineExceeded
	}
}

func (p *netPipe) Write(b []byte) (int, error) {
	n, err := p.write(b)
	if err != nil && err != io.ErrClosedPipe {
		err = &net.OpError{Op: "write", Net: "pipe", Err: err}
	}
	return n, err
}

func (p *netPipe) write(b []byte) (n int, err error) {
	s := p.site
	switch {
	case isClosedChan(p.localDone, s):
		return 0, io.ErrClosedPipe
	case isClosedChan(p.remoteDone, s):
		return 0, io.ErrClosedPipe
	case isClosedChan(p.writeDeadline.wait(), s):
		return 0, os.ErrDeadlineExceeded
	}

	Lock(&p.wrMu, s) // ensure the entirety of b is written together
	defer Unlock(&p.wrMu, s)
	for once := true; once || len(b) > 0; once = false {
		deadline := p.writeDeadline.wait()
		sel := SelectStart(s)
		SelectSend(sel, p.wrTx, b)
		SelectRecv(sel, (<-chan struct{})(p.localDone))
		SelectRecv(sel, p.remoteDone)
		SelectRecv(sel, (<-chan struct{})(deadline))
		switch sel.Do(false) {
		case 0:
			nw := Recv(p.wrRx, s)
			b = b[nw:]
			n += nw
		case 1, 2:
			return n, io.ErrClosedPipe
		default:
			return n, os.ErrDeadlineExceeded
		}
	}
	return n, nil
}

func (p *netPipe) SetDeadline(t time.Time) error {
	if isClosedChan(p.localDone, p.site) || isClosedChan(p.remoteDone, p.site) {
		return io.ErrClosedPipe
	}
	p.readDeadline.set(t)
	p.writeDeadline.set(t)
	return nil
}

func (p *netPipe) SetReadDeadline(t time.Time) error {
	if isClosedChan(p.localDone, p.site) || isClosedChan(p.remoteDone, p.site) {
		return io.ErrClosedPipe
	}
	p.readDeadline.set(t)
	return nil
}

func (p *netPipe) SetWriteDeadline(t time.Time) error {
	if isClosedChan(p.localDone, p.site) || isClosedChan(p.remoteDone, p.site) {
		return io.ErrClosedPipe
	}
	p.writeDeadline.set(t)
	return nil
}

func (p *netPipe) Close() error {
	OnceDo(&p.once, func() { Close(p.localDone, p.site) }, p.site)
	return nil
}
