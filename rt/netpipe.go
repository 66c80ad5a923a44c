package rt

import (
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
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
// passes, by a timer on virtual time. The channel is read with one atomic
// load (a scheduling point, ordered after the set that stored it) where
// net/pipe.go takes its mutex: a read that comes while set waits for the
// timer's callback gets the channel the callback is closing, as a read
// just before that set would.
type pipeDeadline struct {
	site   Site
	mu     sync.Mutex // serializes set, and guards timer (modeled)
	timer  *time.Timer
	cancel atomic.Pointer[chan struct{}] // never nil; stored under mu
}

func makePipeDeadline(s Site) *pipeDeadline {
	d := &pipeDeadline{site: s}
	c := MakeChan[struct{}](0, s)
	d.cancel.Store(&c)
	return d
}

// store replaces the channel.
func (d *pipeDeadline) store(c chan struct{}) {
	atomicPoint(unsafe.Pointer(&d.cancel), unsafe.Sizeof(d.cancel), atomicStore, d.site)
	d.cancel.Store(&c)
}

// set sets the point in time when the deadline will time out.
func (d *pipeDeadline) set(t time.Time) {
	s := d.site
	Lock(&d.mu, s)
	defer Unlock(&d.mu, s)

	cancel := *d.cancel.Load() // only set stores it, under mu
	if d.timer != nil && !TimerStop(d.timer, s) {
		Recv((<-chan struct{})(cancel), s) // wait for the timer callback to finish and close cancel
	}
	d.timer = nil

	// Time is zero, then there is no deadline.
	closed := isClosedChan(cancel, s)
	if t.IsZero() {
		if closed {
			d.store(MakeChan[struct{}](0, s))
		}
		return
	}

	// Time in the future, set up a timer to cancel in the future.
	if dur := Until(t, s); dur > 0 {
		if closed {
			cancel = MakeChan[struct{}](0, s)
			d.store(cancel)
		}
		d.timer = AfterFunc(dur, func() { Close(cancel, s) }, s)
		return
	}

	// Time in the past, so close immediately.
	if !closed {
		Close(cancel, s)
	}
}

// wait returns a channel that is closed when the deadline is exceeded.
func (d *pipeDeadline) wait() chan struct{} {
	atomicPoint(unsafe.Pointer(&d.cancel), unsafe.Sizeof(d.cancel), atomicLoad, d.site)
	return *d.cancel.Load()
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

// read is net/pipe.go's read: its checks for a closed pipe or a passed
// deadline, then its select, as one ordered select.
func (p *netPipe) read(b []byte) (n int, err error) {
	s := p.site
	sel := SelectStart(s)
	SelectRecv(sel, (<-chan struct{})(p.localDone))
	SelectRecv(sel, p.remoteDone)
	SelectRecv(sel, (<-chan struct{})(p.readDeadline.wait()))
	SelectRecv(sel, p.rdRx)
	switch sel.doOrdered(3, false) {
	case 0:
		return 0, io.ErrClosedPipe
	case 1:
		return 0, io.EOF
	case 2:
		return 0, os.ErrDeadlineExceeded
	default:
		bw, _ := SelectValue[[]byte](sel)
		nr := copy(b, bw)
		Send(p.rdTx, nr, s)
		return nr, nil
	}
}

func (p *netPipe) Write(b []byte) (int, error) {
	n, err := p.write(b)
	if err != nil && err != io.ErrClosedPipe {
		err = &net.OpError{Op: "write", Net: "pipe", Err: err}
	}
	return n, err
}

// write is net/pipe.go's write. Its checks for a closed pipe or a passed
// deadline come first in the select of its first round, after the lock:
// a pipe closed while the write waits for the lock ends it there, which
// net/pipe.go's select may do too.
func (p *netPipe) write(b []byte) (n int, err error) {
	s := p.site
	Lock(&p.wrMu, s) // ensure the entirety of b is written together
	defer Unlock(&p.wrMu, s)
	for once := true; once || len(b) > 0; once = false {
		sel := SelectStart(s)
		SelectRecv(sel, (<-chan struct{})(p.localDone))
		SelectRecv(sel, p.remoteDone)
		SelectRecv(sel, (<-chan struct{})(p.writeDeadline.wait()))
		SelectSend(sel, p.wrTx, b)
		first := 0
		if once {
			first = 3
		}
		switch sel.doOrdered(first, false) {
		case 0, 1:
			return n, io.ErrClosedPipe
		case 2:
			return n, os.ErrDeadlineExceeded
		default:
			nw := Recv(p.wrRx, s)
			b = b[nw:]
			n += nw
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
