package rt

import (
	"io"
	"runtime"
	"sync"
	"unsafe"
)

// io.Pipe inside an exploration.
//
// The standard library's pipe is made of a mutex and channels, which
// block natively where the tool cannot see them: a goroutine waiting in
// a pipe's Read for a writer the scheduler keeps parked would wait
// forever. The runtime's pipe is the standard library's algorithm
// (io/pipe.go) written over the runtime's modeled primitives, so each
// Read, Write and Close is a sequence of channel operations the strategy
// schedules and a replay repeats, with the same results, errors and
// happens-before edges as the real pipe; outside an exploration the same
// primitives run natively and the pipe works as the real one.
//
// *io.PipeReader and *io.PipeWriter are concrete types that cannot be
// replaced, so io.Pipe() in instrumented code still returns real ones,
// and the model is found by their addresses. Calls of their methods in
// instrumented code become PipeReaderRead, PipeWriterWrite, ... and an
// instrumented conversion of one to an interface (passing the reader to
// io.ReadAll, the writer to json.NewEncoder) becomes PipeReaderValue or
// PipeWriterValue, whose result calls the model: uninstrumented code
// reading or writing through the interface is then controlled too. A
// pipe that no rewritten io.Pipe made (one made by uninstrumented code)
// has no model: the same calls run natively.

// ioPipe is the model of one io.Pipe: io/pipe.go's pipe over the
// runtime's primitives.
type ioPipe struct {
	site Site // where io.Pipe was called: the site of calls through interfaces

	wrMu sync.Mutex // serializes Write operations (modeled)
	wrCh chan []byte
	rdCh chan int

	once sync.Once // protects closing done (modeled)
	done chan struct{}

	mu   sync.Mutex // guards rerr and werr, natively: never held across a scheduling point
	rerr error
	werr error

	r *pipeReader // what a conversion of the reader to an interface gives
	w *pipeWriter // and of the writer
}

// ioPipes maps the address of every modeled pipe's reader (and writer: the
// same address) to its model. Keys are addresses, not pointers, so that
// the map does not keep the pipe alive; a finalizer removes its entry
// before the address can be reused.
var ioPipes = struct {
	sync.Mutex
	m map[uintptr]*ioPipe
}{m: make(map[uintptr]*ioPipe)}

// IOPipe replaces io.Pipe: a real pipe, whose methods, called from
// instrumented code, and conversions to interfaces reach the model.
func IOPipe(s Site) (*io.PipeReader, *io.PipeWriter) {
	r, w := io.Pipe()
	p := &ioPipe{
		site: s,
		wrCh: MakeChan[[]byte](0, s),
		rdCh: MakeChan[int](0, s),
		done: MakeChan[struct{}](0, s),
	}
	p.r, p.w = &pipeReader{p}, &pipeWriter{p}
	// From Go 1.22 the reader is the first field of the writer, one
	// allocation at one address; before, they are two.
	register(unsafe.Pointer(w), p)
	runtime.SetFinalizer(w, func(w *io.PipeWriter) { unregister(unsafe.Pointer(w)) })
	if unsafe.Pointer(r) != unsafe.Pointer(w) {
		register(unsafe.Pointer(r), p)
		runtime.SetFinalizer(r, func(r *io.PipeReader) { unregister(unsafe.Pointer(r)) })
	}
	return r, w
}

func register(a unsafe.Pointer, p *ioPipe) {
	ioPipes.Lock()
	ioPipes.m[uintptr(a)] = p
	ioPipes.Unlock()
}

func unregister(a unsafe.Pointer) {
	ioPipes.Lock()
	delete(ioPipes.m, uintptr(a))
	ioPipes.Unlock()
}

// pipeOf returns the model of the pipe at address a, or nil.
func pipeOf(a unsafe.Pointer) *ioPipe {
	if a == nil {
		return nil
	}
	ioPipes.Lock()
	p := ioPipes.m[uintptr(a)]
	ioPipes.Unlock()
	return p
}

// read is io/pipe.go's read: its check for a closed pipe, then its
// select, as one ordered select.
func (p *ioPipe) read(b []byte, s Site) (n int, err error) {
	sel := SelectStart(s)
	SelectRecv(sel, (<-chan struct{})(p.done))
	SelectRecv(sel, (<-chan []byte)(p.wrCh))
	if sel.doOrdered(1, false) == 1 {
		bw, _ := SelectValue[[]byte](sel)
		nr := copy(b, bw)
		Send(p.rdCh, nr, s)
		return nr, nil
	}
	return 0, p.readCloseError()
}

// write is io/pipe.go's write. Its check for a closed pipe comes first in
// the select of its first round, after the lock: a pipe closed while the
// write waits for the lock ends it there, which io/pipe.go's select may do
// too.
func (p *ioPipe) write(b []byte, s Site) (n int, err error) {
	Lock(&p.wrMu, s)
	defer Unlock(&p.wrMu, s)
	for once := true; once || len(b) > 0; once = false {
		sel := SelectStart(s)
		SelectRecv(sel, (<-chan struct{})(p.done))
		SelectSend(sel, (chan<- []byte)(p.wrCh), b)
		first := 0
		if once {
			first = 1
		}
		if sel.doOrdered(first, false) == 0 {
			return n, p.writeCloseError()
		}
		nw := Recv((<-chan int)(p.rdCh), s)
		b = b[nw:]
		n += nw
	}
	return n, nil
}

func (p *ioPipe) closeRead(err error, s Site) error {
	if err == nil {
		err = io.ErrClosedPipe
	}
	p.mu.Lock()
	if p.rerr == nil {
		p.rerr = err
	}
	p.mu.Unlock()
	OnceDo(&p.once, func() { Close(p.done, s) }, s)
	return nil
}

func (p *ioPipe) closeWrite(err error, s Site) error {
	if err == nil {
		err = io.EOF
	}
	p.mu.Lock()
	if p.werr == nil {
		p.werr = err
	}
	p.mu.Unlock()
	OnceDo(&p.once, func() { Close(p.done, s) }, s)
	return nil
}

func (p *ioPipe) readCloseError() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.rerr == nil && p.werr != nil {
		return p.werr
	}
	return io.ErrClosedPipe
}

func (p *ioPipe) writeCloseError() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.werr == nil && p.rerr != nil {
		return p.rerr
	}
	return io.ErrClosedPipe
}

// PipeReaderIface is the method set of *io.PipeReader: what a conversion
// of one to an interface gives (PipeReaderValue).
type PipeReaderIface interface {
	Read(b []byte) (int, error)
	Close() error
	CloseWithError(err error) error
}

// PipeWriterIface is the method set of *io.PipeWriter: what a conversion
// of one to an interface gives (PipeWriterValue).
type PipeWriterIface interface {
	Write(b []byte) (int, error)
	Close() error
	CloseWithError(err error) error
}

// pipeReader is the read half of a modeled pipe, as an interface value.
type pipeReader struct{ p *ioPipe }

func (r *pipeReader) Read(b []byte) (int, error)     { return r.p.read(b, r.p.site) }
func (r *pipeReader) Close() error                   { return r.p.closeRead(nil, r.p.site) }
func (r *pipeReader) CloseWithError(err error) error { return r.p.closeRead(err, r.p.site) }

// pipeWriter is the write half of a modeled pipe, as an interface value.
type pipeWriter struct{ p *ioPipe }

func (w *pipeWriter) Write(b []byte) (int, error)    { return w.p.write(b, w.p.site) }
func (w *pipeWriter) Close() error                   { return w.p.closeWrite(nil, w.p.site) }
func (w *pipeWriter) CloseWithError(err error) error { return w.p.closeWrite(err, w.p.site) }

// PipeReaderValue replaces the conversion of r to an interface type: the
// model's reader when r is a modeled pipe's, r itself otherwise. Every
// conversion of one reader gives the same value.
func PipeReaderValue(r *io.PipeReader) PipeReaderIface {
	if p := pipeOf(unsafe.Pointer(r)); p != nil {
		return p.r
	}
	return r
}

// PipeWriterValue replaces the conversion of w to an interface type: the
// model's writer when w is a modeled pipe's, w itself otherwise.
func PipeWriterValue(w *io.PipeWriter) PipeWriterIface {
	if p := pipeOf(unsafe.Pointer(w)); p != nil {
		return p.w
	}
	return w
}

// PipeReaderRead replaces (*io.PipeReader).Read.
func PipeReaderRead(r *io.PipeReader, b []byte, s Site) (int, error) {
	if p := pipeOf(unsafe.Pointer(r)); p != nil {
		return p.read(b, s)
	}
	return r.Read(b)
}

// PipeReaderClose replaces (*io.PipeReader).Close.
func PipeReaderClose(r *io.PipeReader, s Site) error {
	if p := pipeOf(unsafe.Pointer(r)); p != nil {
		return p.closeRead(nil, s)
	}
	return r.Close()
}

// PipeReaderCloseWithError replaces (*io.PipeReader).CloseWithError.
func PipeReaderCloseWithError(r *io.PipeReader, err error, s Site) error {
	if p := pipeOf(unsafe.Pointer(r)); p != nil {
		return p.closeRead(err, s)
	}
	return r.CloseWithError(err)
}

// PipeWriterWrite replaces (*io.PipeWriter).Write.
func PipeWriterWrite(w *io.PipeWriter, b []byte, s Site) (int, error) {
	if p := pipeOf(unsafe.Pointer(w)); p != nil {
		return p.write(b, s)
	}
	return w.Write(b)
}

// PipeWriterClose replaces (*io.PipeWriter).Close.
func PipeWriterClose(w *io.PipeWriter, s Site) error {
	if p := pipeOf(unsafe.Pointer(w)); p != nil {
		return p.closeWrite(nil, s)
	}
	return w.Close()
}

// PipeWriterCloseWithError replaces (*io.PipeWriter).CloseWithError.
func PipeWriterCloseWithError(w *io.PipeWriter, err error, s Site) error {
	if p := pipeOf(unsafe.Pointer(w)); p != nil {
		return p.closeWrite(err, s)
	}
	return w.CloseWithError(err)
}
