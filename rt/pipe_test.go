package rt_test

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"interleave.dev/rt"
)

// The pipes of the runtime (rt/pipe.go, rt/netpipe.go) must behave as the
// standard library's. Each scenario below has one outcome natively, which
// it writes as a transcript; the same scenario over the runtime's pipe
// must write the same transcript in every schedule explored.

// world is what a scenario runs with: the pipe constructors, how to start
// a goroutine and wait for all of them, and the clock.
type world struct {
	ioPipe  func() (rt.PipeReaderIface, rt.PipeWriterIface)
	netPipe func() (net.Conn, net.Conn)
	spawn   func(f func())
	join    func()
	now     func() time.Time
}

// native is the standard library, with real goroutines.
func native() *world {
	var wg sync.WaitGroup
	return &world{
		ioPipe: func() (rt.PipeReaderIface, rt.PipeWriterIface) {
			r, w := io.Pipe()
			return r, w
		},
		netPipe: net.Pipe,
		spawn: func(f func()) {
			wg.Add(1)
			go func() { defer wg.Done(); f() }()
		},
		join: wg.Wait,
		now:  time.Now,
	}
}

// modeled is the runtime's pipes, inside an exploration.
func modeled() *world {
	wg := new(sync.WaitGroup)
	return &world{
		ioPipe: func() (rt.PipeReaderIface, rt.PipeWriterIface) {
			r, w := rt.IOPipe(0)
			return rt.PipeReaderValue(r), rt.PipeWriterValue(w)
		},
		netPipe: func() (net.Conn, net.Conn) { return rt.NetPipe(0) },
		spawn: func(f func()) {
			rt.WGAdd(wg, 1, 0)
			rt.Go(func() { defer rt.WGDone(wg, 0); f() }, 0)
		},
		join: func() { rt.WGWait(wg, 0) },
		now:  func() time.Time { return rt.Now(0) },
	}
}

// transcript collects what each side of a scenario saw, per side, so that
// the interleaving of the sides does not change it.
type transcript struct {
	mu    sync.Mutex
	sides map[string][]string
}

func (t *transcript) add(side, format string, args ...any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.sides == nil {
		t.sides = make(map[string][]string)
	}
	t.sides[side] = append(t.sides[side], fmt.Sprintf(format, args...))
}

func (t *transcript) String() string {
	var sides []string
	for side := range t.sides {
		sides = append(sides, side)
	}
	sort.Strings(sides)
	var b strings.Builder
	for _, side := range sides {
		fmt.Fprintf(&b, "%s: %s\n", side, strings.Join(t.sides[side], "; "))
	}
	return b.String()
}

// errText describes an error with what callers test of it.
func errText(err error) string {
	if err == nil {
		return "nil"
	}
	var ne net.Error
	timeout := errors.As(err, &ne) && ne.Timeout()
	return fmt.Sprintf("%q (%T, EOF %v, closed %v, deadline %v, timeout %v)", err.Error(), err,
		errors.Is(err, io.EOF), errors.Is(err, io.ErrClosedPipe), errors.Is(err, os.ErrDeadlineExceeded), timeout)
}

var errWriter, errReader = errors.New("writer failed"), errors.New("reader failed")

var pipeScenarios = map[string]func(w *world, t *transcript){
	// A write is consumed by as many reads as it takes; the reads after the
	// writer closed see EOF.
	"io/chunks": func(w *world, t *transcript) {
		r, wr := w.ioPipe()
		w.spawn(func() {
			n, err := wr.Write([]byte("0123456789"))
			t.add("writer", "write %d %s", n, errText(err))
			t.add("writer", "close %s", errText(wr.Close()))
		})
		buf := make([]byte, 4)
		for i := 0; i < 5; i++ {
			n, err := r.Read(buf)
			t.add("reader", "read %q %s", buf[:n], errText(err))
		}
	},
	// CloseWithError by the writer: the reader gets its error, a later
	// write ErrClosedPipe.
	"io/writer-error": func(w *world, t *transcript) {
		r, wr := w.ioPipe()
		w.spawn(func() {
			t.add("writer", "close %s", errText(wr.CloseWithError(errWriter)))
			n, err := wr.Write([]byte("x"))
			t.add("writer", "write %d %s", n, errText(err))
		})
		n, err := r.Read(make([]byte, 4))
		t.add("reader", "read %d %s", n, errText(err))
		w.join()
		t.add("reader", "close %s", errText(r.Close()))
		n, err = r.Read(make([]byte, 4))
		t.add("reader", "read %d %s", n, errText(err))
	},
	// The reader closes in the middle of a write: the writer learns how
	// much was read.
	"io/reader-close": func(w *world, t *transcript) {
		r, wr := w.ioPipe()
		w.spawn(func() {
			n, err := wr.Write([]byte("0123456789"))
			t.add("writer", "write %d %s", n, errText(err))
		})
		buf := make([]byte, 3)
		n, err := r.Read(buf)
		t.add("reader", "read %q %s", buf[:n], errText(err))
		t.add("reader", "close %s", errText(r.CloseWithError(errReader)))
		n, err = r.Read(buf)
		t.add("reader", "read %d %s", n, errText(err))
		w.join()
		n, err = wr.Write([]byte("y"))
		t.add("writer", "write %d %s", n, errText(err))
	},
	// The first close wins; an empty write waits for a read.
	"io/first-close-wins": func(w *world, t *transcript) {
		r, wr := w.ioPipe()
		w.spawn(func() {
			n, err := wr.Write(nil)
			t.add("writer", "write %d %s", n, errText(err))
			wr.Close()
			wr.CloseWithError(errWriter)
		})
		for i := 0; i < 2; i++ {
			n, err := r.Read(make([]byte, 4))
			t.add("reader", "read %d %s", n, errText(err))
		}
	},
	// Request and response over net.Pipe, in chunks.
	"net/request-response": func(w *world, t *transcript) {
		a, b := w.netPipe()
		w.spawn(func() {
			buf := make([]byte, 3)
			var got []byte
			for len(got) < 7 {
				n, err := b.Read(buf)
				t.add("b", "read %q %s", buf[:n], errText(err))
				got = append(got, buf[:n]...)
			}
			n, err := b.Write([]byte(strings.ToUpper(string(got))))
			t.add("b", "write %d %s", n, errText(err))
			t.add("b", "close %s", errText(b.Close()))
		})
		n, err := a.Write([]byte("request"))
		t.add("a", "write %d %s", n, errText(err))
		got, err := io.ReadAll(a)
		t.add("a", "readall %q %s", got, errText(err))
		n, err = a.Write([]byte("more"))
		t.add("a", "write %d %s", n, errText(err))
		t.add("a", "addr %s %s", a.LocalAddr().Network(), a.RemoteAddr())
	},
	// Closing one end: its own operations fail with ErrClosedPipe, the
	// other end reads EOF.
	"net/close": func(w *world, t *transcript) {
		a, b := w.netPipe()
		w.spawn(func() {
			n, err := b.Read(make([]byte, 4))
			t.add("b", "read %d %s", n, errText(err))
			n, err = b.Write([]byte("x"))
			t.add("b", "write %d %s", n, errText(err))
			t.add("b", "deadline %s", errText(b.SetDeadline(time.Time{})))
		})
		t.add("a", "close %s", errText(a.Close()))
		t.add("a", "close %s", errText(a.Close()))
		n, err := a.Read(make([]byte, 4))
		t.add("a", "read %d %s", n, errText(err))
		n, err = a.Write([]byte("x"))
		t.add("a", "write %d %s", n, errText(err))
		t.add("a", "deadline %s", errText(a.SetReadDeadline(time.Time{})))
	},
	// A deadline that passed wins over a writer waiting: net/pipe.go checks
	// it before its select, and the model's one ordered select must too.
	"net/passed-deadline-first": func(w *world, t *transcript) {
		a, b := w.netPipe()
		t.add("a", "deadline %s", errText(a.SetReadDeadline(w.now().Add(-time.Second))))
		w.spawn(func() {
			n, err := b.Write([]byte("x"))
			t.add("b", "write %d %s", n, errText(err))
		})
		buf := make([]byte, 4)
		n, err := a.Read(buf)
		t.add("a", "read %d %s", n, errText(err))
		a.SetReadDeadline(time.Time{})
		n, err = a.Read(buf)
		t.add("a", "read %q %s", buf[:n], errText(err))
	},
	// Deadlines: a read nobody answers times out, a deadline in the past
	// fails at once, and clearing it makes the end usable again.
	"net/deadlines": func(w *world, t *transcript) {
		a, b := w.netPipe()
		t.add("a", "deadline %s", errText(a.SetReadDeadline(w.now().Add(30*time.Millisecond))))
		n, err := a.Read(make([]byte, 4))
		t.add("a", "read %d %s", n, errText(err))
		a.SetWriteDeadline(w.now().Add(-time.Second))
		n, err = a.Write([]byte("x"))
		t.add("a", "write %d %s", n, errText(err))
		a.SetDeadline(time.Time{})
		w.spawn(func() {
			n, err := b.Write([]byte("late"))
			t.add("b1", "write %d %s", n, errText(err))
		})
		buf := make([]byte, 8)
		n, err = a.Read(buf)
		t.add("a", "read %q %s", buf[:n], errText(err))
		a.SetWriteDeadline(w.now().Add(time.Hour))
		w.spawn(func() {
			buf := make([]byte, 8)
			n, err := b.Read(buf)
			t.add("b2", "read %q %s", buf[:n], errText(err))
		})
		n, err = a.Write([]byte("in time"))
		t.add("a", "write %d %s", n, errText(err))
	},
}

func TestPipesBehaveAsTheStandardLibrarys(t *testing.T) {
	for name, scenario := range pipeScenarios {
		t.Run(name, func(t *testing.T) {
			var want transcript
			w := native()
			scenario(w, &want)
			w.join()
			for _, strat := range []string{"random", "dfs"} {
				runs := 0
				rep, err := rt.Explore(name, rt.Options{Strategy: strat, Schedules: 200, ScheduleDir: "-"}, func() {
					runs++
					var got transcript
					w := modeled()
					scenario(w, &got)
					w.join()
					if got.String() != want.String() {
						panic(fmt.Sprintf("the runtime's pipe saw\n%s\nthe standard library's\n%s", &got, &want))
					}
				})
				if err != nil {
					t.Fatal(err)
				}
				if rep.Kind != "" {
					t.Fatalf("%s: %s:\n%s", strat, rep.Kind, rep.Text)
				}
				if runs < 2 {
					t.Errorf("%s: %d schedules", strat, runs)
				}
			}
		})
	}
}

func TestPipeMethodsAndValuesShareTheModel(t *testing.T) {
	// Direct calls (what the instrumenter makes of pr.Read(b)) and calls
	// through the value a conversion gives reach the same pipe; a pipe the
	// runtime did not make is the standard library's.
	rep, err := rt.Explore("Mixed", rt.Options{Schedules: 50, ScheduleDir: "-"}, func() {
		r, w := rt.IOPipe(0)
		rt.Go(func() {
			rt.PipeWriterWrite(w, []byte("abc"), 0)
			rt.PipeWriterValue(w).Write([]byte("def"))
			rt.PipeWriterCloseWithError(w, errWriter, 0)
		}, 0)
		buf := make([]byte, 8)
		n, _ := rt.PipeReaderRead(r, buf, 0)
		m, _ := rt.PipeReaderValue(r).Read(buf[n:])
		if _, err := io.ReadAll(rt.PipeReaderValue(r)); err != errWriter || string(buf[:n+m]) != "abcdef" {
			panic(fmt.Sprintf("read %q, then %v", buf[:n+m], err))
		}
		if rt.PipeReaderValue(r) != rt.PipeReaderValue(r) {
			panic("two conversions of one reader differ")
		}
	})
	if err != nil || rep.Kind != "" {
		t.Fatalf("%v %s:\n%s", err, rep.Kind, rep.Text)
	}
	r, w := io.Pipe()
	if rt.PipeReaderValue(r) != rt.PipeReaderIface(r) || rt.PipeWriterValue(w) != rt.PipeWriterIface(w) {
		t.Errorf("a pipe the runtime did not make is not left as it is")
	}
}

func TestPipeWriterThatNeverClosesIsADeadlock(t *testing.T) {
	rep, err := rt.Explore("NoClose", rt.Options{Schedules: 20, ScheduleDir: "-"}, func() {
		r, w := rt.IOPipe(0)
		rt.Go(func() { rt.PipeWriterWrite(w, []byte("data"), 0) }, 0)
		io.ReadAll(rt.PipeReaderValue(r))
	})
	if err != nil || rep.Kind != "deadlock" {
		t.Fatalf("%v: got %q, want a deadlock:\n%s", err, rep.Kind, rep.Text)
	}
}
