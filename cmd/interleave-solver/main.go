// Command interleave-solver is the solver process of strategies mcr and
// mpc: it reads one JSON query (package interleave.dev/rt/wire) per line
// on its standard input and writes one JSON answer per line on its
// standard output, in order, flushing after each, until its input ends;
// then it exits with status 0. A line whose object has "mpc": true is an
// MPCQuery, answered with an MPCAnswer; any other line is an MCRQuery,
// answered with an MCRAnswer. It links Z3 (through cgo), which is why it
// runs apart from the test binary.
//
// Every line gets exactly one answer: a line that is not a query (not
// JSON, or longer than 256 MiB) gets an answer with Error, and the
// command goes on with the next line. It exits with status 1, after a
// message on standard error, only when it cannot read its input or write
// its output.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"

	"interleave.dev/internal/mcr"
	"interleave.dev/rt/wire"
)

// maxLine bounds the length of a query line.
const maxLine = 256 << 20

func main() {
	// Z3 needs no particular thread, but calls that stay on one keep one
	// malloc arena, and the process a smaller resident set (package z3).
	runtime.LockOSThread()
	if err := serve(os.Stdin, os.Stdout, maxLine); err != nil {
		fmt.Fprintf(os.Stderr, "interleave-solver: %v\n", err)
		os.Exit(1)
	}
}

// serve answers each line of in, of at most max bytes, with a line on out
// until in ends.
func serve(in io.Reader, out io.Writer, max int) error {
	r := bufio.NewReaderSize(in, 1<<20)
	w := bufio.NewWriter(out)
	for {
		line, err := readLine(r, max)
		var a any
		switch {
		case errors.Is(err, io.EOF):
			return nil
		case errors.Is(err, errTooLong):
			a = &wire.MCRAnswer{Error: fmt.Sprintf("interleave-solver: %v", err)}
		case err != nil:
			return fmt.Errorf("reading a query: %w", err)
		default:
			a = answer(line)
		}
		if err := writeAnswer(w, a); err != nil {
			return fmt.Errorf("writing an answer: %w", err)
		}
	}
}

var errTooLong = errors.New("query line too long")

// readLine returns the next line of r without its newline; a last line
// with no newline counts. It returns io.EOF when r has no more bytes, and
// errTooLong, having skipped the line, when it is longer than max.
func readLine(r *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	tooLong := false
	for {
		chunk, err := r.ReadSlice('\n')
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) && !errors.Is(err, io.EOF) {
			return nil, err
		}
		if !tooLong {
			line = append(line, chunk...)
			n := len(line)
			if err == nil {
				n-- // the newline
			}
			if n > max {
				tooLong, line = true, nil
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		// The line ended with a newline (err == nil) or the input ended.
		switch {
		case tooLong:
			return nil, fmt.Errorf("%w: more than %d bytes", errTooLong, max)
		case err == nil:
			return line[:len(line)-1], nil
		case len(line) == 0:
			return nil, io.EOF
		}
		return line, nil
	}
}

// answer solves the query on line: an MPCQuery when it says "mpc": true,
// else an MCRQuery.
func answer(line []byte) any {
	if isMPC(line) {
		var q wire.MPCQuery
		if err := json.Unmarshal(line, &q); err != nil {
			return &wire.MPCAnswer{Error: fmt.Sprintf("interleave-solver: not a query: %v", err)}
		}
		return mcr.SolveMPC(&q)
	}
	var q wire.MCRQuery
	if err := json.Unmarshal(line, &q); err != nil {
		return &wire.MCRAnswer{Error: fmt.Sprintf("interleave-solver: not a query: %v", err)}
	}
	return mcr.Solve(&q)
}

// isMPC reports whether line is a JSON object whose field "mpc" is true.
// An MCRQuery holds no strings, so a line without the text "mpc" is one
// (or not JSON) and costs no second decoding.
func isMPC(line []byte) bool {
	if !bytes.Contains(line, []byte(`"mpc"`)) {
		return false
	}
	var probe struct {
		MPC bool `json:"mpc"`
	}
	return json.Unmarshal(line, &probe) == nil && probe.MPC
}

// writeAnswer writes a as one line of JSON and flushes it.
func writeAnswer(w *bufio.Writer, a any) error {
	b, err := json.Marshal(a)
	if err != nil {
		return err
	}
	w.Write(b)
	w.WriteByte('\n')
	return w.Flush()
}
