package explore

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"

	"interleave.dev/rt/internal/strategy/causal"
	"interleave.dev/rt/wire"
)

// solverProcess is the solver of strategy mcr: interleave-solver, which
// links Z3, running beside the test binary (the runtime stays free of
// cgo). Queries and answers are lines of JSON (wire.MCRQuery).
type solverProcess struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr boundedBuffer
}

// boundedBuffer keeps the first maxStderr bytes written to it.
type boundedBuffer struct{ b bytes.Buffer }

// maxStderr bounds what is kept of the solver's standard error.
const maxStderr = 64 << 10

func (w *boundedBuffer) Write(p []byte) (int, error) {
	if room := maxStderr - w.b.Len(); room > 0 {
		w.b.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// maxAnswer bounds an answer line of the solver.
const maxAnswer = 64 << 20

// startSolver starts the solver at path.
func startSolver(path string) (*solverProcess, error) {
	if path == "" {
		return nil, errors.New("interleave: strategy mcr needs its solver (interleave-solver), which the interleave command builds; run the tests with interleave test")
	}
	s := &solverProcess{cmd: exec.Command(path)}
	s.cmd.Stderr = &s.stderr
	dieWithParent(s.cmd)
	in, err := s.cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("interleave: starting the mcr solver: %w", err)
	}
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("interleave: starting the mcr solver: %w", err)
	}
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("interleave: starting the mcr solver %s: %w", path, err)
	}
	s.in, s.out = in, bufio.NewReaderSize(out, 1<<16)
	return s, nil
}

// Solve implements causal.MCRSolver.
func (s *solverProcess) Solve(q *wire.MCRQuery) (*wire.MCRAnswer, error) {
	var a wire.MCRAnswer
	if err := s.ask(q, &a); err != nil {
		return nil, err
	}
	return &a, nil
}

// SolveMPC implements causal.MPCSolver.
func (s *solverProcess) SolveMPC(q *wire.MPCQuery) (*wire.MPCAnswer, error) {
	var a wire.MPCAnswer
	if err := s.ask(q, &a); err != nil {
		return nil, err
	}
	return &a, nil
}

// ask writes q as a line and reads the answer line into a.
func (s *solverProcess) ask(q, a any) error {
	b, err := json.Marshal(q)
	if err != nil {
		return fmt.Errorf("encoding the query: %w", err)
	}
	if _, err := s.in.Write(append(b, '\n')); err != nil {
		return s.failure(err)
	}
	if err := readJSONLine(s.out, maxAnswer, a); err != nil {
		if errors.Is(err, errLongLine) {
			return fmt.Errorf("the solver's answer: %w", err)
		}
		return s.failure(err)
	}
	return nil
}

// errLongLine is the error of a line longer than its bound.
var errLongLine = errors.New("the line is longer than its bound")

// readJSONLine reads a line of at most max bytes from r and decodes it,
// JSON, into v.
func readJSONLine(r *bufio.Reader, max int, v any) error {
	var line []byte
	for {
		part, err := r.ReadSlice('\n')
		line = append(line, part...)
		if err == nil {
			break
		}
		if err != bufio.ErrBufferFull {
			return err
		}
		if len(line) > max {
			return fmt.Errorf("%w (%d bytes)", errLongLine, max)
		}
	}
	if err := json.Unmarshal(line, v); err != nil {
		return fmt.Errorf("decoding a line: %w", err)
	}
	return nil
}

// failure wraps an error talking to the solver with what it printed.
func (s *solverProcess) failure(err error) error {
	if msg := strings.TrimSpace(s.stderr.b.String()); msg != "" {
		return fmt.Errorf("%w: %s", err, msg)
	}
	return err
}

// Close ends the solver.
func (s *solverProcess) Close() {
	s.in.Close()
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		s.cmd.Process.Kill()
		<-done
	}
}

// SolverPool is the solver of strategy mpc over several solver
// processes: the prefixes of one query are split between them in
// consecutive runs, solved at once, and the answers put back in order;
// the solver checks each prefix in a Z3 context of its own, so that the
// answer, and the search, do not depend on the number of processes.
// The first process starts with the pool, the others when a query has work for them.
type SolverPool struct {
	start func() (SolverConn, error)
	procs []SolverConn
	size  int
	// MinShare is the fewest prefixes a solver is given (default
	// defaultMinShare).
	MinShare int
}

// Solvers returns the number of solvers the pool has started.
func (p *SolverPool) Solvers() int { return len(p.procs) }

// SolverConn is one solver of a pool.
type SolverConn interface {
	causal.MPCSolver
	Close()
}

// newSolverPool starts the first of size solver processes at path.
func newSolverPool(path string, size int) (*SolverPool, error) {
	return NewSolverPool(func() (SolverConn, error) { return startSolver(path) }, size)
}

// NewSolverPool makes a pool of size solvers that start makes, and makes
// the first.
func NewSolverPool(start func() (SolverConn, error), size int) (*SolverPool, error) {
	s, err := start()
	if err != nil {
		return nil, err
	}
	return &SolverPool{start: start, procs: []SolverConn{s}, size: max(1, size), MinShare: defaultMinShare}, nil
}

// defaultMinShare is the fewest prefixes a solver process is given: a check takes about a millisecond, and a process costs a copy
// of the query.
const defaultMinShare = 4

// split divides n prefixes into at most p.size consecutive runs of about
// p.MinShare or more, starting processes as needed; it
// returns the ends of the runs.
func (p *SolverPool) split(n int) ([]int, error) {
	k := min(p.size, max(1, n/p.MinShare))
	for len(p.procs) < k {
		s, err := p.start()
		if err != nil {
			return nil, err
		}
		p.procs = append(p.procs, s)
	}
	ends := make([]int, k)
	for i := range ends {
		ends[i] = n * (i + 1) / k
	}
	return ends, nil
}

// each calls f(i, lo, hi) for the runs of n items on their processes at
// once, and returns the first error.
func (p *SolverPool) each(n int, f func(i, lo, hi int) error) error {
	ends, err := p.split(n)
	if err != nil {
		return err
	}
	errs := make([]error, len(ends))
	var wg sync.WaitGroup
	lo := 0
	for i, hi := range ends {
		wg.Add(1)
		go func(i, lo, hi int) {
			defer wg.Done()
			errs[i] = f(i, lo, hi)
		}(i, lo, hi)
		lo = hi
	}
	wg.Wait()
	return errors.Join(errs...)
}

// SolveMPC implements causal.MPCSolver.
func (p *SolverPool) SolveMPC(q *wire.MPCQuery) (*wire.MPCAnswer, error) {
	var out wire.MPCAnswer
	answers := make([]*wire.MPCAnswer, p.size)
	err := p.each(len(q.Prefixes), func(i, lo, hi int) error {
		sub := *q
		sub.Prefixes = q.Prefixes[lo:hi]
		a, err := p.procs[i].SolveMPC(&sub)
		answers[i] = a
		return err
	})
	if err != nil {
		return nil, err
	}
	for _, a := range answers {
		if a == nil {
			continue
		}
		if a.Error != "" {
			return a, nil
		}
		out.Results = append(out.Results, a.Results...)
	}
	return &out, nil
}

// Close ends the solver processes.
func (p *SolverPool) Close() {
	for _, s := range p.procs {
		s.Close()
	}
}
