package explore

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// splitLog is a file through which the processes exploring a split test
// tell each other what they do (split.go, rounds.go): each appends
// records with O_APPEND, one write each, and reads what was added since
// its last read. A record still being written when it is read is left
// for the next read.
type splitLog struct {
	f    *os.File
	off  int64  // how far it was read
	part []byte // read, not yet taken as records
	buf  []byte // for reading
}

// openLog opens (creating) the log at path.
func openLog(path string) (*splitLog, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("interleave: splitting the test: %w", err)
	}
	return &splitLog{f: f}, nil
}

func (l *splitLog) close() { l.f.Close() }

// appendLine appends a record of words.
func (l *splitLog) appendLine(fields ...string) error {
	return l.write([]byte(strings.Join(fields, " ") + "\n"))
}

// appendLines appends records of words, in one write.
func (l *splitLog) appendLines(lines [][]string) error {
	var b []byte
	for _, f := range lines {
		b = append(append(b, strings.Join(f, " ")...), '\n')
	}
	if len(b) == 0 {
		return nil
	}
	return l.write(b)
}

// appendBlob appends a record of bytes, its length first.
func (l *splitLog) appendBlob(b []byte) error {
	return l.write(append(binary.AppendUvarint(nil, uint64(len(b))), b...))
}

func (l *splitLog) write(b []byte) error {
	if _, err := l.f.Write(b); err != nil {
		return fmt.Errorf("interleave: splitting the test: %w", err)
	}
	return nil
}

// read reads what was added since the last read.
func (l *splitLog) read() error {
	if l.buf == nil {
		l.buf = make([]byte, 64<<10)
	}
	// What the last read left (a record being written) goes first.
	l.part = append(l.buf[len(l.buf):len(l.buf)][:0:0], l.part...)
	for {
		n, err := l.f.ReadAt(l.buf, l.off)
		l.off += int64(n)
		l.part = append(l.part, l.buf[:n]...)
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("interleave: splitting the test: reading %s: %w", l.f.Name(), err)
		}
		if err != nil || n < len(l.buf) {
			return nil
		}
	}
}

// lines reads the log and calls f with the words of each new record of
// words.
func (l *splitLog) lines(f func(fields []string) error) error {
	if err := l.read(); err != nil {
		return err
	}
	for {
		i := bytes.IndexByte(l.part, '\n')
		if i < 0 {
			return nil
		}
		line := string(l.part[:i])
		l.part = l.part[i+1:]
		if err := f(strings.Fields(line)); err != nil {
			return fmt.Errorf("interleave: splitting the test: %q: %w", line, err)
		}
	}
}

// blobs reads the log and calls f with each new record of bytes.
func (l *splitLog) blobs(f func(b []byte) error) error {
	if err := l.read(); err != nil {
		return err
	}
	for {
		n, k := binary.Uvarint(l.part)
		if k <= 0 || uint64(len(l.part)-k) < n {
			return nil
		}
		b := l.part[k : k+int(n)]
		l.part = l.part[k+int(n):]
		if err := f(b); err != nil {
			return fmt.Errorf("interleave: splitting the test: %s: %w", l.f.Name(), err)
		}
	}
}

// splitWait bounds how long a process of a split test waits for the
// others: until deadline (zero: none), until the end of -budget
// (budget, zero: none), and while alive says nothing.
type splitWait struct {
	deadline time.Time
	budget   time.Time
	alive    func() error
}

// errBudget says that -budget ran out while a process waited: it stops,
// as it stops exploring, without an error.
var errBudget = errors.New("the budget ran out")

// splitWaitMax bounds the pause between two reads of a process that
// waits.
const splitWaitMax = 20 * time.Millisecond

// wait pauses for *d (and doubles it, up to splitWaitMax) before the
// next look; it returns why waiting is over, for waiting what.
func (w *splitWait) wait(d *time.Duration, what string) error {
	if !w.budget.IsZero() && time.Now().After(w.budget) {
		return errBudget
	}
	if !w.deadline.IsZero() && time.Now().After(w.deadline) {
		return fmt.Errorf("interleave: gave up waiting %s at the test's deadline (go test -timeout)", what)
	}
	if w.alive != nil {
		if err := w.alive(); err != nil {
			return fmt.Errorf("interleave: stopped waiting %s: %w", what, err)
		}
	}
	time.Sleep(*d)
	*d = min(2**d, splitWaitMax)
	return nil
}

// parentAlive returns a splitWait.alive for a worker: the process that
// started it exited.
func parentAlive() func() error {
	ppid := os.Getppid()
	return func() error {
		if os.Getppid() != ppid {
			return errors.New("the process that started this one exited")
		}
		return nil
	}
}
