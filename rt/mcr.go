package rt

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"interleave.dev/rt/internal/strategy"
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

// Solve implements strategy.MCRSolver.
func (s *solverProcess) Solve(q *wire.MCRQuery) (*wire.MCRAnswer, error) {
	var a wire.MCRAnswer
	if err := s.ask(q, &a); err != nil {
		return nil, err
	}
	return &a, nil
}

// SolveMPC implements strategy.MPCSolver.
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
	var line []byte
	for {
		part, err := s.out.ReadSlice('\n')
		line = append(line, part...)
		if err == nil {
			break
		}
		if err != bufio.ErrBufferFull {
			return s.failure(err)
		}
		if len(line) > maxAnswer {
			return fmt.Errorf("the solver's answer is longer than %d bytes", maxAnswer)
		}
	}
	if err := json.Unmarshal(line, a); err != nil {
		return fmt.Errorf("reading the solver's answer: %w", err)
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

// mcrStrategy makes strategy mcr for opts: over opts.mcrSolver when a test
// set one, else over a solver process; stop ends the solver.
func mcrStrategy(opts Options) (m *strategy.MCR, stop func(), err error) {
	if opts.mcrSolver != nil {
		return strategy.NewMCR(opts.mcrSolver, opts.SolverTimeout), func() {}, nil
	}
	p, err := startSolver(opts.Solver)
	if err != nil {
		return nil, nil, err
	}
	return strategy.NewMCR(p, opts.SolverTimeout), p.Close, nil
}

// mpcStrategy makes strategy mpc for opts, whose fuzz body takes fz: over
// opts.mpcSolver when a test set one, else over a solver process; stop
// ends the solver.
func mpcStrategy(opts Options, fz *fuzzArgs) (m *strategy.MPC, stop func(), err error) {
	var solver strategy.MPCSolver = opts.mpcSolver
	stop = func() {}
	if solver == nil {
		p, err := startSolver(opts.Solver)
		if err != nil {
			return nil, nil, err
		}
		solver, stop = p, p.Close
	}
	m = strategy.NewMPC(solver, fz.inputs(), opts.SolverTimeout)
	m.Sound = opts.MPC != "simple"
	return m, stop, nil
}

// mpcCoverage says what strategy mpc did, for go test -v.
func mpcCoverage(m *strategy.MPC) string {
	var b strings.Builder
	fmt.Fprintf(&b, "MPC: %d runs, %d paths, %d solver queries for %d path prefixes (%d feasible, %d infeasible, %d unknown; %d runs extend an unsat core's threads) in %v",
		m.Executions, m.Paths, m.Queries, m.Prefixes, m.Sat, m.Unsat, m.Unknown, m.Extended, m.SolverTime.Round(time.Millisecond))
	if m.Diverged > 0 {
		fmt.Fprintf(&b, "; %d runs departed from their prefix", m.Diverged)
	}
	if why := m.Incomplete(); len(why) > 0 {
		fmt.Fprintf(&b, "; not complete: %s", strings.Join(why, "; "))
	}
	return b.String()
}

// mcrCoverage says what strategy mcr did, for go test -v.
func mcrCoverage(m *strategy.MCR) string {
	var b strings.Builder
	fmt.Fprintf(&b, "MCR: %d runs, %d solver queries for %d reads' new values (%d found, %d infeasible, %d unknown) in %v",
		m.Executions, m.Queries, m.Targets, m.Sat, m.Unsat, m.Unknown, m.SolverTime.Round(time.Millisecond))
	if m.Diverged > 0 {
		fmt.Fprintf(&b, "; %d runs departed from their prefix", m.Diverged)
	}
	if why := m.Incomplete(); len(why) > 0 {
		fmt.Fprintf(&b, "; not complete: %s", strings.Join(why, "; "))
	}
	return b.String()
}
